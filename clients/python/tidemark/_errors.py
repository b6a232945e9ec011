"""The exceptions the client raises: one base class, and one class per kind of failure."""

from __future__ import annotations

from collections.abc import Mapping


class TidemarkError(Exception):
    """Every error this package raises."""


class APIConnectionError(TidemarkError):
    """The API could not be reached (connection refused or reset, DNS, TLS), after retries."""


class APITimeoutError(APIConnectionError):
    """The API did not answer within the client's timeout, after retries."""


class UnexpectedResponseError(TidemarkError):
    """A response that is not what the API documents (not JSON, a missing field)."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


class APIError(TidemarkError):
    """The API answered with an error: `status`, and `code` and `message` from its envelope.

    Branch on `code` (the API's fixed set: `invalid_request`, `unauthorized`, `forbidden`,
    `not_found`, `method_not_allowed`, `rate_limited`, `internal`); `message` is for humans.
    """

    def __init__(
        self, message: str, *, status: int, code: str, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.headers: dict[str, str] = {k.lower(): v for k, v in (headers or {}).items()}


class BadRequestError(APIError):
    """400 `invalid_request`: an unparseable parameter or cursor."""


class AuthenticationError(APIError):
    """401 `unauthorized`: a missing, unknown or revoked key."""


class PermissionDeniedError(APIError):
    """403 `forbidden`: the key lacks the `read` scope (or a signed URL expired)."""


class NotFoundError(APIError):
    """404 `not_found`: no such id in the key's account, or no such snapshot."""


class RateLimitError(APIError):
    """429 `rate_limited`, still over the limit after the client's retries.

    `retry_after` is the seconds the API asked to wait; `limit`, `remaining` and `reset`
    are its `X-RateLimit-*` values (None when a header was absent).
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        headers: Mapping[str, str] | None = None,
        retry_after: float | None = None,
        limit: int | None = None,
        remaining: int | None = None,
        reset: int | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, headers=headers)
        self.retry_after = retry_after
        self.limit = limit
        self.remaining = remaining
        self.reset = reset


class InternalServerError(APIError):
    """5xx: a fault on the service's side, still there after the client's retries."""


class WebhookVerificationError(TidemarkError):
    """A webhook request whose signature, timestamp or headers do not check out."""
