"""A bound on the `GET /mcp` event streams each key holds open.

The server is stateless, so a GET stream never carries a message; yet the SDK keeps each
one open (a task and a socket) until the client leaves. `StreamLimit` sits behind the
SDK's auth check and in front of its transport: a key (or OAuth token) with
`MCP_MAX_STREAMS_PER_KEY` streams open on this process gets `429` with a JSON-RPC error
body and `Retry-After`, and a slot frees when its stream ends, however it ends. Counted per
process: the bound across N processes is N times the setting.
"""

from __future__ import annotations

import orjson
from django.conf import settings
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from starlette.types import ASGIApp, Receive, Scope, Send

RETRY_AFTER_SECONDS = 5
TOO_MANY_STREAMS = -32000  # JSON-RPC's implementation-defined server error range


class StreamLimit:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.open: dict[str, int] = {}  # client id ("key:<pk>", "oauth:<id>") -> streams

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        user = scope.get("user")
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or not isinstance(user, AuthenticatedUser)
        ):
            await self.app(scope, receive, send)
            return
        holder = user.access_token.client_id
        count = self.open.get(holder, 0)
        # No await between the check and the increment: one event loop, no race.
        if count >= settings.MCP_MAX_STREAMS_PER_KEY:
            await _refuse(send, settings.MCP_MAX_STREAMS_PER_KEY)
            return
        self.open[holder] = count + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[holder] - 1
            if left:
                self.open[holder] = left
            else:
                del self.open[holder]


async def _refuse(send: Send, limit: int) -> None:
    body = orjson.dumps(
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": TOO_MANY_STREAMS,
                "message": f"Too many open event streams: at most {limit} per key.",
            },
        }
    )
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
