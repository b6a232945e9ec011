"""Page chrome for the corpus: the navigation, footers, banners and sidebars real listing
pages wrap their items in. Written for this corpus; every name and link is made up."""

from __future__ import annotations

import random
from html import escape

DEPARTMENTS = [
    "Women",
    "Men",
    "Kids",
    "Home",
    "Garden",
    "Outdoor",
    "Electronics",
    "Kitchen",
    "Beauty",
    "Sports",
    "Toys",
    "Books",
    "Gifts",
    "Sale",
]
SUBCATEGORIES = [
    "New arrivals",
    "Best sellers",
    "Jackets",
    "Shoes",
    "Bags",
    "Accessories",
    "Lighting",
    "Furniture",
    "Bedding",
    "Cookware",
    "Tools",
    "Headphones",
    "Laptops",
    "Cameras",
    "Running",
    "Cycling",
    "Camping",
    "Board games",
    "Fiction",
    "Gift cards",
]
FOOTER_LINKS = [
    "About us",
    "Careers",
    "Press",
    "Investors",
    "Help centre",
    "Shipping",
    "Returns",
    "Track your order",
    "Size guide",
    "Contact us",
    "Store locator",
    "Privacy policy",
    "Terms of use",
    "Cookie settings",
    "Accessibility",
    "Sitemap",
    "Affiliates",
    "Blog",
]


def slug(text: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in text)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def e(text: str) -> str:
    return escape(text, quote=True)


def head(title: str, lang: str = "en", extra: str = "") -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{e(title)}</title>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="stylesheet" href="/static/css/site.4f1c2a.css">\n'
        '<script src="/static/js/analytics.js" async></script>\n'
        f"<style>.hidden{{display:none}} .grid{{display:grid}}</style>\n{extra}</head>\n"
    )


def cookie_banner() -> str:
    return (
        '<div id="cookie-consent" class="cookie-banner" role="dialog">\n'
        "<p>We use cookies to improve your experience. See our "
        '<a href="/legal/cookies">cookie policy</a>.</p>\n'
        '<button class="btn">Accept all</button> <a href="/legal/cookie-settings">Settings</a>\n'
        "</div>\n"
    )


def mega_menu(rng: random.Random, brand: str, big: bool = False) -> str:
    parts = [
        '<header class="site-header">\n',
        f'<a class="logo" href="/"><img src="/static/logo.svg" alt="{e(brand)}"></a>\n',
        '<form class="search" action="/search"><input name="q" placeholder="Search">'
        "<button>Search</button></form>\n",
        '<nav class="main-nav" aria-label="Main">\n<ul class="menu">\n',
    ]
    for dept in DEPARTMENTS if big else DEPARTMENTS[:7]:
        parts.append(f'<li class="menu-item"><a href="/c/{slug(dept)}">{e(dept)}</a>\n')
        if big:
            parts.append('<div class="mega-menu"><ul class="submenu">\n')
            for sub in rng.sample(SUBCATEGORIES, 10):
                parts.append(
                    f'<li class="submenu-item"><a href="/c/{slug(dept)}/{slug(sub)}">'
                    f"{e(sub)}</a></li>\n"
                )
            parts.append(
                '</ul><div class="menu-feature"><a href="/c/' + slug(dept) + '/edit">'
                f'<img src="/img/menu/{slug(dept)}.jpg" alt="">'
                f"<span>The {e(dept)} edit: new season picks</span></a></div></div>\n"
            )
        parts.append("</li>\n")
    parts.append(
        '</ul>\n</nav>\n<div class="account"><a href="/account">Sign in</a> '
        '<a href="/cart">Basket (0)</a></div>\n</header>\n'
    )
    return "".join(parts)


def simple_header(brand: str, links: list[str]) -> str:
    items = "".join(f'<li><a href="/{slug(x)}">{e(x)}</a></li>' for x in links)
    return (
        f'<header><div class="brand"><a href="/">{e(brand)}</a></div>\n'
        f"<nav><ul>{items}</ul></nav>\n"
        '<a class="cta" href="/login">Log in</a></header>\n'
    )


def breadcrumbs(trail: list[str]) -> str:
    links = " / ".join(f'<a href="/{slug(x)}">{e(x)}</a>' for x in trail[:-1])
    return (
        f'<nav class="breadcrumb" aria-label="Breadcrumb">{links} / '
        f"<span>{e(trail[-1])}</span></nav>\n"
    )


def pagination(path: str, current: int = 1, last: int = 8) -> str:
    items = []
    for n in range(1, last + 1):
        if n == current:
            items.append(f'<li class="page-item active"><span>{n}</span></li>')
        else:
            items.append(f'<li class="page-item"><a href="{path}?page={n}">{n}</a></li>')
    items.append(f'<li class="page-item"><a href="{path}?page={current + 1}">Next</a></li>')
    return '<nav class="pagination" aria-label="Pages"><ul>' + "".join(items) + "</ul></nav>\n"


def filters_sidebar(rng: random.Random, facets: dict[str, list[str]]) -> str:
    parts = ['<aside class="filters">\n<h2>Filter</h2>\n']
    for name, values in facets.items():
        parts.append(f'<div class="facet"><h3>{e(name)}</h3><ul>')
        for v in values:
            parts.append(
                f'<li><a href="?{slug(name)}={slug(v)}">{e(v)} '
                f'<span class="count">({rng.randint(2, 180)})</span></a></li>'
            )
        parts.append("</ul></div>\n")
    parts.append("</aside>\n")
    return "".join(parts)


def newsletter() -> str:
    return (
        '<section class="newsletter"><h2>Get 10% off your first order</h2>'
        "<p>Sign up for our newsletter for offers and news.</p>"
        '<form action="/newsletter"><input type="email" name="email">'
        "<button>Subscribe</button></form></section>\n"
    )


def big_footer(brand: str, columns: int = 4) -> str:
    parts = ['<footer class="site-footer">\n']
    per = len(FOOTER_LINKS) // columns
    for c in range(columns):
        links = FOOTER_LINKS[c * per : (c + 1) * per]
        parts.append('<div class="footer-col"><h4>' + ["Company", "Help", "Legal", "More"][c % 4])
        parts.append("</h4><ul>")
        parts.extend(f'<li><a href="/{slug(x)}">{e(x)}</a></li>' for x in links)
        parts.append("</ul></div>\n")
    parts.append(
        '<div class="social"><a href="https://social.example/brand">Social</a> '
        '<a href="https://video.example/brand">Videos</a> '
        '<a href="https://photos.example/brand">Photos</a></div>\n'
        f"<p>&copy; 2026 {e(brand)} Ltd. All rights reserved.</p>\n</footer>\n"
    )
    return "".join(parts)


def small_footer(brand: str) -> str:
    return (
        f'<footer><p>&copy; 2026 {e(brand)}</p><a href="/privacy">Privacy</a> '
        '<a href="/terms">Terms</a> <a href="/contact">Contact</a></footer>\n'
    )


def scripts() -> str:
    return (
        '<script src="/static/js/vendor.9a8b7c.js"></script>\n'
        '<script src="/static/js/app.1d2e3f.js"></script>\n'
        "<script>window.dataLayer=window.dataLayer||[];dataLayer.push({page:'listing'});"
        "</script>\n</body>\n</html>\n"
    )
