"""The `/v1` read API: viewsets restricted to GET, each action a few lines.

Every action validates its parameters, calls one selector (raw keyset SQL building wire
dicts) and paginates. Responses are rendered by orjson. The base class adds what every
`/v1` path shares: GET and OPTIONS only (405 before authentication), an OPTIONS answer
without a key, and the X-RateLimit-* headers on counted responses.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, cast

from django.core.files.storage import default_storage
from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.exceptions import MethodNotAllowed, NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from accounts.throttling import ApiKeyRateThrottle
from history import ids, selectors, signing
from history.api import params, schema
from history.api.errors import ALLOWED_METHODS
from history.api.pagination import KeysetPage

# Statuses that passed the rate limiter and so carry its headers (spec: Limits, rule 1).
COUNTED_STATUSES = frozenset({200, 302, 400, 404, 429})


def _account(request: Request) -> int:
    return request.auth.account_id  # type: ignore[union-attr]


class ReadViewSet(viewsets.ViewSet):
    """Base for every `/v1` view; authentication and the scope check come from settings.

    DRF runs authentication and permissions before throttles, so 401 and 403 are never
    counted (spec: Authentication, rule 8).
    """

    throttle_classes: Sequence[type[BaseThrottle]] = (ApiKeyRateThrottle,)

    @property
    def allowed_methods(self) -> list[str]:
        """What DRF writes into `Allow` on every response: HEAD is not served (DESIGN 5)."""
        return ["GET", "OPTIONS"]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # The method is checked first so that 405 never depends on the key (DESIGN 5).
        if request.method not in ("GET", "OPTIONS"):
            raise MethodNotAllowed(request.method or "")
        if request.method == "OPTIONS":
            # No key for OPTIONS: negotiate the renderer only, skip auth and counting.
            self.format_kwarg = None
            request.accepted_renderer, request.accepted_media_type = (
                self.perform_content_negotiation(request)
            )
            return
        super().initial(request, *args, **kwargs)

    # DRF's stubs say Response; any HttpResponse is valid from a DRF handler.
    def options(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:  # type: ignore[override]
        """A bare OPTIONS (CORS preflights are answered earlier by django-cors-headers)."""
        response = HttpResponse(status=200)
        response["Allow"] = ALLOWED_METHODS
        del response["Content-Type"]
        return response

    def finalize_response(  # type: ignore[override]
        self, request: Request, response: HttpResponseBase, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        # The snapshot action answers plain HttpResponses (bytes, redirects); DRF passes
        # them through unchanged, whatever its stubs say.
        response = super().finalize_response(request, cast(Response, response), *args, **kwargs)
        limit = getattr(request, "ratelimit", None)
        if limit is not None and response.status_code in COUNTED_STATUSES:
            response["X-RateLimit-Limit"] = str(limit.limit)
            response["X-RateLimit-Remaining"] = str(limit.remaining)
            response["X-RateLimit-Reset"] = str(limit.reset)
        # Django runs a response's resource closers from close(), after the body is sent.
        closers = response._resource_closers  # type: ignore[attr-defined]
        closers.append(partial(_break_cycles, self, request, response))
        return response


def _break_cycles(view: ReadViewSet, request: Request, response: HttpResponseBase) -> None:
    """Once the response is closed, cut the reference cycles DRF leaves behind.

    A viewset holds its own bound handlers, a DRF request's parser context holds the
    request, and a response's renderer context holds the response. Left alone, each request
    (view, request, response and the whole page of data) is freed by the cycle collector
    rather than by reference counting, which cost about 80 us a request on the feed
    (docs/performance.md).
    """
    context = getattr(response, "renderer_context", None)
    if context is not None:
        context.clear()
    request.parser_context.clear()
    view.__dict__.clear()


class SourceViewSet(ReadViewSet):
    @extend_schema(**schema.LIST_SOURCES)
    def list(self, request: Request) -> Response:
        page = KeysetPage.from_request(request, "sources")
        return page.respond(selectors.sources_page(_account(request), page.after, page.limit))


class SourceEntryViewSet(ReadViewSet):
    @extend_schema(**schema.LIST_SOURCE_ENTRIES)
    def list(self, request: Request, id: str) -> Response:
        source_id = params.object_id(ids.SOURCE, id, "source")
        page = KeysetPage.from_request(request, "entries", source_id)
        if not selectors.source_exists(_account(request), source_id):
            raise NotFound(f"No source with id {id!r}.")
        items = selectors.entries_page(_account(request), source_id, page.after, page.limit)
        return page.respond(items)


class FeedViewSet(ReadViewSet):
    @extend_schema(**schema.LIST_UPDATES)
    def list(self, request: Request) -> Response:
        since = params.since(request)
        importance = params.importance(request)
        page = KeysetPage.from_request(request, "feed", since, importance)
        items = selectors.feed_page(
            _account(request),
            since=since,
            importance=importance,
            after=page.after,
            limit=page.limit,
        )
        return page.respond(items)


class EntryUpdateViewSet(ReadViewSet):
    @extend_schema(**schema.LIST_ENTRY_UPDATES)
    def list(self, request: Request, id: str) -> Response:
        entry_id = params.object_id(ids.ENTRY, id, "entry")
        field = params.field(request)
        importance = params.importance(request)
        page = KeysetPage.from_request(request, "updates", entry_id, field, importance)
        if not selectors.entry_exists(_account(request), entry_id):
            raise NotFound(f"No entry with id {id!r}.")
        items = selectors.entry_updates_page(
            _account(request),
            entry_id,
            field=field,
            importance=importance,
            after=page.after,
            limit=page.limit,
        )
        return page.respond(items)


class EntryChangeViewSet(ReadViewSet):
    @extend_schema(**schema.LIST_ENTRY_CHANGES)
    def list(self, request: Request, id: str) -> Response:
        entry_id = params.object_id(ids.ENTRY, id, "entry")
        page = KeysetPage.from_request(request, "changes", entry_id)
        if not selectors.entry_exists(_account(request), entry_id):
            raise NotFound(f"No entry with id {id!r}.")
        cards = selectors.cards_page(_account(request), entry_id, page.after, page.limit)
        urls = signing.blocks_urls(request, [c.change_id for c in cards if c.has_blocks])
        for card in cards:
            if card.has_blocks:
                card.data["blocksUrl"] = urls[card.change_id]
        return page.respond([((c.data["at"], c.change_id), c.data) for c in cards])


_MEDIA_TYPES = {
    "markdown": "text/markdown; charset=utf-8",
    "html": "text/html; charset=utf-8",
}


class SnapshotViewSet(ReadViewSet):
    @extend_schema(**schema.GET_SNAPSHOT)
    def retrieve(self, request: Request, id: str) -> HttpResponse:
        state = params.choice(request, "state", params.STATES, "current")
        fmt = params.choice(request, "format", params.FORMATS, "markdown")
        change_id = params.object_id(ids.CHANGE, id, "change")
        found, snapshot = selectors.change_snapshot(_account(request), change_id, str(state))
        if not found:
            raise NotFound(f"No change with id {id!r}.")
        if snapshot is None:
            raise NotFound(f"No {state} snapshot is kept for this change.")
        name = getattr(snapshot, f"{fmt}_name")
        if name is None:
            raise NotFound(f"The {state} snapshot has no {fmt}.")
        if fmt == "screenshot":
            response = HttpResponse(status=302)
            response["Location"] = signing.screenshot_url(request, name)
            del response["Content-Type"]
            return response
        try:
            with default_storage.open(name, "rb") as handle:
                body = handle.read()
        except (FileNotFoundError, OSError) as exc:
            raise NotFound(f"The {state} snapshot has no {fmt}.") from exc
        return HttpResponse(body, content_type=_MEDIA_TYPES[str(fmt)])


class OpenApiViewSet(ReadViewSet):
    """GET /v1/openapi.json: the only endpoint without a key, and never rate limited."""

    authentication_classes = ()
    permission_classes = ()
    throttle_classes = ()

    @extend_schema(**schema.GET_OPENAPI)
    def retrieve(self, request: Request) -> Response:
        return Response(schema.document())


class UnknownPathViewSet(ReadViewSet):
    """Any other `/v1` path: 404 not_found (405 for other methods), no key needed."""

    authentication_classes = ()
    permission_classes = ()
    throttle_classes = ()

    @extend_schema(exclude=True)
    def retrieve(self, request: Request, path: str = "") -> Response:
        raise NotFound(f"There is no endpoint at {request.path}.")
