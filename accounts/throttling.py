"""Per-key fixed-window rate limit, kept behind DRF's throttle interface.

After `allow_request` the request carries `request.ratelimit` (a `RateLimit`, or None when
the limiter could not be reached and the request is served uncounted); the API's base view
turns it into `X-RateLimit-*` headers.
"""

from __future__ import annotations

from dataclasses import dataclass

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts import ratelimit


@dataclass(frozen=True, slots=True)
class RateLimit:
    limit: int
    remaining: int
    reset: int  # whole seconds, >= 1, until the window ends
    allowed: bool


class ApiKeyRateThrottle(BaseThrottle):
    """Counts authenticated, authorised requests per API key (spec: Limits)."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        key = request.auth
        if key is None:
            return True
        result = ratelimit.hit(key.pk, key.rate_limit)
        request.ratelimit = result  # type: ignore[attr-defined]
        self._wait = result.reset if result else None
        return result is None or result.allowed

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)
