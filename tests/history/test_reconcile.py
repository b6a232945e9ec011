"""history.ingest.reconcile: pure logic, tested without a database.

Stored rows go in as `store.stored_rows` reads them (raw tuples, JSON as text); the plan's
writes and updates come out.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from history import importance
from history.ingest.document import EntryDoc, NarrationDoc
from history.ingest.reconcile import STORED_FIELDS, Plan, reconcile

AT = 1_700_000_000_000
RULES = importance.build_rules()


def stored(key: str, title: str, *, id: int, **fields: Any) -> tuple[Any, ...]:
    row = {
        "id": id,
        "identity_key": key,
        "title": title,
        "url": None,
        "kind": None,
        "price": None,
        "currency": None,
        "image_url": None,
        "attributes": "{}",
        "is_stub": False,
        "read": True,
        "update_type": "new",
        "update_time": AT - 1,
        **fields,
    }
    if not isinstance(row["attributes"], str):
        row["attributes"] = json.dumps(row["attributes"])
    return tuple(row[name] for name in STORED_FIELDS)


def entry(**fields: Any) -> EntryDoc:
    return msgspec.convert(fields, EntryDoc)


def plan_of(rows: list[tuple[Any, ...]], entries: list[EntryDoc], **kwargs: Any) -> Plan:
    return reconcile(
        {row[1]: row for row in rows}, entries, kwargs.get("narrations", []), AT, RULES
    )


def summary(plan: Plan) -> list[tuple[str, str | None, Any]]:
    return [(u.update_type, u.field, u.value_change) for u in plan.updates]


def test_an_unseen_key_is_new_and_created():
    plan = plan_of([], [entry(identityKey="a", title="A", price=3)])

    assert [(e.id, e.identity_key, e.price, e.update_type) for e in plan.create] == [
        (None, "a", 3, "new")
    ]
    assert summary(plan) == [("new", None, None)]
    assert (plan.entries_new, plan.rewrite) == (1, {})


def test_an_entry_seen_as_stored_writes_nothing():
    rows = [stored("a", "A", id=1, price=3.0, currency="EUR", attributes={"n": {"n": 1}})]

    plan = plan_of(rows, [entry(identityKey="a", title="A", price=3, currency="EUR",
                                attributes={"n": {"n": 1}})])  # fmt: skip

    assert (plan.create, plan.rewrite, plan.updates) == ([], {}, [])


def test_a_moved_price_is_a_typed_number_change_with_the_currency_as_unit():
    rows = [stored("a", "A", id=1, price=39.9, currency="EUR")]

    plan = plan_of(rows, [entry(identityKey="a", title="A", price=29.9, currency="EUR")])

    assert summary(plan) == [
        ("modified", "price", {"type": "number", "previous": 39.9, "current": 29.9, "unit": "EUR"})
    ]
    assert plan.updates[0].importance == "critical"  # -25 %
    (rewritten,) = plan.rewrite.values()
    assert (rewritten.id, rewritten.price, rewritten.update_type, rewritten.read) == (
        1,
        29.9,
        "modified",
        False,
    )


def test_a_key_missing_from_the_fetch_is_removed_and_a_removed_one_stays_quiet():
    rows = [stored("a", "A", id=1), stored("b", "B", id=2, update_type="removed")]

    plan = plan_of(rows, [])

    assert summary(plan) == [("removed", None, None)]
    assert list(plan.rewrite) == ["a"]
    assert plan.entries_removed == 1


def test_a_removed_entry_that_reappears_is_new_again_on_its_own_row():
    rows = [stored("a", "A", id=7, update_type="removed")]

    plan = plan_of(rows, [entry(identityKey="a", title="A")])

    assert summary(plan) == [("new", None, None)]
    assert plan.rewrite["a"].id == 7
    assert plan.create == []


def test_stored_attributes_are_compared_as_values_whatever_their_text():
    """PostgreSQL gives jsonb back with its own spacing and key order; an integer and the
    same number with a fraction of zero are one value, as everywhere else."""
    rows = [
        stored("a", "A", id=1, attributes='{"w": {"n": 2, "unit": "kg"}, "in": {"b": true}}'),
        stored("b", "B", id=2, attributes='{"n": {"n": 1}}'),
        stored("c", "C", id=3, attributes="{}"),
        stored("d", "D", id=4, attributes=None),
    ]
    docs = [
        entry(identityKey="a", title="A",
              attributes={"in": {"b": True}, "w": {"unit": "kg", "n": 2.0}}),
        entry(identityKey="b", title="B", attributes={"n": {"n": 1.0}}),
        entry(identityKey="c", title="C"),
        entry(identityKey="d", title="D", attributes={}),
    ]  # fmt: skip

    assert (plan_of(rows, docs).rewrite, plan_of(rows, docs).updates) == ({}, [])


def test_a_moved_unit_or_a_new_attribute_is_a_change_of_the_stored_attributes():
    rows = [stored("a", "A", id=1, attributes='{"w": {"n": 2, "unit": "kg"}}')]

    moved = plan_of(
        rows, [entry(identityKey="a", title="A", attributes={"w": {"n": 2, "unit": "lb"}})]
    )
    added = plan_of(rows, [entry(identityKey="a", title="A", attributes={
        "w": {"n": 2, "unit": "kg"}, "in": {"b": True}})])  # fmt: skip

    assert summary(moved) == [
        ("modified", "w", {"type": "number", "previous": 2, "current": 2, "unit": "lb"})
    ]
    assert summary(added) == [("modified", "in", {"type": "boolean", "current": True})]


def test_stored_attributes_in_another_shape_are_compared_in_full():
    """Stored text that does not read as the document's attributes (a JSON null or an
    empty list, written by hand) is left to the full comparison, which reads both as none."""
    rows = [
        stored("a", "A", id=1, attributes="null"),
        stored("b", "B", id=2, attributes="[]"),
        stored("c", "C", id=3, attributes=f'{{"big": {{"n": {2**70}}}}}'),
    ]
    docs = [
        entry(identityKey="a", title="A"),
        entry(identityKey="b", title="B", attributes={}),
        entry(identityKey="c", title="C", attributes={"big": {"n": 2**70}}),
    ]

    plan = plan_of(rows, docs)

    assert (plan.rewrite, plan.updates) == ({}, [])


def test_reordering_the_fetch_changes_nothing():
    rows = [stored(k, k.upper(), id=i) for i, k in enumerate("abc", start=1)]

    plan = plan_of(rows, [entry(identityKey=k, title=k.upper()) for k in "cab"])

    assert (plan.create, plan.rewrite, plan.updates) == ([], {}, [])


def test_an_attribute_that_changes_type_is_recorded_in_its_new_type_without_previous():
    rows = [stored("a", "A", id=1, attributes={"size": {"s": "12"}})]

    plan = plan_of(rows, [entry(identityKey="a", title="A", attributes={"size": {"n": 12}})])

    assert summary(plan) == [("modified", "size", {"type": "number", "current": 12})]


def test_a_narration_on_an_unchanged_entry_modifies_it():
    rows = [stored("a", "A", id=1)]
    told = msgspec.convert({"identityKey": "a", "headline": "H", "importance": "minor"},
                           NarrationDoc)  # fmt: skip

    plan = plan_of(rows, [entry(identityKey="a", title="A")], narrations=[told])

    assert [(u.update_type, u.importance, u.narration) for u in plan.updates] == [
        ("modified", "minor", told)
    ]
    assert plan.rewrite["a"].update_type == "modified"
    assert plan.entries_modified == 1


def test_stubs_are_created_and_changed_silently():
    rows = [stored("s", "S", id=1, is_stub=True)]

    plan = plan_of(rows, [entry(identityKey="s", title="S2", stub=True),
                          entry(identityKey="t", title="T", stub=True)])  # fmt: skip

    assert plan.updates == []
    assert plan.rewrite["s"].title == "S2"
    assert [e.identity_key for e in plan.create] == ["t"]
