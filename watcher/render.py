"""Rendered fetching: headless Chromium (Debian's `chromium`) through Playwright.

One browser per process, started on first use and restarted after
RENDER_PAGES_PER_BROWSER pages (so a leak in the browser cannot grow without bound); a fresh
context per page, with service workers blocked and downloads refused. Every request the
page makes (documents, frames, scripts, images, XHR, fetch, WebSocket) is checked against
the same SSRF rules as static fetches (`netguard`) before Chromium may send it; anything
else (169.254.169.254, private ranges, `file:`) is aborted.

Chromium resolves host names again after the check; the check is the same one every hop
of a static fetch gets, and the browser never follows a redirect to an unchecked address
because each hop is a new request the route sees.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

from django.conf import settings

import netguard
from watcher.fetch import FetchFailed

_SAFE_SCHEMES = frozenset({"data", "blob", "about"})
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


def request_refusal(url: str) -> str | None:
    """Why the page's browser may not send a request to `url`, or None."""
    scheme = urlsplit(url).scheme.lower()
    if scheme in _SAFE_SCHEMES:
        return None
    try:
        netguard.check_url(url, allow_loopback=settings.FETCH_ALLOW_LOOPBACK)
    except (netguard.UnsafeURL, netguard.DNSFailure) as exc:
        return str(exc)
    return None


class _Browser:
    """This process's browser: lazily started, restarted after a number of pages.

    Playwright's sync API keeps an event loop in the thread that started it, where Django's
    ORM then refuses to run; so the browser lives in one thread of its own, and callers
    hand it work (`run`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.executor: ThreadPoolExecutor | None = None
        self.playwright: Any = None
        self.browser: Any = None
        self.pages = 0

    def _start(self) -> None:
        path = chromium_path()
        if path is None:
            raise BrowserMissing
        from playwright.sync_api import sync_playwright

        if self.playwright is None:
            self.playwright = sync_playwright().start()
        args = ["--disable-dev-shm-usage", "--disable-gpu", "--mute-audio"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses its sandbox as root
        self.browser = self.playwright.chromium.launch(
            executable_path=path, headless=True, args=args
        )
        self.pages = 0

    def close(self) -> None:
        if self.browser is not None:
            with contextlib.suppress(Exception):  # a dead browser is what we replace
                self.browser.close()
            self.browser = None

    def _shutdown(self) -> None:
        self.close()
        if self.playwright is not None:
            self.playwright.stop()
            self.playwright = None

    def run(self, fn: Callable[[], T]) -> T:
        """Run `fn` in the browser's thread and return its result."""
        with self.lock:
            if self.executor is None:
                self.executor = ThreadPoolExecutor(1, thread_name_prefix="chromium")
            executor = self.executor
        return executor.submit(fn).result()

    def shutdown(self) -> None:
        with self.lock:
            executor, self.executor = self.executor, None
        if executor is not None:
            executor.submit(self._shutdown).result()
            executor.shutdown()

    def get(self) -> Any:
        if self.browser is not None and (
            self.pages >= settings.RENDER_PAGES_PER_BROWSER or not self.browser.is_connected()
        ):
            self.close()
        if self.browser is None:
            self._start()
        self.pages += 1
        return self.browser


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


def _render(url: str) -> Rendered:
    timeout_ms = settings.RENDER_TIMEOUT_SECONDS * 1000
    refusal = request_refusal(url)
    if refusal:
        raise FetchFailed(f"Tidemark does not fetch this address: {refusal}.")
    blocked: list[str] = []

    def guard(route: Any) -> None:
        request_url = route.request.url
        if request_refusal(request_url):
            blocked.append(request_url)
            route.abort("blockedbyclient")
        else:
            route.continue_()

    def guard_socket(ws: Any) -> None:
        if request_refusal(ws.url.replace("ws", "http", 1)):
            blocked.append(ws.url)
            ws.close()
        else:
            ws.connect_to_server()

    browser = _browser.get()
    try:
        context = browser.new_context(
            user_agent=settings.FETCH_USER_AGENT,
            service_workers="block",
            accept_downloads=False,
            viewport={"width": 1280, "height": 900},
        )
    except Exception as exc:  # the browser died: the next page starts a new one
        _browser.close()
        raise FetchFailed(f"the browser failed: {_first_line(exc)}.") from exc
    try:
        context.set_default_timeout(timeout_ms)
        context.route("**/*", guard)
        context.route_web_socket("**/*", guard_socket)
        context.add_init_script(_Activity.OBSERVE)
        page = context.new_page()
        activity = _Activity(page)
        try:
            response = page.goto(url, wait_until="load", timeout=timeout_ms)
        except Exception as exc:
            raise FetchFailed(f"the browser could not load the page: {_first_line(exc)}.") from exc
        if response is not None and response.status >= 400:
            raise FetchFailed(
                f"the server answered {response.status} {response.status_text}".rstrip() + ".",
                response.status,
            )
        activity.settle(page, cap_ms=min(timeout_ms, SETTLE_CAP_MS))
        html = page.content()
        screenshot = page.screenshot(full_page=True, type="png")
        return Rendered(page.url, html, screenshot, blocked)
    finally:
        context.close()


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

    def settle(self, page: Any, cap_ms: float) -> None:
        deadline = time.monotonic() + cap_ms / 1000
        while time.monotonic() < deadline:
            if self.in_flight:
                page.wait_for_timeout(SETTLE_QUIET_MS / 3)
                continue
            try:
                quiet = page.evaluate("() => performance.now() - (window.__tmChanged || 0)")
            except Exception:  # navigated away meanwhile: read what is there
                return
            if quiet >= SETTLE_QUIET_MS:
                return
            page.wait_for_timeout(max(10.0, SETTLE_QUIET_MS - quiet))


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
