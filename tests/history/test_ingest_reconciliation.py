"""Reconciliation: entries new, modified, removed and reappeared; typed value changes."""

from __future__ import annotations

import time
from typing import Any

import pytest

from history.ingest import ingest
from history.models import Change, Entry, Update
from history.signals import updates_recorded
from tests.history.conftest import fetch_doc

pytestmark = pytest.mark.django_db


def item(key: str, title: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"identityKey": key, "title": title or key.title(), **fields}


def updates_of(result: Any) -> list[Update]:
    return list(Update.objects.filter(id__in=result.update_ids).order_by("id"))


def test_first_fetch_records_every_entry_as_new(account):
    result = ingest(fetch_doc("acme", [item("a"), item("b")]))

    rows = updates_of(result)
    assert [(u.update_type, u.field, u.value_change) for u in rows] == [
        ("new", None, None),
        ("new", None, None),
    ]
    assert {e.identity_key: e.update_type for e in Entry.objects.all()} == {"a": "new", "b": "new"}
    assert all(u.at == result.at and u.change_id == result.change_id for u in rows)
    assert all(u.account_id == account.pk and u.source_id == result.source_id for u in rows)
    assert (result.entries_new, result.entries_modified, result.entries_removed) == (2, 0, 0)


def test_unchanged_entries_record_nothing_and_keep_their_state(account):
    first = ingest(fetch_doc("acme", [item("a", price=5, currency="EUR")]))
    Entry.objects.update(read=True)

    second = ingest(fetch_doc("acme", [item("a", price=5, currency="EUR")]))

    assert second.update_ids == []
    entry = Entry.objects.get()
    assert (entry.update_type, entry.update_time, entry.read) == ("new", first.at, True)
    assert Change.objects.count() == 2


def test_moved_fields_are_modified_updates_and_reset_read(account):
    ingest(fetch_doc("acme", [item("a", "Old title", price=10, currency="EUR")]))
    Entry.objects.update(read=True)

    result = ingest(fetch_doc("acme", [item("a", "New title", price=12.5, currency="EUR")]))

    rows = updates_of(result)
    assert [(u.update_type, u.field, u.value_change) for u in rows] == [
        ("modified", "title", {"type": "string", "previous": "Old title", "current": "New title"}),
        ("modified", "price", {"type": "number", "previous": 10, "current": 12.5, "unit": "EUR"}),
    ]
    entry = Entry.objects.get()
    assert (entry.update_type, entry.update_time, entry.read) == ("modified", result.at, False)
    assert (entry.title, entry.price) == ("New title", 12.5)
    assert result.entries_modified == 1


def test_entries_gone_from_an_ok_fetch_are_removed_once(account):
    ingest(fetch_doc("acme", [item("a"), item("b")]))

    removed = ingest(fetch_doc("acme", [item("a")]))
    again = ingest(fetch_doc("acme", [item("a")]))

    assert [(u.update_type, u.entry.identity_key) for u in updates_of(removed)] == [
        ("removed", "b")
    ]
    assert again.update_ids == []
    assert Entry.objects.get(identity_key="b").update_type == "removed"


def test_an_entry_reappearing_after_removal_is_new_again_on_the_same_row(account):
    ingest(fetch_doc("acme", [item("a"), item("b", price=3)]))
    ingest(fetch_doc("acme", [item("a")]))
    entry_id = Entry.objects.get(identity_key="b").pk

    back = ingest(fetch_doc("acme", [item("a"), item("b", price=4)]))

    rows = updates_of(back)
    assert [(u.update_type, u.field, u.entry_id) for u in rows] == [("new", None, entry_id)]
    entry = Entry.objects.get(pk=entry_id)
    assert (entry.update_type, entry.price, entry.update_time) == ("new", 4, back.at)


