"""Per-key fixed-window rate limit, kept behind DRF's throttle interface.

DRF checks throttles after authentication and permissions, so 401 and 403 are never
counted (spec: Authentication, rule 8). After `allow_request` the request carries
`request.ratelimit`: a `RateLimit`, or None when the limiter could not be reached and the
request is served uncounted; the API's base view turns it into `X-RateLimit-*` headers.
"""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts import ratelimit
from accounts.ratelimit import RateLimit

__all__ = ["ApiKeyRateThrottle", "RateLimit"]


class ApiKeyRateThrottle(BaseThrottle):
    """Counts authenticated, authorised requests per API key (spec: Limits)."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        key = request.auth
        request.ratelimit = None  # type: ignore[attr-defined]
        self._wait: int | None = None
        if key is None:
            return True
        # `request.auth` is the key row (or a lean stand-in with the same two attributes).
        result = ratelimit.hit(key.pk, getattr(key, "rate_limit", None))
        request.ratelimit = result  # type: ignore[attr-defined]
        if result is None or result.allowed:
            return True
        self._wait = result.reset
        return False

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)
