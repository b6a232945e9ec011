"""Fixtures for the `/v1` tests: a seeded history, blob storage in a temp dir, and clean
rate-limit counters."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection

from accounts import ratelimit
from accounts.models import Account
from history.models import Change, Entry, PageState, Source, Update
from tests.factories import ChangeFactory, EntryFactory, SourceFactory, UpdateFactory

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


# Every /v1 endpoint that needs a key, with ids that exist in no account.
KEYED_ENDPOINTS = [
    "/v1/sources",
    "/v1/sources/src_00000000000/entries",
    "/v1/updates",
    "/v1/entries/ent_00000000000/updates",
    "/v1/entries/ent_00000000000/changes",
    "/v1/changes/chg_00000000000/snapshot",
]


@pytest.fixture(autouse=True)
def blob_storage(tmp_storage: Path) -> Path:
    """Default storage in a temp dir, so snapshot bytes never touch var/."""
    return tmp_storage


@pytest.fixture(autouse=True)
def clean_rate_limits() -> Iterator[None]:
    """Rate-limit counters start at zero, and no key record is cached from an earlier test."""

    def flush() -> None:
        if not settings.RATE_LIMIT_REDIS_URL:
            return
        client = redis.Redis.from_url(settings.RATE_LIMIT_REDIS_URL)
        try:
            names = [
                name
                for prefix in (ratelimit.KEY_PREFIX, ratelimit.RECORD_PREFIX)
                for name in client.scan_iter(match=f"{prefix}*", count=1000)
            ]
            if names:
                client.delete(*names)
        except redis.RedisError:
            pass

    flush()
    ratelimit.reset()
    yield
    ratelimit.reset()


@pytest.fixture
def keep_test_connection() -> Iterator[None]:
    """Requests sent straight to the WSGI handler keep the test's database connection.

    The handler closes "old" connections at each request's start and end, which inside the
    test's transaction would close it; Django's own test client disconnects the same
    receivers for the same reason.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def make_state(
    name: str, *, markdown: bool = True, html: bool = True, shot: bool = True
) -> PageState:
    """A PageState whose formats are real files in the default storage (shared by digest)."""
    digest = name.ljust(64, "0")
    existing = PageState.objects.filter(digest=digest).first()
    if existing is not None:
        return existing
    names: dict[str, str | None] = {
        "markdown_name": None,
        "html_name": None,
        "screenshot_name": None,
    }
    if markdown:
        names["markdown_name"] = default_storage.save(
            f"blobs/{name}.md", ContentFile(f"# {name}\n".encode())
        )
    if html:
        names["html_name"] = default_storage.save(
            f"blobs/{name}.html", ContentFile(f"<h1>{name}</h1>".encode())
        )
    if shot:
        names["screenshot_name"] = default_storage.save(f"blobs/{name}.png", ContentFile(PNG))
    return PageState.objects.create(digest=digest, created_at=1_000, **names)


@dataclass
class History:
    """A small but complete history of one account (see `seed`)."""

    source: Source
    paused: Source
    kettle: Entry
    mug: Entry
    stub: Entry
    first: Change  # kettle and mug appear
    second: Change  # kettle price 10 -> 12 (critical) plus a narration (minor); blocks
    third: Change  # kettle renamed (importance NULL); its state was purged
    updates: list[Update]


