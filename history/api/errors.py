"""The error envelope `{"error": {"code", "message"}}` for every failure under `/v1`.

The code set and its pairing with HTTP statuses are fixed by the spec (Errors); nothing
else may reach a client. DRF's own exceptions (authentication, parsing, throttling), Django's
Http404 and any unexpected exception all pass through `exception_handler`, which is set as
DRF's EXCEPTION_HANDLER. A 500 logs the trace and shows only a generic message.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import SuspiciousOperation, TooManyFieldsSent
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import set_rollback

log = logging.getLogger(__name__)

CODES: dict[int, str] = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    429: "rate_limited",
    500: "internal",
}
ALLOWED_METHODS = "GET, OPTIONS"

_DEFAULT_MESSAGES: dict[int, str] = {
    400: "The request is invalid.",
    401: "Authentication credentials were not provided.",
    403: "This API key is not allowed to do that.",
    404: "Not found.",
    405: "Only GET and OPTIONS are supported.",
    429: "Rate limit exceeded.",
    500: "Internal error.",
}


class InvalidRequest(exceptions.APIException):
    """400 invalid_request: an unparseable or out-of-range parameter."""

    status_code = 400
    default_detail = _DEFAULT_MESSAGES[400]
    default_code = "invalid_request"


def envelope(status: int, message: str | None = None) -> dict[str, Any]:
    return {"error": {"code": CODES[status], "message": message or _DEFAULT_MESSAGES[status]}}


def error_response(
    status: int, message: str | None = None, headers: dict[str, str] | None = None
) -> Response:
    return Response(envelope(status, message), status=status, headers=headers)


def _message(detail: Any) -> str:
    """First human message out of DRF's detail (a string, a list or a dict of them)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _message(value)
            return inner if key == "non_field_errors" else f"{key}: {inner}"
        return ""
    if isinstance(detail, list | tuple):
        return _message(detail[0]) if detail else ""
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """Turn any exception raised in a `/v1` view into the envelope with its fixed status."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        exc = InvalidRequest(f"The query string has more than {limit} parameters.")
    elif isinstance(exc, SuspiciousOperation):  # Django answers these 400 too
        exc = InvalidRequest()

    if not isinstance(exc, exceptions.APIException):
        log.error("Unhandled error in %s", context.get("view"), exc_info=exc)
        set_rollback()
        return error_response(500)

    status = exc.status_code
    headers: dict[str, str] = {}
    if status >= 500:
        log.error("API error in %s", context.get("view"), exc_info=exc)
        status = 500
    elif status not in CODES:
        # 406, 415 and the like cannot be told apart by a client in the fixed code set:
        # they all mean the request was not acceptable as sent.
        status = 400
    if status == 401:
        headers["WWW-Authenticate"] = getattr(exc, "auth_header", None) or 'Bearer realm="api"'
    elif status == 405:
        headers["Allow"] = ALLOWED_METHODS
    elif status == 429:
        wait = getattr(exc, "wait", None)
        headers["Retry-After"] = str(max(1, math.ceil(wait or 1)))

    if status == 500:
        message = None  # never echo internals
    elif status == 405:
        message = f"Method {context['request'].method} is not allowed; use GET."
    elif status == 429:
        message = "Rate limit exceeded; retry after the number of seconds in Retry-After."
    else:
        message = _message(exc.detail)
    set_rollback()
    return error_response(status, message, headers)
