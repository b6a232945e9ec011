"""The client against a real Tidemark web process (gunicorn, PostgreSQL, Redis), sync and
async: paging, filters, errors, a 429 waited out, snapshots."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest
import redis
import tidemark

from accounts import keys
from accounts.ratelimit import counter_name
from history.models import Change, Entry, Update
from tests.client.conftest import PNG, Tenant, shop_fetch
from tests.client.driver import Driver

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def feed_ids() -> list[str]:
    """The feed's order: newest first, ties by internal key."""
    return [u.public_id for u in Update.objects.order_by("-at", "-pk")]


def test_a_collection_is_read_across_pages_to_its_end(
    api_url: str, tenant: Tenant, mode: str
) -> None:
    for prices in ({"a": 10.0, "b": 20.0, "c": 30.0}, {"a": 11.0, "b": 21.0, "c": 31.0}):
        shop_fetch(tenant.account, prices)
    shop_fetch(tenant.account, {"a": 12.0, "b": 22.0, "c": 300.0})  # c sells out too
    drive = Driver(mode, api_url, tenant.key)

    pages = drive(lambda c: c.updates.list(limit=4).pages())
    updates = drive(lambda c: c.updates.list(limit=4))
    first = drive(lambda c: c.updates.list(limit=4).first_page())

    assert [len(page.data) for page in pages] == [4, 4, 2]
    assert [page.has_more for page in pages] == [True, True, False]
    assert pages[-1].next_cursor is None
    assert [u.id for u in updates] == feed_ids()  # every page, in order, nothing twice
    assert [u.id for u in first.data] == feed_ids()[:4]
    assert first.has_more is True
    assert isinstance(first.next_cursor, str)
    assert first.rate_limit is not None
    assert first.rate_limit.limit == 300

    moved = next(u for u in updates if u.field == "price" and u.entry_title == "Item c")
    assert isinstance(moved.value_change, tidemark.NumberChange)
    assert (moved.value_change.previous, moved.value_change.current) == (31.0, 300.0)
    assert moved.value_change.unit == "EUR"
    assert moved.update_type == "modified"
    assert moved.importance in {"critical", "material", "minor"}
    assert moved.entry is not None
    assert moved.entry.id == moved.entry_id
    assert moved.source is not None
    assert moved.source.url == "https://shop.example.com/list"
    assert moved.raw["valueChange"]["current"] == 300
    flipped = next(u for u in updates if u.field == "inStock")
    assert isinstance(flipped.value_change, tidemark.BooleanChange)
    assert (flipped.value_change.previous, flipped.value_change.current) == (True, False)
    new = [u for u in updates if u.update_type == "new"]
    assert len(new) == 3
    assert all(u.field is None and u.value_change is None for u in new)


def test_sources_entries_updates_and_changes(api_url: str, tenant: Tenant, mode: str) -> None:
    shop_fetch(tenant.account, {"a": 10.0, "b": 20.0})
    shop_fetch(tenant.account, {"a": 12.0, "b": 20.0})
    entry = Entry.objects.get(identity_key="a")
    drive = Driver(mode, api_url, tenant.key)

    [source] = drive(lambda c: c.sources.list())
    entries = drive(lambda c: c.sources.entries(source.id, limit=1))
    products = drive(lambda c: c.sources.entries(source.id, kind="product"))
    others = drive(lambda c: c.sources.entries(source.id, kind="plan"))
    history = drive(lambda c: c.entries.updates(entry.public_id, field="price"))
    cards = drive(lambda c: c.entries.changes(entry.public_id, limit=1))

    assert source.url == "https://shop.example.com/list"
    assert source.name == "Shop"
    assert source.status == "active"
    assert source.entry_kinds == [tidemark.EntryKind(name="product", has_price=True)]
    assert source.last_fetch_error_reason is None  # optional and absent: None
    assert {e.identity_key for e in entries} == {"a", "b"}
    assert {e.id for e in products} == {e.id for e in entries}
    assert others == []
    a = next(e for e in entries if e.identity_key == "a")
    assert (a.update_type, a.price, a.currency, a.kind) == ("modified", 12.0, "EUR", "product")
    assert a.attributes is not None
    assert a.attributes["inStock"].b is True
    [moved] = history
    assert isinstance(moved, tidemark.Update)
    assert isinstance(moved.value_change, tidemark.NumberChange)
    assert (moved.value_change.previous, moved.value_change.current) == (10.0, 12.0)
    assert [card.change_id for card in cards] == [
        c.public_id for c in Change.objects.order_by("-at", "-pk")
    ]
    assert (cards[0].previous_price, cards[0].current_price, cards[0].price_delta) == (
        10.0,
        12.0,
        2.0,
    )