def test_identity_falls_back_to_url_then_title(account):
    docs = [{"title": "By url", "url": "https://shop.example.com/p/1"}, {"title": "By title"}]
    ingest(fetch_doc("acme", docs))
    renamed = [{"title": "Renamed", "url": "https://shop.example.com/p/1"}, {"title": "By title"}]

    result = ingest(fetch_doc("acme", renamed))

    assert set(Entry.objects.values_list("identity_key", flat=True)) == {
        "https://shop.example.com/p/1",
        "By title",
    }
    assert [(u.field, (u.value_change or {})["current"]) for u in updates_of(result)] == [
        ("title", "Renamed")
    ]


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (
            {"n": 4},
            {"n": 6, "unit": "GB"},
            {"type": "number", "previous": 4, "current": 6, "unit": "GB"},
        ),
        ({"s": "red"}, {"s": "blue"}, {"type": "string", "previous": "red", "current": "blue"}),
        ({"b": True}, {"b": False}, {"type": "boolean", "previous": True, "current": False}),
        # A value changing type is recorded in its new type, without `previous`.
        ({"s": "12"}, {"n": 12}, {"type": "number", "current": 12}),
        ({"n": 1}, {"b": True}, {"type": "boolean", "current": True}),
        # A string attribute's unit is kept on the entry but not on the value change.
        (
            {"s": "a", "unit": "x"},
            {"s": "b", "unit": "x"},
            {"type": "string", "previous": "a", "current": "b"},
        ),
    ],
)
def test_attribute_changes_are_typed(account, before, after, expected):
    ingest(fetch_doc("acme", [item("a", attributes={"size": before})]))

    result = ingest(fetch_doc("acme", [item("a", attributes={"size": after})]))

    (row,) = updates_of(result)
    assert (row.update_type, row.field, row.value_change) == ("modified", "size", expected)
    assert Entry.objects.get().attributes == {"size": after}


def test_an_attribute_appearing_has_no_previous_and_disappearing_records_nothing(account):
    ingest(fetch_doc("acme", [item("a", attributes={"color": {"s": "red"}})]))

    appeared = ingest(
        fetch_doc("acme", [item("a", attributes={"color": {"s": "red"}, "stock": {"n": 3}})])
    )
    gone = ingest(fetch_doc("acme", [item("a", attributes={"color": {"s": "red"}})]))

    assert [(u.field, u.value_change) for u in updates_of(appeared)] == [
        ("stock", {"type": "number", "current": 3})
    ]
    assert gone.update_ids == []
    assert Entry.objects.get().attributes == {"color": {"s": "red"}}


def test_a_unit_change_alone_is_a_number_change(account):
    ingest(fetch_doc("acme", [item("a", attributes={"size": {"n": 1, "unit": "GB"}})]))

    result = ingest(fetch_doc("acme", [item("a", attributes={"size": {"n": 1, "unit": "TB"}})]))

    assert [u.value_change for u in updates_of(result)] == [
        {"type": "number", "previous": 1, "current": 1, "unit": "TB"}
    ]


def test_price_appearing_then_disappearing_then_appearing(account):
    ingest(fetch_doc("acme", [item("a")]))

    appeared = ingest(fetch_doc("acme", [item("a", price=20, currency="USD")]))
    disappeared = ingest(fetch_doc("acme", [item("a")]))
    entry_after_gone = Entry.objects.get()
    back = ingest(fetch_doc("acme", [item("a", price=18)]))

    assert [(u.field, u.value_change) for u in updates_of(appeared)] == [
        ("price", {"type": "number", "current": 20, "unit": "USD"})
    ]
    # The wire format needs a `current`, so a vanishing price records no update (documented).
    assert disappeared.update_ids == []
    assert (entry_after_gone.price, entry_after_gone.currency) == (None, None)
    assert [(u.field, u.value_change) for u in updates_of(back)] == [
        ("price", {"type": "number", "current": 18})
    ]


