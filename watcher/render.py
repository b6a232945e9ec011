"""Rendered fetching: headless Chromium (Debian's `chromium`) through Playwright.

One browser per process, started on first use and restarted after
RENDER_PAGES_PER_BROWSER pages (so a leak in the browser cannot grow without bound); a fresh
context per page, with service workers blocked and downloads refused. Every request the
page makes (documents, frames, scripts, images, XHR, fetch, WebSocket) is checked against
the same SSRF rules as static fetches (`netguard`) before Chromium may send it; anything
else (169.254.169.254, private ranges, `file:`) is aborted. Fonts and media are not
loaded: no item is read from them, and the screenshot shows the text in a local font.

Chromium resolves host names again after the check; the check is the same one every hop
of a static fetch gets, and the browser never follows a redirect to an unchecked address
because each hop is a new request the route sees.

Speed: a context and its page cost a third of a render (Chromium starts renderer processes
for each), so the next page's context is opened, empty and guarded, while the current page
settles (Playwright's asyncio API, in a thread of its own), and the used one is closed in
the background. Each page still gets a context no other page has used. The screenshot and
the DOM are read by the DevTools protocol and a script in the page, which spares
Playwright's own preparations (a script world of its own in the page, a wait for fonts).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import shutil
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

from django.conf import settings

import netguard
from watcher.fetch import FetchFailed

_SAFE_SCHEMES = frozenset({"data", "blob", "about"})
_UNNEEDED = frozenset({"font", "media"})  # resource types never loaded
T = TypeVar("T")


class BrowserMissing(Exception):
    """No Chromium is installed here."""


@dataclass
class Rendered:
    url: str
    html: str
    screenshot: bytes  # a full-page PNG
    blocked: list[str]  # sub-requests refused by the SSRF check


def chromium_path() -> str | None:
    path = settings.CHROMIUM_PATH
    if path and os.access(path, os.X_OK):
        return path
    return shutil.which("chromium") or shutil.which("chromium-browser")


def available() -> bool:
    return chromium_path() is not None


def request_refusal(url: str, hosts: dict[tuple[str, int], str | None] | None = None) -> str | None:
    """Why the page's browser may not send a request to `url`, or None. With `hosts` (one
    page's), each host's addresses are looked up and checked once: a listing asks one
    image host for a hundred images."""
    scheme = urlsplit(url).scheme.lower()
    if scheme in _SAFE_SCHEMES:
        return None
    try:
        _scheme, host, port, _path = netguard.split_url(url, schemes=("http", "https"))
    except netguard.UnsafeURL as exc:
        return str(exc)
    if hosts is not None and (host, port) in hosts:
        return hosts[host, port]
    refusal = None
    try:
        netguard.checked_addresses(host, port, allow_loopback=settings.FETCH_ALLOW_LOOPBACK)
    except (netguard.UnsafeURL, netguard.DNSFailure) as exc:
        refusal = str(exc)
    if hosts is not None:
        hosts[host, port] = refusal
    return refusal


@dataclass
class _Tab:
    """A fresh context and its page, guarded, not yet navigated."""

    context: Any
    page: Any
    activity: _Activity
    blocked: list[str] = field(default_factory=list)


async def _open_tab(browser: Any) -> _Tab:
    """A context of its own, every request of it checked, and its page."""
    loop = asyncio.get_running_loop()
    blocked: list[str] = []
    hosts: dict[tuple[str, int], str | None] = {}

    async def refusal(url: str) -> str | None:
        # The check may resolve a host name: in a thread, so the loop goes on meanwhile.
        return await loop.run_in_executor(None, request_refusal, url, hosts)

    async def guard(route: Any) -> None:
        request = route.request
        request_url = request.url
        if await refusal(request_url):
            blocked.append(request_url)
            await route.abort("blockedbyclient")
        elif request.resource_type in _UNNEEDED:
            await route.abort("blockedbyclient")
        else:
            await route.continue_()

    async def guard_socket(ws: Any) -> None:
        if await refusal(ws.url.replace("ws", "http", 1)):
            blocked.append(ws.url)
            await ws.close()
        else:
            ws.connect_to_server()

    context = await browser.new_context(
        user_agent=settings.FETCH_USER_AGENT,
        service_workers="block",
        accept_downloads=False,
        viewport={"width": 1280, "height": 900},
    )
    try:
        context.set_default_timeout(settings.RENDER_TIMEOUT_SECONDS * 1000)
        await context.route("**/*", guard)
        await context.route_web_socket("**/*", guard_socket)
        await context.add_init_script(_Activity.OBSERVE)
        page = await context.new_page()
    except BaseException:
        with contextlib.suppress(Exception):
            await context.close()
        raise
    return _Tab(context, page, _Activity(page), blocked)


class _Browser:
    """This process's browser: lazily started, restarted after a number of pages.

    Playwright keeps its connection in an event loop, where Django's ORM refuses to run; so
    the browser lives in a thread of its own running that loop, and callers hand it work
    (`run`), one page at a time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # one page at a time (and one start, one shutdown)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.playwright: Any = None
        self.browser: Any = None
        self.pages = 0
        self.spare: asyncio.Task[_Tab] | None = None  # the next page's tab, being opened
        self.closing: set[asyncio.Task[Any]] = set()  # used contexts, closed meanwhile

    def run(self, fn: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Run the coroutine `fn()` in the browser's loop and return its result."""
        with self.lock:
            if self.loop is None:
                loop = asyncio.new_event_loop()
                self.thread = threading.Thread(
                    target=loop.run_forever, name="chromium", daemon=True
                )
                self.thread.start()
                self.loop = loop
            return asyncio.run_coroutine_threadsafe(fn(), self.loop).result()

    def shutdown(self) -> None:
        with self.lock:
            loop, thread = self.loop, self.thread
            if loop is None:
                return
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result()
            loop.call_soon_threadsafe(loop.stop)
            if thread is not None:
                thread.join(10)
            loop.close()
            self.loop = self.thread = None

    async def _start(self) -> None:
        path = chromium_path()
        if path is None:
            raise BrowserMissing
        from playwright.async_api import async_playwright

        if self.playwright is None:
            self.playwright = await async_playwright().start()
        args = ["--disable-dev-shm-usage", "--disable-gpu", "--mute-audio"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses its sandbox as root
        self.browser = await self.playwright.chromium.launch(
            executable_path=path, headless=True, args=args
        )
        self.pages = 0

    async def close(self) -> None:
        await self._drop_spare()
        if self.closing:
            await asyncio.gather(*self.closing, return_exceptions=True)
        if self.browser is not None:
            with contextlib.suppress(Exception):  # a dead browser is what we replace
                await self.browser.close()
            self.browser = None

    async def _shutdown(self) -> None:
        await self.close()
        if self.playwright is not None:
            with contextlib.suppress(Exception):
                await self.playwright.stop()
            self.playwright = None
        await asyncio.get_running_loop().shutdown_default_executor()  # the checks' threads

    async def _drop_spare(self) -> None:
        spare, self.spare = self.spare, None
        if spare is None:
            return
        with contextlib.suppress(Exception):
            tab = await spare
            await tab.context.close()

    async def take(self) -> _Tab:
        """A fresh tab for the next page: the spare, when one was opened."""
        if self.browser is not None and (
            self.pages >= settings.RENDER_PAGES_PER_BROWSER or not self.browser.is_connected()
        ):
            await self.close()
        if self.browser is None:
            await self._start()
        spare, self.spare = self.spare, None
        tab = None
        limit = settings.RENDER_TIMEOUT_SECONDS
        if spare is not None:
            with contextlib.suppress(Exception):  # it failed: a tab of its own, below
                tab = await asyncio.wait_for(spare, limit)
        try:
            if tab is None:
                tab = await asyncio.wait_for(_open_tab(self.browser), limit)
        except Exception:  # the browser died or hangs: the next page starts a new one
            await self.close()
            raise
        self.pages += 1
        return tab

    def prepare(self) -> None:
        """Start opening the next page's tab (unless the browser is due a restart)."""
        if (
            self.spare is None
            and self.browser is not None
            and self.pages < settings.RENDER_PAGES_PER_BROWSER
        ):
            self.spare = asyncio.get_running_loop().create_task(_open_tab(self.browser))

    def release(self, tab: _Tab) -> None:
        """Close a used tab's context in the background (a render need not wait for it)."""
        task = asyncio.get_running_loop().create_task(tab.context.close())
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)


_browser = _Browser()


def shutdown() -> None:
    """Stop this process's browser (worker shutdown, tests)."""
    _browser.shutdown()


def render(url: str) -> Rendered:
    """Load `url` in a fresh context and return its DOM and a full-page screenshot.
    Raises BrowserMissing, or FetchFailed when the page cannot be loaded."""
    if chromium_path() is None:
        raise BrowserMissing
    # One page at a time per process: the render queue runs one worker per browser.
    return _browser.run(lambda: _render(url))


async def _render(url: str) -> Rendered:
    timeout_ms = settings.RENDER_TIMEOUT_SECONDS * 1000
    refusal = await asyncio.get_running_loop().run_in_executor(None, request_refusal, url)
    if refusal:
        raise FetchFailed(f"Tidemark does not fetch this address: {refusal}.")
    try:
        tab = await _browser.take()
    except BrowserMissing:
        raise
    except Exception as exc:
        raise FetchFailed(f"the browser failed: {_first_line(exc)}.") from exc
    page = tab.page
    try:
        try:
            # The settle below waits for whatever is still loading (images, data), so
            # the `load` event is not awaited on its own.
            response = await page.goto(url, wait_until="domcontentloaded", timeout=timeout_ms)
        except Exception as exc:
            raise FetchFailed(f"the browser could not load the page: {_first_line(exc)}.") from exc
        if response is not None and response.status >= 400:
            raise FetchFailed(
                f"the server answered {response.status} {response.status_text}".rstrip() + ".",
                response.status,
            )
        # The page is loaded: the browser is mostly waiting from here (the settle), so the
        # next page's tab is opened now, not while this one navigates.
        _browser.prepare()
        await tab.activity.settle(page, cap_ms=min(timeout_ms, SETTLE_CAP_MS))
        html = await page.evaluate(_CONTENT)
        screenshot = await _screenshot(tab)
        return Rendered(page.url, html, screenshot, tab.blocked)
    finally:
        _browser.release(tab)


# The document as Playwright's `content()` serialises it, read in the page's own world:
# `content()` first sets up a world of Playwright's own in the page (tens of ms).
_CONTENT = """() => (document.doctype ? new XMLSerializer().serializeToString(document.doctype)
    : "") + (document.documentElement ? document.documentElement.outerHTML : "")"""


async def _screenshot(tab: _Tab) -> bytes:
    """A PNG of the whole page, by the DevTools protocol: what Playwright's full-page
    screenshot does, without its preparations (its own world again, a wait for fonts that
    are not loaded, the viewport restored)."""
    cdp = await tab.context.new_cdp_session(tab.page)
    try:
        metrics = await cdp.send("Page.getLayoutMetrics")
        size, viewport = metrics["cssContentSize"], metrics["cssLayoutViewport"]
        clip = {
            "x": 0,
            "y": 0,
            "width": max(size["width"], viewport["clientWidth"]),
            "height": max(size["height"], viewport["clientHeight"]),
            "scale": 1,
        }
        shot = await cdp.send(
            "Page.captureScreenshot",
            {"format": "png", "clip": clip, "captureBeyondViewport": True},
        )
    finally:
        with contextlib.suppress(Exception):
            await cdp.detach()
    return base64.b64decode(shot["data"])


SETTLE_QUIET_MS = 100  # no request in flight and no DOM change for this long
SETTLE_CAP_MS = 5000  # pages that keep polling never settle: read them after this long


class _Activity:
    """When a loaded page has settled: nothing in flight, no DOM change for a moment.

    Playwright's `networkidle` waits for 500 ms without a request, which alone caps a
    browser at two pages a second; script-built listings are done as soon as their data
    requests have answered and the DOM has stopped changing."""

    # Installed before any script of the page runs (an init script): no extra round trip.
    OBSERVE = """window.__tmChanged = 0;
        new MutationObserver(() => { window.__tmChanged = performance.now(); })
          .observe(document, {subtree: true, childList: true, characterData: true});"""

    def __init__(self, page: Any) -> None:
        self.in_flight = 0
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, request: Any) -> None:
        self.in_flight += 1

    def _ended(self, request: Any) -> None:
        self.in_flight = max(0, self.in_flight - 1)

    async def settle(self, page: Any, cap_ms: float) -> None:
        deadline = time.monotonic() + cap_ms / 1000
        while time.monotonic() < deadline:
            if self.in_flight:
                await asyncio.sleep(SETTLE_QUIET_MS / 3000)
                continue
            try:
                quiet = await page.evaluate("() => performance.now() - (window.__tmChanged || 0)")
            except Exception:  # navigated away meanwhile: read what is there
                return
            if quiet >= SETTLE_QUIET_MS:
                return
            await asyncio.sleep(max(10.0, SETTLE_QUIET_MS - quiet) / 1000)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
