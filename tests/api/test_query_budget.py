"""Query budgets and deep-page cost: a page costs the same whatever its limit or depth."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from history import selectors
from history.models import Change, Update
from tests.api.conftest import History, entry_with_history
from tests.factories import EntryFactory, SourceFactory

pytestmark = pytest.mark.django_db


def endpoints(history: History) -> list[tuple[str, int]]:
    """(url, queries) once the key is cached in Redis: one keyset query, plus one ownership
    check for the endpoints under a parent id. No query depends on the page size."""
    return [
        ("/v1/sources", 1),
        (f"/v1/sources/{history.source.public_id}/entries", 2),
        ("/v1/updates?importance=material&since=1", 1),
        (f"/v1/entries/{history.kettle.public_id}/updates?field=price", 2),
        (f"/v1/entries/{history.kettle.public_id}/changes", 2),
        (f"/v1/changes/{history.second.public_id}/snapshot", 1),
        (f"/v1/changes/{history.second.public_id}/snapshot?format=screenshot", 1),
        ("/v1/openapi.json", 0),
    ]


@pytest.mark.parametrize("index", range(8))
@pytest.mark.parametrize("limit", [1, 100])
def test_every_endpoint_has_a_constant_query_budget(
    client: Client, auth, history, django_assert_num_queries, index, limit
):
    client.get("/v1/sources", headers=auth)  # caches the key and records last_used_at
    url, budget = endpoints(history)[index]
    sep = "&" if "?" in url else "?"
    with django_assert_num_queries(budget):
        response = client.get(f"{url}{sep}limit={limit}", headers=auth)
    assert response.status_code in (200, 302)


@pytest.mark.parametrize("index", range(7))
def test_without_the_key_cache_each_request_adds_one_key_lookup(
    client: Client, auth, history, django_assert_num_queries, settings, index
):
    settings.KEY_CACHE_SECONDS = 0
    client.get("/v1/sources", headers=auth)  # records last_used_at
    url, budget = endpoints(history)[index]
    with django_assert_num_queries(budget + 1):
        response = client.get(url, headers=auth)
    assert response.status_code in (200, 302)
    assert response["X-RateLimit-Remaining"] == "298"  # still counted, by the throttle


def test_the_card_budget_does_not_grow_with_cards_or_updates(
    client, auth, account, django_assert_num_queries
):
    entry: Any = EntryFactory(source=SourceFactory(account=account))
    changes = Change.objects.bulk_create(
        Change(account=account, source=entry.source, at=i, outcome="ok") for i in range(60)
    )
    Update.objects.bulk_create(
        Update(
            account=account,
            source=entry.source,
            entry=entry,
            change=change,
            at=change.at,
            update_type="modified",
            field=field,
            value_change={"type": "number", "previous": 1, "current": 2},
        )
        for change in changes
        for field in ("price", "stock", "rating")
    )
    client.get("/v1/sources", headers=auth)
    with django_assert_num_queries(2):
        body = client.get(f"/v1/entries/{entry.public_id}/changes?limit=50", headers=auth).json()
    assert len(body["data"]) == 50
    assert all(len(card["updates"]) == 2 for card in body["data"])


# --- Deep pages on PostgreSQL ------------------------------------------------------------


def page_sql(client: Client, url: str, auth: dict[str, str]) -> tuple[str, str | None]:
    """The keyset query a request ran (its SQL text) and the page's nextCursor."""
    with CaptureQueriesContext(connection) as queries:
        body = client.get(url, headers=auth).json()
    keyset = [q["sql"] for q in queries.captured_queries if "ORDER BY" in q["sql"]]
    assert len(keyset) == 1
    return keyset[0], body["pagination"]["nextCursor"]


