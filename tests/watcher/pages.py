"""Fixture pages for the watcher's tests, written for these tests: a small shop listing
whose items, prices and order the tests change between fetches."""

from __future__ import annotations

from collections.abc import Iterable

CHROME_TOP = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Harbor Supply - Lanterns</title></head><body>
<header class="site-header"><a href="/" class="logo">Harbor Supply</a>
<nav class="main-nav"><ul><li><a href="/lanterns">Lanterns</a></li>
<li><a href="/rope">Rope</a></li><li><a href="/charts">Charts</a></li>
<li><a href="/about">About us</a></li></ul></nav></header>
<main><h1>Lanterns</h1><div class="product-grid">"""
CHROME_BOTTOM = """</div>{pager}</main>
<footer class="site-footer"><ul><li><a href="/privacy">Privacy</a></li>
<li><a href="/terms">Terms</a></li><li><a href="/contact">Contact</a></li>
<li><a href="/jobs">Jobs</a></li></ul></footer></body></html>"""


def card(slug: str, title: str, price: str, stock: str = "In stock") -> str:
    return (
        f'<div class="product-card"><a href="/p/{slug}"><img src="/img/{slug}.jpg" alt=""></a>'
        f'<h3 class="product-title"><a href="/p/{slug}">{title}</a></h3>'
        f'<span class="price">{price}</span><span class="stock">{stock}</span></div>'
    )


def shop(items: Iterable[tuple[str, str, str]], next_href: str | None = None) -> str:
    """A listing page of (slug, title, price) items, with an optional rel=next link."""
    pager = f'<nav class="pagination"><a rel="next" href="{next_href}">Next</a></nav>'
    body = "".join(card(*item) for item in items)
    return CHROME_TOP + body + CHROME_BOTTOM.format(pager=pager if next_href else "")


LANTERNS = [
    ("brass-lantern", "Brass storm lantern", "39,90 €"),
    ("copper-lantern", "Copper deck lantern", "54,00 €"),
    ("tin-lantern", "Tin hurricane lantern", "19,50 €"),
    ("glass-lantern", "Sea-glass table lantern", "29,00 €"),
]


def lists_page() -> str:
    """A page of several distinct lists: a product grid whose cards each wrap all they show
    in one link (a nested wrapper of the same items), a list of guides, a table of stores
    and a list of events."""
    cards = "".join(
        f'<div class="product"><a class="product-link" href="/p/lamp-{n}">'
        f'<h3 class="name">Harbour lamp {n}</h3><span class="price">{10 + n},00 €</span></a></div>'
        for n in range(1, 7)
    )
    guides = "".join(
        f'<li class="guide"><a href="/guides/{slug}">{title}</a>'
        f"<p>A guide for the evening sailor, with drawings.</p></li>"
        for slug, title in (
            ("knots", "Six knots for the dock"),
            ("wicks", "Trimming a lantern wick"),
            ("charts", "Reading an old chart"),
            ("tides", "Tide tables explained"),
        )
    )
    stores = "".join(
        f'<tr class="store"><td><a href="/stores/{town.lower()}">{town} harbour store</a></td>'
        f"<td>Quay {n}</td></tr>"
        for n, town in enumerate(("Brest", "Cork", "Bergen"), 1)
    )
    events = "".join(
        f'<article class="event"><h4><a href="/events/{n}">Lantern evening {n}</a></h4>'
        f"<time>2026-12-0{n}</time></article>"
        for n in range(1, 4)
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour</title>'
        '</head><body><main><section id="catalogue"><div class="grid">'
        + cards
        + '</div></section><aside class="guides"><ul class="guide-list">'
        + guides
        + '</ul></aside><section class="stores"><table class="store-table"><tbody>'
        + stores
        + '</tbody></table></section><section class="events">'
        + events
        + "</section></main></body></html>"
    )
