"""Politeness per host: at most FETCH_HOST_CONCURRENCY requests at once and at least
FETCH_HOST_GAP_MS between the starts of two requests to one host, across every worker.

The counters live in Redis when there is one (two small Lua scripts, one round trip each),
else in this process (the embedded default runs one worker).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings

# One round trip: take a slot (INCR the host's in-flight counter unless it is full; the
# counter expires on its own should a worker die holding slots) and reserve the next start
# time. Returns -1 when the host is full, else how many ms to wait before starting.
_TAKE = """
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if n > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return -1
end
local gap = tonumber(ARGV[3])
if gap <= 0 then
  return 0
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nxt = tonumber(redis.call('GET', KEYS[2]) or '0')
local start = math.max(now, nxt)
redis.call('SET', KEYS[2], start + gap, 'PX', gap + 60000)
return start - now
"""
_SLOT_TTL_MS = 120_000  # longer than any fetch may take
_POLL_SECONDS = 0.05


class _Local:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.in_flight: dict[str, int] = {}
        self.next_start: dict[str, float] = {}

    def take(self, host: str, limit: int) -> bool:
        with self.lock:
            if self.in_flight.get(host, 0) >= limit:
                return False
            self.in_flight[host] = self.in_flight.get(host, 0) + 1
            return True

    def give(self, host: str) -> None:
        with self.lock:
            self.in_flight[host] = max(0, self.in_flight.get(host, 0) - 1)

    def reserve(self, host: str, gap_ms: int) -> float:
        with self.lock:
            now = time.monotonic()
            start = max(now, self.next_start.get(host, 0.0))
            self.next_start[host] = start + gap_ms / 1000
            return start - now


_local = _Local()


def _redis() -> Any:
    if not settings.REDIS_URL:
        return None
    from django_redis import get_redis_connection

    return get_redis_connection("default")


_take_script: Any = None


def _take(conn: Any, keys: list[str], args: list[int]) -> int:
    """`_TAKE` by EVALSHA: its digest travels, not its text (redis-py loads the script again
    when Redis has forgotten it)."""
    global _take_script
    if _take_script is None:
        _take_script = conn.register_script(_TAKE)
    return int(_take_script(keys=keys, args=args, client=conn))


@contextlib.contextmanager
def host_slot(host: str) -> Iterator[None]:
    """Wait for a slot of `host` and its gap, hold the slot for the block's duration."""
    limit = max(1, settings.FETCH_HOST_CONCURRENCY)
    gap_ms = max(0, settings.FETCH_HOST_GAP_MS)
    conn = _redis()
    if conn is None:
        while not _local.take(host, limit):
            time.sleep(_POLL_SECONDS)
        try:
            time.sleep(_local.reserve(host, gap_ms))
            yield
        finally:
            _local.give(host)
        return
    slots, gap = f"tm:host:{host}:n", f"tm:host:{host}:next"
    while (wait_ms := _take(conn, [slots, gap], [limit, _SLOT_TTL_MS, gap_ms])) < 0:
        time.sleep(_POLL_SECONDS)
    try:
        if wait_ms > 0:
            time.sleep(wait_ms / 1000)
        yield
    finally:
        conn.decr(slots)