class EmptyPageProxy:
    """A loopback proxy in front of the API that answers the first request for a next page
    with an empty page whose `hasMore` is true (what the spec allows when filters narrow a
    page), pointing at a cursor that the proxy then forwards as the real one."""

    MARK = "empty."

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.empty_pages = 0
        self.requests: list[str] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                proxy.requests.append(self.path)
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                cursor = query.get("cursor", "")
                if cursor and not cursor.startswith(proxy.MARK) and not proxy.empty_pages:
                    proxy.empty_pages += 1
                    page = {
                        "data": [],
                        "pagination": {"nextCursor": proxy.MARK + cursor, "hasMore": True},
                    }
                    self._answer(
                        200, {"Content-Type": "application/json"}, json.dumps(page).encode()
                    )
                    return
                if cursor.startswith(proxy.MARK):
                    query["cursor"] = cursor.removeprefix(proxy.MARK)
                url = f"{proxy.upstream}{parts.path}?{urlencode(query)}"
                answer = httpx.get(url, headers={"Authorization": self.headers["Authorization"]})
                headers = {
                    k: v
                    for k, v in answer.headers.items()
                    if k.lower().startswith(("content-type", "x-ratelimit"))
                }
                self._answer(answer.status_code, headers, answer.content)

            def _answer(self, status: int, headers: dict[str, str], body: bytes) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def proxy(api_url: str) -> Iterator[EmptyPageProxy]:
    running = EmptyPageProxy(api_url)
    yield running
    running.server.shutdown()
    running.server.server_close()


def test_an_empty_page_with_has_more_does_not_end_the_collection(
    proxy: EmptyPageProxy, tenant: Tenant, mode: str
) -> None:
    shop_fetch(tenant.account, {str(i): float(i) for i in range(5)})
    drive = Driver(mode, proxy.url, tenant.key)

    pages = drive(lambda c: c.updates.list(limit=2).pages())
    updates = drive(lambda c: c.updates.list(limit=2))

    assert [len(page.data) for page in pages] == [2, 0, 2, 1]
    assert proxy.empty_pages == 1
    assert [u.id for u in updates] == feed_ids()


def test_the_feed_since_an_instant_is_at_or_after(api_url: str, tenant: Tenant, mode: str) -> None:
    day = 86_400_000
    start = 1_790_000_000_000
    shop_fetch(tenant.account, {"a": 1.0}, at=start)
    shop_fetch(tenant.account, {"a": 2.0}, at=start + day)
    shop_fetch(tenant.account, {"a": 3.0}, at=start + 2 * day)
    drive = Driver(mode, api_url, tenant.key)
    second = datetime.fromtimestamp((start + day) / 1000, tz=UTC)

    by_ms = drive(lambda c: c.updates.list(since=start + day))
    by_iso = drive(lambda c: c.updates.list(since=second.isoformat().replace("+00:00", "Z")))
    by_datetime = drive(lambda c: c.updates.list(since=second, importance="material"))

    assert [u.at for u in by_ms] == [start + 2 * day, start + day]  # the boundary included
    assert [u.id for u in by_iso] == [u.id for u in by_ms]
    assert {u.at for u in by_datetime} <= {start + day, start + 2 * day}
    with pytest.raises(tidemark.BadRequestError) as bad:
        drive(lambda c: c.updates.list(since="yesterday"))
    assert (bad.value.status, bad.value.code) == (400, "invalid_request")


