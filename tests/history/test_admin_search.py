"""History's admin: entries and updates are found by words or by API id, and updates show
their field and old → new values, at a constant number of queries and without a COUNT(*)."""

from __future__ import annotations

from typing import cast

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Account
from history.admin import EntryAdmin, UpdateAdmin
from history.models import Entry, Source, Update
from tests.factories import EntryFactory, SourceFactory, UpdateFactory

pytestmark = pytest.mark.django_db

ENTRIES = "/admin/history/entry/"
UPDATES = "/admin/history/update/"


@pytest.fixture
def staff(admin_client: Client) -> Client:
    return admin_client


def _shop(account: Account, n: int, *, url: str = "https://shop.example.com/list") -> Source:
    """A source with `n` espresso machines, each with one price update, and a jug."""
    source = cast(Source, SourceFactory(account=account, url=url))
    for i in range(n):
        entry = EntryFactory(
            source=source, title=f"Espresso machine {i}", url=f"https://shop.example.com/e{i}"
        )
        UpdateFactory(entry=entry)
    jug = EntryFactory(source=source, title="Milk jug", url="https://shop.example.com/jug")
    UpdateFactory(
        entry=jug,
        field="inStock",
        value_change={"type": "boolean", "previous": True, "current": False},
    )
    return source


def _found(staff: Client, url: str, term: str) -> list[int]:
    response = staff.get(url, {"q": term})
    assert response.status_code == 200
    return [row.pk for row in response.context["cl"].result_list]


def test_entries_are_found_by_title_url_and_api_id(staff: Client, account: Account) -> None:
    source = _shop(account, 3)
    other = _shop(account, 1, url="https://other.example.com/list")
    jug = Entry.objects.get(source=source, title="Milk jug")
    machines = set(Entry.objects.filter(title__startswith="Espresso").values_list("pk", flat=True))

    jugs = set(Entry.objects.filter(title="Milk jug").values_list("pk", flat=True))
    assert len(jugs) == 2
    assert set(_found(staff, ENTRIES, "jug")) == jugs
    assert set(_found(staff, ENTRIES, "espresso")) == machines
    assert _found(staff, ENTRIES, "shop.example.com/e1") == [
        Entry.objects.get(source=source, url="https://shop.example.com/e1").pk
    ]
    assert _found(staff, ENTRIES, jug.public_id) == [jug.pk]
    assert _found(staff, ENTRIES, f"  {jug.public_id} ") == [jug.pk]
    assert set(_found(staff, ENTRIES, other.public_id)) == set(
        Entry.objects.filter(source=other).values_list("pk", flat=True)
    )
    assert _found(staff, ENTRIES, "ent_garbage") == []
    assert _found(staff, ENTRIES, "nothing like it") == []
    page = staff.get(ENTRIES).content.decode()
    assert 'id="searchbar"' in page
    assert "ent_…" in page  # the help text says ids work


def test_updates_are_found_by_field_title_and_api_ids(staff: Client, account: Account) -> None:
    source = _shop(account, 3)
    jug_update = Update.objects.get(field="inStock")
    prices = set(Update.objects.filter(field="price").values_list("pk", flat=True))

    assert set(_found(staff, UPDATES, "price")) == prices
    assert _found(staff, UPDATES, "instock") == []  # a field name is matched exactly
    assert _found(staff, UPDATES, "inStock") == [jug_update.pk]
    assert _found(staff, UPDATES, "milk") == [jug_update.pk]
    assert set(_found(staff, UPDATES, "Espresso machine")) == prices
    assert _found(staff, UPDATES, jug_update.public_id) == [jug_update.pk]
    assert _found(staff, UPDATES, jug_update.entry.public_id) == [jug_update.pk]
    assert _found(staff, UPDATES, jug_update.change.public_id) == [jug_update.pk]
    assert len(_found(staff, UPDATES, source.public_id)) == 4
    assert _found(staff, UPDATES, "upd_nope") == []
    assert _found(staff, UPDATES, "nothing like it") == []


def test_updates_list_their_field_and_old_and_new_values(staff: Client, account: Account) -> None:
    _shop(account, 1)
    UpdateFactory(
        entry=EntryFactory(source=SourceFactory(account=account)),
        field=None,
        value_change=None,
        headline="Now sold in pairs",
    )
    body = staff.get(UPDATES).content.decode()
    assert '<th scope="col" class="sortable column-field_name">' in body
    assert "<span>Old → new</span>" in body
    assert '<td class="field-field_name">price</td>' in body
    assert '<td class="field-values">10.0 → 12.0 EUR</td>' in body
    assert '<td class="field-field_name">inStock</td>' in body
    assert '<td class="field-values">True → False</td>' in body
    assert '<td class="field-field_name">(narration)</td>' in body
    assert '<td class="field-values">Now sold in pairs</td>' in body


@pytest.mark.parametrize(
    ("url", "terms"),
    [
        (ENTRIES, ["espresso", "shop.example.com", "ent_garbage"]),
        (UPDATES, ["price", "espresso", "upd_nope"]),
    ],
)
def test_a_search_costs_the_same_queries_for_3_and_30_rows_and_counts_at_most_a_cap(
    staff: Client, account: Account, url: str, terms: list[str]
) -> None:
    def queries() -> list[list[str]]:
        seen = []
        for term in terms:
            with CaptureQueriesContext(connection) as captured:
                assert staff.get(url, {"q": term}).status_code == 200
            seen.append([q["sql"] for q in captured])
        return seen

    _shop(account, 3)
    small = queries()
    _shop(account, 30, url="https://shop.example.com/big")
    big = queries()
    assert [len(q) for q in big] == [len(q) for q in small]
    for sql in (s for run in big for s in run):
        if "COUNT(" in sql.upper():
            assert "LIMIT" in sql.upper(), sql


def test_words_are_looked_for_among_the_newest_rows_and_ids_at_any_age(
    staff: Client, account: Account, monkeypatch: pytest.MonkeyPatch
) -> None:
    _shop(account, 3)  # 4 entries and 4 updates, the jug's the newest
    EntryFactory(source=SourceFactory(account=account), title="Newest thing")
    monkeypatch.setattr(EntryAdmin, "SEARCH_WINDOW", 2)
    monkeypatch.setattr(UpdateAdmin, "SEARCH_WINDOW", 1)
    old = Entry.objects.get(title="Espresso machine 0")
    jug = Entry.objects.get(title="Milk jug")

    assert _found(staff, ENTRIES, "espresso") == []  # older than the newest 2 entries
    assert _found(staff, ENTRIES, "jug") == [jug.pk]
    assert _found(staff, ENTRIES, old.public_id) == [old.pk]
    assert _found(staff, UPDATES, "price") == []  # the newest update is the jug's
    assert _found(staff, UPDATES, "milk") == [Update.objects.get(entry=jug).pk]
    assert _found(staff, UPDATES, old.public_id) == [Update.objects.get(entry=old).pk]
