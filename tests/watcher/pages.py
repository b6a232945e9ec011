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