def test_a_currency_change_at_the_same_price_is_a_price_change(account):
    ingest(fetch_doc("acme", [item("a", price=10, currency="EUR")]))

    result = ingest(fetch_doc("acme", [item("a", price=10, currency="CHF")]))

    assert [u.value_change for u in updates_of(result)] == [
        {"type": "number", "previous": 10, "current": 10, "unit": "CHF"}
    ]


def test_url_kind_and_image_changes_are_stored_without_an_update(account):
    ingest(fetch_doc("acme", [item("a", url="https://s.example.com/1", kind="shoe")]))

    result = ingest(
        fetch_doc(
            "acme",
            [
                item(
                    "a",
                    url="https://s.example.com/2",
                    kind="boot",
                    imageUrl="https://i.example.com/x.png",
                )
            ],
        )
    )

    entry = Entry.objects.get()
    assert result.update_ids == []
    assert (entry.url, entry.kind, entry.image_url, entry.update_type) == (
        "https://s.example.com/2",
        "boot",
        "https://i.example.com/x.png",
        "new",
    )


def test_unicode_titles_keys_and_values_round_trip(account):
    ingest(
        fetch_doc("acme", [item("café-☕", "Crème brûlée 🍮", attributes={"größe": {"s": "groß"}})])
    )

    result = ingest(
        fetch_doc(
            "acme", [item("café-☕", "Crème brûlée 🍮🔥", attributes={"größe": {"s": "klein"}})]
        )
    )

    entry = Entry.objects.get()
    assert entry.identity_key == "café-☕"
    assert [(u.field, u.value_change) for u in updates_of(result)] == [
        (
            "title",
            {"type": "string", "previous": "Crème brûlée 🍮", "current": "Crème brûlée 🍮🔥"},
        ),
        ("größe", {"type": "string", "previous": "groß", "current": "klein"}),
    ]


def test_stub_entries_are_stored_hidden_and_become_new_when_public(account):
    first = ingest(fetch_doc("acme", [item("a"), item("s", stub=True)]))
    still = ingest(fetch_doc("acme", [item("a"), item("s", "Renamed stub", stub=True)]))
    public = ingest(fetch_doc("acme", [item("a"), item("s", "Renamed stub")]))

    assert [u.entry.identity_key for u in updates_of(first)] == ["a"]
    assert still.update_ids == []
    assert [(u.update_type, u.entry.identity_key) for u in updates_of(public)] == [("new", "s")]
    stub = Entry.objects.get(identity_key="s")
    assert (stub.is_stub, stub.title, stub.update_time) == (False, "Renamed stub", public.at)


def test_entry_kinds_are_stored_on_the_source(account):
    kinds = [{"name": "plan", "hasPrice": True}, {"name": "addon", "hasPrice": False}]

    result = ingest(fetch_doc("acme", [item("a", kind="plan")], entryKinds=kinds))
    ingest(fetch_doc("acme", [item("a", kind="plan")]))  # absent: kept

    from history.models import Source

    assert Source.objects.get(pk=result.source_id).entry_kinds == kinds


def test_narrations_are_updates_without_a_field_and_blocks_are_kept(account):
    ingest(fetch_doc("acme", [item("pro", price=29)]))
    blocks = {"blocks": [{"id": "b1", "text": "Pro: $35"}]}
    narrations = [
        {
            "identityKey": "pro",
            "headline": "Pro now costs $35",
            "description": "Billed monthly.",
            "importance": "critical",
            "startBlockId": "b1",
            "endBlockId": "b2",
            "blockId": "b1",
        },
        {"identityKey": "pro", "headline": "Legacy note"},
    ]

    result = ingest(
        fetch_doc("acme", [item("pro", price=35)], narrations=narrations, blocks=blocks)
    )

    price, told, legacy = updates_of(result)
    assert price.field == "price"
    assert (told.field, told.value_change, told.update_type) == (None, None, "modified")
    assert (told.headline, told.description, told.importance, told.importance_level) == (
        "Pro now costs $35",
        "Billed monthly.",
        "critical",
        "critical",
    )
    assert (told.start_block_id, told.end_block_id, told.block_id) == ("b1", "b2", "b1")
    # Absent importance is stored as none, and counts as material for filtering.
    assert (legacy.importance, legacy.importance_level) == (None, "material")
    assert Change.objects.get(pk=result.change_id).blocks == blocks
    assert result.entries_modified == 1


