# ruff: noqa: RUF001  (the minus sign U+2212, as the page writes it)
"""An owner in Chromium on an entry page: the changes for people, the captured page in
each of its forms, a captured page's script that never runs, a phone and a desktop."""

from __future__ import annotations

import base64
import struct
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from accounts.models import Account
from history.ingest import ingest
from history.models import Change, Entry
from tests.factories import AccountFactory, UserFactory
from tests.history.conftest import fetch_doc

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"

# A captured page whose script, were it to run, would say so on the page, in the
# framing page's title, and in a marker on the framing window.
CAPTURED_HTML = """<!doctype html><html><head><title>Shop</title></head><body>
<h1>The shop</h1><p id="marker">script did not run</p>
<script>
document.getElementById("marker").textContent = "script ran";
try { parent.document.title = "owned"; } catch (e) {}
try { parent.scriptRan = true; } catch (e) {}
</script></body></html>"""


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain PNG of one colour: a screenshot stand-in a browser can draw."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def mug(price: float) -> dict[str, Any]:
    return {
        "identityKey": "mug",
        "title": "Enamel mug with a very long name that has to wrap on a phone screen",
        "url": "https://shop.example.com/mug",
        "kind": "product",
        "price": price,
        "currency": "EUR",
        "attributes": {"inStock": {"b": price > 30}},
    }


def _owner(slug: str) -> Account:
    user = cast(User, UserFactory(username=f"{slug}@example.com"))
    return cast(Account, AccountFactory(slug=slug, name=slug.title(), owner=user))


@pytest.fixture
def storage(tmp_storage: Path) -> Path:
    """Blobs written by ingestion go to a throwaway folder."""
    return tmp_storage


def _history(account: Account) -> Entry:
    """Two checks of the shop through the real ingestion: the mug's price drops 25 %."""
    long_line = "A line of the page that goes on " + "and on " * 40
    ingest(
        fetch_doc(
            account.slug,
            [mug(39.9)],
            snapshot={
                "markdown": f"# The shop\n\n- Enamel mug: 39.90 €\n- Jug: 12 €\n\n{long_line}\n",
                "html": "<p>The shop, before</p>",
            },
        )
    )
    ingest(
        fetch_doc(
            account.slug,
            [mug(29.9)],
            snapshot={
                "markdown": (
                    "# The shop\n\n- Enamel mug: 29.90 €\n- Jug: 12 €\n\n"
                    f"{long_line}\n\n[Sale](/sale) "
                    "[trap](javascript:alert(1))\n\n| size | price |\n|---|---|\n| S | 1 |\n"
                ),
                "html": CAPTURED_HTML,
                "screenshot": base64.b64encode(png(640, 400, (11, 92, 173))).decode(),
            },
        )
    )
    return Entry.objects.get(account=account, identity_key="mug")


def _sign_in_to(page: Page, base: str, path: str, username: str) -> None:
    page.goto(f"{base}{path}")
    expect(page).to_have_url(f"{base}/login/?next={path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{base}{path}")


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _open_all(page: Page) -> None:
    """Open every capture of the newest card and wait for each to load."""
    card = page.locator("li.card").first
    for summary in card.locator("details.capture > summary").all():
        summary.click()
    expect(card.locator(".capture-text .page-text")).to_be_visible()
    expect(card.locator(".capture-diff .diff")).to_be_visible()
    page.wait_for_function(
        "document.querySelector('li.card .capture-screenshot img').naturalWidth > 0"
    )


def test_an_entry_with_a_price_drop_and_its_captured_page(
    page: Page, context: BrowserContext, live_server: object, shots: Path, storage: Path
) -> None:
    base = str(live_server)
    account = _owner("acme")
    entry = _history(account)
    newest = Change.objects.order_by("-at", "-id").first()
    assert newest is not None
    path = f"/entries/{entry.public_id}"

    _sign_in_to(page, base, path, "acme@example.com")
    title = page.title()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Enamel mug")
    card = page.locator("li.card").first
    expect(card).to_contain_text("price 39.90 → 29.90 EUR, −25 %")
    expect(card).to_contain_text("inStock yes → no")
    expect(card.locator(".card-head .tag.importance")).to_have_text("Importance: critical")
    expect(page.locator("li.card").nth(1)).to_contain_text("new")
    entry.refresh_from_db()
    assert entry.read is True
    page.screenshot(path=str(shots / "01-entry-desktop.png"), full_page=True)

    # The page text, rendered: no raw HTML, the javascript: link is not a link.
    card.locator(".capture-text > summary").click()
    text = card.locator(".capture-text .page-text")
    expect(text.get_by_role("heading", name="The shop")).to_be_visible()
    expect(text).to_contain_text("Enamel mug: 29.90 €")
    expect(text.get_by_role("link", name="Sale")).to_have_attribute(
        "href", "https://shop.example.com/sale"
    )
    expect(text.get_by_role("link", name="trap")).to_have_count(0)

    # What changed in the text: the old line removed, the new one added.
    card.locator(".capture-diff > summary").click()
    diff = card.locator(".capture-diff .diff")
    expect(diff.locator("del.line").first).to_contain_text("39.90 €")
    expect(diff.locator("ins.line").first).to_contain_text("29.90 €")

    # The captured HTML, framed: its script does not run.
    card.locator(".capture-html > summary").click()
    frame = card.frame_locator(".capture-html iframe")
    expect(frame.get_by_role("heading", name="The shop")).to_be_visible()
    expect(frame.locator("#marker")).to_have_text("script did not run")
    assert page.title() == title
    assert page.evaluate("window.scriptRan === undefined")
    assert card.locator(".capture-html iframe").get_attribute("sandbox") == ""

    # The screenshot.
    card.locator(".capture-screenshot > summary").click()
    page.wait_for_function(
        "document.querySelector('li.card .capture-screenshot img').naturalWidth === 640"
    )
    page.screenshot(path=str(shots / "02-captures-open-desktop.png"), full_page=True)
    _no_sideways_scroll(page)

    # Opened on its own, the captured page runs no script either (CSP sandbox).
    alone = context.new_page()
    alone.goto(f"{base}/changes/{newest.public_id}/snapshot?format=html")
    expect(alone.locator("#marker")).to_have_text("script did not run")
    alone.screenshot(path=str(shots / "03-captured-page-alone.png"), full_page=True)
    alone.close()
    # While the same page, where scripts may run, does run it: the checks above mean something.
    control = context.new_page()
    control.set_content(CAPTURED_HTML)
    expect(control.locator("#marker")).to_have_text("script ran")
    control.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_entry_page_fits_the_screen(
    context: BrowserContext,
    live_server: object,
    shots: Path,
    storage: Path,
    width: int,
    height: int,
) -> None:
    base = str(live_server)
    account = _owner("acme")
    entry = _history(account)
    browser = context.browser
    assert browser is not None
    sized = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2 if width < 500 else 1,
        is_mobile=width < 500,
    )
    page = sized.new_page()
    path = f"/entries/{entry.public_id}"
    _sign_in_to(page, base, path, "acme@example.com")

    expect(page.locator("li.card").first).to_contain_text("price 39.90 → 29.90 EUR, −25 %")
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"01-entry-{width}.png"), full_page=True)

    _open_all(page)
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"02-captures-open-{width}.png"), full_page=True)
    card = page.locator("li.card").first
    card.locator(".capture-diff").screenshot(path=str(shots / f"03-diff-{width}.png"))
    card.locator(".capture-html").screenshot(path=str(shots / f"04-captured-page-{width}.png"))
    sized.close()


