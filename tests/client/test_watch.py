"""`updates.watch` against a real web process: it starts after the newest update, picks up
updates ingested while it runs, oldest first, and never repeats or loses one."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import tidemark

from history.models import Update
from tests.client.conftest import Tenant, shop_fetch

pytestmark = pytest.mark.django_db(transaction=True)

INTERVAL = 0.1


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def chronological(update_ids: list[int]) -> list[str]:
    return [u.public_id for u in Update.objects.filter(pk__in=update_ids).order_by("at", "pk")]


class SyncWatch:
    """`client.updates.watch(...)` iterated in a thread; what it yields lands in `got`."""

    def __init__(self, url: str, key: str, **options: Any) -> None:
        self.client = tidemark.Client(key, base_url=url)
        self.watch = self.client.updates.watch(interval=INTERVAL, **options)
        self.got: queue.Queue[tidemark.FeedUpdate] = queue.Queue()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        try:
            for update in self.watch:
                self.got.put(update)
        except RuntimeError:  # the test closed the client under it: the end
            assert self.stop.is_set()

    @property
    def polls(self) -> int:
        return self.watch.polls

    def close(self) -> None:
        self.stop.set()
        self.client.close()


class AsyncWatch:
    """`AsyncClient.updates.watch(...)` in an event loop of its own thread."""

    def __init__(self, url: str, key: str, **options: Any) -> None:
        self.url, self.key, self.options = url, key, options
        self.got: queue.Queue[tidemark.FeedUpdate] = queue.Queue()
        self.watch: tidemark.AsyncUpdateWatch | None = None
        self.running: asyncio.Task[None] | None = None
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.task = asyncio.run_coroutine_threadsafe(self.run(), self.loop)

    async def run(self) -> None:
        self.running = asyncio.current_task()
        async with tidemark.AsyncClient(self.key, base_url=self.url) as client:
            self.watch = client.updates.watch(interval=INTERVAL, **self.options)
            async for update in self.watch:
                self.got.put(update)

    async def stop(self) -> None:
        """Cancel the watch and let it close its client, inside the loop."""
        assert self.running is not None
        self.running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.running

    @property
    def polls(self) -> int:
        return 0 if self.watch is None else self.watch.polls

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.stop(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


@pytest.fixture(params=["sync", "async"])
def start_watch(request: pytest.FixtureRequest, api_url: str) -> Any:
    started: list[SyncWatch | AsyncWatch] = []

    def start(key: str, **options: Any) -> SyncWatch | AsyncWatch:
        kind = SyncWatch if request.param == "sync" else AsyncWatch
        watch = kind(api_url, key, **options)
        started.append(watch)
        return watch

    yield start
    for watch in started:
        watch.close()


def drain(got: queue.Queue[tidemark.FeedUpdate], count: int) -> list[str]:
    """`count` updates from the watch, then nothing more for a few polls."""
    ids = [got.get(timeout=20).id for _ in range(count)]
    time.sleep(INTERVAL * 5)
    assert got.empty(), f"repeated or unexpected: {got.get().id}"
    return ids


def test_watch_from_now_yields_only_updates_ingested_after_it_started(
    start_watch: Any, tenant: Tenant
) -> None:
    shop_fetch(tenant.account, {"a": 1.0, "b": 2.0})
    shop_fetch(tenant.account, {"a": 1.5, "b": 2.5})  # 4 updates before the watch, 2 at its `at`
    watch = start_watch(tenant.key, since="now")
    wait_for(lambda: watch.polls >= 1, "the watch's first poll")

    first = shop_fetch(tenant.account, {"a": 3.0, "b": 2.5, "c": 9.0})
    got = drain(watch.got, len(first))
    second = shop_fetch(tenant.account, {"a": 4.0, "b": 2.5, "c": 9.0})
    got += drain(watch.got, len(second))

    assert got == chronological(first) + chronological(second)
    assert watch.polls >= 3


def test_watch_since_an_instant_yields_the_history_then_what_follows(
    start_watch: Any, tenant: Tenant
) -> None:
    old = shop_fetch(tenant.account, {"a": 1.0}, at=1_700_000_000_000)
    kept = shop_fetch(tenant.account, {"a": 2.0}, at=1_750_000_000_000)
    watch = start_watch(tenant.key, since=1_750_000_000_000)

    got = drain(watch.got, len(kept))
    later = shop_fetch(tenant.account, {"a": 3.0})
    got += drain(watch.got, len(later))

    assert got == chronological(kept) + chronological(later)
    assert not set(got) & set(chronological(old))