def test_a_narration_alone_marks_its_entry_modified(account):
    ingest(fetch_doc("acme", [item("a")]))
    Entry.objects.update(read=True)

    result = ingest(
        fetch_doc("acme", [item("a")], narrations=[{"identityKey": "a", "headline": "Badge added"}])
    )

    entry = Entry.objects.get()
    assert (entry.update_type, entry.update_time, entry.read) == ("modified", result.at, False)
    assert result.entries_modified == 1


def test_the_signal_carries_the_fetch_update_ids_inside_the_transaction(account):
    seen: list[dict[str, Any]] = []

    def receiver(sender: Any, account_id: int, update_ids: list[int], **kwargs: Any) -> None:
        from django.db import connection

        seen.append(
            {"account_id": account_id, "ids": update_ids, "in_atomic": connection.in_atomic_block}
        )

    updates_recorded.connect(receiver)
    try:
        result = ingest(fetch_doc("acme", [item("a"), item("b")]))
        ingest(fetch_doc("acme", [item("a"), item("b")]))  # nothing recorded: no signal
    finally:
        updates_recorded.disconnect(receiver)

    assert seen == [{"account_id": account.pk, "ids": result.update_ids, "in_atomic": True}]


def test_a_failing_receiver_rolls_the_whole_fetch_back(account):
    def receiver(**kwargs: Any) -> None:
        raise RuntimeError("outbox down")

    updates_recorded.connect(receiver)
    try:
        with pytest.raises(RuntimeError):
            ingest(fetch_doc("acme", [item("a")]))
    finally:
        updates_recorded.disconnect(receiver)

    assert (Change.objects.count(), Entry.objects.count(), Update.objects.count()) == (0, 0, 0)


def test_ten_thousand_entries_in_one_fetch_ingest_in_seconds(account):
    entries = [
        item(
            f"sku-{i}",
            f"Product {i}",
            price=100 + i,
            currency="EUR",
            attributes={"stock": {"n": i % 7}, "color": {"s": "red"}},
        )
        for i in range(10_000)
    ]
    started = time.perf_counter()
    first = ingest(fetch_doc("acme", entries))
    first_seconds = time.perf_counter() - started

    for i in range(0, 10_000, 2):  # half of them move their price
        entries[i]["price"] += 1
    started = time.perf_counter()
    second = ingest(fetch_doc("acme", entries))
    second_seconds = time.perf_counter() - started

    assert first.updates == 10_000
    assert second.updates == 5_000
    assert Entry.objects.filter(update_type="modified").count() == 5_000
    assert first_seconds < 10, first_seconds
    assert second_seconds < 10, second_seconds


def test_integer_and_decimal_prices_are_rewritten_together(account):
    ingest(fetch_doc("acme", [item("a", price=10), item("b", price=9.5), item("c")]))

    result = ingest(fetch_doc("acme", [item("a", price=11), item("b", price=9.75), item("c")]))

    assert result.updates == 2
    assert dict(Entry.objects.values_list("identity_key", "price")) == {
        "a": 11.0,
        "b": 9.75,
        "c": None,
    }


def test_whole_numbers_are_recorded_alike_whatever_their_json_spelling(account):
    ingest(fetch_doc("acme", [item("a", price=29.0, attributes={"gb": {"n": 10.0}})]))

    result = ingest(fetch_doc("acme", [item("a", price=35, attributes={"gb": {"n": 12.5}})]))

    changes = [u.value_change for u in updates_of(result)]
    assert changes == [
        {"type": "number", "previous": 29, "current": 35},
        {"type": "number", "previous": 10, "current": 12.5},
    ]
    assert all(type((c or {})["previous"]) is int for c in changes)