def test_errors_are_typed_from_the_envelope(api_url: str, tenant: Tenant, mode: str) -> None:
    drive = Driver(mode, api_url, tenant.key)
    with pytest.raises(tidemark.NotFoundError) as missing:
        drive(lambda c: c.entries.updates("ent_doesnotexist"))
    assert (missing.value.status, missing.value.code) == (404, "not_found")
    assert missing.value.message
    assert isinstance(missing.value, tidemark.APIError)

    with pytest.raises(tidemark.AuthenticationError) as unknown:
        Driver(mode, api_url, "svc_mcp_" + "x" * 32)(lambda c: c.sources.list())
    assert (unknown.value.status, unknown.value.code) == (401, "unauthorized")

    _, no_read = keys.mint_key(account=tenant.account, scopes=["mcp"], name="mcp only")
    with pytest.raises(tidemark.PermissionDeniedError) as denied:
        Driver(mode, api_url, no_read)(lambda c: c.sources.list())
    assert (denied.value.status, denied.value.code) == (403, "forbidden")


def test_a_429_is_waited_out_as_retry_after_says(
    api_url: str, tenant: Tenant, mode: str, limiter: redis.Redis
) -> None:
    tenant.row.rate_limit = 2
    tenant.row.save()
    shop_fetch(tenant.account, {"a": 1.0})
    drive = Driver(mode, api_url, tenant.key, max_retries=3)
    assert len(drive(lambda c: c.updates.list())) == 1
    assert len(drive(lambda c: c.updates.list())) == 1  # the window's allowance is spent
    # The window is the counter's own expiry (60 s); shorten it so the wait is short.
    assert limiter.pexpire(counter_name(tenant.row.digest), 3000)

    drive.statuses.clear()
    started = time.monotonic()
    updates = drive(lambda c: c.updates.list())
    waited = time.monotonic() - started

    assert len(updates) == 1
    assert drive.statuses == [429, 200]
    assert 1.0 <= waited < 10  # Retry-After said 1 to 3 seconds; the client waited it


def test_a_429_past_the_retries_is_a_rate_limit_error(
    api_url: str, tenant: Tenant, mode: str, limiter: redis.Redis
) -> None:
    tenant.row.rate_limit = 1
    tenant.row.save()
    drive = Driver(mode, api_url, tenant.key, max_retries=0)
    drive(lambda c: c.sources.list())

    with pytest.raises(tidemark.RateLimitError) as limited:
        drive(lambda c: c.sources.list())

    error = limited.value
    assert (error.status, error.code) == (429, "rate_limited")
    assert error.retry_after is not None
    assert 1 <= error.retry_after <= 60
    assert (error.limit, error.remaining) == (1, 0)
    assert error.reset is not None
    assert 1 <= error.reset <= 60


def test_snapshots_markdown_html_and_a_screenshot_behind_its_redirect(
    api_url: str, tenant: Tenant, mode: str
) -> None:
    shop_fetch(tenant.account, {"a": 1.0}, markdown="# first\n", screenshot=True)
    shop_fetch(tenant.account, {"a": 2.0}, markdown="# second\n", screenshot=True)
    first, second = Change.objects.order_by("at", "pk")
    drive = Driver(mode, api_url, tenant.key)

    current = drive(lambda c: c.changes.snapshot(second.public_id))
    previous = drive(lambda c: c.changes.snapshot(second.public_id, state="previous"))
    image = drive(lambda c: c.changes.snapshot(second.public_id, format="screenshot"))

    assert current == b"# second\n"
    assert previous == b"# first\n"
    assert image == PNG
    with pytest.raises(tidemark.NotFoundError):
        drive(lambda c: c.changes.snapshot(first.public_id, state="previous"))
    with pytest.raises(tidemark.TidemarkError, match="format must be one of"):
        drive(lambda c: c.changes.snapshot(second.public_id, format="pdf"))