def explain(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.parametrize(
    ("path", "index"),
    [
        ("/v1/updates?limit=25", "update_feed"),
        ("/v1/updates?limit=25&importance=critical", "update_feed_importance"),
        ("/v1/entries/{entry}/updates?limit=25", "update_entry"),
        ("/v1/entries/{entry}/updates?limit=25&field=price", "update_entry_field"),
        ("/v1/entries/{entry}/updates?limit=25&importance=minor", "update_entry_importance"),
    ],
)
def test_a_deep_page_costs_what_the_second_page_costs(client, auth, big_feed, path, index):
    url = path.format(entry=big_feed.public_id)
    _, cursor = page_sql(client, url, auth)
    second_sql, cursor = page_sql(client, f"{url}&cursor={cursor}", auth)
    for _ in range(5):  # walk a little, then jump deep by following the cursor further
        _, cursor = page_sql(client, f"{url}&cursor={cursor}", auth)
    deep_sql, _ = page_sql(client, f"{url}&cursor={cursor}", auth)
    # Same shape: only the bound values differ.
    strip = lambda sql: "".join(c for c in sql if not c.isdigit())  # noqa: E731
    assert strip(deep_sql) == strip(second_sql)
    plan = explain(deep_sql)
    assert f"Index Scan using {index} " in plan, plan
    assert "Sort" not in plan, plan
    assert "Seq Scan" not in plan, plan


def test_the_deepest_feed_page_uses_the_index_without_sorting(client, auth, big_feed):
    """The last page of the whole table: an index scan bounded by the cursor, no OFFSET."""
    from history.api.pagination import encode_cursor

    # A cursor just after the sixth-oldest row, bound as the feed binds it (no filters).
    sixth = Update.objects.order_by("at", "id").values_list("at", "id")[5]
    cursor = encode_cursor(f"{big_feed.account_id}|feed||", sixth)
    sql, next_cursor = page_sql(client, f"/v1/updates?limit=25&cursor={cursor}", auth)
    assert next_cursor is None
    plan = explain(sql)
    assert "Index Scan using update_feed " in plan, plan
    assert "OFFSET" not in sql.upper()


def test_timeline_cards_page_by_index_on_postgresql(client, auth, account):
    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN plans are checked on PostgreSQL")
    entry = entry_with_history(account, 3_000, ("price", "title"))
    url = f"/v1/entries/{entry.public_id}/changes?limit=25"
    _, cursor = page_sql(client, url, auth)
    for _ in range(3):
        sql, cursor = page_sql(client, f"{url}&cursor={cursor}", auth)
    plan = explain(sql)
    assert "Index Scan using update_entry_change " in plan or (
        "Index Only Scan using update_entry_change " in plan
    ), plan
    assert "Seq Scan on history_update" not in plan, plan


def test_timeline_cards_generic_plan_looks_each_change_up_by_its_whole_key(client, auth, account):
    """psycopg prepares a statement after five runs, and PostgreSQL may then keep a generic
    plan: the cards' updates must still be found by (entry, at, change), not by (entry,
    change) with the entry's whole history read once per card."""
    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN plans are checked on PostgreSQL")
    entry = entry_with_history(account, 2_000, ("price",))
    response = client.get(f"/v1/entries/{entry.public_id}/changes?limit=25", headers=auth)
    assert response.status_code == 200
    assert len(response.json()["data"]) == 25
    text = selectors._cards_sql("postgresql", paged=False, rows=26)
    counter = iter(range(1, 10))
    text = re.sub("%s", lambda _: f"${next(counter)}", text)
    with connection.cursor() as db:
        db.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        db.execute(f"PREPARE cards_generic(bigint, bigint) AS {text}")
        try:
            db.execute(f"EXPLAIN EXECUTE cards_generic({int(entry.pk)}, {int(entry.pk)})")
            plan = "\n".join(row[0] for row in db.fetchall())
        finally:
            db.execute("DEALLOCATE cards_generic")
    assert "$1" in plan, plan  # a generic plan indeed
    # Each card's updates: by the change's own index, or by update_entry_change's whole key.
    # (entry, change) alone on update_entry_change would skip `at` and read the entry's
    # whole history once per card.
    by_change = [
        node for node in plan.split("->") if re.search(r"Index Cond: .*change_id = ", node)
    ]
    assert by_change, plan
    for node in by_change:
        if "update_entry_change" in node:
            assert re.search(r"Index Cond: \(.*\(at = .*\(change_id = ", node), plan
        else:
            assert "history_update_change_id_" in node, plan
