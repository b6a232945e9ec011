"""Fixed windows per API key in Redis, counted atomically in one round trip.

One Lua script does the whole job inside Redis: INCR the key's counter, start the window
(PEXPIRE) on the first hit, and read the time left with PTTL. Because the window is the
key's own expiry, the clock is Redis's alone; the web workers' clocks never matter and no
read-then-write race exists between workers.

When Redis cannot be reached, `hit` returns None and the request is served uncounted (spec:
Limits, rule 3). A small per-process circuit breaker then skips Redis entirely for
`RATE_LIMIT_BREAKER_SECONDS`, so a dead Redis costs one connect timeout per worker per
breaker period rather than one per request.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

log = logging.getLogger(__name__)

# KEYS[1] = counter; ARGV[1] = window in ms. Returns {count, ms left in the window}.
_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  -- first hit of a window (or a counter that somehow lost its expiry): start the window
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
"""

# A live Redis answers in well under a millisecond; a stuck one must not hold a worker.
READ_TIMEOUT_SECONDS = 0.1
KEY_PREFIX = "rl:"


@dataclass(frozen=True, slots=True)
class RateLimit:
    """The state of a key's window after counting one request."""

    limit: int
    remaining: int  # requests left in the window, after this one
    reset: int  # whole seconds, >= 1, until the window ends
    allowed: bool


class _Limiter:
    """One Redis client and one breaker per process, rebuilt when the URL setting changes."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.client = redis.Redis.from_url(
            url,
            socket_connect_timeout=settings.RATE_LIMIT_CONNECT_TIMEOUT_MS / 1000,
            socket_timeout=READ_TIMEOUT_SECONDS,
            # redis-py retries 10 times with backoff by default: fatal for a dead Redis.
            retry=Retry(NoBackoff(), 0),
            retry_on_timeout=False,
        )
        self.script = self.client.register_script(_SCRIPT)
        self.open_until = 0.0  # monotonic time until which Redis is not tried

    def hit(self, name: str, window_ms: int) -> tuple[int, int] | None:
        if time.monotonic() < self.open_until:
            return None
        try:
            count, left = self.script(keys=[name], args=[window_ms])
        except redis.RedisError as exc:
            self.open_until = time.monotonic() + settings.RATE_LIMIT_BREAKER_SECONDS
            log.warning(
                "rate limiter unreachable (%s); serving uncounted for %.1fs",
                exc.__class__.__name__,
                settings.RATE_LIMIT_BREAKER_SECONDS,
            )
            return None
        return int(count), int(left)


_lock = threading.Lock()
_limiter: _Limiter | None = None


def _get_limiter() -> _Limiter | None:
    global _limiter
    url = settings.RATE_LIMIT_REDIS_URL
    if not url:
        return None
    limiter = _limiter
    if limiter is None or limiter.url != url:
        with _lock:
            if _limiter is None or _limiter.url != url:
                _limiter = _Limiter(url)
            limiter = _limiter
    return limiter


def reset() -> None:
    """Forget the client and the breaker state (tests, or after a settings change)."""
    global _limiter
    with _lock:
        _limiter = None


def counter_name(key_id: int) -> str:
    return f"{KEY_PREFIX}{key_id}"


def hit(key_id: int, limit: int | None) -> RateLimit | None:
    """Count one request for the key; None means the limiter is unreachable (uncounted)."""
    limiter = _get_limiter()
    if limiter is None:
        return None
    allowance = limit or settings.RATE_LIMIT_DEFAULT
    window_ms = int(settings.RATE_LIMIT_WINDOW_SECONDS * 1000)
    result = limiter.hit(counter_name(key_id), window_ms)
    if result is None:
        return None
    count, left_ms = result
    return RateLimit(
        limit=allowance,
        remaining=max(allowance - count, 0),
        reset=max(math.ceil(left_ms / 1000), 1),
        allowed=count <= allowance,
    )
