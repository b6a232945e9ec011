"""Short-lived signed URLs for screenshots and block-diff JSON (DESIGN decision 10).

A URL is `/blobs/<token>`, where the token is a `TimestampSigner` signature (keyed by
SECRET_KEY, salted for this purpose) over what to serve: a screenshot's storage name or a
change's id. The app serves it with no API key; a token older than
`SIGNED_URL_TTL_SECONDS` or altered in any way answers 403. The token carries no account:
holding an unexpired URL is the permission, exactly as with a pre-signed S3 URL.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import orjson
from django.conf import settings
from django.core import signing
from django.core.files.storage import default_storage
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.urls import get_script_prefix, reverse

from history import pagestate, selectors

_SALT = "tidemark.blob"
SCREENSHOT = "s"
BLOCKS = "b"


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=_SALT)


def sign(kind: str, ref: str, signer: signing.TimestampSigner | None = None) -> str:
    """A token for one blob: `kind` is SCREENSHOT (ref = storage name) or BLOCKS (change pk).

    Not compressed: the payload is tiny, and setting up zlib cost more than all the rest.
    """
    return (signer or _signer()).sign_object([kind, ref])


@functools.lru_cache(maxsize=8)
def _blob_path(script_prefix: str) -> str:
    """`/blobs/` under this script prefix (reversing costs more than signing a token)."""
    return reverse("blob", args=["-"])[:-1]


def _blob_prefix(request: HttpRequest) -> str:
    """The absolute URL of `/blobs/` on this host; a token completes it (tokens are URL-safe)."""
    return request.build_absolute_uri(_blob_path(get_script_prefix()))


def screenshot_url(request: HttpRequest, storage_name: str) -> str:
    """A short-lived URL of the screenshot: on S3 a presigned URL of the object (valid
    SIGNED_URL_TTL_SECONDS), else a signed `/blobs/` URL served here."""
    if settings.S3_BUCKET:
        return str(default_storage.url(storage_name))
    return _blob_prefix(request) + sign(SCREENSHOT, storage_name)


def blocks_urls(request: HttpRequest, change_ids: Iterable[int]) -> dict[int, str]:
    """Signed block-diff URLs for the given changes; the URL prefix and signer built once."""
    return _blocks_urls(_blob_prefix(request), change_ids)


def blocks_urls_for(base_url: str, change_ids: Iterable[int]) -> dict[int, str]:
    """The same, on the app's configured address (for callers without a request: MCP)."""
    return _blocks_urls(base_url.rstrip("/") + _blob_path("/"), change_ids)


def _blocks_urls(prefix: str, change_ids: Iterable[int]) -> dict[int, str]:
    signer = _signer()
    return {pk: prefix + sign(BLOCKS, str(pk), signer) for pk in change_ids}


def unsign(token: str) -> tuple[str, str] | None:
    """(kind, ref) for a valid, unexpired token; None when forged, altered or expired."""
    try:
        value: Any = _signer().unsign_object(token, max_age=settings.SIGNED_URL_TTL_SECONDS)
    except signing.BadSignature:  # SignatureExpired is a subclass
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, str) for v in value):
        return None
    return value[0], value[1]


def _image_type(head: bytes) -> str:
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return "application/octet-stream"


def serve_blob(request: HttpRequest, token: str) -> HttpResponse:
    """GET /blobs/<token>: the screenshot bytes or the block-diff JSON, no key needed."""
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    found = unsign(token)
    if found is None:
        return HttpResponse(
            "This link is invalid or has expired.", status=403, content_type="text/plain"
        )
    kind, ref = found
    if kind == SCREENSHOT:
        try:
            body = pagestate.read_blob(ref)
        except (FileNotFoundError, OSError):
            return HttpResponse("Not found.", status=404, content_type="text/plain")
        response = HttpResponse(body, content_type=_image_type(body[:12]))
    elif kind == BLOCKS and ref.isdigit():
        blocks = selectors.change_blocks(int(ref))
        if blocks is None:
            return HttpResponse("Not found.", status=404, content_type="text/plain")
        response = HttpResponse(orjson.dumps(blocks), content_type="application/json")
    else:
        return HttpResponse("Not found.", status=404, content_type="text/plain")
    # The URL is a capability: keep it out of shared caches and referrers.
    response["Cache-Control"] = "private, max-age=60"
    response["Referrer-Policy"] = "no-referrer"
    return response
