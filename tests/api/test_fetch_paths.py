"""How the selectors run a statement (`history.selectors._fetch`).

On PostgreSQL, once the connection is open and nothing observes its queries, a statement
runs on psycopg's cursor from the backend's `create_cursor()`; otherwise on Django's
`cursor()`. Either way the rows are the same, errors arrive as Django's exceptions, a
transaction marked for rollback refuses it, and an event loop may not run it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.exceptions import SynchronousOnlyOperation
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from history import selectors

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the psycopg path is PostgreSQL's"
    ),
]

SQL = "SELECT %s::int, %s::text UNION ALL SELECT 2, 'b' ORDER BY 1"


@pytest.fixture
def django_cursor_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Django's `cursor()` on this connection fails the test if anything calls it."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Django's cursor() was used")

    monkeypatch.setattr(connections[DEFAULT_DB_ALIAS], "cursor", refuse)


def test_an_open_connection_runs_the_statement_without_djangos_cursor(
    django_cursor_refused: None,
) -> None:
    connection.ensure_connection()
    assert selectors._fetch(SQL, [1, "a"]) == [(1, "a"), (2, "b")]


def test_a_connection_not_open_yet_is_opened_by_djangos_cursor(
    django_cursor_refused: None,
) -> None:
    db = connections[DEFAULT_DB_ALIAS]
    db.ensure_connection()
    opened, db.connection = db.connection, None  # as before a process's first query
    try:
        with pytest.raises(AssertionError, match="cursor"):
            selectors._fetch(SQL, [1, "a"])
    finally:
        db.connection = opened


def test_logged_and_wrapped_queries_go_through_django_with_the_same_rows() -> None:
    connection.ensure_connection()
    fast = selectors._fetch(SQL, [1, "a"])
    with CaptureQueriesContext(connection) as captured:
        logged = selectors._fetch(SQL, [1, "a"])
    seen: list[str] = []

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        wrapped = selectors._fetch(SQL, [1, "a"])
    assert fast == logged == wrapped == [(1, "a"), (2, "b")]
    assert [q["sql"] for q in captured.captured_queries] == [
        "SELECT 1::int, 'a'::text UNION ALL SELECT 2, 'b' ORDER BY 1"
    ]
    assert seen == [SQL]


def test_errors_arrive_as_djangos_exceptions() -> None:
    connection.ensure_connection()
    with transaction.atomic():
        with pytest.raises(DatabaseError) as caught:
            selectors._fetch("SELECT * FROM no_such_table WHERE id = %s", [1])
        transaction.set_rollback(True)
    assert type(caught.value).__module__ == "django.db.utils"
    assert caught.value.__cause__ is not None  # psycopg's own error, kept as the cause


def test_a_transaction_marked_for_rollback_refuses_the_statement() -> None:
    connection.ensure_connection()
    with transaction.atomic():
        transaction.set_rollback(True)
        with pytest.raises(TransactionManagementError):
            selectors._fetch(SQL, [1, "a"])


def test_an_event_loop_may_not_run_the_statement(monkeypatch: pytest.MonkeyPatch) -> None:
    # The browser tests allow async-unsafe calls for the whole session (Playwright's sync
    # API runs an event loop); Django's guard is off while that variable is set.
    monkeypatch.delenv("DJANGO_ALLOW_ASYNC_UNSAFE", raising=False)
    connection.ensure_connection()

    async def in_a_loop() -> None:
        selectors._fetch(SQL, [1, "a"])

    with pytest.raises(SynchronousOnlyOperation):
        asyncio.run(in_a_loop())
