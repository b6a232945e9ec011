"""Polling without loss: concurrent writers for one account, and a poller that follows the
spec's rule (pass the newest `at` back as `since`, at-or-after, de-duplicate by id)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any, cast

import pytest
from django.db import connection

from accounts.models import Account
from history.ingest import ingest
from history.models import Update
from history.signals import updates_recorded
from tests.factories import AccountFactory

WRITERS = 2
FETCHES_PER_WRITER = 20


def slow_commit(**kwargs: Any) -> None:
    """Hold each ingestion transaction open a little after `at` is stamped, so commits
    would land out of `at` order if writers were not serialised."""
    time.sleep(random.uniform(0, 0.015))


def poll(account_id: int, since: int) -> list[tuple[int, int]]:
    """One poll: what `GET /v1/updates?since=` selects, oldest first."""
    return list(
        Update.objects.filter(account_id=account_id, at__gte=since)
        .order_by("at", "id")
        .values_list("id", "at")
    )


@pytest.mark.django_db(transaction=True)
def test_a_poller_following_the_rule_sees_every_update_of_concurrent_writers():
    account = cast(Account, AccountFactory(slug="busy"))
    errors: list[BaseException] = []
    seen: set[int] = set()
    writers_done = threading.Event()

    def writer(n: int) -> None:
        try:
            for i in range(FETCHES_PER_WRITER):
                entries = [{"identityKey": f"w{n}-{j}", "title": f"Item {j}"} for j in range(i + 1)]
                ingest(
                    {
                        "account": "busy",
                        "source": {"url": f"https://writer{n}.example.com/"},
                        "entries": entries,
                    }
                )
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    def poller() -> None:
        since = 0
        try:
            while True:
                finished = writers_done.is_set()
                rows = poll(account.pk, since)
                seen.update(row_id for row_id, _ in rows)
                if rows:
                    since = rows[-1][1]  # the newest `at`, verbatim
                if finished:
                    return
                time.sleep(0.001)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    updates_recorded.connect(slow_commit)
    try:
        threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
        watcher = threading.Thread(target=poller)
        watcher.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        writers_done.set()
        watcher.join()
    finally:
        updates_recorded.disconnect(slow_commit)

    assert errors == []
    every = set(Update.objects.filter(account=account).values_list("id", flat=True))
    # Each writer's source gets one new entry per fetch.
    assert len(every) == WRITERS * FETCHES_PER_WRITER
    assert seen == every, f"missed {sorted(every - seen)}"


@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_get_distinct_non_decreasing_at_in_commit_order():
    AccountFactory(slug="busy")
    stamps: list[int] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def record(**kwargs: Any) -> None:
        # Runs inside the transaction, while the feed clock's row lock is held: the order
        # of these appends is the commit order.
        at = Update.objects.filter(id=kwargs["update_ids"][0]).values_list("at", flat=True)[0]
        with lock:
            stamps.append(at)

    def writer(n: int) -> None:
        try:
            for i in range(10):
                ingest(
                    {
                        "account": "busy",
                        "source": {"url": f"https://w{n}.example.com/"},
                        "entries": [{"title": f"{n}-{i}"}],
                    }
                )
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    updates_recorded.connect(record)
    try:
        threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        updates_recorded.disconnect(record)

    assert errors == []
    assert len(stamps) == 30
    assert stamps == sorted(stamps)
