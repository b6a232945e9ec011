"""The MCP server as a real process (uvicorn on a free loopback port, reading pytest-django's
test database), driven with the `mcp` SDK's own streamable-HTTP client and ClientSession."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import httpx2
import pytest
from django.conf import settings
from django.test import Client
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from oauth2_provider.models import AccessToken as OAuthAccessToken

from accounts import keys
from accounts.models import Account
from history.ingest import ingest
from history.models import Change, Entry, Source, Update
from tests.factories import AccountFactory
from tests.live import database_url, free_port

ROOT = Path(__file__).resolve().parents[2]
UVICORN = Path(sys.executable).parent / "uvicorn"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def mcp_url(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any) -> Iterator[str]:
    port = free_port()
    # The same snapshot storage as this process, which writes the blobs.
    storage = str(settings.STORAGE_DIR)
    with django_db_blocker.unblock():
        test_database = database_url()
    env = {
        **os.environ,
        "DATABASE_URL": test_database,
        "MCP_PORT": str(port),
        "MCP_RESOURCE_URL": f"http://127.0.0.1:{port}/mcp",
        "STORAGE_DIR": str(storage),
        "RATE_LIMIT_DEFAULT": "300",
    }
    log = (tmp_path_factory.mktemp("mcp") / "server.log").open("wb")
    proc = subprocess.Popen(
        [str(UVICORN), "mcpserver.asgi:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        proc.kill()
        raise AssertionError("the MCP server did not start")
    yield url
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


def _call(url: str, key: str, steps: Any) -> Any:
    """Open a session with `key` and run `steps(session)` in it."""

    async def run() -> Any:
        headers = {"Authorization": f"Bearer {key}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as client,
            streamable_http_client(url, http_client=client) as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await steps(session)

    # In its own thread: the browser tests' Playwright keeps an event loop running in this
    # one for the whole session.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, run).result()


def _history(account: Any, prices: list[float]) -> None:
    for price in prices:
        ingest(
            {
                "account": account.slug,
                "source": {"url": "https://shop.example.com/list", "name": "Shop"},
                "entries": [
                    {"identityKey": f"k{i}", "title": f"Item {i}", "price": price + i}
                    for i in range(3)
                ],
                "snapshot": {"markdown": f"# Shop at {price}\n"},
            },
            account=account,
        )


TOOLS = {
    "list_sources",
    "list_source_entries",
    "list_updates",
    "list_entry_updates",
    "list_entry_changes",
    "get_snapshot",
}


def test_tools_are_listed_with_input_schemas_and_answer_as_the_api(mcp_url: str) -> None:
    account = cast(Account, AccountFactory())
    _, key = keys.mint_key(account=account, scopes=["read", "mcp"], name="agent")
    _history(account, [10.0, 12.0])
    source = Source.objects.get()
    entry = Entry.objects.get(identity_key="k0")
    change = Change.objects.order_by("-at").first()
    assert change is not None

    async def steps(session: ClientSession) -> Any:
        tools = await session.list_tools()
        results = {
            "sources": await session.call_tool("list_sources", {}),
            "entries": await session.call_tool(
                "list_source_entries", {"source_id": source.public_id}
            ),
            "updates": await session.call_tool("list_updates", {"since": 0}),
            "updates_iso": await session.call_tool(
                "list_updates", {"since": "2000-01-01T00:00:00Z", "importance": "material"}
            ),
            "entry_updates": await session.call_tool(
                "list_entry_updates", {"entry_id": entry.public_id, "field": "price"}
            ),
            "changes": await session.call_tool("list_entry_changes", {"entry_id": entry.public_id}),
            "snapshot": await session.call_tool("get_snapshot", {"change_id": change.public_id}),
        }
        return tools, results

    tools, results = _call(mcp_url, key, steps)

    assert {tool.name for tool in tools.tools} == TOOLS
    assert all(tool.input_schema.get("type") == "object" for tool in tools.tools)
    errors = {k: r.content for k, r in results.items() if r.is_error}
    assert errors == {}
    sources = results["sources"].structured_content
    assert sources["pagination"] == {"nextCursor": None, "hasMore": False}
    assert [s["id"] for s in sources["data"]] == [source.public_id]
    assert {e["identityKey"] for e in results["entries"].structured_content["data"]} == {
        "k0",
        "k1",
        "k2",
    }
    feed = results["updates"].structured_content["data"]
    assert len(feed) == Update.objects.count() == 6  # 3 new, 3 repriced
    assert {"entryId", "sourceId", "entry", "source"} <= set(feed[0])
    [moved] = results["entry_updates"].structured_content["data"]
    assert moved["valueChange"] == {"type": "number", "previous": 10, "current": 12}
    assert len(results["changes"].structured_content["data"]) == 2
    assert results["snapshot"].content[0].text == "# Shop at 12.0\n"


def test_a_collection_pages_to_its_end_with_the_cursor(mcp_url: str) -> None:
    account = cast(Account, AccountFactory())
    _, key = keys.mint_key(account=account, scopes=["read", "mcp"], name="agent")
    _history(account, [1.0, 2.0, 3.0])  # 9 updates

    async def steps(session: ClientSession) -> list[str]:
        seen: list[str] = []
        cursor = None
        while True:
            args: dict[str, Any] = {"limit": 4}
            if cursor:
                args["cursor"] = cursor
            page = (await session.call_tool("list_updates", args)).structured_content
            assert set(page) == {"data", "pagination"}
            seen += [item["id"] for item in page["data"]]
            if not page["pagination"]["hasMore"]:
                assert page["pagination"]["nextCursor"] is None
                return seen
            cursor = page["pagination"]["nextCursor"]

    seen = _call(mcp_url, key, steps)

    assert len(seen) == len(set(seen)) == 9


def test_errors_are_tool_results_with_the_apis_codes(mcp_url: str) -> None:
    account, other = cast(Account, AccountFactory()), cast(Account, AccountFactory())
    _, key = keys.mint_key(account=account, scopes=["read", "mcp"], name="agent")
    _history(other, [5.0])
    foreign = Source.objects.get(account=other)

    async def steps(session: ClientSession) -> Any:
        return (
            await session.call_tool("list_source_entries", {"source_id": foreign.public_id}),
            await session.call_tool("list_updates", {"since": "yesterday"}),
            await session.call_tool("list_updates", {"cursor": "garbage"}),
        )

    not_found, bad_since, bad_cursor = _call(mcp_url, key, steps)

    assert not_found.is_error
    assert not_found.structured_content["error"]["code"] == "not_found"
    assert not_found.content[0].text.startswith("not_found: ")
    assert bad_since.structured_content["error"]["code"] == "invalid_request"
    assert bad_cursor.structured_content["error"]["code"] == "invalid_request"


def test_missing_bad_and_unscoped_keys_are_refused(mcp_url: str) -> None:
    account = cast(Account, AccountFactory())
    _, read_only = keys.mint_key(account=account, scopes=["read"], name="api only")
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Accept": "application/json, text/event-stream"}

    missing = httpx.post(mcp_url, json=body, headers=headers)
    bad = httpx.post(mcp_url, json=body, headers={**headers, "Authorization": "Bearer nope"})
    unscoped = httpx.post(
        mcp_url, json=body, headers={**headers, "Authorization": f"Bearer {read_only}"}
    )

    for response in (missing, bad):
        assert response.status_code == 401
        challenge = response.headers["www-authenticate"]
        assert 'resource_metadata="' in challenge
        assert "/.well-known/oauth-protected-resource" in challenge
    assert unscoped.status_code == 403
    assert 'error="insufficient_scope"' in unscoped.headers["www-authenticate"]
    metadata = httpx.get(mcp_url.replace("/mcp", "/.well-known/oauth-protected-resource")).json()
    assert metadata["resource"].endswith("/mcp")
    assert metadata["scopes_supported"] == ["mcp"]
    same = httpx.get(mcp_url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"))
    assert same.json() == metadata


def test_each_tool_call_counts_against_the_keys_rate_limit(mcp_url: str) -> None:
    account = cast(Account, AccountFactory())
    row, key = keys.mint_key(account=account, scopes=["read", "mcp"], name="agent")
    type(row).objects.filter(pk=row.pk).update(rate_limit=3)

    async def steps(session: ClientSession) -> list[Any]:
        return [await session.call_tool("list_sources", {}) for _ in range(4)]

    results = _call(mcp_url, key, steps)

    assert [r.is_error for r in results] == [False, False, False, True]
    error = results[-1].structured_content["error"]
    assert error["code"] == "rate_limited"
    assert "retry after" in error["message"]


def _pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.rstrip(b"=").decode()


def test_an_oauth_token_from_the_full_flow_works_on_mcp_and_not_on_v1(
    mcp_url: str, client: Client
) -> None:
    account = cast(Account, AccountFactory())
    _history(account, [7.0])
    redirect_uri = "http://127.0.0.1:9/callback"
    metadata = client.get("/.well-known/oauth-authorization-server").json()
    assert {"authorization_endpoint", "token_endpoint", "registration_endpoint"} <= set(metadata)
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert metadata["response_types_supported"] == ["code"]

    # RFC 7591: the agent registers itself as a public client.
    registered = client.post(
        "/oauth/register/",
        data=json.dumps(
            {
                "client_name": "Test agent",
                "redirect_uris": [redirect_uri],
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"],
                "token_endpoint_auth_method": "none",
            }
        ),
        content_type="application/json",
    )
    assert registered.status_code == 201, registered.content
    client_id = registered.json()["client_id"]

    # The owner signs in and approves it on the consent page (PKCE, resource = /mcp).
    verifier, challenge = _pkce()
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "scope": "mcp",
        "state": "s1",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "resource": mcp_url,  # RFC 8707: the token is for this MCP server only
    }
    client.force_login(account.owner)
    consent = client.get("/oauth/authorize/", query)
    assert consent.status_code == 200
    assert "Test agent" in consent.content.decode()
    form = {
        **{k: v for k, v in query.items() if k != "resource"},
        "resource": mcp_url,
        "allow": "Authorize",
    }
    approved = client.post("/oauth/authorize/", form)
    assert approved.status_code == 302
    params = parse_qs(urlsplit(approved["Location"]).query)
    assert params["state"] == ["s1"]

    token = client.post(
        "/oauth/token/",
        {
            "grant_type": "authorization_code",
            "code": params["code"][0],
            "redirect_uri": redirect_uri,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    ).json()
    access = token["access_token"]
    assert access.startswith(settings.OAUTH_TOKEN_PREFIX)

    async def steps(session: ClientSession) -> Any:
        return await session.call_tool("list_sources", {})

    sources = _call(mcp_url, access, steps)
    assert not sources.is_error
    assert [s["url"] for s in sources.structured_content["data"]] == [
        "https://shop.example.com/list"
    ]
    refused = client.get("/v1/sources", headers={"Authorization": f"Bearer {access}"})
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "unauthorized"

    # The owner sees the agent on /connect-agent and revokes it: the token stops working.
    page = client.get("/connect-agent").content.decode()
    assert "Test agent" in page
    [agent_id] = {t.application_id for t in OAuthAccessToken.objects.filter(user=account.owner)}
    assert client.post(f"/connect-agent/agents/{agent_id}/revoke").status_code == 302
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    after = httpx.post(
        mcp_url,
        json=body,
        headers={
            "Authorization": f"Bearer {access}",
            "Accept": "application/json, text/event-stream",
        },
    )
    assert after.status_code == 401
