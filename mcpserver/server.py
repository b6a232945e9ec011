"""The MCP server (Streamable HTTP at `/mcp`, official `mcp` SDK), its tools and their auth.

Each tool mirrors one read API call and answers with the API's field names and shapes: the
tools call `history.api.reads`, as /v1's views do. A personal key (`svc_mcp_…`) with the
`mcp` scope authenticates (the SDK's bearer middleware answers 401 with the RFC 9728
`resource_metadata` pointer, and 403 `insufficient_scope` without `mcp`); every
`tools/call` counts in the key's rate-limit window like an API request. A failed call is a
tool result with `isError: true`, its text `<code>: <message>` and its structured content
`{"error": {"code", "message"}}`, with the API's codes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import anyio.to_thread
from django.conf import settings
from django.db import close_old_connections
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent
from pydantic import AnyHttpUrl
from rest_framework.exceptions import APIException, AuthenticationFailed, NotFound

from accounts import keys, ratelimit
from accounts.authentication import lookup
from history import signing
from history.api import reads
from history.api.errors import InvalidRequest
from mcpserver import oauth

MCP_SCOPE = "mcp"
T = TypeVar("T")


class ToolFailure(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _in_thread(fn: Callable[[], T]) -> T:
    """Run ORM work the way Django's request cycle would: stale connections closed."""
    close_old_connections()
    try:
        return fn()
    finally:
        close_old_connections()


async def run_sync(fn: Callable[[], T]) -> T:
    return await anyio.to_thread.run_sync(functools.partial(_in_thread, fn))


class KeyVerifier:
    """Personal API keys, and OAuth access tokens issued for this server, as bearer tokens."""

    async def verify_token(self, token: str) -> AccessToken | None:
        if token.startswith(settings.OAUTH_TOKEN_PREFIX):
            found = await run_sync(lambda: oauth.verify(token))
            if found is None:
                return None
            account_id, token_id, scopes = found
            return AccessToken(
                token=token,
                client_id=f"oauth:{token_id}",
                scopes=scopes,
                subject=str(account_id),
                resource=settings.MCP_RESOURCE_URL,
                claims={"rate_limit": None, "digest": f"oat:{token_id}"},
            )
        if not keys.is_well_formed(token):
            return None
        digest = keys.digest(token)
        try:
            key = await run_sync(lambda: lookup(digest))
        except AuthenticationFailed:
            return None
        return AccessToken(
            token=token,
            client_id=f"key:{key.pk}",
            scopes=list(key.scopes),
            subject=str(key.account_id),
            resource=settings.MCP_RESOURCE_URL,
            claims={"rate_limit": key.rate_limit, "digest": key.digest},
        )


def _caller() -> tuple[int, str, int | None]:
    """(account id, key digest, its rate limit) of the authenticated caller."""
    token = get_access_token()
    if token is None or token.subject is None or token.claims is None:
        raise ToolFailure("unauthorized", "No valid key was sent.")
    return int(token.subject), str(token.claims["digest"]), token.claims.get("rate_limit")


def _count(digest: str, limit: int | None) -> None:
    result = ratelimit.hit(digest, limit)
    if result is not None and not result.allowed:
        raise ToolFailure(
            "rate_limited",
            f"Rate limit of {result.limit} requests per minute exceeded; "
            f"retry after {result.reset} seconds.",
        )


def _failure(code: str, message: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=f"{code}: {message}")],
        structured_content={"error": {"code": code, "message": message}},
        is_error=True,
    )


def _message(exc: APIException) -> str:
    detail = exc.detail
    return str(detail if isinstance(detail, str) else exc.default_detail)


async def call(read: Callable[[int], dict[str, Any]]) -> Any:
    """Authenticate, count, run one read in a thread; failures as tool errors."""
    try:
        account_id, digest, limit = _caller()
        await run_sync(lambda: _count(digest, limit))
        return await run_sync(lambda: read(account_id))
    except ToolFailure as exc:
        return _failure(exc.code, exc.message)
    except InvalidRequest as exc:
        return _failure("invalid_request", _message(exc))
    except NotFound as exc:
        return _failure("not_found", _message(exc))


def _text(value: int | str | None) -> str | None:
    return None if value is None else str(value)


def _blocks_urls(change_ids: Iterable[int]) -> dict[int, str]:
    return signing.blocks_urls_for(settings.APP_BASE_URL, change_ids)


def build() -> MCPServer:
    server = MCPServer(
        name="Tidemark",
        instructions=(
            "Item-level change history of web pages watched by one account: its sources, "
            "their entries, and every typed update. Collections page with `cursor` until "
            "`pagination.hasMore` is false."
        ),
        token_verifier=KeyVerifier(),
        auth=AuthSettings(
            issuer_url=AnyHttpUrl(settings.APP_BASE_URL),
            resource_server_url=AnyHttpUrl(settings.MCP_RESOURCE_URL),
            required_scopes=[MCP_SCOPE],
            validate_token_resource=False,
        ),
    )

    @server.tool(name="list_sources", description="The account's watched pages, newest first.")
    async def list_sources(limit: int | None = None, cursor: str | None = None) -> dict[str, Any]:
        return await call(lambda a: reads.sources(a, limit=_text(limit), cursor=cursor))

    @server.tool(
        name="list_source_entries",
        description="A source's entries (its repeating items), most recently updated first.",
    )
    async def list_source_entries(
        source_id: str, limit: int | None = None, cursor: str | None = None
    ) -> dict[str, Any]:
        return await call(
            lambda a: reads.source_entries(a, source_id, limit=_text(limit), cursor=cursor)
        )

    @server.tool(
        name="list_updates",
        description=(
            "The account's updates across sources, newest first. `since`: epoch ms (an "
            "integer or digits) or an ISO-8601 instant with an offset; `importance`: "
            "critical, material or minor."
        ),
    )
    async def list_updates(
        since: int | str | None = None,
        importance: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        return await call(
            lambda a: reads.updates(
                a, since=_text(since), importance=importance, limit=_text(limit), cursor=cursor
            )
        )

    @server.tool(name="list_entry_updates", description="One entry's updates, newest first.")
    async def list_entry_updates(
        entry_id: str,
        field: str | None = None,
        importance: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        return await call(
            lambda a: reads.entry_updates(
                a, entry_id, field=field, importance=importance, limit=_text(limit), cursor=cursor
            )
        )

    @server.tool(
        name="list_entry_changes",
        description="One entry's timeline: a card per fetch that changed it, newest first.",
    )
    async def list_entry_changes(
        entry_id: str, limit: int | None = None, cursor: str | None = None
    ) -> dict[str, Any]:
        return await call(
            lambda a: reads.entry_changes(
                a, entry_id, blocks_urls=_blocks_urls, limit=_text(limit), cursor=cursor
            )
        )

    @server.tool(
        name="get_snapshot",
        description="The page as a change captured it, as markdown text ("
        "`state`: current or previous).",
    )
    async def get_snapshot(change_id: str, state: str | None = None) -> Any:
        def read(account_id: int) -> Any:
            name = reads.snapshot_name(account_id, change_id, state=state, fmt="markdown")
            body = reads.snapshot_bytes(name, state=state, fmt="markdown")
            return CallToolResult(
                content=[TextContent(type="text", text=body.decode("utf-8", "replace"))]
            )

        return await call(read)

    return server