def seed(account: Account) -> History:
    source = SourceFactory(
        account=account,
        url="https://shop.example.com/kettles",
        name="Kettles",
        created_at=1_000,
        last_fetch_time=5_000,
        last_fetch_outcome="ok",
        next_fetch_time=9_000,
        entry_kinds=[{"name": "product", "hasPrice": True}],
    )
    paused = SourceFactory(
        account=account,
        url="https://jobs.example.com/",
        name="",
        status="autoPaused",
        created_at=2_000,
        last_fetch_time=4_000,
        last_fetch_outcome="failed",
        last_fetch_error_reason="timeout",
        last_fetch_error_time=4_000,
        consecutive_fetch_failures=5,
    )
    kettle = EntryFactory(
        source=source,
        identity_key="kettle",
        title="Blue kettle",
        url="https://shop.example.com/kettles/blue",
        kind="product",
        price=12.0,
        currency="EUR",
        image_url="https://shop.example.com/img/blue.png",
        attributes={"stock": {"n": 3, "unit": "pcs"}, "color": {"s": "blue"}},
        update_type="modified",
        update_time=4_000,
        created_at=1_000,
    )
    mug = EntryFactory(
        source=source, identity_key="mug", title="Mug", update_time=1_000, created_at=1_000
    )
    stub = EntryFactory(
        source=source, identity_key="stub", title="Loading", is_stub=True, update_time=9_999
    )
    s1, s2 = make_state("s1"), make_state("s2", html=False)
    first = ChangeFactory(source=source, at=1_000, current_state=s1)
    second = ChangeFactory(
        source=source,
        at=3_000,
        current_state=s2,
        previous_state=s1,
        body_total_additions=4,
        body_total_deletions=1,
        meta_additions=1,
        blocks={"blocks": [{"id": "b1", "op": "changed"}]},
    )
    third = ChangeFactory(source=source, at=4_000, current_state=None, previous_state=s2)
    updates = [
        UpdateFactory(
            entry=kettle,
            change=first,
            at=1_000,
            update_type="new",
            field=None,
            value_change=None,
            importance="material",
        ),
        UpdateFactory(
            entry=mug,
            change=first,
            at=1_000,
            update_type="new",
            field=None,
            value_change=None,
            importance="minor",
        ),
        UpdateFactory(
            entry=kettle,
            change=second,
            at=3_000,
            field="price",
            importance="critical",
            value_change={"type": "number", "previous": 10.0, "current": 12.0, "unit": "EUR"},
        ),
        UpdateFactory(
            entry=kettle,
            change=second,
            at=3_000,
            field=None,
            value_change=None,
            importance="minor",
            headline="Now with a lid",
            description="Lid added",
            start_block_id="b1",
            end_block_id="b2",
            block_id="b1",
        ),
        UpdateFactory(
            entry=kettle,
            change=third,
            at=4_000,
            field="title",
            importance=None,
            value_change={"type": "string", "previous": "Kettle", "current": "Blue kettle"},
        ),
    ]
    made: list[Any] = [source, paused, kettle, mug, stub, first, second, third, updates]
    return History(*made)


@pytest.fixture
def history(account: Account) -> History:
    return seed(account)


# --- Deep pages on PostgreSQL ----------------------------------------------------------------

ROWS = 8_000


@pytest.fixture
def big_feed(account: Account) -> Any:
    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN plans are checked on PostgreSQL")
    entry: Any = EntryFactory(source=SourceFactory(account=account))
    # The account's other entries hold three times as many updates, as in a real feed, so
    # that the entry's own indexes are the planner's clear choice for per-entry pages (with
    # one entry per account, the account's feed indexes tie with them).
    other: Any = EntryFactory(source=entry.source)
    change: Any = Change.objects.create(account=account, source=entry.source, at=0, outcome="ok")
    Update.objects.bulk_create(
        (
            Update(
                account=account,
                source=entry.source,
                entry=owner,
                change=change,
                at=1_000_000 + i // 2,  # ties on `at`, broken by id
                update_type="modified",
                field="price" if i % 2 else "title",
                importance="minor" if i % 3 else "critical",
                importance_level="minor" if i % 3 else "critical",
            )
            for owner, rows in ((entry, ROWS), (other, 3 * ROWS))
            for i in range(rows)
        ),
        batch_size=5_000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE history_update")
    return entry


def entry_with_history(account: Any, changes: int, fields: tuple[str, ...]) -> Any:
    """One entry with `changes` changes, one update per field each; statistics refreshed."""
    entry: Any = EntryFactory(source=SourceFactory(account=account))
    made = Change.objects.bulk_create(
        Change(account=account, source=entry.source, at=i, outcome="ok") for i in range(changes)
    )
    Update.objects.bulk_create(
        Update(
            account=account,
            source=entry.source,
            entry=entry,
            change=c,
            at=c.at,
            update_type="modified",
            field=f,
        )
        for c in made
        for f in fields
    )
    with connection.cursor() as db:
        db.execute("ANALYZE history_update")
        db.execute("ANALYZE history_change")
    return entry