class _Live:
    """A stand-in for the watched site on loopback that counts every connection and
    request it gets: an owner viewing what was captured must cause none."""

    def __init__(self) -> None:
        live = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                live.requests.append(self.path)
                body = png(4, 4, (200, 0, 0)) if self.path.endswith(".png") else b""
                self.send_response(200)
                self.send_header("Content-Type", "image/png" if body else "text/css")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            def verify_request(self, request: Any, client_address: Any) -> bool:
                live.connections += 1
                return True

        self.requests: list[str] = []
        self.connections = 0
        self.server = Server(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def live_site() -> Iterator[_Live]:
    site = _Live()
    yield site
    site.close()


def _remote_page(site: str) -> str:
    """A captured page that names the live site in every way a page loads things."""
    return f"""<!doctype html><html><head><title>Shop</title>
<meta http-equiv="refresh" content="1; url={site}/refresh.html">
<link rel="preconnect" href="{site}"><LINK rel=preconnect href="{site}/"/>
<link rel="dns-prefetch" href="{site}"><link rel="prefetch" href="{site}/next.html">
<link rel="preload" as="image" href="{site}/preload.png">
<link rel="stylesheet" href="{site}/style.css">
<style>@import url("{site}/import.css");
@font-face {{ font-family: Shop; src: url("{site}/font.woff2"); }}
body {{ background: url("{site}/background.png"); font-family: Shop; }}</style>
<base href="{site}/"></head><body>
<h1>The shop</h1>
<img id="product" src="{site}/mug.png" alt="mug">
<img src="relative.png" alt="relative">
<img srcset="{site}/mug-2x.png 2x" alt="srcset">
<picture><source srcset="{site}/mug.webp"><img src="{site}/picture.png" alt="p"></picture>
<div style="background-image: url('{site}/inline.png')">inline</div>
<video poster="{site}/poster.png"></video><audio src="{site}/a.mp3"></audio>
<iframe src="{site}/frame.html"></iframe><IFRAME SRC="{site}/frame2.html"></IFRAME>
<object data="{site}/object.png"></object><embed src="{site}/embed.html">
<input type="image" src="{site}/input.png"><svg><image href="{site}/svg.png"/></svg>
</body></html>"""


def test_viewing_the_captured_page_sends_nothing_to_the_live_site(
    page: Page, context: BrowserContext, live_server: object, storage: Path, live_site: _Live
) -> None:
    base = str(live_server)
    account = _owner("acme")
    captured = _remote_page(live_site.base)
    watched = dict(mug(39.9), imageUrl=f"{live_site.base}/thumbnail.png")
    ingest(fetch_doc(account.slug, [watched], snapshot={"html": captured}))
    entry = Entry.objects.get(account=account, identity_key="mug")
    change = Change.objects.get()

    _sign_in_to(page, base, f"/entries/{entry.public_id}", "acme@example.com")
    # The thumbnail is a link to the image, not the image.
    expect(page.locator("a.entry-image")).to_have_attribute(
        "href", f"{live_site.base}/thumbnail.png"
    )
    card = page.locator("li.card").first
    card.locator(".capture-html > summary").click()
    frame = card.frame_locator(".capture-html iframe")
    expect(frame.get_by_role("heading", name="The shop")).to_be_visible()
    page.wait_for_load_state("networkidle")

    alone = context.new_page()
    alone.goto(f"{base}/changes/{change.public_id}/snapshot?format=html")
    expect(alone.get_by_role("heading", name="The shop")).to_be_visible()
    alone.wait_for_load_state("networkidle")
    alone.wait_for_timeout(1500)  # room for any late request (lazy images, fonts, refresh)
    alone.close()

    assert live_site.requests == []
    assert live_site.connections == 0

    # The same page anywhere else does call the site: the zero above means something.
    control = context.new_page()
    control.set_content(captured)
    control.wait_for_load_state("networkidle")
    control.close()
    assert "/mug.png" in live_site.requests
