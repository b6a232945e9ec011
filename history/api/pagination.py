"""Keyset cursor pagination (DESIGN: Identifiers, time, ordering).

A cursor is the sort key `(time, internal id)` of the last row served, packed in 16 bytes,
followed by a 16-byte HMAC over that key and the page's *binding*: the account, the
endpoint, the path id and every filter value. It is written in unpadded base64url. A
cursor that is garbage, tampered, or reused with another account, endpoint or filter fails
the HMAC and answers 400 invalid_request. `limit` is not bound: changing the page size
between pages is harmless.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.response import Response

from history.api import params
from history.api.errors import InvalidRequest
from history.selectors import SortKey

_PACK = struct.Struct(">qq")
_MAC_BYTES = 16
_SALT = "tidemark.api.cursor"


@functools.lru_cache(maxsize=4)
def _keyed(secret: str) -> hmac.HMAC:
    """An HMAC keyed as Django's `salted_hmac` keys it, made once per secret.

    Each cursor copies it rather than keying a new one: `hmac.digest` sets the key up again
    at every call, which costs more than hashing the cursor itself."""
    key = hashlib.sha256((_SALT + secret).encode()).digest()
    return hmac.new(key, digestmod=hashlib.sha256)


def _mac(binding: str, packed: bytes) -> bytes:
    """`salted_hmac(_SALT, binding NUL packed, algorithm="sha256")`, truncated."""
    mac = _keyed(settings.SECRET_KEY).copy()
    mac.update(binding.encode() + b"\x00" + packed)
    return mac.digest()[:_MAC_BYTES]


def encode_cursor(binding: str, key: SortKey) -> str:
    packed = _PACK.pack(*key)
    return base64.urlsafe_b64encode(packed + _mac(binding, packed)).rstrip(b"=").decode()


def decode_cursor(binding: str, cursor: str) -> SortKey:
    """The sort key inside a cursor made for this binding, else 400 invalid_request."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != _PACK.size + _MAC_BYTES:
        raise InvalidRequest("cursor is not valid; pass back pagination.nextCursor verbatim.")
    packed, mac = raw[: _PACK.size], raw[_PACK.size :]
    if not hmac.compare_digest(mac, _mac(binding, packed)):
        raise InvalidRequest("cursor does not belong to this endpoint and these filters.")
    time, pk = _PACK.unpack(packed)
    return time, pk


@dataclass(frozen=True, slots=True)
class KeysetPage:
    """The page a request asks for: its size, where it starts, and its cursor binding."""

    binding: str
    limit: int
    after: SortKey | None

    @classmethod
    def from_request(cls, request: Request, endpoint: str, *filters: Any) -> KeysetPage:
        """Parse `limit` and `cursor`; the binding covers account, endpoint and filters."""
        account_id = request.auth.account_id  # type: ignore[union-attr]
        query = request.query_params
        return cls.make(account_id, endpoint, query.get("limit"), query.get("cursor"), *filters)

    @classmethod
    def make(
        cls, account_id: int, endpoint: str, limit: str | None, cursor: str | None, *filters: Any
    ) -> KeysetPage:
        """The page from raw `limit` and `cursor` values (the MCP tools' path)."""
        binding = "|".join(
            [str(account_id), endpoint, *("" if f is None else str(f) for f in filters)]
        )
        after = None if cursor is None else decode_cursor(binding, cursor)
        return cls(binding=binding, limit=params.parse_limit(limit), after=after)

    def page(self, items: Sequence[tuple[SortKey, dict[str, Any]]]) -> dict[str, Any]:
        """`{data, pagination}` from up to limit + 1 items; the extra one means hasMore."""
        has_more = len(items) > self.limit
        shown = items[: self.limit]
        next_cursor = encode_cursor(self.binding, shown[-1][0]) if has_more else None
        return {
            "data": _data(shown),
            "pagination": {"nextCursor": next_cursor, "hasMore": has_more},
        }

    def respond(self, items: Sequence[tuple[SortKey, dict[str, Any]]]) -> Response:
        return Response(self.page(items))


def _data(items: Iterable[tuple[SortKey, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [item for _, item in items]
