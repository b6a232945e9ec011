"""Playwright fixtures: Debian's Chromium driven against pytest-django's live server.

Browser tests skip, saying why, when Chromium is absent; under CI (`CI=true`) they fail
instead, so a CI image without a browser cannot pass silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

# Playwright's sync API runs an event loop in this thread, which makes Django refuse
# synchronous ORM calls from the test body (SynchronousOnlyOperation). The test body is
# not async code, so the guard does not apply.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).is_file():
        reason = (
            f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason + ": browser tests must run in CI")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


@pytest.fixture
def context(browser: Browser, live_server: object) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


@pytest.fixture
def shots(test_output: Path, request: pytest.FixtureRequest) -> Path:
    """A folder for this test's screenshots: test-output/browser/<test name>/."""
    folder = test_output / "browser" / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
