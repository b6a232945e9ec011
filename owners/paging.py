"""Keyset pages for the owner pages, with the API's signed cursors (history.api.pagination).

A cursor is bound to the account, the page and its filters, so a cursor from another page
or filter is refused rather than misread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.http import Http404

from history.api.errors import InvalidRequest
from history.api.pagination import decode_cursor, encode_cursor
from history.selectors import SortKey

T = TypeVar("T")

PAGE_SIZE = 50


@dataclass(frozen=True)
class Keyset:
    binding: str
    after: SortKey | None
    size: int

    @classmethod
    def of(cls, cursor: str | None, *binding: Any, size: int | None = None) -> Keyset:
        """The page a `?cursor=` asks for; a cursor that is not ours answers 404."""
        bound = "|".join(["pages", *("" if b is None else str(b) for b in binding)])
        size = size or PAGE_SIZE
        if not cursor:
            return cls(bound, None, size)
        try:
            return cls(bound, decode_cursor(bound, cursor), size)
        except InvalidRequest as exc:
            raise Http404("This page link is no longer valid.") from exc

    def cut(self, rows: Sequence[T], key: Any) -> tuple[Sequence[T], str | None]:
        """The rows to show (of up to size + 1 fetched) and the next page's cursor."""
        if len(rows) <= self.size:
            return rows, None
        shown = rows[: self.size]
        return shown, encode_cursor(self.binding, key(shown[-1]))
