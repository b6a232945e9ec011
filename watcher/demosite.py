"""The demo site `make run` serves on loopback and watches: a small shop, a job board and a
news feed whose items move every minute, so a new user sees real fetches and typed updates
arrive within a minute of starting.

Everything here is made up for the demo. The pages are a pure function of the current
minute: every minute one or two prices move, and now and then an item sells out, is
removed, or comes back.
"""

from __future__ import annotations

import html
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PRODUCTS = [
    ("brass-storm-lantern", "Brass storm lantern", 3990),
    ("copper-deck-lantern", "Copper deck lantern", 5400),
    ("tin-hurricane-lantern", "Tin hurricane lantern", 1950),
    ("sea-glass-lantern", "Sea-glass table lantern", 2900),
    ("manila-rope-20m", "Manila rope, 20 m", 3450),
    ("tide-clock", "Walnut tide clock", 8900),
    ("chart-north-sea", "Chart of the North Sea, 1:250 000", 2400),
    ("brass-compass", "Pocket brass compass", 4200),
]
JOBS = [
    ("deckhand-rotterdam", "Deckhand", "Rotterdam", 32_000, 38_000),
    ("harbour-pilot-antwerp", "Harbour pilot", "Antwerp", 68_000, 82_000),
    ("marine-engineer-hamburg", "Marine engineer", "Hamburg", 55_000, 64_000),
    ("port-planner-le-havre", "Port planner", "Le Havre", 41_000, 47_000),
]
HEADLINES = [
    "Spring tides expected along the coast this weekend",
    "New lock gates open at the inner harbour",
    "Lantern makers report a busy season",
    "Pilot boats switch to electric drives",
    "Record number of tall ships visit the port",
    "Harbour museum opens a chart room",
]


def minute() -> int:
    return int(time.time() // 60)


def _money(cents: int) -> str:
    euros, rest = divmod(cents, 100)
    return f"{euros:,}".replace(",", ".") + f",{rest:02d} €"


def _chrome(title: str, body: str) -> str:
    return f"""<!doctype html><html lang="de"><head><meta charset="utf-8">
<title>{html.escape(title)} - Harbor Supply</title></head><body>
<header class="site-header"><a class="logo" href="/">Harbor Supply</a>
<nav class="main-nav"><ul><li><a href="/shop">Shop</a></li><li><a href="/jobs">Jobs</a></li>
<li><a href="/feed.xml">News</a></li><li><a href="/about">About</a></li></ul></nav></header>
<main><h1>{html.escape(title)}</h1>{body}</main>
<footer class="site-footer"><ul><li><a href="/privacy">Privacy</a></li>
<li><a href="/terms">Terms</a></li><li><a href="/contact">Contact</a></li></ul></footer>
</body></html>"""


def shop_page(now: int) -> str:
    cards = []
    for i, (slug, name, cents) in enumerate(PRODUCTS):
        if (now + i) % 11 == 0:
            continue  # briefly out of the listing: removed, then new again
        # Every minute a different pair of items is on sale.
        if (now + i) % 4 == 0:
            cents = cents * 85 // 100
        stock = "Sold out" if (now + 2 * i) % 7 == 0 else "In stock"
        cards.append(
            f'<div class="product-card"><a href="/p/{slug}"><img src="/img/{slug}.png" alt=""></a>'
            f'<h3 class="product-title"><a href="/p/{slug}">{html.escape(name)}</a></h3>'
            f'<span class="price">{_money(cents)}</span> <span class="stock">{stock}</span></div>'
        )
    return _chrome("Lanterns and charts", '<div class="product-grid">' + "".join(cards) + "</div>")


def jobs_page(now: int) -> str:
    rows = []
    for i, (slug, title, city, low, high) in enumerate(JOBS):
        bump = 1000 * ((now // 3 + i) % 3)
        rows.append(
            f'<li class="job"><h2><a href="/jobs/{slug}">{title}</a></h2>'
            f'<span class="location">{city}</span> '
            f'<span class="salary">€{(low + bump) // 1000}k to €{(high + bump) // 1000}k'
            " a year</span></li>"
        )
    return _chrome("Jobs at the harbour", '<ul class="jobs">' + "".join(rows) + "</ul>")


def feed(now: int) -> str:
    count = 3 + (now // 2) % len(HEADLINES)
    items = []
    for i in range(min(count, len(HEADLINES))):
        items.append(
            f"<item><title>{html.escape(HEADLINES[i])}</title>"
            f"<link>http://demo.invalid/news/{i}</link><guid>demo-news-{i}</guid>"
            f"<pubDate>{formatdate(1_700_000_000 + i * 86_400, usegmt=True)}</pubDate></item>"
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
        "<title>Harbor news</title><link>http://demo.invalid/</link>"
        "<description>News from the harbour</description>" + "".join(items) + "</channel></rss>"
    )


PATHS = {
    "/shop": ("text/html; charset=utf-8", shop_page),
    "/jobs": ("text/html; charset=utf-8", jobs_page),
    "/feed.xml": ("application/rss+xml; charset=utf-8", feed),
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/robots.txt":
            self._send(200, "text/plain", "User-agent: *\nDisallow: /private/\n")
        elif path in PATHS:
            content_type, page = PATHS[path]
            self._send(200, content_type, page(minute()))
        elif path == "/":
            links = "".join(f'<li><a href="{p}">{p}</a></li>' for p in PATHS)
            self._send(200, "text/html; charset=utf-8", _chrome("Demo site", f"<ul>{links}</ul>"))
        else:
            self._send(404, "text/plain", "not found")

    def _send(self, status: int, content_type: str, body: str) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """Start the site in a background thread; returns the server (`shutdown()` stops it)."""
    server = ThreadingHTTPServer((host, port), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
