"""The read API's statements under generic plans (`DB_GENERIC_PLANS`, opt-in).

With it, a prepared statement is planned once, for any parameter values, and that plan
serves every request on the connection. Every update list of `/v1` must then keep a good
generic plan: its page read in index order from the index its filters lead, never a
parallel scan (which a `LIMIT $n` brought: the generic plan then costed the query for a
tenth of the table) and never a sort of the history. These tests prepare each query as
psycopg does, force the generic plan and read it. (The sources list is the known exception
that keeps the setting off by default: for an account with far more sources than most, its
generic plan reads them all and sorts; docs/performance.md, "The morning round".)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from psycopg.sql import Literal

from tests.api.conftest import entry_with_history

pytestmark = pytest.mark.django_db


def keyset_statement(client: Client, url: str, auth: dict[str, str]) -> tuple[str, list[Any], Any]:
    """The keyset query a request ran, as sent (placeholders and parameters), and its body."""
    seen: list[tuple[str, list[Any]]] = []

    def spy(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append((sql, list(params or [])))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        response = client.get(url, headers=auth)
    assert response.status_code == 200, response.content
    keyset = [(sql, params) for sql, params in seen if "ORDER BY" in sql]
    assert len(keyset) == 1, seen
    return keyset[0][0], keyset[0][1], response.json()


def generic_plan(sql: str, params: list[Any]) -> str:
    """EXPLAIN of the statement's generic plan, with these parameters."""
    counter = iter(range(1, len(params) + 1))
    text = re.sub("%s", lambda _: f"${next(counter)}", sql)
    with connection.cursor() as db:
        db.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        db.execute(f"PREPARE generic_page AS {text}")
        try:
            values = ", ".join(Literal(p).as_string(connection.connection) for p in params)
            db.execute(f"EXPLAIN EXECUTE generic_page({values})")
            return "\n".join(row[0] for row in db.fetchall())
        finally:
            db.execute("DEALLOCATE generic_page")


PAGES = [
    ("/v1/updates", "update_feed"),
    ("/v1/updates?importance=critical", "update_feed_importance"),
    ("/v1/updates?since=1000100", "update_feed"),
    ("/v1/updates?since=1000100&importance=minor", "update_feed_importance"),
    ("/v1/entries/{entry}/updates", "update_entry"),
    # A field's share of an entry's updates is its average over every field: the generic
    # plan reads the field's own index, or the entry's with the field filtered when fields
    # are few (as here: two, each half the updates).
    ("/v1/entries/{entry}/updates?field=price", "update_entry(_field)?"),
    ("/v1/entries/{entry}/updates?importance=minor", "update_entry_importance"),
    ("/v1/entries/{cards}/changes", "update_entry_change"),
]


def test_every_update_page_keeps_a_generic_plan_in_index_order(client, auth, account, big_feed):
    """Each collection at three page sizes, its first page and one deep in the history.
    (One data set for all of them: every bulk insert a test rolls back leaves the indexes
    larger, which moves later tests' plans.)"""
    cards = entry_with_history(account, 400, ("price", "title"))
    for path, index in PAGES:
        for limit in (1, 25, 100):
            url = path.format(entry=big_feed.public_id, cards=cards.public_id)
            url += ("&" if "?" in url else "?") + f"limit={limit}"
            _, _, body = keyset_statement(client, url, auth)
            for _ in range(2):  # the second page, then one deeper
                cursor = body["pagination"]["nextCursor"]
                assert cursor, url
                sql, params, body = keyset_statement(client, f"{url}&cursor={cursor}", auth)
                assert "LIMIT %s" not in sql  # a page's size is in the text: the plan knows it
                plan = generic_plan(sql, params)
                assert "$1" in plan, plan  # a generic plan indeed
                assert re.search(rf"Index (Only )?Scan using {index} ", plan), (url, plan)
                assert "Gather" not in plan, (url, plan)
                assert "Seq Scan on history_update" not in plan, (url, plan)
                # No sort of the history (the cards' final order is of their page's rows).
                below = plan.split("\n", 1)[1] if path.endswith("changes") else plan
                assert not re.search(r"^\s*(->\s*)?Sort +\(cost", below, re.M), (url, plan)


@pytest.mark.parametrize("path", ["/v1/sources", "/v1/sources/{source}/entries"])
def test_source_and_entry_pages_keep_a_generic_plan_without_a_parallel_scan(
    client, auth, big_feed, path
):
    url = path.format(source=big_feed.source.public_id) + "?limit=1"
    sql, params, _ = keyset_statement(client, url, auth)
    assert "LIMIT %s" not in sql
    plan = generic_plan(sql, params)
    assert "$1" in plan, plan
    assert "Gather" not in plan, plan


def test_the_owner_pages_feed_of_one_source_keeps_a_generic_plan_in_index_order(big_feed):
    """The owner pages' feed of a source (`feed_page(source=…)`, in the same web process)."""
    from history import selectors

    seen: list[tuple[str, list[Any]]] = []

    def spy(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append((sql, list(params or [])))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        page = selectors.feed_page(
            big_feed.account_id,
            since=None,
            importance=None,
            after=(1_000_100, 10**12),
            limit=50,
            source=big_feed.source_id,
        )
    assert len(page) == 51
    (sql, params), *_ = [s for s in seen if "ORDER BY" in s[0]]
    plan = generic_plan(sql, params)
    assert "$1" in plan, plan
    assert re.search(r"Index (Only )?Scan using update_(source_)?feed ", plan), plan
    assert "Gather" not in plan, plan
    assert not re.search(r"^\s*(->\s*)?Sort +\(cost", plan, re.M), plan
