"""Fixed 60-second windows per API key in Redis, counted atomically in one round trip."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import redis
from django.conf import settings

if TYPE_CHECKING:
    from accounts.throttling import RateLimit

log = logging.getLogger(__name__)

_client: redis.Redis | None = None


def _redis() -> redis.Redis | None:
    global _client
    if not settings.RATE_LIMIT_REDIS_URL:
        return None
    if _client is None:
        timeout = settings.RATE_LIMIT_CONNECT_TIMEOUT_MS / 1000
        _client = redis.Redis.from_url(
            settings.RATE_LIMIT_REDIS_URL, socket_connect_timeout=timeout, socket_timeout=0.2
        )
    return _client


def hit(key_id: int, limit: int | None) -> RateLimit | None:
    """Count one request for the key; None means the limiter is unreachable (uncounted)."""
    from accounts.throttling import RateLimit

    client = _redis()
    if client is None:
        return None
    allowance = limit or settings.RATE_LIMIT_DEFAULT
    window = settings.RATE_LIMIT_WINDOW_SECONDS
    name = f"rl:{key_id}"
    try:
        pipe = client.pipeline(transaction=True)
        pipe.incr(name)
        pipe.expire(name, window, nx=True)
        pipe.ttl(name)
        count, _, ttl = pipe.execute()
    except redis.RedisError:
        log.warning("rate limiter unreachable; serving uncounted", exc_info=True)
        return None
    reset = max(int(ttl), 1)
    return RateLimit(
        limit=allowance,
        remaining=max(allowance - int(count), 0),
        reset=reset,
        allowed=int(count) <= allowance,
    )
