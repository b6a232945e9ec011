#!/usr/bin/env python3
"""Builds the labelled listing-page corpus in this directory.

Every page, domain, product, price and text here is invented. Each page is built from
its own data list, and the labels (NAME.labels.json) are written from that same list,
so they agree with the markup exactly.

Run:  /work/main/.venv/bin/python tests/watcher/corpus/_make.py
"""

from __future__ import annotations

import html
import json
import random
import re
import string
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

OUT = Path(__file__).resolve().parent
NBSP = "\u00a0"
NNBSP = "\u202f"


def E(s: str) -> str:
    return html.escape(s, quote=True)


def num(v):
    if v is None:
        return None
    v = round(float(v), 6)
    return int(v) if v.is_integer() else v


def slug(s: str) -> str:
    s = s.lower()
    for a, b in (
        ("ä", "ae"),
        ("ö", "oe"),
        ("ü", "ue"),
        ("ß", "ss"),
        ("é", "e"),
        ("è", "e"),
        ("à", "a"),
        ("å", "a"),
        ("ó", "o"),
        ("ł", "l"),
        ("ś", "s"),
        ("ż", "z"),
        ("ź", "z"),
        ("ć", "c"),
        ("ń", "n"),
        ("ę", "e"),
        ("ą", "a"),
        ("ô", "o"),
        ("ç", "c"),
        ("ì", "i"),
        ("ò", "o"),
        ("ù", "u"),
    ):
        s = s.replace(a, b)
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    return s or "item"


def money(v: float, thou: str = ",", dec: str = ".", nd: int = 2) -> str:
    s = f"{v:,.{nd}f}"
    return s.replace(",", "\0").replace(".", dec).replace("\0", thou)


def rprice(rng: random.Random, lo: int, hi: int, ends=(0.99, 0.0, 0.95, 0.0, 0.5)) -> float:
    return round(rng.randint(lo, hi) + rng.choice(ends), 2)


def uniq(rng: random.Random, n: int, make) -> list:
    seen, out = set(), []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 20000:
            raise RuntimeError("cannot make enough unique values")
        v = make(rng)
        key = v if isinstance(v, str) else v[0]
        if key in seen:
            continue
        seen.add(key)
        out.append(v)
    return out


class Page:
    def __init__(self, name: str, base: str, layout: str, ctype: str = "text/html"):
        self.name, self.base, self.layout, self.ctype = name, base, layout, ctype
        self.items: list[dict] = []
        self.text = ""

    def add(self, title: str, href: str | None, price=None, currency=None):
        url = urljoin(self.base, href) if href is not None else None
        self.items.append(
            {
                "title": " ".join(title.split()),
                "url": url,
                "price": num(price),
                "currency": currency if price is not None else None,
            }
        )

    @property
    def ext(self) -> str:
        return "xml" if "xml" in self.ctype else "html"


PAGES = []


def page(fn):
    PAGES.append(fn)
    return fn


# --------------------------------------------------------------------------------------
# shared page chrome
# --------------------------------------------------------------------------------------

_PROPS = [
    "display:flex",
    "display:grid",
    "display:block",
    "display:inline-flex",
    "gap:{n}px",
    "padding:{n}px {m}px",
    "margin:0 0 {n}px",
    "margin:0 auto",
    "font-size:{f}rem",
    "font-weight:{w}",
    "color:#{c}",
    "background:#{c}",
    "background-color:#{c}",
    "border:1px solid #{c}",
    "border-bottom:1px solid #{c}",
    "border-radius:{r}px",
    "line-height:{lh}",
    "text-decoration:none",
    "align-items:center",
    "align-items:flex-start",
    "justify-content:space-between",
    "justify-content:center",
    "flex-wrap:wrap",
    "grid-template-columns:repeat({k},minmax(0,1fr))",
    "max-width:{mw}px",
    "position:relative",
    "position:absolute",
    "top:{n}px",
    "left:0",
    "right:{n}px",
    "overflow:hidden",
    "letter-spacing:.0{d}em",
    "text-transform:uppercase",
    "transition:opacity .2s ease",
    "transition:transform .3s cubic-bezier(.2,.8,.2,1)",
    "box-shadow:0 1px {r}px rgba(0,0,0,.{d})",
    "width:100%",
    "height:auto",
    "object-fit:cover",
    "aspect-ratio:{ar}",
    "white-space:nowrap",
    "text-overflow:ellipsis",
    "cursor:pointer",
    "opacity:.{d}",
    "z-index:{z}",
    "min-height:{mh}px",
    "font-family:var(--font-{fam})",
    "flex:1 1 auto",
    "list-style:none",
    "text-align:center",
]


def _prop(rng: random.Random) -> str:
    p = rng.choice(_PROPS)
    return p.format(
        n=rng.choice([2, 4, 6, 8, 12, 16, 20, 24, 32]),
        m=rng.choice([4, 8, 12, 16, 24]),
        f=rng.choice([".75", ".875", "1", "1.125", "1.25", "1.5", "2"]),
        w=rng.choice([400, 500, 600, 700]),
        c="".join(rng.choice("0123456789abcdef") for _ in range(6)),
        r=rng.choice([2, 4, 6, 8, 12, 999]),
        lh=rng.choice(["1.2", "1.35", "1.5", "1.6"]),
        k=rng.choice([2, 3, 4, 5]),
        mw=rng.choice([960, 1140, 1280, 1440]),
        d=rng.randint(1, 9),
        ar=rng.choice(["1/1", "4/3", "3/4", "16/9"]),
        z=rng.choice([1, 10, 50, 100, 999]),
        mh=rng.choice([40, 48, 64, 120, 320]),
        fam=rng.choice(["sans", "serif", "display"]),
    )


def make_css(rng: random.Random, body: str, limit: int = 160) -> str:
    classes = []
    for m in re.finditer(r'class="([^"]*)"', body):
        for c in m.group(1).split():
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", c) and c not in classes:
                classes.append(c)
    classes = classes[:limit]
    rules = [
        ":root{--font-sans:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
        "--font-serif:Georgia,'Times New Roman',serif;--font-display:'Inter',sans-serif}",
        "*,*::before,*::after{box-sizing:border-box}",
        "body{margin:0;font-family:var(--font-sans);color:#1d1d1f;background:#fff}",
        "img{max-width:100%;height:auto;display:block}",
        "a{color:inherit}",
        ".visually-hidden,.sr-only{position:absolute!important;width:1px;height:1px;"
        "overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}",
    ]
    for c in classes:
        props = ";".join(_prop(rng) for _ in range(rng.randint(2, 6)))
        rules.append(f".{c}{{{props}}}")
        if rng.random() < 0.15:
            rules.append(f".{c}:hover{{{_prop(rng)}}}")
    media = [f".{c}{{{_prop(rng)};{_prop(rng)}}}" for c in classes[::5]]
    rules.append("@media (max-width:768px){" + "".join(media) + "}")
    return "<style>\n" + "\n".join(rules) + "\n</style>"


ICONS = {
    "search": "M10 2a8 8 0 1 0 4.9 14.3l5.4 5.4 1.4-1.4-5.4-5.4A8 8 0 0 0 10 2zm0 2a6 6 0 1 1 0 12 6 6 0 0 1 0-12z",
    "cart": "M3 3h2l2.4 11.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.5L21 7H6.2M9 20a1 1 0 1 0 2 0 1 1 0 0 0-2 0m7 0a1 1 0 1 0 2 0 1 1 0 0 0-2 0",
    "user": "M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-5 0-9 2.5-9 5.5V22h18v-2.5C21 16.5 17 14 12 14z",
    "heart": "M12 21s-7.5-4.6-9.6-9.4C.9 8 3 4 6.8 4c2.1 0 3.6 1.2 5.2 3 1.6-1.8 3.1-3 5.2-3C21 4 23.1 8 21.6 11.6 19.5 16.4 12 21 12 21z",
    "star": "M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z",
    "menu": "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z",
    "close": "M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z",
    "chevron": "M9 6l6 6-6 6-1.4-1.4 4.6-4.6-4.6-4.6z",
    "pin": "M12 2a7 7 0 0 0-7 7c0 5.3 7 13 7 13s7-7.7 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z",
    "facebook": "M14 8h3V4h-3c-2.8 0-5 2.2-5 5v2H7v4h2v9h4v-9h3l1-4h-4V9c0-.6.4-1 1-1z",
    "instagram": "M7 2h10a5 5 0 0 1 5 5v10a5 5 0 0 1-5 5H7a5 5 0 0 1-5-5V7a5 5 0 0 1 5-5zm5 5a5 5 0 1 0 0 10 5 5 0 0 0 0-10zm6-1.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z",
    "youtube": "M23 7.2a3 3 0 0 0-2.1-2.1C19 4.6 12 4.6 12 4.6s-7 0-8.9.5A3 3 0 0 0 1 7.2 31 31 0 0 0 .5 12a31 31 0 0 0 .5 4.8 3 3 0 0 0 2.1 2.1c1.9.5 8.9.5 8.9.5s7 0 8.9-.5a3 3 0 0 0 2.1-2.1 31 31 0 0 0 .5-4.8 31 31 0 0 0-.5-4.8zM9.8 15V9l5.2 3z",
}


def sprite() -> str:
    syms = "".join(
        f'<symbol id="icon-{k}" viewBox="0 0 24 24"><path d="{v}"/></symbol>'
        for k, v in ICONS.items()
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" style="display:none" aria-hidden="true">{syms}</svg>'


def icon(name: str, cls: str = "icon") -> str:
    return f'<svg class="{cls}" width="20" height="20" aria-hidden="true"><use href="#icon-{name}"></use></svg>'


def analytics(rng: random.Random, site: str) -> str:
    gid = "G-" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(10))
    return (
        f'<script async src="https://metrics.{slug(site)}-cdn.test/gtag/js?id={gid}"></script>\n'
        "<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}"
        f"gtag('js',new Date());gtag('config','{gid}',{{anonymize_ip:true}});</script>"
    )


def datalayer(items: list[dict], list_name: str) -> str:
    """A GA4-style ecommerce view_item_list push, as many shops render inline."""
    ev = {
        "event": "view_item_list",
        "ecommerce": {
            "item_list_name": list_name,
            "items": [
                {
                    "item_id": f"SKU{1000 + i}",
                    "item_name": it["title"],
                    "price": it["price"],
                    "currency": it["currency"],
                    "index": i,
                }
                for i, it in enumerate(items)
            ],
        },
    }
    return (
        "<script>window.dataLayer=window.dataLayer||[];dataLayer.push("
        + json.dumps(ev, ensure_ascii=False)
        + ");</script>"
    )


def doc(
    rng: random.Random,
    *,
    lang: str,
    title: str,
    site: str,
    body: str,
    canonical: str,
    description: str = "",
    head_extra: str = "",
    css: bool = True,
    html_attrs: str = "",
    body_attrs: str = "",
) -> str:
    head = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{E(title)}</title>",
        f'<meta name="description" content="{E(description or title)}">',
        f'<link rel="canonical" href="{E(canonical)}">',
        f'<meta property="og:title" content="{E(title)}">',
        f'<meta property="og:site_name" content="{E(site)}">',
        '<meta property="og:type" content="website">',
        '<link rel="icon" href="/favicon.ico" sizes="32x32">',
        f'<link rel="preconnect" href="https://img.{slug(site)}-cdn.test">',
    ]
    if css:
        head.append(make_css(rng, body))
    head.append(analytics(rng, site))
    if head_extra:
        head.append(head_extra)
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"{html_attrs}>\n<head>\n'
        + "\n".join(head)
        + f"\n</head>\n<body{body_attrs}>\n{sprite()}\n{body}\n</body>\n</html>\n"
    )


def header_basic(
    site: str,
    links,
    p: str = "site",
    notice: str = "",
    search: str = "Search",
    account: str = "Account",
    cart: str = "Cart",
    logo_src: str = "/static/img/logo.svg",
) -> str:
    nav = "\n".join(
        f'      <li class="{p}-nav__item"><a class="{p}-nav__link" href="{E(h)}">{E(t)}</a></li>'
        for t, h in links
    )
    top = f'<div class="{p}-announcement"><p>{E(notice)}</p></div>\n' if notice else ""
    return f"""<header class="{p}-header" role="banner">
  {top}<div class="{p}-header__inner">
    <button class="{p}-burger" aria-label="Menu" aria-expanded="false">{icon("menu")}</button>
    <a class="{p}-logo" href="/" aria-label="{E(site)}"><img src="{logo_src}" alt="{E(site)}" width="148" height="32"></a>
    <nav class="{p}-nav" aria-label="Main">
      <ul class="{p}-nav__list">
{nav}
      </ul>
    </nav>
    <form class="{p}-search" action="/search" method="get" role="search">
      <label class="visually-hidden" for="q">{E(search)}</label>
      <input id="q" type="search" name="q" placeholder="{E(search)}" autocomplete="off">
      <button type="submit" aria-label="{E(search)}">{icon("search")}</button>
    </form>
    <div class="{p}-header__actions">
      <a class="{p}-header__icon" href="/account" aria-label="{E(account)}">{icon("user")}</a>
      <a class="{p}-header__icon" href="/wishlist" aria-label="Wishlist">{icon("heart")}</a>
      <a class="{p}-header__icon {p}-header__cart" href="/cart">{icon("cart")}<span class="{p}-cart-count">0</span><span class="visually-hidden">{E(cart)}</span></a>
    </div>
  </div>
</header>"""


def footer_cols(
    cols, p: str = "site", copy: str = "", social: bool = True, payments: bool = False
) -> str:
    blocks = []
    for head, links in cols:
        lis = "".join(f'<li><a href="{E(h)}">{E(t)}</a></li>' for t, h in links)
        blocks.append(
            f'    <div class="{p}-footer__col">\n      <h4 class="{p}-footer__heading">{E(head)}</h4>\n'
            f'      <ul class="{p}-footer__links">{lis}</ul>\n    </div>'
        )
    soc = ""
    if social:
        soc = (
            f'  <div class="{p}-footer__social">'
            + "".join(
                f'<a href="https://{n}.test/{p}" aria-label="{n}" rel="noopener">{icon(n)}</a>'
                for n in ("facebook", "instagram", "youtube")
            )
            + "</div>\n"
        )
    pay = ""
    if payments:
        pay = (
            f'  <ul class="{p}-footer__payments">'
            + "".join(
                f'<li><img src="/static/pay/{x}.svg" alt="{x}" width="38" height="24"></li>'
                for x in ("visa", "mastercard", "amex", "paypal", "applepay")
            )
            + "</ul>\n"
        )
    return (
        f'<footer class="{p}-footer">\n  <div class="{p}-footer__grid">\n'
        + "\n".join(blocks)
        + f'\n  </div>\n{soc}{pay}  <p class="{p}-footer__legal">{E(copy)}</p>\n</footer>'
    )


def breadcrumbs(parts, p: str = "breadcrumb", label: str = "Breadcrumb") -> str:
    lis = []
    for i, (t, h) in enumerate(parts):
        if h is None or i == len(parts) - 1:
            lis.append(f'<li class="{p}__item" aria-current="page">{E(t)}</li>')
        else:
            lis.append(f'<li class="{p}__item"><a href="{E(h)}">{E(t)}</a></li>')
    return (
        f'<nav class="{p}" aria-label="{E(label)}"><ol class="{p}__list">{"".join(lis)}</ol></nav>'
    )


def pagination(
    path: str,
    cur: int,
    total: int,
    p: str = "pagination",
    prev: str = "Previous",
    nxt: str = "Next",
    param: str = "page",
) -> str:
    sep = "&" if "?" in path else "?"
    out = []
    if cur > 1:
        out.append(
            f'<li><a class="{p}__prev" rel="prev" href="{path}{sep}{param}={cur - 1}">{E(prev)}</a></li>'
        )
    for i in range(1, total + 1):
        if i in (1, 2, 3, total) or abs(i - cur) <= 1:
            if i == cur:
                out.append(f'<li><span class="{p}__current" aria-current="page">{i}</span></li>')
            else:
                out.append(f'<li><a class="{p}__link" href="{path}{sep}{param}={i}">{i}</a></li>')
        elif i == 4:
            out.append(f'<li class="{p}__gap">…</li>')
    if cur < total:
        out.append(
            f'<li><a class="{p}__next" rel="next" href="{path}{sep}{param}={cur + 1}">{E(nxt)}</a></li>'
        )
    return (
        f'<nav class="{p}" aria-label="Pagination"><ul class="{p}__list">{"".join(out)}</ul></nav>'
    )


def filters(groups, p: str = "filters", title: str = "Filter", apply: str = "Apply") -> str:
    gs = []
    for gi, (head, opts) in enumerate(groups):
        lis = []
        for oi, (label, count, href) in enumerate(opts):
            lis.append(
                f'<li class="{p}__option"><input type="checkbox" id="f{gi}-{oi}">'
                f'<label for="f{gi}-{oi}"><a href="{E(href)}">{E(label)}</a> '
                f'<span class="{p}__count">({count})</span></label></li>'
            )
        gs.append(
            f'<details class="{p}__group" open><summary class="{p}__heading">{E(head)}</summary>'
            f'<ul class="{p}__options">{"".join(lis)}</ul></details>'
        )
    return (
        f'<aside class="{p}" aria-label="{E(title)}"><h2 class="{p}__title">{E(title)}</h2>'
        f'<form class="{p}__form" method="get">{"".join(gs)}'
        f'<button type="submit" class="{p}__apply">{E(apply)}</button></form></aside>'
    )


def cookie_banner(
    text: str,
    accept: str = "Accept all",
    reject: str = "Reject all",
    settings: str = "Cookie settings",
    policy: str = "Privacy policy",
    policy_href: str = "/privacy",
    p: str = "cookie",
) -> str:
    return (
        f'<div class="{p}-banner" id="cookie-consent" role="dialog" aria-live="polite" aria-label="Cookies">'
        f'<div class="{p}-banner__text"><p>{E(text)} <a href="{policy_href}">{E(policy)}</a></p></div>'
        f'<div class="{p}-banner__actions"><button class="{p}-btn {p}-btn--primary" data-consent="all">{E(accept)}</button>'
        f'<button class="{p}-btn" data-consent="none">{E(reject)}</button>'
        f'<a class="{p}-btn {p}-btn--link" href="/cookie-settings">{E(settings)}</a></div></div>'
    )


def newsletter(
    heading: str,
    text: str,
    btn: str = "Subscribe",
    p: str = "newsletter",
    placeholder: str = "Email address",
) -> str:
    return (
        f'<section class="{p}" aria-labelledby="nl-h"><h2 id="nl-h" class="{p}__title">{E(heading)}</h2>'
        f'<p class="{p}__text">{E(text)}</p><form class="{p}__form" action="/newsletter/subscribe" method="post">'
        f'<input type="email" name="email" required placeholder="{E(placeholder)}">'
        f'<button type="submit">{E(btn)}</button></form>'
        f'<p class="{p}__fine">By subscribing you agree to our <a href="/privacy">privacy policy</a>.</p></section>'
    )


EN_FOOTER = [
    (
        "Shop",
        [
            ("New arrivals", "/new"),
            ("Bestsellers", "/bestsellers"),
            ("Sale", "/sale"),
            ("Gift cards", "/gift-cards"),
        ],
    ),
    (
        "Help",
        [
            ("Contact us", "/contact"),
            ("Shipping", "/help/shipping"),
            ("Returns", "/help/returns"),
            ("Order status", "/orders"),
            ("FAQ", "/help/faq"),
        ],
    ),
    (
        "Company",
        [
            ("About us", "/about"),
            ("Careers", "/careers"),
            ("Press", "/press"),
            ("Sustainability", "/sustainability"),
        ],
    ),
    (
        "Legal",
        [
            ("Privacy policy", "/privacy"),
            ("Terms of service", "/terms"),
            ("Cookie settings", "/cookies"),
            ("Accessibility", "/accessibility"),
        ],
    ),
]


def lorem(rng: random.Random, words: int, vocab=None) -> str:
    vocab = (
        vocab
        or (
            "crafted with care for everyday use built to last and easy to clean finished by hand "
            "in small batches designed for comfort durable lightweight versatile timeless made from "
            "responsibly sourced materials with a lifetime guarantee perfect gift for home and travel"
        ).split()
    )
    w = [rng.choice(vocab) for _ in range(words)]
    return (" ".join(w)).capitalize() + "."


def rating(rng: random.Random, p: str = "rating") -> str:
    r = round(rng.uniform(3.6, 5.0), 1)
    n = rng.randint(3, 1800)
    stars = "".join(icon("star", f"{p}__star") for _ in range(5))
    return (
        f'<div class="{p}" aria-label="Rated {r} out of 5">{stars}'
        f'<span class="{p}__value">{r}</span> <span class="{p}__count">({n})</span></div>'
    )


# --------------------------------------------------------------------------------------
# 01 shop grid: div.product-card, h3>a, span.price (USD)
# --------------------------------------------------------------------------------------


@page
def p01():
    rng = random.Random(101)
    pg = Page(
        "01_shop_product_card_usd",
        "https://www.copperleaf-kitchen.test/collections/cookware",
        "shop grid: div.product-card with image, h3>a title, span.price (USD)",
    )
    adj = ["Heritage", "Everyday", "Pro", "Artisan", "Nordic", "Classic", "Forge", "Coastal"]
    spec = [
        '10"',
        '12"',
        "5.5 qt",
        "Walnut",
        "Enamelled",
        "Tri-Ply",
        "Matte Black",
        "Carbon Steel",
        "",
    ]
    nouns = [
        "Cast Iron Skillet",
        "Dutch Oven",
        "Chef's Knife",
        "Santoku Knife",
        "Saucepan",
        "Stockpot",
        "Wok",
        "Pepper Mill",
        "Cutting Board",
        "Mixing Bowl Set",
        "Baking Sheet",
        "Grill Pan",
        "French Press",
        "Kettle",
        "Salt & Pepper Mill Set",
        "Paring Knife",
        "Roasting Pan",
        "Sauté Pan",
    ]
    titles = uniq(
        rng,
        24,
        lambda r: " ".join(x for x in (r.choice(adj), r.choice(spec), r.choice(nouns)) if x),
    )
    cards = []
    for i, t in enumerate(titles):
        price = rprice(rng, 18, 340)
        if i == 5:
            price = 1299.0
        h = f"/products/{slug(t)}"
        badge = '<span class="product-card__badge">New</span>' if rng.random() < 0.2 else ""
        cards.append(f"""  <div class="product-card" data-product-id="{7100 + i}">
    <a class="product-card__media" href="{h}" tabindex="-1">{badge}
      <img src="https://img.copperleaf-kitchen-cdn.test/p/{slug(t)}_600x.jpg" alt="{E(t)}" loading="lazy" width="600" height="600">
    </a>
    <div class="product-card__info">
      <h3 class="product-card__title"><a href="{h}">{E(t)}</a></h3>
      {rating(rng)}
      <span class="price">${money(price)}</span>
      <button class="product-card__add" type="button" data-variant="{88000 + i}">Add to cart</button>
    </div>
  </div>""")
        pg.add(t, h, price, "USD")
    nav = [
        ("Cookware", "/collections/cookware"),
        ("Knives", "/collections/knives"),
        ("Bakeware", "/collections/bakeware"),
        ("Coffee & Tea", "/collections/coffee-tea"),
        ("Tableware", "/collections/tableware"),
        ("Tools", "/collections/tools"),
        ("Gifts", "/collections/gifts"),
        ("Sale", "/collections/sale"),
        ("Journal", "/blogs/journal"),
        ("Recipes", "/blogs/recipes"),
    ]
    side = filters(
        [
            (
                "Material",
                [
                    ("Cast iron", 14, "?material=cast-iron"),
                    ("Stainless steel", 22, "?material=stainless"),
                    ("Carbon steel", 7, "?material=carbon"),
                    ("Copper", 4, "?material=copper"),
                ],
            ),
            (
                "Price",
                [
                    ("Under $50", 19, "?price=0-50"),
                    ("$50 – $150", 27, "?price=50-150"),
                    ("$150+", 12, "?price=150-"),
                ],
            ),
            ("Availability", [("In stock", 51, "?stock=1"), ("Pre-order", 3, "?stock=pre")]),
        ]
    )
    body = f"""{header_basic("Copperleaf Kitchen", nav, notice="Free US shipping on orders over $75")}
<main id="main" class="collection">
  {breadcrumbs([("Home", "/"), ("Cookware", None)])}
  <div class="collection__head"><h1 class="collection__title">Cookware</h1>
  <p class="collection__desc">Pans, pots and knives that get better with every meal.</p>
  <div class="collection__sort"><label for="sort">Sort by</label><select id="sort"><option>Featured</option><option>Price, low to high</option><option>Price, high to low</option></select>
  <span class="collection__count">58 products</span></div></div>
  <div class="collection__layout">
  {side}
  <div class="product-grid">
{chr(10).join(cards)}
  </div>
  </div>
  {pagination("/collections/cookware", 1, 3)}
</main>
{newsletter("Get recipes and early access", "One email a week. No spam, unsubscribe any time.")}
{footer_cols(EN_FOOTER, copy="© 2025 Copperleaf Kitchen Co.", payments=True)}"""
    pg.text = doc(
        rng,
        lang="en",
        title="Cookware – Copperleaf Kitchen",
        site="Copperleaf Kitchen",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 02 Bootstrap rows, German, EUR "1.299,00 €"
# --------------------------------------------------------------------------------------


@page
def p02():
    rng = random.Random(102)
    pg = Page(
        "02_bootstrap_rows_de_eur",
        "https://www.elektrohaus-nordlicht.test/kategorie/audio-video",
        "Bootstrap rows div.row > div.col-md-3 > div.card in 6 rows, German, EUR 1.299,00 € with <s> UVP",
    )
    brands = ["Voltara", "Kestrel", "Nordlicht", "Aurix", "Quanta", "Lumeo", "Tessin"]
    nouns = [
        ("Noise-Cancelling-Kopfhörer", 89, 399),
        ("Bluetooth-Lautsprecher", 39, 249),
        ("Soundbar", 149, 899),
        ("4K-Fernseher 55 Zoll", 549, 1899),
        ("Heimkino-Receiver", 299, 1299),
        ("Plattenspieler", 179, 749),
        ("True-Wireless-Ohrhörer", 49, 279),
        ("Beamer Full HD", 399, 1499),
        ("Streaming-Box", 49, 199),
        ("Multiroom-Lautsprecher", 199, 599),
        ("Monitor 27 Zoll", 229, 1299),
        ("Studio-Kopfhörer", 99, 449),
    ]
    models = ["X2", "Pro", "Max", "S", "Air", "2. Generation", "Mini", "Ultra", "Plus"]
    data = uniq(
        rng,
        24,
        lambda r: (lambda n: (f"{r.choice(brands)} {n[0]} {r.choice(models)}", n))(r.choice(nouns)),
    )
    rows = []
    for r0 in range(0, 24, 4):
        cols = []
        for i in range(r0, r0 + 4):
            t, (_, lo, hi) = data[i]
            price = rprice(rng, lo, hi, ends=(0.0, 0.99, 0.0))
            sku = 100000 + i * 137
            h = f"https://www.elektrohaus-nordlicht.test/produkt/{slug(t)}-{sku}.html"
            old = ""
            if rng.random() < 0.35:
                oldp = round(price * rng.choice([1.15, 1.2, 1.3]), 0)
                old = f'<s class="text-muted small me-2">UVP {money(oldp, ".", ",")} €</s>'
            stock = rng.choice(
                [
                    '<span class="badge bg-success">Sofort lieferbar</span>',
                    '<span class="badge bg-warning text-dark">Lieferbar in 3-5 Tagen</span>',
                ]
            )
            cols.append(f"""      <div class="col-md-3 col-sm-6 mb-4">
        <div class="card h-100 shadow-sm">
          <a href="{h}"><img class="card-img-top" src="/media/catalog/{sku}/{slug(t)}-400.webp" alt="{E(t)}" loading="lazy"></a>
          <div class="card-body">
            <h5 class="card-title"><a class="text-reset text-decoration-none" href="{h}">{E(t)}</a></h5>
            <p class="card-text small text-muted">Art.-Nr. {sku} · {E(lorem(rng, 6, "kabellos leistungsstark kompakt brillanter Klang langlebiger Akku elegantes Design einfache Bedienung".split()))}</p>
            {stock}
          </div>
          <div class="card-footer bg-white border-0">
            <p class="mb-1">{old}<span class="fw-bold fs-5 text-danger">{money(price, ".", ",")} €</span></p>
            <small class="text-muted">inkl. MwSt., zzgl. Versand</small>
            <button class="btn btn-primary btn-sm w-100 mt-2" data-sku="{sku}">In den Warenkorb</button>
          </div>
        </div>
      </div>""")
            pg.add(t, h, price, "EUR")
        rows.append('    <div class="row">\n' + "\n".join(cols) + "\n    </div>")
    menus = {
        "Audio & Video": ["Kopfhörer", "Lautsprecher", "Fernseher", "Heimkino", "Plattenspieler"],
        "Computer": ["Notebooks", "Monitore", "Tastaturen", "Mäuse", "Drucker"],
        "Smart Home": ["Beleuchtung", "Sicherheit", "Thermostate", "Steckdosen"],
        "Haushalt": ["Kaffeevollautomaten", "Staubsauger", "Küchenmaschinen"],
    }
    dd = []
    for k, vs in menus.items():
        items = "".join(
            f'<li><a class="dropdown-item" href="/kategorie/{slug(v)}">{E(v)}</a></li>' for v in vs
        )
        dd.append(
            f'<li class="nav-item dropdown"><a class="nav-link dropdown-toggle" href="/kategorie/{slug(k)}" '
            f'role="button" data-bs-toggle="dropdown">{E(k)}</a><ul class="dropdown-menu">{items}</ul></li>'
        )
    dd += [
        f'<li class="nav-item"><a class="nav-link" href="/{slug(x)}">{E(x)}</a></li>'
        for x in ("Angebote", "Marken", "Ratgeber")
    ]
    body = f"""<nav class="navbar navbar-expand-lg navbar-dark bg-dark sticky-top">
  <div class="container">
    <a class="navbar-brand" href="/"><img src="/static/logo-nordlicht.svg" alt="Elektrohaus Nordlicht" height="30"></a>
    <button class="navbar-toggler" type="button" data-bs-toggle="collapse" data-bs-target="#mainNav"><span class="navbar-toggler-icon"></span></button>
    <div class="collapse navbar-collapse" id="mainNav">
      <ul class="navbar-nav me-auto mb-2 mb-lg-0">{"".join(dd)}</ul>
      <form class="d-flex" role="search" action="/suche"><input class="form-control me-2" type="search" name="q" placeholder="Suchen"><button class="btn btn-outline-light" type="submit">Suchen</button></form>
      <ul class="navbar-nav ms-3"><li class="nav-item"><a class="nav-link" href="/konto">Mein Konto</a></li><li class="nav-item"><a class="nav-link" href="/warenkorb">Warenkorb (0)</a></li></ul>
    </div>
  </div>
</nav>
{cookie_banner("Wir verwenden Cookies, um unsere Website für Sie optimal zu gestalten und fortlaufend zu verbessern.", "Alle akzeptieren", "Nur notwendige", "Einstellungen", "Datenschutzerklärung", "/datenschutz")}
<main class="container my-4">
  <nav aria-label="breadcrumb"><ol class="breadcrumb"><li class="breadcrumb-item"><a href="/">Startseite</a></li><li class="breadcrumb-item"><a href="/kategorie/elektronik">Elektronik</a></li><li class="breadcrumb-item active" aria-current="page">Audio &amp; Video</li></ol></nav>
  <div class="d-flex justify-content-between align-items-center mb-3"><h1 class="h3">Audio &amp; Video</h1><span class="text-muted">137 Artikel</span>
  <select class="form-select w-auto"><option>Beliebteste</option><option>Preis aufsteigend</option><option>Preis absteigend</option><option>Neuheiten</option></select></div>
  <div class="product-list">
{chr(10).join(rows)}
  </div>
  <nav aria-label="Seitennavigation"><ul class="pagination justify-content-center">
    <li class="page-item disabled"><span class="page-link">Zurück</span></li>
    <li class="page-item active"><span class="page-link">1</span></li>
    <li class="page-item"><a class="page-link" href="?p=2">2</a></li><li class="page-item"><a class="page-link" href="?p=3">3</a></li>
    <li class="page-item"><a class="page-link" href="?p=6">6</a></li><li class="page-item"><a class="page-link" href="?p=2">Weiter</a></li>
  </ul></nav>
</main>
<footer class="bg-light border-top pt-5 pb-3 mt-5"><div class="container"><div class="row">
  <div class="col-md-3"><h6>Service</h6><ul class="list-unstyled"><li><a href="/hilfe/versand">Versand &amp; Lieferung</a></li><li><a href="/hilfe/retoure">Rücksendung</a></li><li><a href="/hilfe/zahlung">Zahlungsarten</a></li><li><a href="/kontakt">Kontakt</a></li></ul></div>
  <div class="col-md-3"><h6>Unternehmen</h6><ul class="list-unstyled"><li><a href="/ueber-uns">Über uns</a></li><li><a href="/karriere">Karriere</a></li><li><a href="/filialen">Filialen</a></li><li><a href="/presse">Presse</a></li></ul></div>
  <div class="col-md-3"><h6>Rechtliches</h6><ul class="list-unstyled"><li><a href="/impressum">Impressum</a></li><li><a href="/agb">AGB</a></li><li><a href="/datenschutz">Datenschutz</a></li><li><a href="/widerruf">Widerrufsbelehrung</a></li></ul></div>
  <div class="col-md-3"><h6>Newsletter</h6><p class="small">10 % Rabatt auf Ihre erste Bestellung.</p><form action="/newsletter"><input class="form-control mb-2" type="email" placeholder="E-Mail-Adresse"><button class="btn btn-dark btn-sm">Anmelden</button></form></div>
</div><p class="small text-muted mt-3">* Alle Preise inkl. gesetzl. MwSt. © 2025 Elektrohaus Nordlicht GmbH</p></div></footer>
<script src="/static/js/bootstrap.bundle.min.js"></script>
{datalayer(pg.items, "Audio & Video")}"""
    pg.text = doc(
        rng,
        lang="de",
        title="Audio & Video günstig kaufen | Elektrohaus Nordlicht",
        site="Elektrohaus Nordlicht",
        body=body,
        canonical=pg.base,
        head_extra='<link rel="stylesheet" href="/static/css/bootstrap.min.css">',
    )
    return pg


# --------------------------------------------------------------------------------------
# 03 ul/li shop, GBP, WooCommerce-style sale prices with <del>/<ins>; sidebar bestsellers widget
# --------------------------------------------------------------------------------------


def woo_amount(v: float) -> str:
    return (
        f'<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">£</span>'
        f"{money(v)}</bdi></span>"
    )


@page
def p03():
    rng = random.Random(103)
    pg = Page(
        "03_ul_li_gbp_sale",
        "https://harlowandfinch.test/product-category/knitwear/",
        "ul.products > li.product (WooCommerce-like), GBP, sale prices <del> old / <ins> new, sidebar bestsellers widget",
    )
    colours = [
        "Navy",
        "Olive",
        "Oatmeal",
        "Charcoal",
        "Burgundy",
        "Sand",
        "Forest Green",
        "Ecru",
        "Rust",
    ]
    nouns = [
        "Merino Crew Jumper",
        "Lambswool V-Neck",
        "Cable Knit Cardigan",
        "Fisherman Roll Neck",
        "Shetland Crew",
        "Cashmere Beanie",
        "Ribbed Scarf",
        "Half-Zip Sweater",
        "Shawl Collar Cardigan",
        "Donegal Tweed Jumper",
    ]
    titles = uniq(rng, 20, lambda r: f"{r.choice(nouns)} – {r.choice(colours)}")
    lis = []
    for i, t in enumerate(titles):
        full = rprice(rng, 35, 180, ends=(0.0, 0.0, 0.5))
        sale = rng.random() < 0.5
        cur = round(full * rng.choice([0.7, 0.75, 0.8]), 0) if sale else full
        h = f"https://harlowandfinch.test/product/{slug(t)}/"
        pid = 4400 + i
        price_html = (
            f'<span class="price"><del aria-hidden="true">{woo_amount(full)}</del> <ins>{woo_amount(cur)}</ins></span>'
            if sale
            else f'<span class="price">{woo_amount(cur)}</span>'
        )
        onsale = '<span class="onsale">Sale!</span>' if sale else ""
        lis.append(f"""<li class="product type-product post-{pid} status-publish instock product_cat-knitwear has-post-thumbnail{" sale" if sale else ""} shipping-taxable purchasable product-type-variable">
	<a href="{h}" class="woocommerce-LoopProduct-link woocommerce-loop-product__link">{onsale}
	<img width="300" height="300" src="https://harlowandfinch.test/wp-content/uploads/2025/09/{slug(t)}-300x300.jpg" class="attachment-woocommerce_thumbnail size-woocommerce_thumbnail" alt="" decoding="async" loading="lazy">
	<h2 class="woocommerce-loop-product__title">{E(t)}</h2>
	{price_html}
	</a><a href="?add-to-cart={pid}" data-quantity="1" class="button product_type_variable add_to_cart_button" data-product_id="{pid}" aria-label="Select options for &ldquo;{E(t)}&rdquo;" rel="nofollow">Select options</a></li>""")
        pg.add(t, h, cur, "GBP")
    best = []
    for j in range(4):
        bt = f"{rng.choice(['Oxford Shirt', 'Waxed Jacket', 'Moleskin Trousers', 'Linen Shirt'])} – {rng.choice(colours)}"
        best.append(
            f'<li><a href="https://harlowandfinch.test/product/{slug(bt)}-{j}/"><img width="60" height="60" src="/wp-content/uploads/bs{j}.jpg" alt="">'
            f'<span class="product-title">{E(bt)}</span></a>{woo_amount(rprice(rng, 45, 220, ends=(0.0,)))}</li>'
        )
    nav = [
        ("New In", "/new-in/"),
        ("Knitwear", "/product-category/knitwear/"),
        ("Shirts", "/product-category/shirts/"),
        ("Outerwear", "/product-category/outerwear/"),
        ("Trousers", "/product-category/trousers/"),
        ("Accessories", "/product-category/accessories/"),
        ("Sale", "/sale/"),
        ("Our Story", "/our-story/"),
        ("Stockists", "/stockists/"),
    ]
    navh = "".join(
        f'<li class="menu-item menu-item-type-taxonomy"><a href="{h}">{E(t)}</a></li>'
        for t, h in nav
    )
    body = f"""<div id="page" class="hfeed site">
<header id="masthead" class="site-header" role="banner">
  <div class="col-full"><div class="site-branding"><a href="https://harlowandfinch.test/" class="custom-logo-link" rel="home"><img src="/wp-content/uploads/logo.png" class="custom-logo" alt="Harlow &amp; Finch"></a></div>
  <div class="site-search"><form role="search" method="get" class="woocommerce-product-search" action="https://harlowandfinch.test/"><input type="search" class="search-field" placeholder="Search products&hellip;" name="s"><button type="submit">Search</button></form></div></div>
  <div class="storefront-primary-navigation"><div class="col-full"><nav id="site-navigation" class="main-navigation" aria-label="Primary Navigation"><ul id="menu-primary" class="menu">{navh}</ul></nav>
  <ul id="site-header-cart" class="site-header-cart menu"><li><a class="cart-contents" href="https://harlowandfinch.test/basket/" title="View your shopping basket">{woo_amount(0)} <span class="count">0 items</span></a></li></ul></div></div>
</header>
<div class="storefront-breadcrumb"><div class="col-full"><nav class="woocommerce-breadcrumb" aria-label="breadcrumbs"><a href="https://harlowandfinch.test">Home</a><span class="breadcrumb-separator"> / </span>Knitwear</nav></div></div>
<div id="content" class="site-content"><div class="col-full">
<div id="primary" class="content-area"><main id="main" class="site-main" role="main">
<header class="woocommerce-products-header"><h1 class="woocommerce-products-header__title page-title">Knitwear</h1>
<div class="term-description"><p>Knitted in Scotland and the Borders from British wool.</p></div></header>
<div class="storefront-sorting"><form class="woocommerce-ordering" method="get"><select name="orderby" class="orderby"><option value="menu_order" selected>Default sorting</option><option value="popularity">Sort by popularity</option><option value="price">Sort by price: low to high</option></select></form>
<p class="woocommerce-result-count">Showing 1&ndash;20 of 46 results</p></div>
<ul class="products columns-4">
{chr(10).join(lis)}
</ul>
<nav class="woocommerce-pagination"><ul class="page-numbers"><li><span aria-current="page" class="page-numbers current">1</span></li><li><a class="page-numbers" href="https://harlowandfinch.test/product-category/knitwear/page/2/">2</a></li><li><a class="page-numbers" href="https://harlowandfinch.test/product-category/knitwear/page/3/">3</a></li><li><a class="next page-numbers" href="https://harlowandfinch.test/product-category/knitwear/page/2/">&rarr;</a></li></ul></nav>
</main></div>
<div id="secondary" class="widget-area" role="complementary">
<div class="widget woocommerce widget_product_categories"><span class="gamma widget-title">Categories</span><ul class="product-categories"><li class="cat-item"><a href="/product-category/knitwear/">Knitwear</a> <span class="count">(46)</span></li><li class="cat-item"><a href="/product-category/shirts/">Shirts</a> <span class="count">(31)</span></li><li class="cat-item"><a href="/product-category/outerwear/">Outerwear</a> <span class="count">(18)</span></li></ul></div>
<div class="widget woocommerce widget_price_filter"><span class="gamma widget-title">Filter by price</span><form method="get" action="https://harlowandfinch.test/product-category/knitwear/"><div class="price_slider_wrapper"><input type="text" name="min_price" value="30"><input type="text" name="max_price" value="200"><button type="submit" class="button">Filter</button><div class="price_label">Price: £30 &mdash; £200</div></div></form></div>
<div class="widget woocommerce widget_top_rated_products"><span class="gamma widget-title">Bestsellers</span><ul class="product_list_widget">{"".join(best)}</ul></div>
</div>
</div></div>
{newsletter("Letters from the mill", "Occasional news on new colours, restocks and events.", "Sign up")}
<footer id="colophon" class="site-footer" role="contentinfo"><div class="col-full">
<div class="footer-widgets row-1 col-3 fix">
<div class="block footer-widget-1"><div class="widget widget_nav_menu"><span class="gamma widget-title">Help</span><ul class="menu"><li><a href="/delivery/">Delivery</a></li><li><a href="/returns/">Returns &amp; exchanges</a></li><li><a href="/size-guide/">Size guide</a></li><li><a href="/contact/">Contact</a></li></ul></div></div>
<div class="block footer-widget-2"><div class="widget widget_nav_menu"><span class="gamma widget-title">About</span><ul class="menu"><li><a href="/our-story/">Our story</a></li><li><a href="/the-mill/">The mill</a></li><li><a href="/journal/">Journal</a></li><li><a href="/stockists/">Stockists</a></li></ul></div></div>
<div class="block footer-widget-3"><div class="widget widget_nav_menu"><span class="gamma widget-title">Legal</span><ul class="menu"><li><a href="/privacy-policy/">Privacy policy</a></li><li><a href="/terms/">Terms &amp; conditions</a></li><li><a href="/cookies/">Cookies</a></li></ul></div></div>
</div><div class="site-info">&copy; Harlow &amp; Finch Ltd 2025. Registered in Scotland.</div></div></footer>
</div>"""
    pg.text = doc(
        rng,
        lang="en-GB",
        title="Knitwear Archives - Harlow & Finch",
        site="Harlow & Finch",
        body=body,
        canonical=pg.base,
        body_attrs=' class="archive tax-product_cat term-knitwear woocommerce woocommerce-page storefront-full-width-content"',
    )
    return pg


# --------------------------------------------------------------------------------------
# 04 Tailwind utility classes only, "$1,299.00"
# --------------------------------------------------------------------------------------

TW_CSS = (
    "<style>/*! tailwindcss v3.4.1 | MIT License */*,::after,::before{box-sizing:border-box;border:0 solid #e5e7eb}"
    ".flex{display:flex}.grid{display:grid}.hidden{display:none}.block{display:block}.flex-col{flex-direction:column}"
    ".gap-2{gap:.5rem}.gap-4{gap:1rem}.gap-6{gap:1.5rem}.gap-8{gap:2rem}.rounded-lg{border-radius:.5rem}.rounded-md{border-radius:.375rem}"
    ".border{border-width:1px}.border-b{border-bottom-width:1px}.border-t{border-top-width:1px}.p-4{padding:1rem}.px-4{padding-left:1rem;padding-right:1rem}"
    ".py-2{padding-top:.5rem;padding-bottom:.5rem}.py-6{padding-top:1.5rem;padding-bottom:1.5rem}.py-12{padding-top:3rem;padding-bottom:3rem}"
    ".text-sm{font-size:.875rem;line-height:1.25rem}.text-xs{font-size:.75rem;line-height:1rem}.text-lg{font-size:1.125rem;line-height:1.75rem}"
    ".text-2xl{font-size:1.5rem;line-height:2rem}.font-medium{font-weight:500}.font-semibold{font-weight:600}.font-bold{font-weight:700}"
    ".text-gray-400{color:rgb(156 163 175)}.text-gray-500{color:rgb(107 114 128)}.text-gray-600{color:rgb(75 85 99)}.text-gray-900{color:rgb(17 24 39)}"
    ".text-red-600{color:rgb(220 38 38)}.bg-white{background-color:#fff}.bg-gray-50{background-color:rgb(249 250 251)}.bg-gray-900{background-color:rgb(17 24 39)}"
    ".line-through{text-decoration-line:line-through}.items-center{align-items:center}.justify-between{justify-content:space-between}"
    ".mx-auto{margin-left:auto;margin-right:auto}.max-w-7xl{max-width:80rem}.w-full{width:100%}.aspect-square{aspect-ratio:1/1}.object-cover{object-fit:cover}"
    ".grid-cols-2{grid-template-columns:repeat(2,minmax(0,1fr))}.space-y-2>:not([hidden])~:not([hidden]){margin-top:.5rem}"
    ".hover\\:underline:hover{text-decoration-line:underline}.hover\\:text-gray-900:hover{color:rgb(17 24 39)}"
    "@media (min-width:768px){.md\\:flex{display:flex}.md\\:grid-cols-3{grid-template-columns:repeat(3,minmax(0,1fr))}.md\\:col-span-3{grid-column:span 3/span 3}}"
    "@media (min-width:1024px){.lg\\:grid-cols-4{grid-template-columns:repeat(4,minmax(0,1fr))}.lg\\:col-span-1{grid-column:span 1/span 1}}</style>"
)


@page
def p04():
    rng = random.Random(104)
    pg = Page(
        "04_tailwind_utility_usd",
        "https://shop.oakandember.test/furniture/living-room",
        "Tailwind utility classes only (no semantic class names); title is a bare <a>; $1,299.00; some struck-through old prices via line-through utility",
    )
    styles = [
        "Mid-Century",
        "Oak",
        "Walnut",
        "Modular",
        "Rattan",
        "Bouclé",
        "Steel-Frame",
        "Scandi",
        "Linen",
        "Low-Profile",
    ]
    nouns = [
        ("Lounge Chair", 390, 1490),
        ("Sideboard", 690, 2290),
        ("Coffee Table", 240, 990),
        ("Bookshelf", 190, 890),
        ("Sofa", 1190, 3490),
        ("Floor Lamp", 89, 420),
        ("Armchair", 450, 1690),
        ("Media Console", 520, 1390),
        ("Ottoman", 140, 480),
        ("Side Table", 90, 390),
        ("Sectional Sofa", 1890, 4290),
        ("Accent Stool", 70, 260),
    ]
    data = uniq(rng, 32, lambda r: (lambda n: (f"{r.choice(styles)} {n[0]}", n))(r.choice(nouns)))
    cards = []
    for i, (t, (_, lo, hi)) in enumerate(data):
        price = float(rng.randint(lo, hi))
        h = f"/products/{slug(t)}?variant={900100 + i}"
        old = ""
        if rng.random() < 0.25:
            old = f'<span class="text-sm text-gray-400 line-through">${money(round(price * 1.25))}</span>'
        swatches = "".join(
            f'<span class="h-4 w-4 rounded-full border" style="background:#{"".join(rng.choice("3456789abc") for _ in range(6))}"></span>'
            for _ in range(rng.randint(1, 4))
        )
        cards.append(f"""      <div class="flex flex-col gap-2 rounded-lg border p-4">
        <a class="block overflow-hidden rounded-md bg-gray-50" href="{h}"><img class="aspect-square w-full object-cover" src="https://cdn.oakandember.test/i/{slug(t)}.jpg?w=480" alt="{E(t)}" loading="lazy"></a>
        <div class="flex gap-1">{swatches}</div>
        <a class="text-sm font-medium text-gray-900 hover:underline" href="{h}">{E(t)}</a>
        <p class="text-xs text-gray-500">{rng.choice(["Ships in 1–2 weeks", "In stock", "Made to order · 6–8 weeks", "Low stock"])}</p>
        <div class="flex items-center gap-2">{old}<span class="text-lg font-semibold text-gray-900">${money(price)}</span></div>
      </div>""")
        pg.add(t, h, price, "USD")
    nav = [
        "Living Room",
        "Bedroom",
        "Dining",
        "Office",
        "Outdoor",
        "Lighting",
        "Rugs",
        "Decor",
        "Sale",
        "Trade Program",
        "Showrooms",
    ]
    navh = "".join(
        f'<a class="text-sm text-gray-600 hover:text-gray-900" href="/{slug(n)}">{E(n)}</a>'
        for n in nav
    )
    fil = []
    for head, opts in (
        ("Category", ["Sofas", "Chairs", "Tables", "Storage", "Lighting"]),
        ("Material", ["Oak", "Walnut", "Rattan", "Steel", "Bouclé"]),
        ("Price", ["Under $500", "$500–$1,000", "$1,000–$2,000", "Over $2,000"]),
    ):
        ops = "".join(
            f'<li class="flex items-center gap-2"><input class="h-4 w-4 rounded border" type="checkbox" id="{slug(head)}-{slug(o)}">'
            f'<label class="text-sm text-gray-600" for="{slug(head)}-{slug(o)}">{E(o)}</label></li>'
            for o in opts
        )
        fil.append(
            f'<div class="border-b py-6"><h3 class="text-sm font-medium text-gray-900">{E(head)}</h3><ul class="space-y-2 pt-4">{ops}</ul></div>'
        )
    fcols = []
    for head, links in EN_FOOTER:
        ls = "".join(
            f'<li><a class="text-sm text-gray-400 hover:underline" href="{h}">{E(t)}</a></li>'
            for t, h in links
        )
        fcols.append(
            f'<div><h3 class="text-sm font-semibold text-white">{E(head)}</h3><ul class="mt-4 space-y-2">{ls}</ul></div>'
        )
    body = f"""<div class="bg-gray-900 px-4 py-2 text-center text-xs text-white">Free white-glove delivery on orders over $1,500</div>
<header class="border-b bg-white">
  <div class="mx-auto flex max-w-7xl items-center justify-between px-4 py-4">
    <a class="text-2xl font-bold tracking-tight" href="/">Oak &amp; Ember</a>
    <nav class="hidden gap-6 md:flex">{navh}</nav>
    <div class="flex items-center gap-4"><a class="text-gray-600" href="/search" aria-label="Search">{icon("search", "h-5 w-5")}</a><a class="text-gray-600" href="/account" aria-label="Account">{icon("user", "h-5 w-5")}</a><a class="relative text-gray-600" href="/cart" aria-label="Cart">{icon("cart", "h-5 w-5")}<span class="absolute -right-2 -top-2 rounded-full bg-gray-900 px-1 text-xs text-white">2</span></a></div>
  </div>
</header>
<main class="mx-auto max-w-7xl px-4">
  <div class="flex items-baseline justify-between border-b py-6"><div><ol class="flex gap-2 text-xs text-gray-500"><li><a class="hover:underline" href="/">Home</a></li><li>/</li><li><a class="hover:underline" href="/furniture">Furniture</a></li><li>/</li><li class="text-gray-900">Living Room</li></ol>
  <h1 class="mt-2 text-2xl font-bold text-gray-900">Living Room</h1></div><span class="text-sm text-gray-500">32 of 87 results</span></div>
  <div class="grid grid-cols-1 gap-8 py-6 lg:grid-cols-4">
    <form class="hidden lg:block">{"".join(fil)}</form>
    <div class="grid grid-cols-2 gap-6 md:grid-cols-3 lg:col-span-3">
{chr(10).join(cards)}
    </div>
  </div>
  <div class="flex items-center justify-between border-t py-6"><a class="text-sm text-gray-500 hover:text-gray-900" href="?page=1" aria-disabled="true">&larr; Previous</a><div class="flex gap-2"><a class="rounded-md border px-3 py-1 text-sm font-semibold" href="?page=1">1</a><a class="rounded-md px-3 py-1 text-sm" href="?page=2">2</a><a class="rounded-md px-3 py-1 text-sm" href="?page=3">3</a></div><a class="text-sm text-gray-500 hover:text-gray-900" href="?page=2">Next &rarr;</a></div>
</main>
<section class="bg-gray-50 py-12"><div class="mx-auto max-w-7xl px-4"><h2 class="text-lg font-semibold">Design notes, monthly</h2><form class="mt-4 flex gap-2"><input class="w-full rounded-md border px-3 py-2" type="email" placeholder="you@example.test"><button class="rounded-md bg-gray-900 px-4 py-2 text-sm text-white">Subscribe</button></form></div></section>
<footer class="bg-gray-900"><div class="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-12 md:grid-cols-4">{"".join(fcols)}</div><p class="border-t border-gray-800 py-6 text-center text-xs text-gray-400">© 2025 Oak &amp; Ember Furniture, Inc.</p></footer>"""
    pg.text = doc(
        rng,
        lang="en",
        title="Living Room Furniture | Oak & Ember",
        site="Oak & Ember",
        body=body,
        canonical=pg.base,
        css=False,
        head_extra=TW_CSS,
        body_attrs=' class="bg-white text-gray-900 antialiased"',
    )
    return pg


# --------------------------------------------------------------------------------------
# 05 CSS-in-JS hashed classes everywhere, EUR "€129.95"; __NEXT_DATA__ blob
# --------------------------------------------------------------------------------------


class Hasher:
    def __init__(self, rng: random.Random):
        self.rng, self.map = rng, {}

    def __call__(self, key: str) -> str:
        if key not in self.map:
            a = "".join(
                self.rng.choice(string.ascii_lowercase + string.digits)
                for _ in range(self.rng.choice([5, 6, 7]))
            )
            b = "".join(self.rng.choice(string.ascii_lowercase + string.digits) for _ in range(6))
            self.map[key] = f"css-{a} r-{b}" if self.rng.random() < 0.5 else f"css-{a}"
        return self.map[key]


@page
def p05():
    rng = random.Random(105)
    h = Hasher(rng)
    pg = Page(
        "05_cssinjs_hashed_eur",
        "https://www.stridaworks.test/ie/men/running-shoes",
        "CSS-in-JS hashed classes on every element (css-xxxx r-xxxx), EUR €129.95, __NEXT_DATA__ JSON",
    )
    brands = ["Strida", "Airo", "Novo", "Pacer"]
    models = [
        "Velocity 3",
        "Cloudline",
        "Trail GTX",
        "Tempo Racer",
        "Glide 12",
        "Ultra Knit",
        "Sprint Elite",
        "Ridge Runner",
        "Pulse 2",
        "Aero Lite",
    ]
    colours = [
        "Black/White",
        "Ocean Blue",
        "Volt",
        "Triple White",
        "Grey Fog",
        "Ember Red",
        "Olive/Gum",
    ]
    data = uniq(rng, 28, lambda r: f"{r.choice(brands)} {r.choice(models)} – {r.choice(colours)}")
    cards, nd = [], []
    for i, t in enumerate(data):
        price = rprice(rng, 69, 229, ends=(0.95, 0.0, 0.99))
        href = f"/ie/p/{slug(t)}-{31000 + i * 7}"
        tag = rng.choice(["", "", "Just In", "Best Seller", "Sustainable Materials"])
        tagh = f'<div class="{h("tag")}">{E(tag)}</div>' if tag else ""
        cards.append(
            f"""<div class="{h("card")}" data-testid="product-card"><a class="{h("cardimglink")}" href="{href}" aria-hidden="true" tabindex="-1"><div class="{h("imgwrap")}"><img class="{h("img")}" src="https://static.stridaworks-cdn.test/a/{slug(t)}/w_400.png" alt="{E(t)}"></div></a><div class="{h("info")}">{tagh}<a class="{h("titlelink")}" href="{href}"><div class="{h("title")}">{E(t)}</div></a><div class="{h("sub")}">{rng.choice(["Men's Road Running Shoes", "Men's Trail Running Shoes", "Men's Racing Shoes"])}</div><div class="{h("colours")}">{rng.randint(1, 6)} Colours</div><div class="{h("pricewrap")}"><div class="{h("price")}" data-testid="price">€{money(price)}</div></div></div></div>"""
        )
        pg.add(t, href, price, "EUR")
        nd.append(
            {
                "id": 31000 + i * 7,
                "title": t,
                "url": href,
                "price": {"currency": "EUR", "current": price},
            }
        )
    nav = [
        "New & Featured",
        "Men",
        "Women",
        "Kids",
        "Running",
        "Trail",
        "Training",
        "Apparel",
        "Sale",
        "Stores",
    ]
    navh = "".join(
        f'<li class="{h("navli")}"><a class="{h("navlink")}" href="/ie/{slug(n)}">{E(n)}</a></li>'
        for n in nav
    )
    side = []
    for head, opts in (
        ("Gender", ["Men", "Women", "Unisex"]),
        ("Terrain", ["Road", "Trail", "Track"]),
        ("Cushioning", ["Firm", "Balanced", "Plush"]),
        ("Shop by Price", ["€0 – €100", "€100 – €150", "Over €150"]),
    ):
        ops = "".join(
            f'<a class="{h("facet")}" href="/ie/men/running-shoes?{slug(head)}={slug(o)}">{E(o)}</a>'
            for o in opts
        )
        side.append(
            f'<div class="{h("facetgroup")}"><div class="{h("facethead")}">{E(head)}</div><div class="{h("facetlist")}">{ops}</div></div>'
        )
    fcols = []
    for head, links in EN_FOOTER:
        ls = "".join(f'<a class="{h("flink")}" href="/ie{hh}">{E(t)}</a>' for t, hh in links)
        fcols.append(
            f'<div class="{h("fcol")}"><div class="{h("fhead")}">{E(head)}</div>{ls}</div>'
        )
    body = f"""<div id="__next"><div class="{h("root")}">
<div class="{h("topbar")}"><a class="{h("toplink")}" href="/ie/help">Help</a><a class="{h("toplink")}" href="/ie/join">Join Us</a><a class="{h("toplink")}" href="/ie/login">Sign In</a></div>
<header class="{h("header")}"><a class="{h("logo")}" href="/ie" aria-label="Strida Works Home"><svg class="{h("logosvg")}" viewBox="0 0 69 32" width="69" height="32"><path d="M2 28L30 4h8L14 28zm22 0L52 4h8L36 28z"/></svg></a>
<nav class="{h("nav")}" aria-label="Primary"><ul class="{h("navul")}">{navh}</ul></nav>
<div class="{h("actions")}"><div class="{h("searchbox")}"><input class="{h("searchinput")}" placeholder="Search" aria-label="Search Products"></div><a class="{h("iconlink")}" href="/ie/favourites" aria-label="Favourites">{icon("heart")}</a><a class="{h("iconlink")}" href="/ie/cart" aria-label="Bag Items: 0">{icon("cart")}</a></div></header>
<div class="{h("promo")}"><div class="{h("promotext")}">Members get free delivery on orders over €50. <a class="{h("promolink")}" href="/ie/membership">Join Now</a></div></div>
<div class="{h("pagehead")}"><nav class="{h("crumbs")}" aria-label="Breadcrumb"><a class="{h("crumb")}" href="/ie/men">Men</a><span class="{h("crumbsep")}">/</span><a class="{h("crumb")}" href="/ie/men/shoes">Shoes</a></nav><h1 class="{h("h1")}">Men's Running Shoes (112)</h1><div class="{h("sortbtn")}" role="button">Sort By</div></div>
<div class="{h("layout")}"><div class="{h("sidebar")}">{"".join(side)}</div>
<div class="{h("grid")}">{"".join(cards)}</div></div>
<div class="{h("loadmore")}"><a class="{h("loadmorebtn")}" href="/ie/men/running-shoes?page=2">Load more</a></div>
<footer class="{h("footer")}"><div class="{h("fgrid")}">{"".join(fcols)}</div><div class="{h("legal")}">© 2025 Strida Works Ltd. All rights reserved</div></footer>
</div></div>
<script id="__NEXT_DATA__" type="application/json">{json.dumps({"props": {"pageProps": {"wall": {"products": nd, "total": 112}}}, "page": "/[locale]/[...slug]", "buildId": "x7Ak2mQp"}, ensure_ascii=False)}</script>"""
    pg.text = doc(
        rng,
        lang="en-IE",
        title="Men's Running Shoes. Strida Works IE",
        site="Strida Works",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 06 whole card is an <a>, CAD
# --------------------------------------------------------------------------------------


@page
def p06():
    rng = random.Random(106)
    pg = Page(
        "06_card_anchor_cad",
        "https://www.lakehead-outfitters.test/en-ca/camping/",
        "whole card is one <a> wrapping image, div title and div price; CAD '$349.99 CAD'; category tiles (also <a>) above the grid are not items",
    )
    brands = ["Northpeak", "Lakehead", "Cedarline", "Borealis", "Muskeg"]
    nouns = [
        ("Alpine 2 Tent", 249, 699),
        ("Down Sleeping Bag -7°C", 189, 549),
        ("Trek 45L Backpack", 139, 329),
        ("Carbon Trekking Poles", 79, 219),
        ("Headlamp 400", 29, 89),
        ("Canister Camp Stove", 49, 159),
        ("Packable Down Jacket", 159, 389),
        ("Gore-Tex Rain Shell", 219, 529),
        ("Gravity Water Filter", 69, 149),
        ("Ultralight Hammock", 59, 139),
        ("Insulated Sleeping Pad", 99, 249),
        ("Camp Chair", 49, 129),
        ("Dry Bag Set", 29, 69),
        ("Titanium Cook Set", 59, 119),
    ]
    data = uniq(rng, 30, lambda r: (lambda n: (f"{r.choice(brands)} {n[0]}", n))(r.choice(nouns)))
    cards = []
    for i, (t, (_, lo, hi)) in enumerate(data):
        price = rprice(rng, lo, hi, ends=(0.99, 0.0))
        href = f"/en-ca/product/{slug(t)}/{5560000 + i * 31}"
        cards.append(f"""    <a class="tile" href="{href}" data-sku="{5560000 + i * 31}">
      <div class="tile__img"><img src="/images/products/{5560000 + i * 31}_main.jpg" alt="" loading="lazy"></div>
      <div class="tile__name">{E(t)}</div>
      <div class="tile__meta">{rng.choice(["Online only", "Available in store", "Limited stock", "Online &amp; in store"])}</div>
      <div class="tile__price">${money(price)} CAD</div>
    </a>""")
        pg.add(t, href, price, "CAD")
    cats = "".join(
        f'<a class="cat-tile" href="/en-ca/camping/{slug(c)}/"><img src="/images/cat/{slug(c)}.jpg" alt=""><div class="cat-tile__name">{E(c)}</div></a>'
        for c in ("Tents", "Sleeping Bags", "Backpacks", "Camp Kitchen", "Lighting", "Furniture")
    )
    nav = [
        ("Camping", "/en-ca/camping/"),
        ("Hiking", "/en-ca/hiking/"),
        ("Paddling", "/en-ca/paddling/"),
        ("Climbing", "/en-ca/climbing/"),
        ("Cycling", "/en-ca/cycling/"),
        ("Snowsports", "/en-ca/snow/"),
        ("Men", "/en-ca/men/"),
        ("Women", "/en-ca/women/"),
        ("Kids", "/en-ca/kids/"),
        ("Rentals", "/en-ca/rentals/"),
        ("Learn", "/en-ca/learn/"),
        ("Français", "/fr-ca/camping/"),
    ]
    body = f"""{
        header_basic(
            "Lakehead Outfitters",
            nav,
            p="lh",
            notice="Free shipping across Canada on orders over $99",
        )
    }
{cookie_banner("We use cookies to personalise content and analyse our traffic.", p="lh-cookie")}
<main class="plp">
  {breadcrumbs([("Home", "/en-ca/"), ("Camping", None)], p="lh-bc")}
  <h1 class="plp__title">Camping Gear</h1>
  <section class="plp__cats" aria-label="Shop by category"><h2>Shop by category</h2><div class="cat-row">{
        cats
    }</div></section>
  <div class="plp__toolbar"><span>Showing 30 of 214</span><button class="plp__filter-btn">Filter &amp; sort</button></div>
  <div class="plp__grid">
{chr(10).join(cards)}
  </div>
  {pagination("/en-ca/camping/", 1, 8, p="lh-pager")}
</main>
{
        footer_cols(
            [
                (
                    "Shop",
                    [
                        ("Gift cards", "/en-ca/gift-cards"),
                        ("Outlet", "/en-ca/outlet"),
                        ("Rentals", "/en-ca/rentals"),
                    ],
                ),
                (
                    "Help",
                    [
                        ("Shipping", "/en-ca/help/shipping"),
                        ("Returns", "/en-ca/help/returns"),
                        ("Warranty", "/en-ca/help/warranty"),
                        ("Contact", "/en-ca/contact"),
                    ],
                ),
                (
                    "About",
                    [
                        ("Our story", "/en-ca/about"),
                        ("Stores", "/en-ca/stores"),
                        ("Careers", "/en-ca/careers"),
                        ("Privacy", "/en-ca/privacy"),
                    ],
                ),
            ],
            p="lh",
            copy="© 2025 Lakehead Outfitters Co-operative. Prices in Canadian dollars.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en-CA",
        title="Camping Gear | Lakehead Outfitters",
        site="Lakehead Outfitters",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 07 job board li.job; 08 job table
# --------------------------------------------------------------------------------------

JOB_TITLES = [
    "Senior Backend Engineer",
    "Product Designer",
    "Data Scientist",
    "DevOps Engineer",
    "Frontend Developer (React)",
    "Engineering Manager",
    "QA Automation Engineer",
    "Technical Writer",
    "Site Reliability Engineer",
    "Mobile Engineer (iOS)",
    "Machine Learning Engineer",
    "Security Engineer",
    "Solutions Architect",
    "Customer Success Manager",
    "Product Manager, Payments",
    "Staff Platform Engineer",
    "Data Engineer",
    "Android Developer",
    "UX Researcher",
    "Developer Advocate",
    "Full-Stack Engineer (Go/TypeScript)",
    "Head of Growth",
    "Analytics Engineer",
    "Embedded Software Engineer",
    "Platform Engineer, Billing",
    "Senior Data Analyst",
    "Staff Frontend Engineer",
]
COMPANIES = [
    "Brightwater Analytics",
    "Quillfeather",
    "Tallgrass Health",
    "Kitebird Labs",
    "Ironbark Systems",
    "Mosaic Freight",
    "Halden Bank",
    "Pinecrest AI",
    "Lattice & Loom",
    "Redwood Robotics",
    "Sunward Energy",
    "Nimbus Payroll",
    "Fathom Maps",
]
LOCS = [
    "Remote (US)",
    "New York, NY",
    "Austin, TX",
    "San Francisco, CA (Hybrid)",
    "Remote (Americas)",
    "Seattle, WA",
    "Denver, CO",
    "Boston, MA (Hybrid)",
    "Chicago, IL",
    "Remote (Worldwide)",
]


@page
def p07():
    rng = random.Random(107)
    pg = Page(
        "07_jobs_li",
        "https://www.stackhire.test/jobs?q=engineer&remote=true",
        "job board ul > li.job: title link, company link, location, salary text '$120k – $150k', tags; price null",
    )
    data = [f"{t} @ {rng.choice(COMPANIES)}" for t in uniq(rng, 25, lambda r: r.choice(JOB_TITLES))]
    lis = []
    for i, key in enumerate(data):
        t, comp = key.split(" @ ")
        jid = 48210 + i * 13
        href = f"/jobs/{jid}-{slug(t)}"
        lo = rng.choice([90, 100, 110, 120, 130, 140, 150, 160, 175])
        sal = (
            f"${lo}k – ${lo + rng.choice([20, 30, 40, 50])}k"
            if rng.random() < 0.8
            else "Salary not disclosed"
        )
        tags = "".join(
            f'<li class="tag"><a href="/jobs?tag={slug(x)}">{E(x)}</a></li>'
            for x in rng.sample(
                [
                    "Python",
                    "Go",
                    "TypeScript",
                    "React",
                    "AWS",
                    "Kubernetes",
                    "PostgreSQL",
                    "Figma",
                    "Rust",
                    "Kotlin",
                    "Swift",
                    "Terraform",
                ],
                3,
            )
        )
        feat = " job--featured" if i < 2 else ""
        lis.append(f"""  <li class="job{feat}" data-job-id="{jid}">
    <img class="job__logo" src="/logos/{slug(comp)}.png" alt="{E(comp)} logo" width="48" height="48">
    <div class="job__main">
      <a class="job__title" href="{href}">{E(t)}</a>
      <div class="job__meta"><a class="job__company" href="/companies/{slug(comp)}">{E(comp)}</a> · <span class="job__location">{E(rng.choice(LOCS))}</span> · <span class="job__type">{rng.choice(["Full-time", "Full-time", "Contract"])}</span></div>
      <div class="job__salary">{E(sal)}</div>
      <ul class="job__tags">{tags}</ul>
    </div>
    <div class="job__side"><time class="job__posted" datetime="2025-11-{rng.randint(1, 28):02d}">{rng.randint(1, 29)}d ago</time><button class="job__save" aria-label="Save job">{icon("heart")}</button></div>
  </li>""")
        pg.add(t, href)
    nav = [
        ("Find jobs", "/jobs"),
        ("Companies", "/companies"),
        ("Salaries", "/salaries"),
        ("Remote", "/remote"),
        ("Blog", "/blog"),
        ("Post a job", "/employers/post"),
        ("Pricing", "/employers/pricing"),
        ("Log in", "/login"),
        ("Sign up", "/signup"),
    ]
    side = filters(
        [
            (
                "Job type",
                [
                    ("Full-time", 1840, "/jobs?type=full-time"),
                    ("Contract", 311, "/jobs?type=contract"),
                    ("Part-time", 72, "/jobs?type=part-time"),
                ],
            ),
            (
                "Experience",
                [
                    ("Junior", 198, "/jobs?level=junior"),
                    ("Mid", 904, "/jobs?level=mid"),
                    ("Senior", 1022, "/jobs?level=senior"),
                ],
            ),
            (
                "Salary",
                [
                    ("$100k+", 1211, "/jobs?min=100"),
                    ("$150k+", 604, "/jobs?min=150"),
                    ("$200k+", 143, "/jobs?min=200"),
                ],
            ),
        ],
        p="jf",
        title="Refine",
    )
    body = f"""{header_basic("StackHire", nav, p="sh", search="Job title, keyword or company")}
<main class="jobs-page">
  <div class="jobs-page__head"><h1>Remote engineer jobs</h1><p class="jobs-page__count">2,223 jobs</p>
  <div class="alert-box">Get new jobs like these by email <a href="/alerts/new?q=engineer">Create alert</a></div></div>
  <div class="jobs-page__layout">{side}
  <section class="jobs-page__results"><ul class="jobs">
{chr(10).join(lis)}
  </ul>
  {pagination("/jobs?q=engineer&remote=true", 1, 89, p="sh-pages")}
  </section></div>
</main>
{
        footer_cols(
            [
                (
                    "For candidates",
                    [
                        ("Browse jobs", "/jobs"),
                        ("Salary guide", "/salaries"),
                        ("Job alerts", "/alerts"),
                        ("Career advice", "/blog"),
                    ],
                ),
                (
                    "For employers",
                    [
                        ("Post a job", "/employers/post"),
                        ("Pricing", "/employers/pricing"),
                        ("Employer branding", "/employers/branding"),
                    ],
                ),
                (
                    "StackHire",
                    [
                        ("About", "/about"),
                        ("Contact", "/contact"),
                        ("Privacy", "/privacy"),
                        ("Terms", "/terms"),
                    ],
                ),
            ],
            p="sh",
            copy="© 2025 StackHire Inc.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en",
        title="Remote Engineer Jobs (2,223) | StackHire",
        site="StackHire",
        body=body,
        canonical=pg.base,
    )
    return pg


@page
def p08():
    rng = random.Random(108)
    pg = Page(
        "08_jobs_table",
        "https://careers.fernhill-robotics.test/en/openings/",
        "careers page: <table> with one <tbody> per department (department header rows are not items), relative hrefs; price null",
    )
    depts = {
        "Engineering": [
            "Senior Firmware Engineer",
            "Robotics Software Engineer (ROS 2)",
            "Perception Engineer",
            "Controls Engineer",
            "Test Automation Engineer",
            "Staff Embedded Linux Engineer",
            "Mechanical Design Engineer",
            "Simulation Engineer",
        ],
        "Operations": [
            "Field Service Technician",
            "Supply Chain Planner",
            "Manufacturing Engineer",
            "Quality Inspector",
        ],
        "Sales & Marketing": [
            "Account Executive, DACH",
            "Product Marketing Manager",
            "Sales Engineer",
        ],
        "People & Finance": ["Talent Partner", "Financial Controller", "Office Manager"],
    }
    locs = ["Munich, DE", "Boston, US", "Remote (EU)", "Eindhoven, NL", "Boston, US (Hybrid)"]
    bodies = []
    n = 0
    for d, titles in depts.items():
        rows = [
            f'<tr class="dept-row"><th colspan="4" scope="rowgroup">{E(d)} <span class="dept-count">({len(titles)})</span></th></tr>'
        ]
        for t in titles:
            jid = 1040 + n * 3
            href = f"{slug(t)}-{jid}"
            rows.append(
                f'<tr class="opening"><td class="opening__title"><a href="{href}">{E(t)}</a></td>'
                f"<td>{E(d)}</td><td>{E(rng.choice(locs))}</td><td>{rng.choice(['Full-time', 'Full-time', 'Part-time', 'Working student'])}</td></tr>"
            )
            pg.add(t, href)
            n += 1
        bodies.append(f'<tbody data-dept="{slug(d)}">' + "\n".join(rows) + "</tbody>")
    nav = [
        ("Product", "https://www.fernhill-robotics.test/product"),
        ("Solutions", "https://www.fernhill-robotics.test/solutions"),
        ("Customers", "https://www.fernhill-robotics.test/customers"),
        ("Company", "https://www.fernhill-robotics.test/company"),
        ("Careers", "/en/"),
        ("Life at Fernhill", "/en/life"),
        ("Benefits", "/en/benefits"),
        ("Contact", "https://www.fernhill-robotics.test/contact"),
    ]
    body = f"""{header_basic("Fernhill Robotics", nav, p="fr")}
<main class="careers">
  <section class="hero"><h1>Build robots that work alongside people</h1><p>We're 180 people in Munich, Boston and Eindhoven. Join us.</p><a class="btn" href="#openings">See open roles</a></section>
  <section class="values"><div class="value"><h3>Ship real hardware</h3><p>Our robots run in 40 factories today.</p></div><div class="value"><h3>Own your work</h3><p>Small teams, high trust.</p></div><div class="value"><h3>Grow</h3><p>€2,000 yearly learning budget.</p></div></section>
  <section id="openings" class="openings"><h2>Open positions ({n})</h2>
  <form class="openings__filter"><select name="dept"><option value="">All departments</option>{
        "".join(f"<option>{E(d)}</option>" for d in depts)
    }</select><select name="loc"><option value="">All locations</option>{
        "".join(f"<option>{E(l)}</option>" for l in locs)
    }</select></form>
  <table class="openings__table"><thead><tr><th>Position</th><th>Department</th><th>Location</th><th>Type</th></tr></thead>
{chr(10).join(bodies)}
  </table>
  <p class="openings__note">Don't see a fit? <a href="general-application">Send an open application</a>.</p></section>
</main>
{
        footer_cols(
            [
                (
                    "Company",
                    [
                        ("About", "https://www.fernhill-robotics.test/company"),
                        ("Press", "https://www.fernhill-robotics.test/press"),
                        ("Careers", "/en/"),
                    ],
                ),
                (
                    "Resources",
                    [
                        ("Docs", "https://docs.fernhill-robotics.test/"),
                        ("Blog", "https://www.fernhill-robotics.test/blog"),
                        ("Support", "https://support.fernhill-robotics.test/"),
                    ],
                ),
                (
                    "Legal",
                    [
                        ("Imprint", "https://www.fernhill-robotics.test/imprint"),
                        ("Privacy", "https://www.fernhill-robotics.test/privacy"),
                        ("Applicant privacy", "/en/applicant-privacy"),
                    ],
                ),
            ],
            p="fr",
            copy="© 2025 Fernhill Robotics GmbH",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en",
        title="Careers – Fernhill Robotics",
        site="Fernhill Robotics",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 09 crypto table
# --------------------------------------------------------------------------------------


@page
def p09():
    rng = random.Random(109)
    pg = Page(
        "09_crypto_table_usd",
        "https://www.coinledger-watch.test/",
        "<table> with thead (#, Name, Price, 24h %, Market Cap, 7d) and 30 rows, prices '$67,123.45' and '$0.004521'; trending box above is not items",
    )
    names = [
        "Bitcore",
        "Etherion",
        "Solara",
        "Quarkium",
        "Helix",
        "Orbitra",
        "Zephyr Cash",
        "Lumen Network",
        "Tesseract",
        "Kelvin",
        "Obsidian",
        "Photon",
        "Meridian",
        "Halcyon",
        "Arcadia",
        "Vireo",
        "Stratos",
        "Nebulon",
        "Cobalt Chain",
        "Ferrum",
        "Tidal",
        "Ember",
        "Granite",
        "Pulsar",
        "Quasar Pay",
        "Solstice",
        "Aether",
        "Cinder",
        "Monolith",
        "Sable",
    ]
    price = 67123.45
    rows = []
    mcap = 1.32e12
    for i, nm in enumerate(names):
        sym = re.sub(r"[^A-Z]", "", nm.upper())[:4]
        if i > 0:
            price = price * rng.uniform(0.03, 0.9) if price > 2 else price * rng.uniform(0.2, 1.1)
        price = round(price, 2) if price >= 1 else round(price, 6)
        if price == 0:
            price = 0.000412
        ptxt = f"${money(price)}" if price >= 1 else f"${price:.6f}"
        mcap *= rng.uniform(0.62, 0.95)
        mtxt = (
            f"${mcap / 1e12:.2f}T"
            if mcap >= 1e12
            else (f"${mcap / 1e9:.1f}B" if mcap >= 1e9 else f"${mcap / 1e6:.1f}M")
        )
        ch = round(rng.uniform(-9, 12), 2)
        cls = "up" if ch >= 0 else "down"
        href = f"/currencies/{slug(nm)}/"
        pts = " ".join(f"{x * 8},{rng.randint(4, 36)}" for x in range(15))
        rows.append(f"""      <tr>
        <td class="star"><button aria-label="Add to watchlist">☆</button></td><td class="rank">{i + 1}</td>
        <td class="name"><a href="{href}" class="coin-link"><img src="https://static.coinledger-watch.test/icons/{sym.lower()}.png" width="24" height="24" alt="" loading="lazy"><span class="coin-name">{E(nm)}</span></a> <span class="coin-symbol">{sym}</span></td>
        <td class="price">{ptxt}</td>
        <td class="change {cls}">{"+" if ch >= 0 else ""}{ch:.2f}%</td>
        <td class="mcap">{mtxt}</td>
        <td class="spark"><svg width="120" height="40" viewBox="0 0 120 40"><polyline fill="none" stroke="currentColor" points="{pts}"/></svg></td>
      </tr>""")
        pg.add(nm, href, price, "USD")
    trending = "".join(
        f'<li><a href="/currencies/{slug(n)}/">{E(n)}</a> <span class="up">+{rng.uniform(5, 40):.1f}%</span></li>'
        for n in ("Driftwood", "Kestrel Token", "Umbra")
    )
    nav = [
        ("Cryptocurrencies", "/"),
        ("Exchanges", "/exchanges/"),
        ("NFT", "/nft/"),
        ("DeFi", "/defi/"),
        ("Portfolio", "/portfolio/"),
        ("Watchlist", "/watchlist/"),
        ("Learn", "/learn/"),
        ("API", "/api/"),
        ("Products", "/products/"),
    ]
    body = f"""<div class="ticker-bar"><span>Cryptos: 9,412</span><span>Exchanges: 688</span><span>Market Cap: $2.41T <span class="up">+1.2%</span></span><span>24h Vol: $88.1B</span></div>
{header_basic("CoinLedger Watch", nav, p="clw", search="Search coin, pair or exchange")}
{
        cookie_banner(
            "This site uses cookies to measure traffic and remember your settings.",
            "Accept",
            "Decline",
            "Manage",
            "Cookie policy",
            "/cookie-policy",
            p="clw-c",
        )
    }
<main class="home">
  <h1>Today's Cryptocurrency Prices by Market Cap</h1>
  <p class="home__summary">The global crypto market cap is $2.41T, a 1.2% increase over the last day.</p>
  <div class="home__widgets"><section class="widget trending"><h2>🔥 Trending</h2><ol>{
        trending
    }</ol></section>
  <section class="widget gainers"><h2>Biggest gainers</h2><p><a href="/gainers-losers/">View all</a></p></section></div>
  <div class="table-wrap"><table class="coin-table">
    <thead><tr><th></th><th>#</th><th>Name</th><th>Price</th><th>24h %</th><th>Market Cap</th><th>Last 7 Days</th></tr></thead>
    <tbody>
{chr(10).join(rows)}
    </tbody>
  </table></div>
  <div class="table-footer">Showing 1 - 30 out of 9412 <a href="/?page=2">Next page</a></div>
</main>
{
        footer_cols(
            [
                (
                    "Products",
                    [
                        ("Blockchain explorer", "/explorer/"),
                        ("Crypto API", "/api/"),
                        ("Widgets", "/widgets/"),
                    ],
                ),
                (
                    "Company",
                    [
                        ("About us", "/about/"),
                        ("Careers", "/careers/"),
                        ("Methodology", "/methodology/"),
                    ],
                ),
                (
                    "Support",
                    [
                        ("Request form", "/request/"),
                        ("Contact", "/contact/"),
                        ("Help center", "/help/"),
                    ],
                ),
                (
                    "Legal",
                    [
                        ("Terms of use", "/terms/"),
                        ("Privacy", "/privacy/"),
                        ("Disclaimer", "/disclaimer/"),
                    ],
                ),
            ],
            p="clw",
            copy="© 2025 CoinLedger Watch. Prices are indicative.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en",
        title="Cryptocurrency Prices, Charts And Market Capitalizations | CoinLedger Watch",
        site="CoinLedger Watch",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 10 pricing plans
# --------------------------------------------------------------------------------------


@page
def p10():
    rng = random.Random(110)
    pg = Page(
        "10_pricing_plans_usd",
        "https://www.relaypost.test/pricing",
        "pricing page: 3 plan cards all linking to the same /signup URL, '$0/mo' '$29/mo' '$99/mo'; comparison table and FAQ are not items (only 3 items by design)",
    )
    plans = [
        (
            "Free",
            0,
            "For individuals getting started",
            ["1 user", "3 projects", "Community support"],
        ),
        (
            "Pro",
            29,
            "For small teams that ship weekly",
            ["5 users", "Unlimited projects", "Email support", "Custom domains"],
        ),
        (
            "Business",
            99,
            "For companies that need control",
            ["Unlimited users", "SSO & SCIM", "Audit log", "Priority support"],
        ),
    ]
    cards = []
    for name, pr, tag, feats in plans:
        fl = "".join(f"<li>{icon('chevron', 'check')}{E(f)}</li>" for f in feats)
        pop = " plan--popular" if name == "Pro" else ""
        badge = '<span class="plan__badge">Most popular</span>' if name == "Pro" else ""
        cards.append(f"""    <div class="plan{pop}">{badge}
      <h3 class="plan__name">{name}</h3>
      <p class="plan__tagline">{E(tag)}</p>
      <p class="plan__price"><span class="plan__amount">${pr}</span><span class="plan__period">/mo</span></p>
      <ul class="plan__features">{fl}</ul>
      <a class="btn plan__cta" href="/signup">{"Get started" if pr == 0 else "Start free trial"}</a>
    </div>""")
        pg.add(name, "/signup", pr, "USD")
    feats = [
        "Projects",
        "Team members",
        "Scheduled posts",
        "Analytics history",
        "Custom domains",
        "SSO",
        "Audit log",
        "SLA",
    ]
    trs = "".join(
        f'<tr><th scope="row">{f}</th><td>{rng.choice(["—", "3", "Basic"])}</td><td>{rng.choice(["✓", "Unlimited", "90 days"])}</td><td>✓</td></tr>'
        for f in feats
    )
    faqs = [
        (
            "Can I change plans later?",
            "Yes, upgrade or downgrade at any time; we prorate the difference.",
        ),
        (
            "Do you offer discounts for non-profits?",
            "Yes — 50% off Pro and Business. Contact sales.",
        ),
        (
            "What payment methods do you accept?",
            "All major cards, and invoices on annual Business plans.",
        ),
        ("Is there a free trial?", "Pro and Business come with a 14-day trial, no card required."),
    ]
    faqh = "".join(
        f'<details class="faq__item"><summary>{E(q)}</summary><p>{E(a)}</p></details>'
        for q, a in faqs
    )
    nav = [
        ("Product", "/product"),
        ("Integrations", "/integrations"),
        ("Customers", "/customers"),
        ("Pricing", "/pricing"),
        ("Docs", "https://docs.relaypost.test/"),
        ("Blog", "/blog"),
        ("Changelog", "/changelog"),
        ("Log in", "/login"),
        ("Sign up", "/signup"),
    ]
    body = f"""{header_basic("RelayPost", nav, p="rp")}
<main class="pricing">
  <section class="pricing__hero"><h1>Simple pricing that scales with you</h1><p>Start free. Upgrade when your team grows.</p>
  <div class="toggle" role="group"><button aria-pressed="true">Monthly</button><button aria-pressed="false">Yearly <span>save 20%</span></button></div></section>
  <section class="plans">
{chr(10).join(cards)}
  </section>
  <p class="pricing__enterprise">Need more than 200 seats? <a href="/contact-sales">Talk to sales</a> about Enterprise.</p>
  <section class="compare"><h2>Compare plans</h2><table class="compare__table"><thead><tr><th></th><th>Free</th><th>Pro</th><th>Business</th></tr></thead><tbody>{
        trs
    }</tbody></table></section>
  <section class="logos"><h2>Trusted by 12,000 teams</h2><ul>{
        "".join(
            f'<li><img src="/logos/customer-{k}.svg" alt="Customer {k}"></li>' for k in range(1, 9)
        )
    }</ul></section>
  <section class="faq"><h2>Frequently asked questions</h2>{faqh}</section>
</main>
{
        footer_cols(
            [
                (
                    "Product",
                    [
                        ("Features", "/product"),
                        ("Integrations", "/integrations"),
                        ("Pricing", "/pricing"),
                        ("Status", "https://status.relaypost.test/"),
                    ],
                ),
                (
                    "Resources",
                    [
                        ("Docs", "https://docs.relaypost.test/"),
                        ("Guides", "/guides"),
                        ("API", "/api"),
                        ("Community", "/community"),
                    ],
                ),
                (
                    "Company",
                    [("About", "/about"), ("Careers", "/careers"), ("Contact", "/contact")],
                ),
                (
                    "Legal",
                    [
                        ("Privacy", "/legal/privacy"),
                        ("Terms", "/legal/terms"),
                        ("DPA", "/legal/dpa"),
                    ],
                ),
            ],
            p="rp",
            copy="© 2025 RelayPost, Inc.",
        )
    }"""
    pg.text = doc(
        rng, lang="en", title="Pricing — RelayPost", site="RelayPost", body=body, canonical=pg.base
    )
    return pg


# --------------------------------------------------------------------------------------
# 11 news list
# --------------------------------------------------------------------------------------


@page
def p11():
    rng = random.Random(111)
    pg = Page(
        "11_news_articles",
        "https://www.valleyherald.test/local/",
        "news list: <article> with h2>a, time, excerpt, byline link; 'Most read' sidebar and topic links are not items; no prices",
    )
    subj = [
        "City council",
        "Riverside library",
        "Harbor bridge",
        "School board",
        "Local bakery",
        "Transit authority",
        "County fair",
        "Hospital trust",
        "Water utility",
        "Youth orchestra",
        "Fire department",
        "Farmers market",
        "Planning commission",
        "Zoo",
    ]
    verb = [
        "approves",
        "delays",
        "unveils",
        "rejects",
        "celebrates",
        "expands",
        "cuts",
        "reopens",
        "debates",
        "launches",
    ]
    obj = [
        "new bike lanes downtown",
        "$4.2M budget for repairs",
        "plan to extend opening hours",
        "weekend service changes",
        "100th anniversary",
        "solar project on east side",
        "proposal for a skate park",
        "late-night bus route",
        "renovation after two years",
        "search for new director",
        "parking fee increase",
        "flood defence works",
    ]
    titles = uniq(rng, 20, lambda r: f"{r.choice(subj)} {r.choice(verb)} {r.choice(obj)}")
    authors = [
        "Maya Okafor",
        "Tom Lindqvist",
        "Priya Raman",
        "Daniel Hughes",
        "Ana Sousa",
        "Leo Brandt",
    ]
    arts = []
    for i, t in enumerate(titles):
        d = 28 - i // 2
        href = f"/local/2025/11/{d:02d}/{slug(t)}-{880100 + i}/"
        a = rng.choice(authors)
        lead = " story--lead" if i == 0 else ""
        img = (
            f'<figure class="story__media"><img src="https://images.valleyherald.test/{880100 + i}/{"1200" if i == 0 else "400"}.jpg" alt="" loading="lazy"><figcaption>Photo: {E(a)}</figcaption></figure>'
            if rng.random() < 0.7 or i == 0
            else ""
        )
        arts.append(f"""    <article class="story{lead}">
      {img}
      <div class="story__body">
        <a class="story__section" href="/local/{rng.choice(["politics", "transport", "education", "culture", "environment"])}/">{rng.choice(["Politics", "Transport", "Education", "Culture", "Environment"])}</a>
        <h2 class="story__headline"><a href="{href}">{E(t)}</a></h2>
        <p class="story__excerpt">{E(lorem(rng, rng.randint(18, 34), "the proposal residents officials said on Tuesday meeting after months of public comment funding would come from state grants and local taxes while critics argue timeline cost neighbourhood".split()))}</p>
        <p class="story__meta">By <a class="story__author" href="/authors/{slug(a)}/">{E(a)}</a> · <time datetime="2025-11-{d:02d}T{rng.randint(6, 21):02d}:{rng.randint(0, 59):02d}:00-05:00">Nov. {d}, 2025</time> · <a class="story__comments" href="{href}#comments">{rng.randint(0, 240)} comments</a></p>
      </div>
    </article>""")
        pg.add(t, href)
    most = "".join(
        f'<li><a href="/local/2025/11/{rng.randint(1, 28):02d}/popular-{k}/">{E(x)}</a></li>'
        for k, x in enumerate(
            [
                "Storm warning issued for the weekend",
                "Five new restaurants to try this month",
                "High school team wins state title",
                "Housing prices hold steady in the valley",
                "What the new zoning rules mean for you",
            ]
        )
    )
    nav = [
        "Local",
        "Politics",
        "Business",
        "Sports",
        "Opinion",
        "Arts & Culture",
        "Food",
        "Weather",
        "Obituaries",
        "Puzzles",
        "Podcasts",
        "Newsletters",
    ]
    navh = "".join(f'<li><a href="/{slug(n)}/">{E(n)}</a></li>' for n in nav)
    body = f"""<div class="masthead-top"><span>Friday, November 28, 2025</span><a href="/subscribe/">Subscribe for $1</a><a href="/login/">Log in</a></div>
<header class="masthead"><a class="masthead__logo" href="/"><img src="/static/valley-herald-wordmark.svg" alt="The Valley Herald"></a>
<nav class="section-nav" aria-label="Sections"><ul>{navh}</ul></nav></header>
<main class="section-front">
  <header class="section-front__head"><h1>Local News</h1><ul class="topics"><li><a href="/topic/housing/">Housing</a></li><li><a href="/topic/transit/">Transit</a></li><li><a href="/topic/schools/">Schools</a></li><li><a href="/topic/elections-2026/">Elections 2026</a></li></ul></header>
  <div class="section-front__layout">
  <div class="river">
{chr(10).join(arts)}
  </div>
  <aside class="rail"><section class="most-read"><h2>Most read</h2><ol>{most}</ol></section>
  <div class="ad-slot" data-ad-unit="rail-300x250"><span class="ad-label">Advertisement</span><a href="https://ads.adnet-exchange.test/click?id=9931"><img src="https://ads.adnet-exchange.test/creative/9931.jpg" alt="" width="300" height="250"></a></div>
  {
        newsletter(
            "The Morning Brief",
            "Local news in your inbox every weekday at 6 a.m.",
            "Sign up",
            p="nl",
        )
    }
  </aside></div>
  <nav class="more"><a href="/local/?page=2" rel="next">More local news</a></nav>
</main>
{
        footer_cols(
            [
                (
                    "Sections",
                    [
                        ("Local", "/local/"),
                        ("Sports", "/sports/"),
                        ("Business", "/business/"),
                        ("Opinion", "/opinion/"),
                    ],
                ),
                (
                    "Services",
                    [
                        ("Subscribe", "/subscribe/"),
                        ("e-Edition", "/e-edition/"),
                        ("Place an ad", "/advertise/"),
                        ("Obituaries", "/obituaries/"),
                    ],
                ),
                (
                    "About",
                    [
                        ("Contact the newsroom", "/contact/"),
                        ("Ethics policy", "/ethics/"),
                        ("Corrections", "/corrections/"),
                        ("Careers", "/careers/"),
                    ],
                ),
            ],
            p="vh",
            copy="© 2025 The Valley Herald Media Co.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en-US",
        title="Local News | The Valley Herald",
        site="The Valley Herald",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 12 forum thread list (table)
# --------------------------------------------------------------------------------------


@page
def p12():
    rng = random.Random(112)
    pg = Page(
        "12_forum_threads",
        "https://forum.spokeandchain.test/viewforum.php?f=14",
        "forum (phpBB-like) thread list ul.topiclist > li.row > dl (dt/dd columns): title link, author link, replies/views, last post link; two pinned threads count as items",
    )
    topics = [
        "Tubeless setup keeps losing air",
        "Best budget gravel bike under $1,500?",
        "Creaking bottom bracket after rain",
        "Which chain lube for winter commuting",
        "Hydraulic brakes squealing — tried everything",
        "Wheel build: 28 or 32 spokes?",
        "Frame size between 54 and 56",
        "First century ride report",
        "Cassette compatibility 11 vs 12 speed",
        "Saddle recommendations for long rides",
        "Shifting ghost shifts under load",
        "Carbon vs aluminium handlebars",
        "Power meter worth it for a beginner?",
        "Clipless pedals: SPD or road?",
        "Thru-axle standards explained",
        "Dynamo lighting setup for touring",
        "Rust on steel frame — how worried should I be?",
        "Mudguards on a race bike",
        "Tyre pressure calculator results seem low",
        "Bike fit: knee pain on the outside",
        "Replacing bar tape, tips?",
        "Derailleur hanger bent after crash",
        "Ebike conversion kits legal?",
        "Bearing press DIY alternatives",
        "Winter tyres with studs",
    ]
    users = [
        "gearhead77",
        "velo_nina",
        "rustyspoke",
        "climb_or_die",
        "Marta_K",
        "commuterjoe",
        "tandem_tim",
        "brakeless",
        "cadence90",
    ]
    rows = []
    for i, t in enumerate(topics):
        tid = 77300 + i * 11
        href = f"./viewtopic.php?t={tid}"
        pinned = i < 2
        icon_cls = (
            "sticky_read"
            if pinned
            else rng.choice(["topic_read", "topic_unread", "topic_read_hot"])
        )
        au = rng.choice(users)
        lp = rng.choice(users)
        replies = rng.randint(0, 180)
        pages = ""
        if replies > 25:
            pages = (
                '<div class="pagination"><ul>'
                + "".join(
                    f'<li><a class="button" href="./viewtopic.php?t={tid}&amp;start={k * 25}">{k + 1}</a></li>'
                    for k in range(min(3, replies // 25 + 1))
                )
                + "</ul></div>"
            )
        pin = '<span class="badge-pinned">Pinned</span> ' if pinned else ""
        rows.append(f"""<li class="row bg{1 + i % 2}{" sticky" if pinned else ""}">
  <dl class="row-item {icon_cls}">
    <dt title="{"Sticky" if pinned else "No unread posts"}"><div class="list-inner">
      {pin}<a href="{href}" class="topictitle">{E(t)}</a>
      <br><div class="topic-poster responsive-hide left-box">by <a href="./memberlist.php?mode=viewprofile&amp;u={users.index(au) * 37 + 2}" class="username">{E(au)}</a> &raquo; <time datetime="2025-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T10:00:00+00:00">{rng.choice(["Mon", "Tue", "Wed", "Thu", "Fri"])} Nov {rng.randint(1, 28)}, 2025</time></div>
      {pages}
    </div></dt>
    <dd class="posts">{replies} <dfn>Replies</dfn></dd>
    <dd class="views">{replies * rng.randint(8, 40) + 12} <dfn>Views</dfn></dd>
    <dd class="lastpost"><span><dfn>Last post </dfn>by <a href="./memberlist.php?mode=viewprofile&amp;u={users.index(lp) * 37 + 2}" class="username">{E(lp)}</a>
      <a href="./viewtopic.php?p={900000 + i * 17}#p{900000 + i * 17}" title="Go to last post">{icon("chevron")}</a><br><time>{rng.randint(1, 23)} hours ago</time></span></dd>
  </dl>
</li>""")
        pg.add(t, href)
    body = f"""<div id="wrap" class="wrap">
<div id="page-header"><div class="headerbar" role="banner"><div class="inner"><div id="site-description" class="site-description">
<a id="logo" class="logo" href="./index.php" title="Board index"><span class="site_logo"></span></a>
<h1>Spoke &amp; Chain Forum</h1><p>Bike maintenance, rides and gear talk since 2004</p></div>
<div id="search-box" class="search-box search-header" role="search"><form action="./search.php" method="get" id="search"><fieldset><input name="keywords" id="keywords" type="search" maxlength="128" class="inputbox search tiny" placeholder="Search…"><button class="button button-search" type="submit">Search</button><a href="./search.php" class="button button-search-end">Advanced search</a></fieldset></form></div></div></div>
<div class="navbar" role="navigation"><div class="inner"><ul id="nav-main" class="nav-main linklist" role="menubar">
<li><a href="/help/faq" rel="help">FAQ</a></li><li><a href="./memberlist.php">Members</a></li><li><a href="./memberlist.php?mode=team">The team</a></li><li><a href="./search.php?search_id=unanswered">Unanswered topics</a></li><li><a href="./search.php?search_id=active_topics">Active topics</a></li><li><a href="./ucp.php?mode=register">Register</a></li><li><a href="./ucp.php?mode=login">Login</a></li><li><a href="https://www.spokeandchain.test/">Main site</a></li></ul>
<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar"><li class="breadcrumbs"><span class="crumb"><a href="./index.php">Board index</a></span><span class="crumb"><a href="./viewforum.php?f=3">Workshop</a></span><span class="crumb"><a href="./viewforum.php?f=14">Repairs &amp; Maintenance</a></span></li></ul></div></div>
</div>
<div id="page-body" class="page-body" role="main">
<h2 class="forum-title"><a href="./viewforum.php?f=14">Repairs &amp; Maintenance</a></h2>
<div><div class="forum-rules">Please read the <a href="./viewtopic.php?t=12">posting guidelines</a> before asking.</div></div>
<div class="action-bar bar-top"><a href="./posting.php?mode=post&amp;f=14" class="button" title="Post a new topic">New Topic</a>
<div class="search-box"><form method="get" action="./search.php"><input class="inputbox search tiny" type="search" name="keywords" placeholder="Search this forum…"><input type="hidden" name="fid[]" value="14"></form></div>
<div class="pagination">1,482 topics &bull; <ul><li class="active"><span>1</span></li><li><a class="button" href="./viewforum.php?f=14&amp;start=25">2</a></li><li><a class="button" href="./viewforum.php?f=14&amp;start=50">3</a></li><li class="ellipsis"><span>…</span></li><li><a class="button" href="./viewforum.php?f=14&amp;start=1475">60</a></li><li class="arrow next"><a class="button" href="./viewforum.php?f=14&amp;start=25" rel="next">Next</a></li></ul></div></div>
<div class="forumbg"><div class="inner">
<ul class="topiclist"><li class="header"><dl class="row-item"><dt><div class="list-inner">Topics</div></dt><dd class="posts">Replies</dd><dd class="views">Views</dd><dd class="lastpost"><span>Last post</span></dd></dl></li></ul>
<ul class="topiclist topics">
{chr(10).join(rows)}
</ul></div></div>
<div class="action-bar bar-bottom"><a href="./posting.php?mode=post&amp;f=14" class="button">New Topic</a><div class="pagination"><ul><li class="active"><span>1</span></li><li><a class="button" href="./viewforum.php?f=14&amp;start=25">2</a></li><li class="arrow next"><a class="button" href="./viewforum.php?f=14&amp;start=25">Next</a></li></ul></div></div>
<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing this forum: <a href="./memberlist.php?mode=viewprofile&amp;u=2" class="username">velo_nina</a>, <a href="./memberlist.php?mode=viewprofile&amp;u=7" class="username">gearhead77</a> and 31 guests</p></div>
</div>
<div id="page-footer" class="page-footer" role="contentinfo"><div class="navbar"><div class="inner">
<ul class="linklist"><li><a href="./index.php">Board index</a></li><li><a href="./ucp.php?mode=delete_cookies">Delete cookies</a></li><li><a href="./memberlist.php?mode=contactadmin">Contact us</a></li><li><a href="./ucp.php?mode=privacy">Privacy</a></li><li><a href="./ucp.php?mode=terms">Terms</a></li></ul></div></div>
<div class="copyright">Powered by a forum engine &copy; Spoke &amp; Chain community</div></div>
</div>"""
    pg.text = doc(
        rng,
        lang="en-gb",
        title="Repairs & Maintenance - Spoke & Chain Forum",
        site="Spoke & Chain Forum",
        body=body,
        canonical=pg.base,
        html_attrs=' dir="ltr"',
        body_attrs=' id="phpbb" class="nojs notouch section-viewforum ltr"',
    )
    return pg


# --------------------------------------------------------------------------------------
# 13 events "From £25"
# --------------------------------------------------------------------------------------


@page
def p13():
    rng = random.Random(113)
    pg = Page(
        "13_events_gbp",
        "https://www.northernlights-tickets.test/whats-on/music",
        "events: div.event with date block, title link, venue, 'From £25' price, external 'Book tickets' link",
    )
    acts = [
        "The Marlow Quartet",
        "Ada Finch",
        "Saltmarsh",
        "The Hollow Pines",
        "Kofi Mensah Trio",
        "Glasshouse Choir",
        "Wren & the Wildflowers",
        "Northern Sinfonia Youth",
        "DJ Orla Kane",
        "Brass Foundry",
        "Lena Vos",
        "The Quiet Hours",
    ]
    kinds = [
        "Autumn Tour",
        "Live",
        "In Concert",
        "Album Launch",
        "Unplugged",
        "Christmas Special",
        "An Evening With",
    ]
    venues = [
        "Albert Hall, Manchester",
        "The Sage Rooms, Gateshead",
        "Leeds Town Hall",
        "The Brudenell, Leeds",
        "Barbican Hall, York",
        "O2 Ritz, Manchester",
        "St George's Hall, Bradford",
        "Sheffield City Hall",
        "Usher Hall, Edinburgh",
    ]
    data = uniq(
        rng,
        20,
        lambda r: (lambda a, k: f"An Evening With {a}" if k == "An Evening With" else f"{a}: {k}")(
            r.choice(acts), r.choice(kinds)
        ),
    )
    evs = []
    for i, t in enumerate(data):
        day = 1 + i
        price = rng.choice([12.5, 15, 18, 22.5, 25, 28, 32, 35, 45, 55])
        href = f"/event/{slug(t)}-{2025}{12:02d}{day:02d}"
        status = rng.choice(
            [
                "",
                "",
                "",
                '<span class="event__status">Last few tickets</span>',
                '<span class="event__status">New date added</span>',
            ]
        )
        evs.append(
            f"""  <div class="event">
    <div class="event__date"><span class="event__dow">{["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day % 7]}</span><span class="event__day">{day}</span><span class="event__month">Dec</span></div>
    <a class="event__thumb" href="{href}"><img data-src="/media/events/{slug(t)}.jpg" src="/media/placeholder.gif" alt=""></a>
    <div class="event__info">
      <h3 class="event__title"><a href="{href}">{E(t)}</a></h3>
      <p class="event__venue">{icon("pin")} {E(rng.choice(venues))} · Doors {rng.choice(["7:00pm", "7:30pm", "6:30pm"])}</p>
      {status}
    </div>
    <div class="event__buy"><p class="event__price">From £{price:g}</p><a class="btn btn--tickets" href="https://checkout.ticketflow.test/nlt/{4400 + i}" rel="nofollow">Book tickets</a></div>
  </div>""".replace("From £12.5<", "From £12.50<").replace("From £22.5<", "From £22.50<")
        )
        pg.add(t, href, price, "GBP")
    nav = [
        ("Music", "/whats-on/music"),
        ("Comedy", "/whats-on/comedy"),
        ("Theatre", "/whats-on/theatre"),
        ("Family", "/whats-on/family"),
        ("Festivals", "/whats-on/festivals"),
        ("Venues", "/venues"),
        ("Gift vouchers", "/gift-vouchers"),
        ("Help", "/help"),
        ("My tickets", "/account/tickets"),
    ]
    side = filters(
        [
            (
                "Date",
                [
                    ("This weekend", 6, "?when=weekend"),
                    ("Next 7 days", 11, "?when=week"),
                    ("December", 48, "?when=2025-12"),
                ],
            ),
            (
                "City",
                [
                    ("Manchester", 19, "?city=manchester"),
                    ("Leeds", 14, "?city=leeds"),
                    ("Edinburgh", 6, "?city=edinburgh"),
                ],
            ),
            (
                "Genre",
                [
                    ("Folk", 9, "?genre=folk"),
                    ("Jazz", 7, "?genre=jazz"),
                    ("Classical", 12, "?genre=classical"),
                    ("Electronic", 5, "?genre=electronic"),
                ],
            ),
        ],
        p="ev-f",
        title="Filter events",
    )
    body = f"""{
        header_basic(
            "Northern Lights Tickets",
            nav,
            p="nlt",
            search="Search events, artists, venues",
            cart="Basket",
        )
    }
<main class="listing">
  {breadcrumbs([("Home", "/"), ("What's on", "/whats-on"), ("Music", None)], p="nlt-bc")}
  <h1>Music events</h1>
  <div class="listing__layout">{side}
  <section class="listing__events" aria-label="Events">
{chr(10).join(evs)}
  </section></div>
  {pagination("/whats-on/music", 1, 3, p="nlt-pg")}
</main>
{newsletter("Never miss a show", "Pre-sale alerts for artists you follow.", p="nlt-nl")}
{
        footer_cols(
            [
                (
                    "Tickets",
                    [
                        ("Help centre", "/help"),
                        ("Refunds", "/help/refunds"),
                        ("Accessibility", "/accessibility"),
                    ],
                ),
                (
                    "Partners",
                    [
                        ("Sell tickets with us", "/promoters"),
                        ("Venue partners", "/venues/partners"),
                    ],
                ),
                ("Company", [("About", "/about"), ("Jobs", "/jobs"), ("Contact", "/contact")]),
                (
                    "Legal",
                    [
                        ("Terms of purchase", "/terms"),
                        ("Privacy", "/privacy"),
                        ("Cookies", "/cookies"),
                    ],
                ),
            ],
            p="nlt",
            copy="© 2025 Northern Lights Tickets Ltd. Booking fees shown at checkout.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en-GB",
        title="Music events in the North | Northern Lights Tickets",
        site="Northern Lights Tickets",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 14 search results page
# --------------------------------------------------------------------------------------


@page
def p14():
    rng = random.Random(114)
    pg = Page(
        "14_search_results",
        "https://www.findwell.test/search?q=how+to+descale+a+kettle",
        "search engine results: div.result h3>a, cite, snippet; 'Sponsored' ads, sitelinks, 'People also ask', related searches are not items",
    )
    results = [
        (
            "How to Descale a Kettle: 4 Easy Methods That Work",
            "https://www.homecare-tips.test/cleaning/descale-kettle",
            "homecare-tips.test › cleaning › descale-kettle",
        ),
        (
            "Descaling your kettle with vinegar or citric acid - Limestone Living",
            "https://limestoneliving.test/guides/kettle-descaling/",
            "limestoneliving.test › guides",
        ),
        (
            "Kettle limescale: why it forms and how to remove it",
            "https://www.waterboard-south.test/advice/limescale",
            "waterboard-south.test › advice › limescale",
        ),
        (
            "Does lemon juice really descale a kettle? We tested it",
            "https://testkitchen-weekly.test/2024/03/lemon-descale-test",
            "testkitchen-weekly.test › 2024 › 03",
        ),
        (
            "How often should you descale a kettle? | Appliance FAQ",
            "https://support.brewbright.test/faq/kettle-descale-frequency",
            "support.brewbright.test › faq",
        ),
        (
            "r/CleaningTips - Best way to get scale out of an electric kettle?",
            "https://threads.talkboard.test/r/CleaningTips/comments/1a2b3c/",
            "threads.talkboard.test › r › CleaningTips",
        ),
        (
            "Video: Descale a kettle in 10 minutes",
            "https://video.streamly.test/watch?v=K3ttl3d3sc",
            "video.streamly.test › watch",
        ),
        (
            "Citric acid vs. vinegar for descaling: a chemist explains",
            "https://everydaychem.test/articles/citric-vs-vinegar",
            "everydaychem.test › articles",
        ),
        (
            "How to clean a kettle inside and out - Good Housekeeping Guide",
            "https://housekeeping-guide.test/home/clean-kettle",
            "housekeeping-guide.test › home",
        ),
        (
            "Descaling tablets: are they worth it?",
            "https://consumerwise.test/reviews/descaling-tablets",
            "consumerwise.test › reviews",
        ),
    ]
    res = []
    for i, (t, u, cite) in enumerate(results):
        sitelinks = ""
        if i == 0:
            sitelinks = (
                '<table class="sitelinks"><tr>'
                + "".join(
                    f'<td><h4><a href="https://www.homecare-tips.test/cleaning/{slug(s)}">{E(s)}</a></h4><p>{E(lorem(rng, 8))}</p></td>'
                    for s in (
                        "Vinegar method",
                        "Citric acid method",
                        "Baking soda",
                        "Prevent limescale",
                    )
                )
                + "</tr></table>"
            )
        res.append(f"""<div class="result" data-rank="{i + 1}"><div class="result__head"><img class="favicon" src="https://icons.findwell.test/{slug(cite.split(" ")[0])}.ico" alt="" width="16" height="16">
<cite class="result__url">{E(cite)}</cite><button class="result__menu" aria-label="About this result">⋮</button></div>
<h3 class="result__title"><a href="{u}" data-ved="0ahUKE{rng.randint(100000, 999999)}" ping="/url?rank={i + 1}">{E(t)}</a></h3>
<div class="result__snippet"><span class="result__date">{rng.randint(1, 28)} Mar 2024 — </span>{E(lorem(rng, 26, "fill the kettle halfway with equal parts white vinegar and water bring to the boil leave for an hour then rinse thoroughly limescale mineral deposits hard water area citric acid".split()))}</div>
{sitelinks}</div>""")
        pg.add(t, u)
    ads = []
    for j, (t, u) in enumerate(
        (
            (
                "Descaler for Kettles - Fast, Odourless, Food-Safe",
                "https://www.scalefree-shop.test/kettle-descaler",
            ),
            (
                "BrewBright Kettles – Built-in Limescale Filter",
                "https://www.brewbright.test/kettles",
            ),
        )
    ):
        ads.append(
            f'<div class="ad"><span class="ad__label">Sponsored</span><cite>{E(u.split("/")[2])}</cite>'
            f'<h3 class="ad__title"><a href="https://ads.findwell.test/aclk?sa=L&amp;ai={j}&amp;adurl={u}">{E(t)}</a></h3>'
            f'<p>{E(lorem(rng, 14))}</p><ul class="ad__links"><li><a href="{u}/offers">Offers</a></li><li><a href="{u}/reviews">Reviews</a></li></ul></div>'
        )
    paa = "".join(
        f'<div class="paa__q" role="button" aria-expanded="false"><span>{E(q)}</span><div class="paa__a" hidden><p>{E(lorem(rng, 20))}</p><a href="https://answers-hub.test/q/{slug(q)}">{E(q)} - Answers Hub</a></div></div>'
        for q in (
            "What is the fastest way to descale a kettle?",
            "Is it safe to use vinegar in a kettle?",
            "Can Coca-Cola descale a kettle?",
            "Why does my kettle have white flakes?",
        )
    )
    rel = "".join(
        f'<a class="related__q" href="/search?q={q.replace(" ", "+")}">{E(q)}</a>'
        for q in (
            "descale kettle citric acid",
            "descale kettle lemon",
            "kettle limescale harmful",
            "how to descale kettle without vinegar",
            "descale coffee machine",
            "descaler tablets",
        )
    )
    body = f"""<header class="sh"><a class="sh__logo" href="/"><img src="/static/findwell.svg" alt="Findwell" height="28"></a>
<form class="sh__form" action="/search" role="search"><input name="q" value="how to descale a kettle" aria-label="Search"><button type="submit" aria-label="Search">{icon("search")}</button></form>
<div class="sh__right"><a href="/settings">Settings</a><a href="/apps" aria-label="Apps">⋮⋮⋮</a><a class="btn" href="https://accounts.findwell.test/signin">Sign in</a></div></header>
<nav class="tabs" aria-label="Search tabs"><a class="tabs__tab tabs__tab--active" href="/search?q=how+to+descale+a+kettle">All</a><a class="tabs__tab" href="/search?q=how+to+descale+a+kettle&amp;tbm=isch">Images</a><a class="tabs__tab" href="/search?q=how+to+descale+a+kettle&amp;tbm=vid">Videos</a><a class="tabs__tab" href="/search?q=how+to+descale+a+kettle&amp;tbm=shop">Shopping</a><a class="tabs__tab" href="/search?q=how+to+descale+a+kettle&amp;tbm=nws">News</a><a class="tabs__tab" href="/search?q=how+to+descale+a+kettle&amp;tbm=bks">Books</a><a class="tabs__tab" href="/tools">Tools</a></nav>
<main id="results" class="serp">
<div class="serp__stats">About 1,240,000 results (0.41 seconds)</div>
<div class="ads" aria-label="Ads"><h2 class="visually-hidden">Ads</h2>{"".join(ads)}</div>
<div class="organic">
{res[0]}
{res[1]}
<div class="paa"><h2 class="paa__title">People also ask</h2>{paa}</div>
{chr(10).join(res[2:])}
</div>
<div class="related"><h2>Related searches</h2><div class="related__grid">{rel}</div></div>
<nav class="serp-pager" aria-label="More results"><span class="cur">1</span>{"".join(f'<a href="/search?q=how+to+descale+a+kettle&amp;start={k * 10}">{k + 1}</a>' for k in range(1, 10))}<a class="next" href="/search?q=how+to+descale+a+kettle&amp;start=10">Next</a></nav>
</main>
<footer class="sf"><div class="sf__loc">United Kingdom · <a href="/location">Update location</a></div><div class="sf__links"><a href="/help">Help</a><a href="/feedback">Send feedback</a><a href="/privacy">Privacy</a><a href="/terms">Terms</a></div></footer>"""
    pg.text = doc(
        rng,
        lang="en-GB",
        title="how to descale a kettle - Findwell Search",
        site="Findwell",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 15 real estate NL "€ 450.000 k.k."
# --------------------------------------------------------------------------------------


@page
def p15():
    rng = random.Random(115)
    pg = Page(
        "15_realestate_nl_eur",
        "https://www.huisvinder.test/koop/utrecht/",
        "Dutch real-estate results: address h2>a as title, postcode/city, '€ 450.000 k.k.', m², kamers, slaapkamers/badkamers; makelaar link",
    )
    streets = [
        "Lindelaan",
        "Kastanjestraat",
        "Molenweg",
        "Havenkade",
        "Beukenlaan",
        "Prinses Irenestraat",
        "Kerkplein",
        "Vondelstraat",
        "Oranjesingel",
        "Nieuwegracht",
        "Biltstraat",
        "Wittevrouwenkade",
        "Amsterdamsestraatweg",
        "Burgemeester Reigerstraat",
        "Twijnstraat",
    ]
    makelaars = [
        "Van Dijk Makelaardij",
        "Domstad Wonen",
        "Kromme Rijn Makelaars",
        "Huis & Haard Utrecht",
    ]
    data = uniq(
        rng,
        18,
        lambda r: (
            f"{r.choice(streets)} {r.randint(1, 240)}{r.choice(['', '', '', ' A', '-bis', ' II'])}"
        ),
    )
    cards = []
    for i, t in enumerate(data):
        price = rng.randint(28, 140) * 5000 + rng.choice([0, 0, 0, 2500])
        m2 = rng.randint(45, 210)
        beds = rng.randint(1, 5)
        baths = rng.randint(1, 2)
        pc = f"35{rng.randint(10, 99)} {rng.choice(['KL', 'AB', 'ZX', 'HG', 'PR', 'EV'])}"
        href = f"/koop/utrecht/huis-{43000000 + i * 1171}-{slug(t)}/"
        mk = rng.choice(makelaars)
        label = rng.choice(
            [
                "",
                "",
                '<span class="label label--new">Nieuw</span>',
                '<span class="label label--oh">Open huis</span>',
                '<span class="label">Onder bod</span>',
            ]
        )
        cards.append(f"""<li class="search-result">
  <div class="search-result__media"><a href="{href}"><img src="https://cloud.huisvinder-img.test/valentina_media/{43000000 + i * 1171}/360x240.jpg" alt="Foto van {E(t)}" loading="lazy"></a>{label}</div>
  <div class="search-result__content">
    <h2 class="search-result__title"><a href="{href}" data-object-url-tracking="resultlist">{E(t)}</a></h2>
    <h4 class="search-result__subtitle">{pc} Utrecht</h4>
    <div class="search-result__price"><span class="search-result-price">€ {money(price, ".", ",", 0)} k.k.</span></div>
    <ul class="search-result-kenmerken"><li><span title="Woonoppervlakte">{m2} m²</span> / <span title="Perceeloppervlakte">{m2 + rng.randint(0, 150)} m²</span></li><li>{beds + 1} kamers</li><li>{beds} slaapkamers</li><li>{baths} badkamer{"s" if baths > 1 else ""}</li></ul>
    <div class="search-result__makelaar"><a href="/makelaars/utrecht/{slug(mk)}/">{E(mk)}</a></div>
  </div>
</li>""")
        pg.add(t, href, price, "EUR")
    nav = [
        ("Koop", "/koop/"),
        ("Huur", "/huur/"),
        ("Nieuwbouw", "/nieuwbouw/"),
        ("Recreatie", "/recreatie/"),
        ("Europa", "/europa/"),
        ("Makelaar zoeken", "/makelaars/"),
        ("Hypotheek", "/hypotheek/"),
        ("Waarde check", "/waardecheck/"),
        ("Mijn Huisvinder", "/mijn/"),
    ]
    side = filters(
        [
            (
                "Prijs",
                [
                    ("€ 200.000 - € 300.000", 58, "?price=200000-300000"),
                    ("€ 300.000 - € 400.000", 91, "?price=300000-400000"),
                    ("€ 400.000 - € 500.000", 77, "?price=400000-500000"),
                    ("€ 500.000+", 102, "?price=500000-"),
                ],
            ),
            (
                "Soort woning",
                [
                    ("Appartement", 168, "?type=appartement"),
                    ("Eengezinswoning", 121, "?type=woonhuis"),
                    ("Villa", 9, "?type=villa"),
                ],
            ),
            (
                "Slaapkamers",
                [
                    ("1+", 328, "?bedrooms=1-"),
                    ("2+", 241, "?bedrooms=2-"),
                    ("3+", 137, "?bedrooms=3-"),
                ],
            ),
        ],
        p="hv-f",
        title="Filters",
        apply="Toon resultaten",
    )
    body = f"""{
        header_basic(
            "Huisvinder",
            nav,
            p="hv",
            search="Plaats, buurt, adres, postcode",
            account="Inloggen",
            cart="Bewaard",
        )
    }
{
        cookie_banner(
            "Huisvinder gebruikt cookies om de website goed te laten werken en om advertenties te personaliseren.",
            "Akkoord",
            "Weigeren",
            "Instellingen",
            "Cookiebeleid",
            "/cookiebeleid/",
            p="hv-cookie",
        )
    }
<main class="search">
  {
        breadcrumbs(
            [("Home", "/"), ("Koop", "/koop/"), ("Utrecht", None)], p="hv-bc", label="Kruimelpad"
        )
    }
  <h1 class="search__title">Koopwoningen in Utrecht <small>328 resultaten</small></h1>
  <div class="search__layout">{side}
  <div class="search__results"><div class="search__toolbar"><a href="/koop/utrecht/?view=map">Kaart</a><select><option>Relevantie</option><option>Prijs (laag-hoog)</option><option>Nieuwste</option></select></div>
  <ol class="search-results">
{chr(10).join(cards)}
  </ol>
  <div class="search__alert"><a href="/mijn/zoekopdrachten/nieuw?plaats=utrecht">Bewaar deze zoekopdracht</a> en ontvang nieuwe woningen per e-mail.</div>
  {pagination("/koop/utrecht/", 1, 19, p="hv-pg", prev="Vorige", nxt="Volgende", param="pagina")}
  </div></div>
</main>
{
        footer_cols(
            [
                (
                    "Huisvinder",
                    [
                        ("Over ons", "/over/"),
                        ("Vacatures", "/vacatures/"),
                        ("Pers", "/pers/"),
                        ("Contact", "/contact/"),
                    ],
                ),
                (
                    "Zoeken",
                    [
                        ("Koopwoningen", "/koop/"),
                        ("Huurwoningen", "/huur/"),
                        ("Nieuwbouw", "/nieuwbouw/"),
                        ("Makelaars", "/makelaars/"),
                    ],
                ),
                ("Voor makelaars", [("Adverteren", "/adverteren/"), ("Huisvinder Pro", "/pro/")]),
                (
                    "Juridisch",
                    [
                        ("Privacyverklaring", "/privacy/"),
                        ("Gebruiksvoorwaarden", "/voorwaarden/"),
                        ("Cookiebeleid", "/cookiebeleid/"),
                    ],
                ),
            ],
            p="hv",
            copy="© 2025 Huisvinder B.V.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="nl",
        title="Huizen te koop in Utrecht [328 resultaten] | Huisvinder",
        site="Huisvinder",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 16 car listings CH "CHF 23'900.–"
# --------------------------------------------------------------------------------------


@page
def p16():
    rng = random.Random(116)
    pg = Page(
        "16_cars_ch_chf",
        "https://www.autoplatz-schweiz.test/de/autos/kombi?sort=relevance",
        "Swiss car listings (de-CH): article cards, title '2019 VW Golf …', price \"CHF 23'900.–\", km with apostrophes; dealer links; a 'Top-Inserat' ad block is not an item",
    )
    cars = [
        ("VW", "Golf 1.5 TSI Highline", 14000, 32000),
        ("VW", "Passat Variant 2.0 TDI 4Motion", 16000, 41000),
        ("Skoda", "Octavia Combi RS 2.0 TSI", 18000, 39000),
        ("Audi", "A4 Avant 40 TDI quattro S line", 24000, 52000),
        ("BMW", "320d Touring xDrive M Sport", 22000, 49000),
        ("Mercedes-Benz", "C 200 T-Modell AMG Line", 25000, 55000),
        ("Toyota", "Corolla Touring Sports 2.0 Hybrid", 19000, 36000),
        ("Volvo", "V60 B4 Momentum", 21000, 44000),
        ("Subaru", "Outback 2.5i AWD Luxury", 17000, 39000),
        ("Seat", "Leon ST 1.5 eTSI FR", 16000, 31000),
        ("Cupra", "Leon Sportstourer VZ 2.0 TSI", 27000, 46000),
        ("Peugeot", "308 SW 1.2 PureTech GT", 13000, 28000),
        ("Ford", "Focus Turnier 1.0 EcoBoost ST-Line", 11000, 26000),
        ("Mazda", "6 Kombi 2.5 Skyactiv-G Revolution", 15000, 33000),
        ("Hyundai", "i30 Wagon 1.5 T-GDi N Line", 14000, 29000),
        ("Kia", "Ceed SW 1.6 GDi PHEV", 17000, 33000),
        ("Opel", "Astra Sports Tourer 1.2 Turbo", 10000, 24000),
    ]
    data = uniq(
        rng,
        20,
        lambda r: (lambda c, y: (f"{y} {c[0]} {c[1]}", c, y))(
            r.choice(cars), r.randint(2015, 2024)
        ),
    )
    arts = []
    for i, (t, c, y) in enumerate(data):
        price = round(rng.randint(c[2], c[3]) * (0.6 + 0.04 * (y - 2015)) / 100) * 100
        km = max(500, (2025 - y) * rng.randint(6, 22) * 1000)
        href = f"/de/d/{slug(c[0])}-{slug(c[1])}/{9100000 + i * 53}"
        dealer = rng.choice(
            [
                "Garage Bühler AG",
                "Auto Zentrum Aarau",
                "Emil Frey Test AG",
                "Garage du Lac SA",
                "Autohaus Seeland",
            ]
        )
        city = rng.choice(
            [
                "8005 Zürich",
                "5000 Aarau",
                "3011 Bern",
                "6003 Luzern",
                "4051 Basel",
                "9000 St. Gallen",
                "2502 Biel/Bienne",
            ]
        )
        arts.append(f"""<article class="listing-card" data-listing-id="{9100000 + i * 53}">
  <a class="listing-card__link" href="{href}" aria-hidden="true" tabindex="-1"><picture><source type="image/webp" srcset="https://img.autoplatz-schweiz.test/{9100000 + i * 53}/0_640.webp 640w"><img src="https://img.autoplatz-schweiz.test/{9100000 + i * 53}/0_320.jpg" alt="" loading="lazy"></picture><span class="listing-card__count">{rng.randint(6, 30)} Bilder</span></a>
  <div class="listing-card__body">
    <h2 class="listing-card__title"><a href="{href}">{E(t)}</a></h2>
    <p class="listing-card__price">CHF {money(price, "'", ".", 0)}.–</p>
    <ul class="listing-card__facts"><li>{rng.randint(1, 12):02d}.{y}</li><li>{money(km, "'", ".", 0)} km</li><li>{rng.choice(["Benzin", "Diesel", "Hybrid", "Plug-in-Hybrid"])}</li><li>{rng.choice(["Automat", "Automat", "Schaltgetriebe"])}</li><li>{rng.randint(110, 300)} PS</li></ul>
    <p class="listing-card__seller"><a href="/de/haendler/{slug(dealer)}">{E(dealer)}</a> · {city}</p>
    <button class="listing-card__fav" aria-label="Merken">{icon("heart")}</button>
  </div>
</article>""")
        pg.add(t, href, price, "CHF")
    top = (
        '<aside class="top-listing" aria-label="Top-Inserat"><span class="top-listing__label">Top-Inserat</span>'
        '<a href="/de/d/porsche-taycan-4-cross-turismo/8800001"><img src="https://img.autoplatz-schweiz.test/8800001/0_320.jpg" alt="">'
        '<strong>2023 Porsche Taycan 4 Cross Turismo</strong><span>CHF 98\'500.–</span></a><span class="top-listing__dealer">Sportwagen Center Zug</span></aside>'
    )
    nav = [
        ("Auto kaufen", "/de/autos"),
        ("Auto verkaufen", "/de/verkaufen"),
        ("Motorrad", "/de/motorrad"),
        ("Nutzfahrzeuge", "/de/nutzfahrzeuge"),
        ("Wohnmobile", "/de/wohnmobile"),
        ("Händler", "/de/haendler"),
        ("Leasing", "/de/leasing"),
        ("Versicherung", "/de/versicherung"),
        ("Ratgeber", "/de/ratgeber"),
        ("FR", "/fr/voitures/break"),
        ("IT", "/it/auto/station-wagon"),
    ]
    side = filters(
        [
            (
                "Marke",
                [
                    ("VW", 4211, "?make=vw"),
                    ("Skoda", 2870, "?make=skoda"),
                    ("Audi", 2402, "?make=audi"),
                    ("BMW", 1980, "?make=bmw"),
                ],
            ),
            (
                "Treibstoff",
                [
                    ("Benzin", 9120, "?fuel=petrol"),
                    ("Diesel", 7004, "?fuel=diesel"),
                    ("Elektro", 1650, "?fuel=electric"),
                ],
            ),
            (
                "Preis bis",
                [
                    ("CHF 10'000", 2100, "?priceto=10000"),
                    ("CHF 20'000", 6900, "?priceto=20000"),
                    ("CHF 30'000", 11020, "?priceto=30000"),
                ],
            ),
        ],
        p="ap-f",
        title="Suche verfeinern",
        apply="Fahrzeuge anzeigen",
    )
    body = f"""{
        header_basic(
            "AutoPlatz Schweiz",
            nav,
            p="ap",
            search="Marke, Modell, Stichwort",
            account="Anmelden",
            cart="Merkliste",
        )
    }
{
        cookie_banner(
            "Wir und unsere Partner verwenden Cookies, um Ihnen ein optimales Nutzererlebnis zu bieten.",
            "Alle akzeptieren",
            "Ablehnen",
            "Anpassen",
            "Datenschutz",
            "/de/datenschutz",
            p="ap-c",
        )
    }
<main class="srp">
  {breadcrumbs([("Startseite", "/de"), ("Autos", "/de/autos"), ("Kombi", None)], p="ap-bc")}
  <h1>Kombi kaufen: 18'214 Fahrzeuge</h1>
  <div class="srp__layout">{side}
  <div class="srp__main">{top}
  <div class="srp__list">
{chr(10).join(arts)}
  </div>
  {pagination("/de/autos/kombi", 1, 911, p="ap-pg", prev="Zurück", nxt="Weiter")}</div></div>
</main>
{
        footer_cols(
            [
                (
                    "AutoPlatz",
                    [("Über uns", "/de/ueber-uns"), ("Jobs", "/de/jobs"), ("Medien", "/de/medien")],
                ),
                (
                    "Service",
                    [
                        ("Hilfe", "/de/hilfe"),
                        ("Sicherheitstipps", "/de/sicherheit"),
                        ("Kontakt", "/de/kontakt"),
                    ],
                ),
                (
                    "Für Händler",
                    [("Inserieren", "/de/haendler/inserieren"), ("Preise", "/de/haendler/preise")],
                ),
                (
                    "Rechtliches",
                    [
                        ("AGB", "/de/agb"),
                        ("Datenschutz", "/de/datenschutz"),
                        ("Impressum", "/de/impressum"),
                    ],
                ),
            ],
            p="ap",
            copy="© 2025 AutoPlatz Schweiz AG. Alle Preise in CHF inkl. MWST.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="de-CH",
        title="Kombi kaufen – Occasionen & Neuwagen | AutoPlatz Schweiz",
        site="AutoPlatz Schweiz",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 17 hotels India "₹ 4,599"
# --------------------------------------------------------------------------------------


def inr(v: int) -> str:
    s = str(v)
    if len(s) <= 3:
        return s
    head, tail = s[:-3], s[-3:]
    parts = []
    while len(head) > 2:
        parts.insert(0, head[-2:])
        head = head[:-2]
    if head:
        parts.insert(0, head)
    return ",".join(parts) + "," + tail


@page
def p17():
    rng = random.Random(117)
    pg = Page(
        "17_hotels_in_inr",
        "https://www.staywise.test/hotels/jaipur?checkin=2025-12-19&checkout=2025-12-21&rooms=1&adults=2",
        "hotel results (India): div.hotel-card, h3 name, rating, '₹ 4,599' per night with some <s> struck prices, Indian digit grouping ₹ 1,12,500",
    )
    pre = [
        "The Banyan",
        "Hotel Saffron",
        "Amber",
        "Pink City",
        "Rambagh Garden",
        "Hawa",
        "Nahargarh View",
        "Umaid",
        "Jal Mahal",
        "Kesar",
        "Chokhi",
        "Marigold",
        "Sheesh",
        "Moti",
    ]
    suf = [
        "Courtyard",
        "Residency",
        "Palace Heritage Hotel",
        "Boutique Stay",
        "Suites",
        "Haveli",
        "Grand",
        "Inn",
        "Resort & Spa",
        "Homestay",
    ]
    data = uniq(rng, 15, lambda r: f"{r.choice(pre)} {r.choice(suf)}")
    cards = []
    for i, t in enumerate(data):
        price = rng.choice([1899, 2450, 3199, 4599, 5250, 6899, 7400, 9999, 12499, 15800])
        if i == 6:
            price = 112500
        old = ""
        if rng.random() < 0.45:
            old = f'<s class="hotel-card__strike">₹ {inr(int(price * 1.3 // 10 * 10))}</s> '
        score = round(rng.uniform(7.2, 9.6), 1)
        href = f"/hotel/jaipur/{slug(t)}-h{20400 + i * 19}?checkin=2025-12-19&checkout=2025-12-21&rooms=1&adults=2"
        amen = ", ".join(
            rng.sample(
                [
                    "Free Wi-Fi",
                    "Pool",
                    "Breakfast included",
                    "Free cancellation",
                    "Airport shuttle",
                    "Spa",
                    "Rooftop restaurant",
                ],
                3,
            )
        )
        cards.append(f"""<div class="hotel-card" id="h{20400 + i * 19}">
  <div class="hotel-card__gallery"><img src="https://img.staywise.test/h/{20400 + i * 19}/1.jpg" alt="{E(t)}" loading="lazy"><span class="hotel-card__photos">+{rng.randint(10, 90)} photos</span></div>
  <div class="hotel-card__details">
    <h3 class="hotel-card__name"><a href="{href}" target="_blank">{E(t)}</a></h3>
    <div class="hotel-card__stars" aria-label="{rng.randint(3, 5)}-star hotel">{"★" * rng.randint(3, 5)}</div>
    <p class="hotel-card__area">{E(rng.choice(["C-Scheme", "MI Road", "Amer Road", "Bani Park", "Malviya Nagar", "Civil Lines"]))}, Jaipur · {rng.uniform(0.5, 12):.1f} km from city centre</p>
    <p class="hotel-card__amenities">{E(amen)}</p>
  </div>
  <div class="hotel-card__rating"><span class="score">{score}</span><span class="label">{"Exceptional" if score >= 9 else "Excellent" if score >= 8.5 else "Very Good"}</span><span class="reviews">{rng.randint(40, 4200)} reviews</span></div>
  <div class="hotel-card__pricing"><p class="hotel-card__price">{old}<span class="hotel-card__amount">₹ {inr(price)}</span></p><p class="hotel-card__per">per night · + ₹ {inr(int(price * 0.12))} taxes &amp; fees</p><a class="btn" href="{href}" target="_blank">View Deal</a></div>
</div>""")
        pg.add(t, href, price, "INR")
    nav = [
        ("Hotels", "/hotels"),
        ("Homestays & Villas", "/homestays"),
        ("Flights", "/flights"),
        ("Trains", "/trains"),
        ("Buses", "/buses"),
        ("Holiday Packages", "/holidays"),
        ("Offers", "/offers"),
        ("Gift Cards", "/gift-cards"),
        ("My Trips", "/my-trips"),
    ]
    side = filters(
        [
            (
                "Price per night",
                [
                    ("₹ 0 – ₹ 2,000", 41, "?p=0-2000"),
                    ("₹ 2,000 – ₹ 5,000", 133, "?p=2000-5000"),
                    ("₹ 5,000+", 96, "?p=5000-"),
                ],
            ),
            (
                "Star rating",
                [
                    ("5 star", 22, "?stars=5"),
                    ("4 star", 68, "?stars=4"),
                    ("3 star", 101, "?stars=3"),
                ],
            ),
            (
                "Property type",
                [
                    ("Hotel", 190, "?type=hotel"),
                    ("Heritage", 34, "?type=heritage"),
                    ("Homestay", 46, "?type=homestay"),
                ],
            ),
        ],
        p="sw-f",
        title="Filters",
    )
    body = f"""{
        header_basic(
            "StayWise", nav, p="sw", search="Where to?", account="Login / Sign up", cart="Trips"
        )
    }
<div class="search-summary"><form action="/hotels/jaipur"><input value="Jaipur, Rajasthan" name="city"><input type="date" value="2025-12-19" name="checkin"><input type="date" value="2025-12-21" name="checkout"><select name="guests"><option>1 Room, 2 Adults</option></select><button>Update search</button></form></div>
<main class="results">
  {
        breadcrumbs(
            [
                ("Home", "/"),
                ("Hotels in India", "/hotels/india"),
                ("Rajasthan", "/hotels/rajasthan"),
                ("Jaipur", None),
            ],
            p="sw-bc",
        )
    }
  <h1>270 properties in Jaipur</h1>
  <div class="results__layout">{side}
  <section class="results__list">
  <div class="sort-bar"><span>Sort by:</span><a class="active" href="?sort=popular">Popular</a><a href="?sort=price_asc">Price (low to high)</a><a href="?sort=rating">User rating</a></div>
  <div class="offer-banner"><a href="/offers/bank-hdfc">Flat 12% off with select bank cards · Use code WINTER12</a></div>
{chr(10).join(cards)}
  {pagination("/hotels/jaipur", 1, 18, p="sw-pg")}
  </section></div>
</main>
{
        footer_cols(
            [
                (
                    "StayWise",
                    [
                        ("About us", "/about"),
                        ("Careers", "/careers"),
                        ("Investor relations", "/investors"),
                    ],
                ),
                (
                    "Support",
                    [
                        ("Customer support", "/support"),
                        ("Cancellation policy", "/cancellation"),
                        ("Payment security", "/security"),
                    ],
                ),
                (
                    "Partners",
                    [
                        ("List your property", "/partners/list"),
                        ("Affiliates", "/partners/affiliates"),
                    ],
                ),
                (
                    "Legal",
                    [
                        ("Privacy", "/privacy"),
                        ("Terms of use", "/terms"),
                        ("Grievance redressal", "/grievance"),
                    ],
                ),
            ],
            p="sw",
            copy="© 2025 StayWise Travel Pvt. Ltd. All prices in INR.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en-IN",
        title="Hotels in Jaipur – Book 270 Jaipur Hotels | StayWise",
        site="StayWise",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 18 app store grid: "Free" or "$4.99"
# --------------------------------------------------------------------------------------


@page
def p18():
    rng = random.Random(118)
    pg = Page(
        "18_app_store_grid",
        "https://apps.orchardstore.test/us/charts/productivity",
        "app store grid: app name link, developer link, category, 'Free' (price 0, currency null) or '$4.99'; 'Editors' Choice' hero is not an item",
    )
    first = [
        "Pocket",
        "Tide",
        "Sketch",
        "Focus",
        "Quill",
        "Habit",
        "Cloud",
        "Task",
        "Mind",
        "Scan",
        "Calm",
        "Budget",
        "Note",
        "Time",
        "Flow",
    ]
    second = [
        "Ledger",
        "Watch",
        "Pad",
        "Keeper",
        "Board",
        "Loop",
        "Deck",
        "Nest",
        "Forge",
        "Pilot",
        "Mate",
        "Shelf",
    ]
    extra = ["", "", "", " Pro", " – Notes & Lists", ": Daily Planner", " Lite", " 2"]
    data = uniq(rng, 24, lambda r: f"{r.choice(first)}{r.choice(second)}{r.choice(extra)}")
    devs = [
        "Lumen Apps LLC",
        "Pinecone Software",
        "Bitwise Orchard",
        "Northwind Studio",
        "Kettle Labs",
        "Tiny Giant Apps",
    ]
    cells = []
    for i, t in enumerate(data):
        paid = rng.random() < 0.4
        price = rng.choice([0.99, 1.99, 2.99, 4.99, 9.99]) if paid else 0
        ptxt = f"${price:.2f}" if paid else "Free"
        aid = 1500000000 + i * 7919
        href = f"/us/app/{slug(t)}/id{aid}"
        dev = rng.choice(devs)
        iap = (
            '<span class="lockup__iap">In-App Purchases</span>'
            if not paid and rng.random() < 0.6
            else ""
        )
        cells.append(f"""<li class="grid__cell"><div class="lockup">
  <span class="lockup__rank">{i + 1}</span>
  <a class="lockup__icon" href="{href}"><picture><source srcset="https://is.orchardstore-cdn.test/icons/{aid}/128x128bb.webp 1x, https://is.orchardstore-cdn.test/icons/{aid}/256x256bb.webp 2x" type="image/webp"><img src="https://is.orchardstore-cdn.test/icons/{aid}/128x128bb.png" alt="" width="64" height="64"></picture></a>
  <div class="lockup__text"><a class="lockup__name" href="{href}">{E(t)}</a>
  <a class="lockup__dev" href="/us/developer/{slug(dev)}/id{900000 + devs.index(dev)}">{E(dev)}</a>
  <span class="lockup__cat">Productivity</span></div>
  <div class="lockup__buy"><a class="get-button" href="{href}?action=get" aria-label="{E(ptxt)}, {E(t)}">{ptxt}</a>{iap}</div>
</div></li>""")
        pg.add(t, href, price, "USD" if paid else None)
    nav = [
        ("Today", "/us/today"),
        ("Games", "/us/games"),
        ("Apps", "/us/apps"),
        ("Arcade", "/us/arcade"),
        ("Charts", "/us/charts"),
        ("Categories", "/us/categories"),
        ("Search", "/us/search"),
        ("Developers", "https://developer.orchardstore.test/"),
        ("Support", "/us/support"),
    ]
    cats = "".join(
        f'<li><a href="/us/charts/{slug(c)}">{E(c)}</a></li>'
        for c in (
            "Books",
            "Business",
            "Education",
            "Finance",
            "Health & Fitness",
            "Music",
            "Photo & Video",
            "Productivity",
            "Utilities",
        )
    )
    body = f"""{header_basic("Orchard Store", nav, p="os", search="Search apps and games")}
<main class="charts">
  <div class="charts__head"><h1>Top Productivity Apps</h1><div class="seg" role="tablist"><a role="tab" aria-selected="true" href="/us/charts/productivity">Top Free &amp; Paid</a><a role="tab" href="/us/charts/productivity?chart=top-free">Top Free</a><a role="tab" href="/us/charts/productivity?chart=top-paid">Top Paid</a></div></div>
  <section class="hero" aria-label="Editors' Choice"><p class="hero__eyebrow">Editors' Choice</p><a class="hero__link" href="/us/app/inkwell-journal/id1400000001"><img src="https://is.orchardstore-cdn.test/hero/inkwell.jpg" alt=""><h2>Inkwell Journal</h2><p>Write every day, beautifully.</p></a><a class="get-button" href="/us/app/inkwell-journal/id1400000001?action=get">$2.99</a></section>
  <div class="charts__layout"><nav class="charts__cats" aria-label="Categories"><h2>Categories</h2><ul>{
        cats
    }</ul></nav>
  <ol class="grid">
{chr(10).join(cells)}
  </ol></div>
  <p class="charts__more"><a href="/us/charts/productivity?offset=24">See more</a></p>
</main>
{
        footer_cols(
            [
                (
                    "Orchard Store",
                    [
                        ("About", "/us/about"),
                        ("Gift cards", "/us/gift-cards"),
                        ("Subscriptions", "/us/subscriptions"),
                    ],
                ),
                (
                    "Developers",
                    [
                        ("Submit an app", "https://developer.orchardstore.test/submit"),
                        ("Guidelines", "https://developer.orchardstore.test/guidelines"),
                    ],
                ),
                (
                    "Account",
                    [
                        ("Manage account", "/us/account"),
                        ("Purchase history", "/us/account/purchases"),
                        ("Report a problem", "/us/report"),
                    ],
                ),
                ("Legal", [("Privacy", "/us/legal/privacy"), ("Terms", "/us/legal/terms")]),
            ],
            p="os",
            copy="Copyright © 2025 Orchard Store Inc. All rights reserved.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en-US",
        title="Top Productivity Apps – Orchard Store",
        site="Orchard Store",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 19 huge mega menu, 12 products (AUD)
# --------------------------------------------------------------------------------------


@page
def p19():
    rng = random.Random(119)
    pg = Page(
        "19_mega_menu_aud",
        "https://www.southerncross-outdoors.test/fishing/rods",
        "huge nested mega menu (90+ links with images/promos in header) and only 12 products; AUD 'A$249.00'",
    )
    tree = {
        "Fishing": {
            "Rods": ["Spin Rods", "Baitcast Rods", "Surf Rods", "Fly Rods", "Travel Rods"],
            "Reels": ["Spin Reels", "Baitcast Reels", "Overhead Reels", "Fly Reels"],
            "Line & Leader": ["Braid", "Monofilament", "Fluorocarbon"],
            "Lures": ["Soft Plastics", "Hard Bodies", "Metals", "Jigs", "Topwater"],
        },
        "Camping": {
            "Tents": ["Dome Tents", "Touring Tents", "Swags", "Gazebos"],
            "Sleeping": ["Sleeping Bags", "Mats", "Stretchers", "Pillows"],
            "Cooking": ["Stoves", "Cookware", "Fridges & Coolers", "Water Storage"],
        },
        "Boating": {
            "Safety": ["Life Jackets", "EPIRBs", "Flares"],
            "Electronics": ["Fish Finders", "GPS", "Marine Radios"],
            "Kayaks": ["Sit-On-Top", "Fishing Kayaks", "Paddles"],
        },
        "Clothing": {
            "Men": ["Jackets", "Shirts", "Shorts", "Hats"],
            "Women": ["Jackets", "Shirts", "Activewear"],
            "Footwear": ["Boots", "Sandals", "Deck Shoes"],
        },
        "Hiking": {
            "Packs": ["Daypacks", "Hiking Packs", "Hydration"],
            "Navigation": ["Compasses", "Watches", "Maps"],
        },
        "Brands": {
            "Top brands": [
                "Tidemark",
                "Reefline",
                "Coastal Tackle",
                "Outback Gear",
                "Kookaburra Camp",
                "Bluewater Marine",
            ]
        },
    }
    lis = []
    n_links = 0
    for top, groups in tree.items():
        cols = []
        for g, leaves in groups.items():
            sub = "".join(
                f'<li class="mega__leaf"><a href="/{slug(top)}/{slug(g)}/{slug(l)}">{E(l)}</a></li>'
                for l in leaves
            )
            n_links += len(leaves) + 1
            cols.append(
                f'<li class="mega__group"><a class="mega__group-title" href="/{slug(top)}/{slug(g)}">{E(g)}</a><ul class="mega__leaves">{sub}<li class="mega__leaf mega__leaf--all"><a href="/{slug(top)}/{slug(g)}">Shop all {E(g)}</a></li></ul></li>'
            )
            n_links += 1
        promo = (
            f'<div class="mega__promo"><a href="/promotions/{slug(top)}-clearance"><img src="/media/mega/{slug(top)}.jpg" alt="">'
            f"<span>{E(top)} clearance – up to 40% off</span></a></div>"
        )
        lis.append(
            f'<li class="mega__top"><a class="mega__top-link" href="/{slug(top)}" aria-haspopup="true">{E(top)}</a>'
            f'<div class="mega__panel"><ul class="mega__groups">{"".join(cols)}</ul>{promo}</div></li>'
        )
        n_links += 2
    lis += [
        f'<li class="mega__top"><a class="mega__top-link" href="/{slug(x)}">{E(x)}</a></li>'
        for x in ("Clearance", "Catalogue", "Club Rewards", "Store Finder")
    ]
    assert n_links >= 60
    brands = ["Reefline", "Coastal Tackle", "Bluewater", "Kingfisher"]
    rods = [
        "Estuary Spin Rod 7'0\" 2-4kg",
        "Surf Rod 12' 2pc",
        "Baitcaster 6'6\" Medium",
        "Travel Spin Rod 4pc",
        "Snapper Rod 7'6\" 6-10kg",
        "Bream Finesse Rod 7'",
        "Fly Rod #8 9' 4pc",
        "Jigging Rod 5'8\" PE3",
    ]
    data = uniq(rng, 12, lambda r: f"{r.choice(brands)} {r.choice(rods)}")
    cards = []
    for i, t in enumerate(data):
        price = rprice(rng, 59, 499, ends=(0.0, 0.99))
        href = f"/p/{slug(t)}-{330100 + i}"
        cards.append(f"""<div class="product-tile"><div class="product-tile__image"><a href="{href}"><img src="/media/catalog/{330100 + i}.jpg" alt="{E(t)}"></a></div>
<div class="product-tile__body"><div class="product-tile__brand">{E(t.split(" ")[0])}</div><h2 class="product-tile__name"><a href="{href}">{E(t)}</a></h2>
{rating(rng, "stars")}<div class="product-tile__price"><span class="value">A${money(price)}</span></div>
<div class="product-tile__badges"><span>Click &amp; Collect</span>{"<span>Club price</span>" if rng.random() < 0.3 else ""}</div></div></div>""")
        pg.add(t, href, price, "AUD")
    body = f"""<div class="utility-bar"><a href="/store-finder">Find a store</a><a href="/help">Help</a><a href="/club">Join Club Rewards</a><a href="/track-order">Track order</a></div>
<header class="site-header"><a class="site-header__logo" href="/"><img src="/media/logo-sco.svg" alt="Southern Cross Outdoors"></a>
<form class="site-header__search" action="/search"><input name="q" placeholder="What are you looking for?"><button>Search</button></form>
<div class="site-header__icons"><a href="/account">Account</a><a href="/wishlist">Wishlist</a><a href="/cart">Cart (0)</a></div>
<nav class="mega" aria-label="Main menu"><ul class="mega__list">{"".join(lis)}</ul></nav></header>
<main class="plp">
  {breadcrumbs([("Home", "/"), ("Fishing", "/fishing"), ("Rods", None)], p="sco-bc")}
  <h1>Fishing Rods</h1><p class="plp__intro">From the estuary to the rocks – rods for every Australian fishing style.</p>
  <div class="plp__grid">
{chr(10).join(cards)}
  </div>
  <p class="plp__end">You've viewed 12 of 12 products</p>
</main>
{
        footer_cols(
            [
                (
                    "Customer service",
                    [
                        ("Contact us", "/contact"),
                        ("Delivery", "/delivery"),
                        ("Returns", "/returns"),
                        ("Afterpay", "/afterpay"),
                    ],
                ),
                (
                    "About us",
                    [
                        ("Our story", "/about"),
                        ("Careers", "/careers"),
                        ("Sustainability", "/sustainability"),
                    ],
                ),
                ("Club Rewards", [("Join", "/club"), ("Member benefits", "/club/benefits")]),
                (
                    "Legal",
                    [("Privacy", "/privacy"), ("Terms", "/terms"), ("Product recalls", "/recalls")],
                ),
            ],
            p="sco",
            copy="© 2025 Southern Cross Outdoors Pty Ltd. ABN 00 000 000 000. Prices in AUD.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en-AU",
        title="Fishing Rods | Southern Cross Outdoors",
        site="Southern Cross Outdoors",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 20 promo tiles mixed into the grid (USD)
# --------------------------------------------------------------------------------------


@page
def p20():
    rng = random.Random(120)
    pg = Page(
        "20_promo_tiles_usd",
        "https://www.wagandwhisker.test/dog/food",
        "product grid with div.product-card.promo-tile tiles mixed in ('Sale! 30% off everything' → /sale); promo tiles are not items; USD",
    )
    brands = ["Wildfield", "Barkwell", "Hearth & Hound", "Pawsome Kitchen", "TrueNorth Pet"]
    foods = [
        "Grain-Free Salmon Recipe",
        "Chicken & Brown Rice Adult",
        "Puppy Lamb & Oatmeal",
        "Senior Weight Care",
        "Small Breed Turkey",
        "Limited Ingredient Duck",
        "High-Protein Beef",
        "Sensitive Stomach Whitefish",
    ]
    sizes = ["4 lb Bag", "12 lb Bag", "24 lb Bag", "12 x 13 oz Cans", "6 lb Bag"]
    data = uniq(rng, 24, lambda r: f"{r.choice(brands)} {r.choice(foods)}, {r.choice(sizes)}")
    cells = []
    promos = {
        4: ("Sale! 30% off everything", "/sale", "Ends Sunday"),
        11: ("Autoship & save 35% on your first order", "/autoship", "Learn more"),
        18: ("Free shipping on orders $49+", "/shipping-policy", "Details"),
    }
    for i, t in enumerate(data):
        if i in promos:
            ph, ph_href, cta = promos[i]
            cells.append(
                f'<div class="product-card promo-tile"><a href="{ph_href}" class="product-card__link"><img src="/img/promo/{slug(ph)}.png" alt="">'
                f'<h3 class="product-card__title">{E(ph)}</h3><span class="promo-tile__cta">{E(cta)}</span></a></div>'
            )
        price = rprice(rng, 12, 89, ends=(0.99, 0.49, 0.98))
        href = f"/dp/{slug(t)}/{600200 + i * 3}"
        auto = (
            f'<div class="product-card__autoship">${money(round(price * 0.95, 2))} <span>with Autoship</span></div>'
            if rng.random() < 0.5
            else ""
        )
        cells.append(f"""<div class="product-card" data-sku="{600200 + i * 3}"><a href="{href}" class="product-card__link"><img src="/img/p/{600200 + i * 3}.jpg" alt="" loading="lazy">
<h3 class="product-card__title">{E(t)}</h3></a>
{rating(rng, "product-card__rating")}
<div class="product-card__price">${money(price)}</div>{auto}
<button class="product-card__atc">Add to Cart</button></div>""")
        pg.add(t, href, price, "USD")
    nav = [
        ("Dog", "/dog"),
        ("Cat", "/cat"),
        ("Small Pet", "/small-pet"),
        ("Bird", "/bird"),
        ("Fish", "/fish"),
        ("Pharmacy", "/pharmacy"),
        ("Vet Care", "/vet"),
        ("Brands", "/brands"),
        ("Deals", "/deals"),
        ("Autoship", "/autoship"),
    ]
    side = filters(
        [
            ("Brand", [(b, rng.randint(8, 60), f"/dog/food?brand={slug(b)}") for b in brands]),
            (
                "Life stage",
                [
                    ("Puppy", 48, "?stage=puppy"),
                    ("Adult", 210, "?stage=adult"),
                    ("Senior", 61, "?stage=senior"),
                ],
            ),
            (
                "Special diet",
                [("Grain-Free", 88, "?diet=grain-free"), ("Limited Ingredient", 34, "?diet=lid")],
            ),
        ],
        p="ww-f",
    )
    body = f"""{header_basic("Wag & Whisker", nav, p="ww", notice="Sale! 30% off everything this weekend – no code needed")}
<main class="browse">
  {breadcrumbs([("Home", "/"), ("Dog", "/dog"), ("Dog Food", None)], p="ww-bc")}
  <h1>Dry &amp; Wet Dog Food</h1>
  <div class="browse__layout">{side}
  <div class="browse__grid">
{chr(10).join(cells)}
  </div></div>
  {pagination("/dog/food", 1, 14, p="ww-pg")}
</main>
{newsletter("Get 20% off your first order", "Plus pet care tips and exclusive deals.", p="ww-nl")}
{footer_cols(EN_FOOTER, p="ww", copy="© 2025 Wag & Whisker, Inc.")}
{datalayer(pg.items, "Dog Food")}"""
    pg.text = doc(
        rng,
        lang="en-US",
        title="Dog Food: Dry & Wet | Free Shipping $49+ | Wag & Whisker",
        site="Wag & Whisker",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 21 JSON-LD ItemList + visible cards (French, "1 299,00 €")
# --------------------------------------------------------------------------------------


@page
def p21():
    rng = random.Random(121)
    base = "https://www.velocite-urbaine.test/fr/velos-electriques/"
    pg = Page(
        "21_jsonld_itemlist_fr_eur",
        base,
        "JSON-LD ItemList of Products with offers plus matching visible cards; French prices with narrow no-break space '1 299,00 €'",
    )
    kinds = [
        "Vélo électrique urbain",
        "VAE pliant",
        "Vélo cargo électrique",
        "VTC électrique",
        "Vélo électrique de route",
        "Speedbike",
    ]
    models = [
        "Lyon",
        "Bastille",
        "Garonne",
        "Rivoli",
        "Camargue",
        "Vercors",
        "Loire",
        "Opéra",
        "Montmartre",
        "Étoile",
    ]
    extra = ["", " 500 Wh", " 625 Wh", " Cadre bas", " Confort", " Sport"]
    data = uniq(rng, 20, lambda r: f"{r.choice(kinds)} {r.choice(models)}{r.choice(extra)}")
    cards, ld = [], []
    for i, t in enumerate(data):
        price = rprice(rng, 990, 5490, ends=(0.0, 0.99))
        href = f"{base}{slug(t)}-{7700 + i}.html"
        ptxt = f"{money(price, NNBSP, ',')}{NBSP}€"
        cards.append(f"""<article class="carte-produit"><a class="carte-produit__visuel" href="{href}"><img src="/medias/{7700 + i}-480.jpg" alt="{E(t)}" loading="lazy"></a>
<h3 class="carte-produit__nom"><a href="{href}">{E(t)}</a></h3>
<p class="carte-produit__autonomie">Autonomie : {rng.randint(40, 160)} km</p>
<p class="carte-produit__prix">{ptxt}</p><p class="carte-produit__eco">dont éco-participation : 2,50 €</p></article>""")
        pg.add(t, href, price, "EUR")
        ld.append(
            {
                "@type": "ListItem",
                "position": i + 1,
                "item": {
                    "@type": "Product",
                    "name": t,
                    "url": href,
                    "image": f"https://www.velocite-urbaine.test/medias/{7700 + i}-480.jpg",
                    "offers": {
                        "@type": "Offer",
                        "price": f"{price:.2f}",
                        "priceCurrency": "EUR",
                        "availability": "https://schema.org/InStock",
                    },
                },
            }
        )
    jsonld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "ItemList",
            "name": "Vélos électriques",
            "numberOfItems": len(ld),
            "itemListElement": ld,
        },
        ensure_ascii=False,
        indent=1,
    )
    crumbs_ld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "BreadcrumbList",
            "itemListElement": [
                {
                    "@type": "ListItem",
                    "position": 1,
                    "name": "Accueil",
                    "item": "https://www.velocite-urbaine.test/fr/",
                },
                {"@type": "ListItem", "position": 2, "name": "Vélos électriques", "item": base},
            ],
        },
        ensure_ascii=False,
    )
    nav = [
        ("Vélos électriques", "/fr/velos-electriques/"),
        ("Vélos cargo", "/fr/velos-cargo/"),
        ("Vélos pliants", "/fr/velos-pliants/"),
        ("Accessoires", "/fr/accessoires/"),
        ("Pièces", "/fr/pieces/"),
        ("Atelier", "/fr/atelier/"),
        ("Essai gratuit", "/fr/essai/"),
        ("Magasins", "/fr/magasins/"),
        ("Aide", "/fr/aide/"),
    ]
    body = f"""{
        header_basic(
            "Vélocité Urbaine",
            nav,
            p="vu",
            search="Rechercher",
            account="Mon compte",
            cart="Panier",
        )
    }
{
        cookie_banner(
            "Nous utilisons des cookies pour améliorer votre expérience et mesurer l'audience.",
            "Tout accepter",
            "Tout refuser",
            "Personnaliser",
            "Politique de confidentialité",
            "/fr/confidentialite/",
            p="vu-c",
        )
    }
<main class="categorie">
  {
        breadcrumbs(
            [("Accueil", "/fr/"), ("Vélos électriques", None)], p="vu-fil", label="Fil d'Ariane"
        )
    }
  <h1>Vélos électriques</h1><p class="categorie__intro">Livraison gratuite et montage offert. Prime à l'achat déductible.</p>
  <section class="liste-produits">
{chr(10).join(cards)}
  </section>
  {pagination("/fr/velos-electriques/", 1, 3, p="vu-pg", prev="Précédent", nxt="Suivant")}
</main>
{
        footer_cols(
            [
                (
                    "Vélocité Urbaine",
                    [
                        ("Qui sommes-nous", "/fr/a-propos/"),
                        ("Recrutement", "/fr/recrutement/"),
                        ("Presse", "/fr/presse/"),
                    ],
                ),
                (
                    "Services",
                    [
                        ("Livraison", "/fr/livraison/"),
                        ("Retours", "/fr/retours/"),
                        ("Garantie", "/fr/garantie/"),
                        ("Financement", "/fr/financement/"),
                    ],
                ),
                (
                    "Légal",
                    [
                        ("Mentions légales", "/fr/mentions-legales/"),
                        ("CGV", "/fr/cgv/"),
                        ("Confidentialité", "/fr/confidentialite/"),
                    ],
                ),
            ],
            p="vu",
            copy="© 2025 Vélocité Urbaine SAS. Prix TTC.",
        )
    }"""
    head = f'<script type="application/ld+json">\n{jsonld}\n</script>\n<script type="application/ld+json">{crumbs_ld}</script>'
    pg.text = doc(
        rng,
        lang="fr",
        title="Vélos électriques – Vélocité Urbaine",
        site="Vélocité Urbaine",
        body=body,
        canonical=pg.base,
        head_extra=head,
    )
    return pg


# --------------------------------------------------------------------------------------
# 22 microdata product grid (GBP) + sidebar bestsellers
# --------------------------------------------------------------------------------------


@page
def p22():
    rng = random.Random(122)
    pg = Page(
        "22_microdata_gbp",
        "https://www.hollybrook-tea.test/shop/loose-leaf",
        "microdata grid: itemscope itemtype=Product, itemprop name/url, Offer with meta priceCurrency and price content; sidebar 'Customer favourites' widget is not items",
    )
    teas = [
        "Assam Breakfast",
        "Darjeeling First Flush",
        "Earl Grey Blue Flower",
        "Sencha Uji",
        "Jasmine Silver Needle",
        "Lapsang Souchong",
        "Rooibos Vanilla",
        "Peppermint Leaf",
        "Oolong Tieguanyin",
        "Chai Masala",
        "Ceylon Orange Pekoe",
        "Genmaicha",
        "Lemon Verbena",
        "White Peony",
        "Pu-erh Shou 2018",
        "Hojicha Roasted",
    ]
    sizes = ["50g", "100g", "250g"]
    cells = []
    for i, tea in enumerate(teas):
        t = f"{tea} – {rng.choice(sizes)} Pouch"
        price = rprice(rng, 4, 28, ends=(0.5, 0.95, 0.0))
        href = f"/shop/loose-leaf/{slug(tea)}"
        cells.append(f"""<div class="tea" itemscope itemtype="https://schema.org/Product">
  <a href="{href}" itemprop="url"><img itemprop="image" src="/images/teas/{slug(tea)}.jpg" alt="{E(tea)}"></a>
  <h3 class="tea__name" itemprop="name"><a href="{href}">{E(t)}</a></h3>
  <p class="tea__origin" itemprop="description">{E(rng.choice(["India", "China", "Japan", "Sri Lanka", "South Africa", "Taiwan"]))} · {rng.choice(["Black", "Green", "White", "Herbal", "Oolong"])} tea</p>
  <div class="tea__offer" itemprop="offers" itemscope itemtype="https://schema.org/Offer">
    <meta itemprop="priceCurrency" content="GBP"><link itemprop="availability" href="https://schema.org/InStock">
    <span class="tea__price">£<span itemprop="price" content="{price:.2f}">{money(price)}</span></span>
  </div>
  <form class="tea__add" action="/basket/add" method="post"><input type="hidden" name="sku" value="HB{1000 + i}"><button>Add to basket</button></form>
</div>""")
        pg.add(t, href, price, "GBP")
    fav = "".join(
        f'<li><a href="/shop/gifts/{slug(x)}"><img src="/images/gifts/{slug(x)}.jpg" alt="">{E(x)}</a> <span class="fav__price">£{p:.2f}</span></li>'
        for x, p in (
            ("Tea Taster Gift Box", 24.0),
            ("Cast Iron Teapot", 38.5),
            ("Glass Infuser Mug", 14.95),
            ("Matcha Whisk Set", 19.0),
        )
    )
    nav = [
        ("Loose Leaf", "/shop/loose-leaf"),
        ("Tea Bags", "/shop/tea-bags"),
        ("Matcha", "/shop/matcha"),
        ("Teaware", "/shop/teaware"),
        ("Gifts", "/shop/gifts"),
        ("Subscriptions", "/subscriptions"),
        ("Wholesale", "/wholesale"),
        ("Our Tea Room", "/tea-room"),
        ("Journal", "/journal"),
    ]
    body = f"""{
        header_basic(
            "Hollybrook Tea Co.", nav, p="hb", cart="Basket", notice="Free UK delivery over £30"
        )
    }
<main class="shop">
  {breadcrumbs([("Home", "/"), ("Shop", "/shop"), ("Loose Leaf Tea", None)], p="hb-bc")}
  <h1>Loose Leaf Tea</h1>
  <div class="shop__layout">
  <div class="shop__grid">
{chr(10).join(cells)}
  </div>
  <aside class="shop__sidebar"><section class="fav"><h2>Customer favourites</h2><ul>{
        fav
    }</ul></section>
  <section class="brewing"><h2>Brewing guide</h2><p>Black teas: 95°C for 3–4 min. Green teas: 75°C for 2 min.</p><a href="/journal/brewing-guide">Read the full guide</a></section></aside>
  </div>
</main>
{newsletter("The Tea Letter", "Seasonal harvests and brewing notes, monthly.", p="hb-nl")}
{
        footer_cols(
            [
                (
                    "Shop",
                    [
                        ("All tea", "/shop"),
                        ("Teaware", "/shop/teaware"),
                        ("Gift cards", "/gift-cards"),
                    ],
                ),
                (
                    "Help",
                    [("Delivery", "/delivery"), ("Returns", "/returns"), ("Contact", "/contact")],
                ),
                (
                    "About",
                    [("Our story", "/about"), ("Sourcing", "/sourcing"), ("Tea Room", "/tea-room")],
                ),
                ("Legal", [("Privacy", "/privacy"), ("Terms", "/terms")]),
            ],
            p="hb",
            copy="© 2025 Hollybrook Tea Company Ltd",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en-GB",
        title="Loose Leaf Tea | Hollybrook Tea Co.",
        site="Hollybrook Tea Co.",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 23 RDFa list (USD), relative '../' hrefs
# --------------------------------------------------------------------------------------


@page
def p23():
    rng = random.Random(123)
    pg = Page(
        "23_rdfa_usd",
        "https://shop.lumen-optics.test/catalog/lenses/index.html",
        "RDFa (vocab schema.org, typeof=Product, property=name/offers/price) in an <ol>; hrefs relative with '../'",
    )
    mounts = ["E-mount", "RF-mount", "Z-mount", "X-mount", "L-mount"]
    lenses = [
        "24mm f/1.4 DG",
        "35mm f/1.8 Prime",
        "50mm f/1.2 Art",
        "85mm f/1.4 Portrait",
        "16-35mm f/4 Wide Zoom",
        "24-70mm f/2.8 II",
        "70-200mm f/2.8 OS",
        "100mm f/2.8 Macro",
        "14mm f/2.8 Ultra Wide",
        "150-600mm f/5-6.3 Sports",
    ]
    data = uniq(rng, 15, lambda r: f"Lumen {r.choice(lenses)} ({r.choice(mounts)})")
    lis = []
    for i, t in enumerate(data):
        price = rprice(rng, 349, 2399, ends=(0.0, 0.95))
        href = f"../../products/{slug(t)}.html"
        lis.append(f"""<li class="lens" typeof="Product" resource="#lens-{i + 1}">
  <a property="url" href="{href}"><img property="image" src="../../img/lenses/{slug(t)}.jpg" alt=""></a>
  <div class="lens__text"><a href="{href}"><span property="name">{E(t)}</span></a>
  <span class="lens__brand" property="brand" typeof="Brand"><meta property="name" content="Lumen"></span>
  <p class="lens__spec" property="description">{rng.choice(["Weather-sealed", "Optical stabilisation", "Linear AF motor", "11-blade aperture"])} · {rng.randint(300, 1900)} g</p>
  <div property="offers" typeof="Offer"><meta property="priceCurrency" content="USD"><span class="lens__price">$<span property="price" content="{price:.2f}">{money(price)}</span></span>
  <link property="availability" href="https://schema.org/{rng.choice(["InStock", "InStock", "PreOrder"])}"></div></div>
</li>""")
        pg.add(t, href, price, "USD")
    nav = [
        ("Lenses", "../lenses/index.html"),
        ("Cameras", "../cameras/index.html"),
        ("Filters", "../filters/index.html"),
        ("Tripods", "../tripods/index.html"),
        ("Lighting", "../lighting/index.html"),
        ("Used", "../used/index.html"),
        ("Rentals", "../../rentals/"),
        ("Learn", "../../learn/"),
        ("Support", "../../support/"),
    ]
    body = f"""{header_basic("Lumen Optics", nav, p="lo", logo_src="../../img/logo.svg")}
<main class="catalog" vocab="https://schema.org/">
  <nav class="crumbs" aria-label="Breadcrumb"><ol typeof="BreadcrumbList"><li property="itemListElement" typeof="ListItem"><a property="item" typeof="WebPage" href="../../index.html"><span property="name">Home</span></a><meta property="position" content="1"></li><li property="itemListElement" typeof="ListItem"><a property="item" typeof="WebPage" href="../index.html"><span property="name">Catalog</span></a><meta property="position" content="2"></li><li><span>Lenses</span></li></ol></nav>
  <h1>Lenses</h1>
  <ol class="lens-list">
{chr(10).join(lis)}
  </ol>
  <p class="catalog__pages">Page 1 of 2 · <a href="index-2.html">Next page</a></p>
</main>
{
        footer_cols(
            [
                (
                    "Shop",
                    [
                        ("Lenses", "../lenses/index.html"),
                        ("Cameras", "../cameras/index.html"),
                        ("Gift cards", "../../gift-cards/"),
                    ],
                ),
                (
                    "Support",
                    [
                        ("Warranty", "../../support/warranty.html"),
                        ("Repairs", "../../support/repairs.html"),
                        ("Contact", "../../contact.html"),
                    ],
                ),
                (
                    "Company",
                    [
                        ("About", "../../about.html"),
                        ("Dealers", "../../dealers.html"),
                        ("Privacy", "../../privacy.html"),
                    ],
                ),
            ],
            p="lo",
            copy="© 2025 Lumen Optics Corp.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en",
        title="Lenses – Lumen Optics",
        site="Lumen Optics",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 24 RSS 2.0 ; 25 Atom
# --------------------------------------------------------------------------------------

POST_TOPICS = [
    "Migrating our build cache to content-addressed storage",
    "What we learned running Postgres 17 in production",
    "A field guide to flaky tests",
    "Rewriting the scheduler in Rust: six months later",
    "How we cut cold starts by 70%",
    "Designing an on-call rotation people don't hate",
    "Feature flags without the mess",
    "Our approach to API versioning",
    "Observability on a budget",
    "Shipping a design system to three platforms",
    "Zero-downtime schema migrations",
    "Notes from the incident of March 4",
    "Why we moved off microservices (partly)",
    "Building accessible data tables",
    "Hiring engineers without whiteboard puzzles",
    "The case for boring technology, revisited",
    "Load testing with production traffic",
    "Local-first sync: our prototype",
]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


@page
def p24():
    rng = random.Random(124)
    pg = Page(
        "24_rss_feed",
        "https://engineering.quillfeather.test/feed.xml",
        "RSS 2.0 feed with 15 items (title, link, guid, pubDate, description, category)",
        ctype="application/rss+xml",
    )
    items = []
    for i, t in enumerate(POST_TOPICS[:15]):
        d = 28 - i * 2 if i < 14 else 1
        month = "Nov" if i < 14 else "Oct"
        link = f"https://engineering.quillfeather.test/posts/2025/{slug(t)}/"
        desc = f"<p>{E(lorem(rng, 30, 'we our team system latency release build pipeline storage cluster incident users migrated results graph queue worker deploy'.split()))}</p>"
        dow = DAYS[(d + (3 if month == "Nov" else 1)) % 7]
        items.append(f"""    <item>
      <title>{E(t)}</title>
      <link>{link}</link>
      <guid isPermaLink="false">quillfeather-eng-{5120 + i}</guid>
      <pubDate>{dow}, {d:02d} {month} 2025 {rng.randint(8, 18):02d}:{rng.choice(["00", "15", "30", "45"])}:00 +0000</pubDate>
      <dc:creator>{E(rng.choice(["Ines Moreau", "Sam Whitaker", "Hana Ito", "Kwame Boateng"]))}</dc:creator>
      <category>{rng.choice(["Infrastructure", "Frontend", "Culture", "Databases", "Reliability"])}</category>
      <description><![CDATA[{desc}]]></description>
    </item>""")
        pg.add(t, link)
    pg.text = f"""<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/feed.xsl"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Quillfeather Engineering</title>
    <link>https://engineering.quillfeather.test/</link>
    <description>Stories from the people building Quillfeather.</description>
    <language>en-us</language>
    <lastBuildDate>Fri, 28 Nov 2025 18:02:11 +0000</lastBuildDate>
    <atom:link href="https://engineering.quillfeather.test/feed.xml" rel="self" type="application/rss+xml"/>
    <image><url>https://engineering.quillfeather.test/logo-144.png</url><title>Quillfeather Engineering</title><link>https://engineering.quillfeather.test/</link></image>
    <ttl>60</ttl>
{chr(10).join(items)}
  </channel>
</rss>
"""
    return pg


@page
def p25():
    rng = random.Random(125)
    pg = Page(
        "25_atom_feed",
        "https://releases.tidewatch.test/atom.xml",
        "Atom feed with 12 entries (title, link rel=alternate, id, updated, summary, author)",
        ctype="application/atom+xml",
    )
    entries = []
    for i in range(12):
        ver = f"4.{11 - i}.{rng.randint(0, 4)}"
        t = f"Tidewatch {ver}: {rng.choice(['Offline charts', 'Faster sync', 'Bug fixes', 'New widgets', 'Tide alerts', 'Harbour database update', 'Dark mode polish', 'Apple Watch complications', 'Moon phase view', 'Export to GPX'])}"
        link = f"https://releases.tidewatch.test/notes/{ver}"
        d = 28 - i * 2
        entries.append(f"""  <entry>
    <title type="text">{E(t)}</title>
    <link rel="alternate" type="text/html" href="{link}"/>
    <link rel="enclosure" type="application/zip" href="https://downloads.tidewatch.test/tidewatch-{ver}.zip" length="{rng.randint(20, 60) * 1000000}"/>
    <id>tag:releases.tidewatch.test,2025:release-{ver}</id>
    <updated>2025-{11 if d > 0 else 10:02d}-{d if d > 0 else 30 + d:02d}T09:{rng.randint(0, 59):02d}:00Z</updated>
    <author><name>Tidewatch Team</name><uri>https://www.tidewatch.test/</uri></author>
    <summary type="html">{E("<ul><li>" + lorem(rng, 9, "improved fixed added chart sync offline widget tide harbour accuracy battery crash".split()) + "</li><li>" + lorem(rng, 7, "improved fixed added chart sync offline widget tide harbour accuracy battery crash".split()) + "</li></ul>")}</summary>
  </entry>""")
        pg.add(t, link)
    pg.text = f"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <title>Tidewatch release notes</title>
  <subtitle>Every release of the Tidewatch app for iOS, Android and desktop.</subtitle>
  <link rel="self" type="application/atom+xml" href="https://releases.tidewatch.test/atom.xml"/>
  <link rel="alternate" type="text/html" href="https://releases.tidewatch.test/"/>
  <id>tag:releases.tidewatch.test,2019:feed</id>
  <updated>2025-11-28T09:12:00Z</updated>
  <generator uri="https://www.tidewatch.test/" version="2.1">Tidewatch site builder</generator>
  <icon>https://releases.tidewatch.test/favicon.png</icon>
{chr(10).join(entries)}
</feed>
"""
    return pg


# --------------------------------------------------------------------------------------
# 26 JSON-LD describes only the category; items are plain cards (CHF "CHF 49.90")
# --------------------------------------------------------------------------------------


@page
def p26():
    rng = random.Random(126)
    base = "https://www.alpenwolle.test/en/blankets"
    pg = Page(
        "26_jsonld_category_only_chf",
        base,
        "JSON-LD CollectionPage + one Product with AggregateOffer describing the whole category; items are plain HTML cards with 'CHF 49.90'",
    )
    kinds = [
        "Merino Throw",
        "Loden Blanket",
        "Alpaca Plaid",
        "Cashmere Wrap",
        "Wool Baby Blanket",
        "Herringbone Throw",
        "Felted Seat Pad Set",
    ]
    places = [
        "Engadin",
        "Appenzell",
        "Gotthard",
        "Emmental",
        "Valais",
        "Ticino",
        "Jungfrau",
        "Toggenburg",
    ]
    colours = ["Natural", "Slate", "Moss", "Rust", "Midnight", "Heather"]
    data = uniq(rng, 18, lambda r: f"{r.choice(places)} {r.choice(kinds)}, {r.choice(colours)}")
    cards, prices = [], []
    for i, t in enumerate(data):
        price = round(rng.randint(39, 389) + rng.choice([0.0, 0.9, 0.5]), 2)
        prices.append(price)
        href = f"/en/blankets/{slug(t)}"
        cards.append(f"""  <div class="c-card">
    <div class="c-card__img"><img src="/assets/blankets/{slug(t)}-1.jpg" alt="" loading="lazy"></div>
    <div class="c-card__txt">
      <h4><a href="{href}">{E(t)}</a></h4>
      <p class="c-card__size">{rng.choice(["130 × 180 cm", "140 × 200 cm", "80 × 100 cm", "150 × 220 cm"])}</p>
      <p class="c-card__price">CHF {price:.2f}</p>
    </div>
  </div>""")
        pg.add(t, href, price, "CHF")
    ld = {
        "@context": "https://schema.org",
        "@graph": [
            {
                "@type": "CollectionPage",
                "@id": base + "#page",
                "name": "Wool Blankets & Throws",
                "url": base,
                "description": "Blankets woven in Switzerland from Alpine wool.",
                "isPartOf": {
                    "@type": "WebSite",
                    "name": "Alpenwolle",
                    "url": "https://www.alpenwolle.test/",
                },
            },
            {
                "@type": "Product",
                "name": "Wool Blankets & Throws",
                "url": base,
                "brand": {"@type": "Brand", "name": "Alpenwolle"},
                "aggregateRating": {
                    "@type": "AggregateRating",
                    "ratingValue": "4.8",
                    "reviewCount": "612",
                },
                "offers": {
                    "@type": "AggregateOffer",
                    "priceCurrency": "CHF",
                    "lowPrice": f"{min(prices):.2f}",
                    "highPrice": f"{max(prices):.2f}",
                    "offerCount": "18",
                },
            },
        ],
    }
    nav = [
        ("Blankets", "/en/blankets"),
        ("Pillows", "/en/pillows"),
        ("Slippers", "/en/slippers"),
        ("Knitwear", "/en/knitwear"),
        ("Yarn", "/en/yarn"),
        ("Home", "/en/home"),
        ("Gifts", "/en/gifts"),
        ("The Mill", "/en/mill"),
        ("DE", "/de/decken"),
        ("FR", "/fr/couvertures"),
    ]
    body = f"""{header_basic("Alpenwolle", nav, p="aw", cart="Basket")}
<main class="category">
  <section class="category__hero"><img src="/assets/hero/blankets.jpg" alt=""><div><h1>Wool Blankets &amp; Throws</h1><p>Woven in Switzerland from Alpine wool since 1921.</p></div></section>
  {breadcrumbs([("Home", "/en"), ("Blankets", None)], p="aw-bc")}
  <div class="category__grid">
{chr(10).join(cards)}
  </div>
  <section class="category__story"><h2>From sheep to sofa</h2><p>{
        E(lorem(rng, 40))
    }</p><a href="/en/mill">Visit the mill</a></section>
</main>
{
        footer_cols(
            [
                ("Shop", [("Blankets", "/en/blankets"), ("Gift vouchers", "/en/vouchers")]),
                (
                    "Service",
                    [
                        ("Shipping", "/en/shipping"),
                        ("Returns", "/en/returns"),
                        ("Care guide", "/en/care"),
                    ],
                ),
                (
                    "Alpenwolle",
                    [("About", "/en/about"), ("Stores", "/en/stores"), ("Contact", "/en/contact")],
                ),
                (
                    "Legal",
                    [("Imprint", "/en/imprint"), ("Privacy", "/en/privacy"), ("T&Cs", "/en/terms")],
                ),
            ],
            p="aw",
            copy="© 2025 Alpenwolle AG. Prices incl. VAT.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en",
        title="Wool Blankets & Throws | Alpenwolle",
        site="Alpenwolle",
        body=body,
        canonical=pg.base,
        head_extra=f'<script type="application/ld+json">{json.dumps(ld, ensure_ascii=False)}</script>',
    )
    return pg


# --------------------------------------------------------------------------------------
# 27 div soup: 6 levels of wrappers per item (USD)
# --------------------------------------------------------------------------------------


@page
def p27():
    rng = random.Random(127)
    pg = Page(
        "27_div_soup_usd",
        "https://www.mercato-gadgets.test/c/phone-accessories",
        "'div soup': every item nested in 6 levels of anonymous div wrappers, title in a span inside an <a>, price split over spans; sidebar 'Top sellers' widget",
    )
    kinds = [
        "MagSafe Charger 15W",
        "USB-C Cable 2m Braided",
        "65W GaN Wall Charger",
        "Clear Case",
        "Tempered Glass Screen Protector 2-Pack",
        "Car Vent Mount",
        "Power Bank 10000mAh",
        "Wireless Earbuds",
        "Phone Grip Stand",
        "Lens Protector",
        "3-in-1 Charging Stand",
    ]
    brands = ["Voltix", "Anchorline", "Belka", "Zeno", "Tekko"]
    data = uniq(rng, 20, lambda r: f"{r.choice(brands)} {r.choice(kinds)}")
    cells = []
    for i, t in enumerate(data):
        price = rprice(rng, 7, 89, ends=(0.99, 0.49))
        href = f"https://www.mercato-gadgets.test/item/{slug(t)}/{40400 + i}"
        dollars, cents = f"{price:.2f}".split(".")
        cells.append(f"""<div class="w"><div class="w-i"><div><div class="x1"><div class="x2"><div class="x3">
<div class="m"><a href="{href}"><div><img src="https://img.mercato-gadgets.test/{40400 + i}.jpg" alt=""></div></a></div>
<div class="t"><div><a href="{href}"><span>{E(t)}</span></a></div></div>
<div class="p"><div><span class="s">$</span><span class="d">{dollars}</span><span class="c">.{cents}</span></div></div>
<div class="r"><div><span>{rng.uniform(3.5, 5):.1f}</span><span>★</span><span>({rng.randint(4, 9000)})</span></div></div>
<div class="b"><div><button type="button">Add</button></div></div>
</div></div></div></div></div></div>""")
        pg.add(t, href, price, "USD")
    top = "".join(
        f'<div class="ts"><div><a href="https://www.mercato-gadgets.test/item/{slug(x)}/{39000 + k}"><span>{E(x)}</span></a></div><div><span class="s">$</span><span class="d">{p}</span><span class="c">.99</span></div></div>'
        for k, (x, p) in enumerate(
            (
                ("Voltix Smart Tracker 4-Pack", 79),
                ('Belka Laptop Sleeve 14"', 24),
                ("Zeno Desk Lamp with Charger", 49),
            )
        )
    )
    nav = [
        "Phones",
        "Phone Accessories",
        "Laptops",
        "Tablets",
        "Audio",
        "Wearables",
        "Smart Home",
        "Gaming",
        "Cameras",
        "Deals",
    ]
    navh = "".join(
        f'<div class="n"><div><a href="/c/{slug(x)}"><span>{E(x)}</span></a></div></div>'
        for x in nav
    )
    body = f"""<div id="root"><div class="app"><div class="hdr"><div><div class="hdr-l"><a href="/"><div class="logo"><span>mercato</span></div></a></div>
<div class="hdr-m"><div><form action="/s"><div><input name="k" placeholder="Search Mercato"></div><div><button>Go</button></div></form></div></div>
<div class="hdr-r"><div><a href="/account"><span>Account</span></a></div><div><a href="/orders"><span>Orders</span></a></div><div><a href="/cart"><span>Cart</span></a></div></div></div>
<div class="nv"><div>{navh}</div></div></div>
<div class="bd"><div><div class="crumb"><div><a href="/"><span>Home</span></a><span> › </span><a href="/c/phones"><span>Phones</span></a><span> › </span><span>Phone Accessories</span></div></div>
<div class="ttl"><div><h1><span>Phone Accessories</span></h1><div><span>1-20 of over 3,000 results</span></div></div></div>
<div class="cols"><div class="side"><div><div><span>Top sellers</span></div>{top}</div><div><div><span>Brand</span></div>{"".join(f'<div><a href="/c/phone-accessories?b={slug(b)}"><span>{E(b)}</span></a></div>' for b in brands)}</div></div>
<div class="main"><div><div class="lst">
{chr(10).join(cells)}
</div></div>
<div class="pg"><div><span>1</span><a href="/c/phone-accessories?p=2"><span>2</span></a><a href="/c/phone-accessories?p=3"><span>3</span></a><a href="/c/phone-accessories?p=2"><span>Next ›</span></a></div></div></div></div></div></div>
<div class="ftr"><div><div class="fc"><div><span>Get to know us</span></div><div><a href="/about"><span>About</span></a></div><div><a href="/careers"><span>Careers</span></a></div></div>
<div class="fc"><div><span>Let us help</span></div><div><a href="/help"><span>Help</span></a></div><div><a href="/returns"><span>Returns</span></a></div><div><a href="/shipping"><span>Shipping rates</span></a></div></div>
<div class="fc"><div><span>Policies</span></div><div><a href="/privacy"><span>Privacy</span></a></div><div><a href="/conditions"><span>Conditions of use</span></a></div></div></div>
<div><span>© 2025 Mercato Gadgets LLC</span></div></div></div></div>"""
    pg.text = doc(
        rng,
        lang="en-US",
        title="Phone Accessories : Mercato",
        site="Mercato",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 28 company directory: no images, no prices
# --------------------------------------------------------------------------------------


@page
def p28():
    rng = random.Random(128)
    pg = Page(
        "28_company_directory",
        "https://directory.midlands-tech.test/members/?letter=all",
        "member directory: <ul> of plain text entries (title link to profile page, sector, town, external website link); no images, no prices; A–Z letter nav is not items",
    )
    a = [
        "Brightwater",
        "Copperfield",
        "Redkite",
        "Northgate",
        "Ashgrove",
        "Silverbirch",
        "Kingsway",
        "Oakmere",
        "Fenwick",
        "Larkspur",
        "Meadowbank",
        "Harrowden",
        "Stonebridge",
        "Willowmere",
        "Beacon",
        "Foxhollow",
    ]
    b = [
        "Analytics",
        "Software",
        "Digital",
        "Systems",
        "Labs",
        "Robotics",
        "Data",
        "Networks",
        "Cloud",
        "Consulting",
        "Security",
        "Design",
    ]
    c = ["Ltd", "Ltd", "LLP", "Group", "plc", "CIC", ""]
    data = sorted(
        uniq(rng, 30, lambda r: " ".join(x for x in (r.choice(a), r.choice(b), r.choice(c)) if x))
    )
    lis = []
    for t in data:
        sl = slug(t)
        lis.append(f"""  <li class="member">
    <a class="member__name" href="/members/{sl}/">{E(t)}</a>
    <span class="member__sector">{E(rng.choice(["Software development", "Cyber security", "IT services", "Data & AI", "Engineering", "Creative digital"]))}</span>
    <span class="member__town">{E(rng.choice(["Nottingham", "Derby", "Leicester", "Birmingham", "Coventry", "Loughborough"]))}</span>
    <a class="member__web" href="https://www.{sl.rsplit("-", 1)[0] if sl.endswith(("-ltd", "-llp", "-plc", "-cic", "-group")) else sl}.test/" rel="nofollow noopener" target="_blank">Website</a>
  </li>""")
        pg.add(t, f"/members/{sl}/")
    letters = "".join(
        f'<a href="/members/?letter={ch.lower()}">{ch}</a>' for ch in string.ascii_uppercase
    )
    nav = [
        ("About", "/about/"),
        ("Members", "/members/"),
        ("Events", "/events/"),
        ("Jobs board", "/jobs/"),
        ("News", "/news/"),
        ("Join", "/join/"),
        ("Sponsors", "/sponsors/"),
        ("Contact", "/contact/"),
    ]
    body = f"""{header_basic("Midlands Tech Network", nav, p="mtn", search="Search members")}
<main class="directory">
  {breadcrumbs([("Home", "/"), ("Members", None)], p="mtn-bc")}
  <h1>Member directory</h1>
  <p class="directory__intro">{
        E(
            lorem(
                rng,
                24,
                "our members include software houses agencies consultancies and start-ups across the region who employ over twelve thousand people".split(),
            )
        )
    }</p>
  <nav class="az" aria-label="Filter by letter"><a class="az--active" href="/members/?letter=all">All</a>{
        letters
    }</nav>
  <ul class="members">
{chr(10).join(lis)}
  </ul>
  <p class="directory__cta">Not listed? <a href="/join/">Become a member</a>.</p>
</main>
{
        footer_cols(
            [
                (
                    "Network",
                    [
                        ("About", "/about/"),
                        ("Board", "/about/board/"),
                        ("Annual report", "/about/report-2025/"),
                    ],
                ),
                (
                    "Get involved",
                    [("Join", "/join/"), ("Volunteer", "/volunteer/"), ("Sponsor", "/sponsors/")],
                ),
                (
                    "Legal",
                    [
                        ("Privacy", "/privacy/"),
                        ("Code of conduct", "/code-of-conduct/"),
                        ("Accessibility", "/accessibility/"),
                    ],
                ),
            ],
            p="mtn",
            copy="© 2025 Midlands Tech Network CIC",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en-GB",
        title="Member directory – Midlands Tech Network",
        site="Midlands Tech Network",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 29 Japanese shop, lazy images, "¥12,800"
# --------------------------------------------------------------------------------------


@page
def p29():
    rng = random.Random(129)
    pg = Page(
        "29_ja_lazy_jpy",
        "https://www.kougei-ichiba.test/category/tableware/",
        "Japanese (lang=ja) craft shop, lazy images via data-src/data-srcset with placeholder src, prices '¥12,800（税込）'",
    )
    origin = [
        "有田焼",
        "波佐見焼",
        "信楽焼",
        "美濃焼",
        "益子焼",
        "南部鉄器",
        "九谷焼",
        "萩焼",
        "備前焼",
    ]
    thing = [
        "マグカップ",
        "急須",
        "湯呑み",
        "花瓶",
        "小皿 5枚セット",
        "茶碗",
        "徳利",
        "土鍋",
        "ボウル",
        "鉄瓶 1.2L",
    ]
    colour = ["藍", "白磁", "灰釉", "飴釉", "黒", "青磁", "粉引"]
    data = uniq(rng, 24, lambda r: f"{r.choice(origin)} {r.choice(thing)} {r.choice(colour)}")
    lis = []
    for i, t in enumerate(data):
        price = rng.choice([1980, 2750, 3300, 4400, 5280, 6600, 8800, 12800, 16500, 22000, 38500])
        href = f"/item/{3000100 + i * 7}/"
        soldout = '<span class="item-soldout">在庫わずか</span>' if rng.random() < 0.2 else ""
        lis.append(f"""<li class="item-list__item">
  <a href="{href}" class="item-list__link">
    <div class="item-list__thumb"><img class="lazyload" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" data-src="https://img.kougei-ichiba.test/items/{3000100 + i * 7}/main_400.jpg" data-srcset="https://img.kougei-ichiba.test/items/{3000100 + i * 7}/main_400.jpg 1x, https://img.kougei-ichiba.test/items/{3000100 + i * 7}/main_800.jpg 2x" alt="{E(t)}" width="400" height="400"></div>
    <p class="item-list__name">{E(t)}</p>
  </a>
  <p class="item-list__maker">{E(rng.choice(["窯元 山田", "工房 ひかり", "佐藤陶房", "鈴木鋳造所", "森の窯"]))}</p>
  <p class="item-list__price">¥{price:,}<span class="tax">（税込）</span></p>{soldout}
  <button class="item-list__fav" type="button" aria-label="お気に入りに追加">♡</button>
</li>""")
        pg.add(t, href, price, "JPY")
    nav = [
        ("新着", "/new/"),
        ("食器", "/category/tableware/"),
        ("茶器", "/category/tea/"),
        ("花器", "/category/vase/"),
        ("鉄器", "/category/ironware/"),
        ("漆器", "/category/lacquer/"),
        ("ギフト", "/gift/"),
        ("作り手", "/makers/"),
        ("読みもの", "/journal/"),
        ("セール", "/sale/"),
    ]
    side = filters(
        [
            (
                "産地",
                [
                    (o, rng.randint(5, 80), f"/category/tableware/?origin={k}")
                    for k, o in enumerate(origin[:5])
                ],
            ),
            (
                "価格",
                [
                    ("〜¥3,000", 41, "?price=0-3000"),
                    ("¥3,000〜¥10,000", 96, "?price=3000-10000"),
                    ("¥10,000〜", 38, "?price=10000-"),
                ],
            ),
        ],
        p="kg-f",
        title="絞り込み",
        apply="検索",
    )
    body = f"""{
        header_basic(
            "工芸市場",
            nav,
            p="kg",
            search="キーワードで探す",
            account="ログイン",
            cart="カート",
            notice="¥11,000（税込）以上のご注文で送料無料",
        )
    }
<main class="category">
  {breadcrumbs([("ホーム", "/"), ("食器", None)], p="kg-bc", label="パンくずリスト")}
  <h1 class="category__title">食器・うつわ <span>175件</span></h1>
  <div class="category__layout">{side}
  <ul class="item-list">
{chr(10).join(lis)}
  </ul></div>
  {pagination("/category/tableware/", 1, 8, p="kg-pg", prev="前へ", nxt="次へ")}
</main>
{
        footer_cols(
            [
                (
                    "ご利用ガイド",
                    [
                        ("お支払い方法", "/guide/payment/"),
                        ("配送について", "/guide/delivery/"),
                        ("返品・交換", "/guide/returns/"),
                    ],
                ),
                (
                    "工芸市場について",
                    [
                        ("会社概要", "/company/"),
                        ("採用情報", "/recruit/"),
                        ("お問い合わせ", "/contact/"),
                    ],
                ),
                (
                    "規約",
                    [
                        ("利用規約", "/terms/"),
                        ("プライバシーポリシー", "/privacy/"),
                        ("特定商取引法に基づく表記", "/tokushoho/"),
                    ],
                ),
            ],
            p="kg",
            copy="© 2025 工芸市場 Kougei Ichiba Co., Ltd.",
        )
    }
<script src="/js/lazysizes.min.js" async></script>"""
    pg.text = doc(
        rng,
        lang="ja",
        title="食器・うつわ | 工芸市場",
        site="工芸市場",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 30a Polish shop "1 299,00 zł" ; 30b Swedish shop "499 kr"
# --------------------------------------------------------------------------------------


@page
def p30a():
    rng = random.Random(1301)
    pg = Page(
        "30a_pl_pln",
        "https://www.meblodom.test/kategoria/sofy-i-fotele",
        "Polish furniture shop (lang=pl): section.produkty > div.produkt, prices '1 299,00 zł' (nbsp) with 'cena regularna' struck in <s> for promotions",
    )
    nouns = [
        "Sofa trzyosobowa",
        "Fotel uszak",
        "Narożnik rozkładany",
        "Sofa dwuosobowa",
        "Pufa",
        "Fotel obrotowy",
        "Szezlong",
        "Sofa modułowa",
    ]
    names = [
        "Oslo",
        "Bergen",
        "Lund",
        "Malmö",
        "Turku",
        "Aarhus",
        "Kraków",
        "Sopot",
        "Gdynia",
        "Toruń",
        "Bari",
    ]
    cols = ["szary", "butelkowa zieleń", "musztardowy", "beżowy", "granatowy", "grafitowy"]
    data = uniq(rng, 20, lambda r: f"{r.choice(nouns)} {r.choice(names)} – {r.choice(cols)}")
    cells = []
    for i, t in enumerate(data):
        price = rprice(rng, 349, 4999, ends=(0.0, 0.99))
        old = ""
        if rng.random() < 0.3:
            old = f'<s class="produkt__cena-stara" title="Cena regularna">{money(round(price * 1.25), NBSP, ",")}{NBSP}zł</s> '
        href = f"/produkt/{slug(t)},{12000 + i}"
        cells.append(f"""<div class="produkt">
  <a class="produkt__zdjecie" href="{href}"><img src="/zdjecia/{12000 + i}/mini.jpg" alt="{E(t)}" loading="lazy"></a>
  <h2 class="produkt__nazwa"><a href="{href}">{E(t)}</a></h2>
  <p class="produkt__wymiary">{rng.randint(80, 290)} × {rng.randint(70, 180)} cm</p>
  <div class="produkt__cena">{old}<strong class="produkt__cena-aktualna">{money(price, NBSP, ",")}{NBSP}zł</strong></div>
  <p class="produkt__dostawa">Dostawa w {rng.randint(2, 6)} tygodnie</p>
  <a class="btn btn--koszyk" href="/koszyk/dodaj?produkt={12000 + i}" rel="nofollow">Do koszyka</a>
</div>""")
        pg.add(t, href, price, "PLN")
    nav = [
        ("Salon", "/kategoria/salon"),
        ("Sofy i fotele", "/kategoria/sofy-i-fotele"),
        ("Sypialnia", "/kategoria/sypialnia"),
        ("Jadalnia", "/kategoria/jadalnia"),
        ("Biuro", "/kategoria/biuro"),
        ("Ogród", "/kategoria/ogrod"),
        ("Dekoracje", "/kategoria/dekoracje"),
        ("Promocje", "/promocje"),
        ("Inspiracje", "/inspiracje"),
    ]
    body = f"""{
        header_basic(
            "Meblodom",
            nav,
            p="md",
            search="Czego szukasz?",
            account="Moje konto",
            cart="Koszyk",
            notice="Darmowa dostawa od 999 zł",
        )
    }
{
        cookie_banner(
            "Używamy plików cookies, aby zapewnić prawidłowe działanie serwisu.",
            "Akceptuję",
            "Odrzuć",
            "Ustawienia",
            "Polityka prywatności",
            "/polityka-prywatnosci",
            p="md-c",
        )
    }
<main class="kategoria">
  {
        breadcrumbs(
            [("Strona główna", "/"), ("Salon", "/kategoria/salon"), ("Sofy i fotele", None)],
            p="md-bc",
            label="Okruszki",
        )
    }
  <h1>Sofy i fotele</h1>
  <section class="produkty">
{chr(10).join(cells)}
  </section>
  {
        pagination(
            "/kategoria/sofy-i-fotele",
            1,
            6,
            p="md-pg",
            prev="Poprzednia",
            nxt="Następna",
            param="strona",
        )
    }
</main>
{
        newsletter(
            "Zapisz się do newslettera",
            "Rabat 10% na pierwsze zamówienie.",
            "Zapisz",
            p="md-nl",
            placeholder="Adres e-mail",
        )
    }
{
        footer_cols(
            [
                (
                    "Obsługa klienta",
                    [
                        ("Dostawa", "/dostawa"),
                        ("Zwroty", "/zwroty"),
                        ("Reklamacje", "/reklamacje"),
                        ("Kontakt", "/kontakt"),
                    ],
                ),
                ("Meblodom", [("O nas", "/o-nas"), ("Salony", "/salony"), ("Kariera", "/kariera")]),
                (
                    "Informacje",
                    [
                        ("Regulamin", "/regulamin"),
                        ("Polityka prywatności", "/polityka-prywatnosci"),
                        ("Raty 0%", "/raty"),
                    ],
                ),
            ],
            p="md",
            copy="© 2025 Meblodom Sp. z o.o. Ceny brutto.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="pl",
        title="Sofy i fotele – Meblodom",
        site="Meblodom",
        body=body,
        canonical=pg.base,
    )
    return pg


@page
def p30b():
    rng = random.Random(1302)
    pg = Page(
        "30b_sv_sek",
        "https://www.hemma-textil.test/sv/kategori/mattor",
        "Swedish shop (lang=sv): ul.grid > li > article, prices '499 kr' and '1 299 kr' (space thousands), 'Ord. pris' in span.was-price",
    )
    kinds = [
        "Ullmatta",
        "Bomullsmatta",
        "Trasmatta",
        "Jutematta",
        "Viskosmatta",
        "Hallmatta",
        "Badrumsmatta",
    ]
    names = [
        "Ängsö",
        "Gotland",
        "Fjällbacka",
        "Österlen",
        "Hven",
        "Dalarö",
        "Sälen",
        "Visby",
        "Runö",
    ]
    sizes = ["60×90 cm", "80×150 cm", "140×200 cm", "160×230 cm", "200×300 cm"]
    data = uniq(rng, 20, lambda r: f"{r.choice(kinds)} {r.choice(names)} {r.choice(sizes)}")
    cells = []
    for i, t in enumerate(data):
        price = float(rng.choice([199, 249, 299, 399, 499, 699, 899, 1299, 1499, 2499, 3995]))
        was = ""
        if rng.random() < 0.3:
            was = f'<span class="was-price">Ord. pris {money(price * 1.4 // 10 * 10 - 1, " ", ",", 0)} kr</span>'
        href = f"/sv/produkt/{slug(t)}"
        cells.append(f"""<li><article class="tile" aria-label="{E(t)}">
  <a href="{href}" class="tile__imglink"><img src="/bilder/{slug(t)}.jpg" alt="" loading="lazy"></a>
  <h3 class="tile__title"><a href="{href}">{E(t)}</a></h3>
  <div class="tile__prices"><span class="price">{money(price, " ", ",", 0)} kr</span>{was}</div>
  <p class="tile__stock">{rng.choice(["I lager", "I lager", "Få kvar", "Beställningsvara"])}</p>
</article></li>""")
        pg.add(t, href, price, "SEK")
    nav = [
        ("Mattor", "/sv/kategori/mattor"),
        ("Gardiner", "/sv/kategori/gardiner"),
        ("Kuddar", "/sv/kategori/kuddar"),
        ("Plädar", "/sv/kategori/pladar"),
        ("Sängkläder", "/sv/kategori/sangklader"),
        ("Handdukar", "/sv/kategori/handdukar"),
        ("Rea", "/sv/rea"),
        ("Inspiration", "/sv/inspiration"),
        ("Butiker", "/sv/butiker"),
    ]
    side = filters(
        [
            (
                "Material",
                [
                    ("Ull", 34, "?material=ull"),
                    ("Bomull", 51, "?material=bomull"),
                    ("Jute", 12, "?material=jute"),
                ],
            ),
            (
                "Storlek",
                [
                    ("Liten", 40, "?storlek=s"),
                    ("Mellan", 38, "?storlek=m"),
                    ("Stor", 27, "?storlek=l"),
                ],
            ),
        ],
        p="ht-f",
        title="Filtrera",
        apply="Visa",
    )
    body = f"""{
        header_basic(
            "Hemma Textil",
            nav,
            p="ht",
            search="Sök",
            account="Mina sidor",
            cart="Varukorg",
            notice="Fri frakt över 599 kr",
        )
    }
<main class="kategori">
  {breadcrumbs([("Hem", "/sv"), ("Mattor", None)], p="ht-bc", label="Brödsmulor")}
  <h1>Mattor</h1>
  <div class="kategori__layout">{side}
  <ul class="grid">
{chr(10).join(cells)}
  </ul></div>
  {pagination("/sv/kategori/mattor", 1, 5, p="ht-pg", prev="Föregående", nxt="Nästa", param="sida")}
</main>
{
        footer_cols(
            [
                (
                    "Kundservice",
                    [
                        ("Leverans", "/sv/leverans"),
                        ("Returer", "/sv/returer"),
                        ("Kontakta oss", "/sv/kontakt"),
                    ],
                ),
                (
                    "Om oss",
                    [
                        ("Vår historia", "/sv/om-oss"),
                        ("Hållbarhet", "/sv/hallbarhet"),
                        ("Jobba hos oss", "/sv/jobb"),
                    ],
                ),
                (
                    "Villkor",
                    [
                        ("Köpvillkor", "/sv/kopvillkor"),
                        ("Integritetspolicy", "/sv/integritet"),
                        ("Cookies", "/sv/cookies"),
                    ],
                ),
            ],
            p="ht",
            copy="© 2025 Hemma Textil AB. Alla priser inkl. moms.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="sv",
        title="Mattor – Hemma Textil",
        site="Hemma Textil",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 31 course catalog as a definition list
# --------------------------------------------------------------------------------------


@page
def p31():
    rng = random.Random(131)
    pg = Page(
        "31_course_catalog_dl_usd",
        "https://learn.codeharbor.test/catalog/data",
        "course catalog as one <dl>: each item is <dt><a>title</a></dt> followed by several <dd> (description, meta, price '$49'); no per-item wrapper element",
    )
    courses = [
        "Introduction to SQL",
        "Python for Data Analysis",
        "Statistics Fundamentals",
        "Data Visualization with D3",
        "Machine Learning Basics",
        "Advanced SQL: Window Functions",
        "Pandas in Practice",
        "Building Data Pipelines",
        "Intro to Apache Spark",
        "Time Series Forecasting",
        "A/B Testing for Product Teams",
        "Deep Learning with PyTorch",
        "Data Ethics & Privacy",
        "Dashboards with Open-Source BI",
        "Excel to Python",
        "NLP Foundations",
    ]
    parts = []
    for i, t in enumerate(courses):
        price = float(rng.choice([29, 39, 49, 49, 79, 99, 129]))
        ins = rng.choice(["Ana Ruiz", "Ben Cho", "Lola Adeyemi", "Sven Ek"])
        href = f"/course/{slug(t)}"
        parts.append(f"""  <dt class="course-title"><a href="{href}">{E(t)}</a></dt>
  <dd class="course-desc">{E(lorem(rng, rng.randint(14, 26), "learn hands-on projects real datasets queries models charts cleaning joins aggregations notebooks production best practices".split()))}</dd>
  <dd class="course-meta">{rng.choice(["Beginner", "Intermediate", "Advanced"])} · {rng.randint(4, 30)} hours · Instructor: <a href="/instructors/{slug(ins)}">{ins}</a></dd>
  <dd class="course-price">${price:g}</dd>""")
        pg.add(t, href, price, "USD")
    nav = [
        ("Catalog", "/catalog"),
        ("Data", "/catalog/data"),
        ("Web Development", "/catalog/web"),
        ("Cloud", "/catalog/cloud"),
        ("Security", "/catalog/security"),
        ("Paths", "/paths"),
        ("For Teams", "/teams"),
        ("Pricing", "/pricing"),
        ("Log in", "/login"),
    ]
    body = f"""{header_basic("CodeHarbor Learn", nav, p="ch", search="Search courses")}
<main class="catalog">
  {breadcrumbs([("Catalog", "/catalog"), ("Data", None)], p="ch-bc")}
  <section><h1>Data courses</h1><p>{
        len(courses)
    } self-paced courses. Lifetime access, certificate included.</p>
  <div class="catalog__note">Or get every course with <a href="/pricing">CodeHarbor Unlimited</a> for $29/month.</div></section>
  <section class="catalog__list" aria-label="Courses">
  <dl class="courses">
{chr(10).join(parts)}
  </dl>
  </section>
  <section class="catalog__paths"><h2>Prefer a guided path?</h2><ul><li><a href="/paths/data-analyst">Data Analyst path</a></li><li><a href="/paths/data-engineer">Data Engineer path</a></li><li><a href="/paths/ml-engineer">ML Engineer path</a></li></ul></section>
</main>
{
        footer_cols(
            [
                (
                    "Learn",
                    [
                        ("Catalog", "/catalog"),
                        ("Paths", "/paths"),
                        ("Free courses", "/catalog/free"),
                    ],
                ),
                (
                    "Company",
                    [("About", "/about"), ("Teach with us", "/teach"), ("Careers", "/careers")],
                ),
                (
                    "Support",
                    [
                        ("Help center", "/help"),
                        ("Refund policy", "/refunds"),
                        ("Privacy", "/privacy"),
                        ("Terms", "/terms"),
                    ],
                ),
            ],
            p="ch",
            copy="© 2025 CodeHarbor Learning, Inc.",
        )
    }"""
    pg.text = doc(
        rng,
        lang="en",
        title="Data Courses – CodeHarbor Learn",
        site="CodeHarbor Learn",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# 32 two links per item + add-to-cart links (Italian, "€ 1.299,00")
# --------------------------------------------------------------------------------------


@page
def p32():
    rng = random.Random(132)
    pg = Page(
        "32_two_links_cart_it_eur",
        "https://www.casa-caffe.test/it/macchine-da-caffe/",
        "Italian shop: each item has image link + title link to the same product URL and an 'Aggiungi al carrello' link to /cart/add?id=N; '€ 1.299,00'",
    )
    kinds = [
        ("Macchina da caffè espresso", 149, 1490),
        ("Macinacaffè elettrico", 89, 690),
        ("Moka", 19, 79),
        ("Macchina automatica", 399, 1899),
        ("Montalatte", 39, 149),
        ("Macchina a capsule", 69, 249),
    ]
    names = [
        "Vesuvio",
        "Dolomiti",
        "Portofino",
        "Bellagio",
        "Amalfi",
        "Siena",
        "Etna",
        "Murano",
        "Capri",
        "Verona",
    ]
    data = uniq(
        rng,
        24,
        lambda r: (
            lambda k: (
                f"{k[0]} {r.choice(names)}{r.choice(['', ' Pro', ' Plus', ' 2', ' Inox'])}",
                k,
            )
        )(r.choice(kinds)),
    )
    cells = []
    for i, (t, k) in enumerate(data):
        price = rprice(rng, k[1], k[2], ends=(0.0, 0.9, 0.99))
        n = 5100 + i
        href = f"/it/prodotto/{slug(t)}-{n}.html"
        cells.append(f"""<div class="prodotto">
  <a class="prodotto__img" href="{href}"><img src="/img/prodotti/{n}.jpg" alt="{E(t)}"></a>
  <a class="prodotto__nome" href="{href}">{E(t)}</a>
  <div class="prodotto__prezzo">€ {money(price, ".", ",")}</div>
  <div class="prodotto__azioni"><a class="btn btn-carrello" href="/cart/add?id={n}" rel="nofollow">Aggiungi al carrello</a><a class="prodotto__confronta" href="/it/confronta?add={n}">Confronta</a></div>
</div>""")
        pg.add(t, href, price, "EUR")
    nav = [
        ("Macchine da caffè", "/it/macchine-da-caffe/"),
        ("Macinacaffè", "/it/macinacaffe/"),
        ("Caffè in grani", "/it/caffe-in-grani/"),
        ("Capsule", "/it/capsule/"),
        ("Tazze", "/it/tazze/"),
        ("Accessori", "/it/accessori/"),
        ("Ricambi", "/it/ricambi/"),
        ("Offerte", "/it/offerte/"),
        ("Blog", "/it/blog/"),
        ("Assistenza", "/it/assistenza/"),
    ]
    side = filters(
        [
            ("Tipologia", [(k[0], rng.randint(3, 40), f"?tipo={slug(k[0])}") for k in kinds]),
            (
                "Prezzo",
                [
                    ("Fino a € 100", 31, "?prezzo=0-100"),
                    ("€ 100 – € 500", 44, "?prezzo=100-500"),
                    ("Oltre € 500", 19, "?prezzo=500-"),
                ],
            ),
        ],
        p="cc-f",
        title="Filtra",
        apply="Applica",
    )
    body = f"""{
        header_basic(
            "Casa Caffè",
            nav,
            p="cc",
            search="Cerca",
            account="Accedi",
            cart="Carrello",
            notice="Spedizione gratuita sopra € 49",
        )
    }
{
        cookie_banner(
            "Questo sito utilizza cookie tecnici e, previo consenso, cookie di profilazione.",
            "Accetta tutti",
            "Rifiuta",
            "Personalizza",
            "Informativa privacy",
            "/it/privacy/",
            p="cc-c",
        )
    }
<main class="listing">
  {breadcrumbs([("Home", "/it/"), ("Macchine da caffè", None)], p="cc-bc")}
  <h1>Macchine da caffè</h1>
  <div class="listing__layout">{side}
  <div class="listing__grid">
{chr(10).join(cells)}
  </div></div>
  {
        pagination(
            "/it/macchine-da-caffe/",
            1,
            4,
            p="cc-pg",
            prev="Precedente",
            nxt="Successiva",
            param="pagina",
        )
    }
</main>
{
        newsletter(
            "Iscriviti alla newsletter",
            "Offerte riservate e ricette con il caffè.",
            "Iscriviti",
            p="cc-nl",
            placeholder="La tua email",
        )
    }
{
        footer_cols(
            [
                (
                    "Assistenza",
                    [
                        ("Spedizioni", "/it/spedizioni/"),
                        ("Resi", "/it/resi/"),
                        ("Garanzia", "/it/garanzia/"),
                        ("Contatti", "/it/contatti/"),
                    ],
                ),
                (
                    "Casa Caffè",
                    [
                        ("Chi siamo", "/it/chi-siamo/"),
                        ("Negozi", "/it/negozi/"),
                        ("Lavora con noi", "/it/lavora-con-noi/"),
                    ],
                ),
                (
                    "Legale",
                    [
                        ("Condizioni di vendita", "/it/condizioni/"),
                        ("Privacy", "/it/privacy/"),
                        ("Cookie", "/it/cookie/"),
                    ],
                ),
            ],
            p="cc",
            copy="© 2025 Casa Caffè S.r.l. – P.IVA 00000000000",
        )
    }"""
    pg.text = doc(
        rng,
        lang="it",
        title="Macchine da caffè – Casa Caffè",
        site="Casa Caffè",
        body=body,
        canonical=pg.base,
    )
    return pg


# --------------------------------------------------------------------------------------
# writing + self-check
# --------------------------------------------------------------------------------------


class _TextLinks(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.hrefs, self.skip = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.skip += 1
        a = dict(attrs)
        if tag in ("a", "link") and a.get("href"):
            self.hrefs.append(a["href"])
        if tag in (
            "p",
            "div",
            "li",
            "dt",
            "dd",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "td",
            "br",
            "section",
            "article",
        ):
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self.skip -= 1
        if tag in ("p", "div", "li", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "td", "a"):
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def check(pg: Page) -> list[str]:
    errs = []
    if not (10 <= len(pg.items) <= 60) and pg.name != "10_pricing_plans_usd":
        errs.append(f"item count {len(pg.items)}")
    if pg.ext == "html":
        p = _TextLinks()
        p.feed(pg.text)
        text = " ".join("".join(p.parts).split())
        hrefs = {urljoin(pg.base, h) for h in p.hrefs}
    else:
        import xml.etree.ElementTree as ET

        ET.fromstring(pg.text.encode())
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", pg.text)).split())
        hrefs = set(re.findall(r"<link>([^<]+)</link>", pg.text)) | set(
            re.findall(r'href="([^"]+)"', pg.text)
        )
    titles = [it["title"] for it in pg.items]
    if len(set(titles)) != len(titles):
        errs.append("duplicate titles")
    for it in pg.items:
        if it["title"] not in text:
            errs.append(f"title not visible: {it['title']!r}")
        if it["url"] is not None and it["url"] not in hrefs:
            errs.append(f"url not linked: {it['url']}")
    return errs


README_HEAD = (
    "Labelled corpus of invented listing pages (HTML/RSS/Atom) with NAME.labels.json ground truth "
    "for evaluating the watcher item-extraction heuristic; generated by _make.py."
)
README_BODY = """Every site, product, price and text is invented (domains end in `.test`); nothing was copied from the web.
Rebuild with `/work/main/.venv/bin/python tests/watcher/corpus/_make.py` (deterministic; it also self-checks
that every labelled title is visible text and every labelled URL is linked from the page).

Label conventions (`NAME.labels.json`):

- `items` are the page's main repeating listing, in page order; navigation, mega menus, breadcrumbs, pagination,
  filters/facets, cookie banners, newsletter boxes, footers, ads ("Sponsored", "Top-Inserat"), promo tiles,
  category tiles, "trending"/"most read"/"bestsellers" side widgets, sitelinks and "People also ask" are not items.
- `title` is the item's visible name with whitespace collapsed (the heading/link text, e.g. without a separate
  brand line, badge or coin symbol).
- `url` is the item's own link resolved against `baseUrl` (not the cart/"Book tickets"/company/website link);
  the three pricing plans all point to the same `/signup`.
- `price` is the current price (sale price when an old price is struck through or marked as was/UVP/regular);
  ranges and "From £25" use the lower/first number; job postings have `null` (salary ranges are not prices);
  news, forum threads, search results, directory entries and feed entries have `null`.
- "Free" (app store) is labelled `price: 0, currency: null`; "$0/mo" is `price: 0, currency: "USD"`.
- `currency` is the ISO 4217 code implied by the page (`$` is USD, CAD or AUD depending on the site, as labelled).
- `10_pricing_plans_usd` has only 3 items by design."""


def main() -> int:
    bad = 0
    rows = []
    for fn in PAGES:
        pg = fn()
        (OUT / f"{pg.name}.{pg.ext}").write_text(pg.text, encoding="utf-8")
        labels = {"baseUrl": pg.base, "contentType": pg.ctype, "items": pg.items}
        (OUT / f"{pg.name}.labels.json").write_text(
            json.dumps(labels, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        errs = check(pg)
        bad += bool(errs)
        for e in errs:
            print(f"{pg.name}: {e}", file=sys.stderr)
        rows.append((pg.name, pg.ext, len(pg.items), len(pg.text.encode()), pg.layout))
    for name, ext, n, size, layout in rows:
        print(f"{name}.{ext}\t{n} items\t{size / 1024:.1f} KB\t{layout}")
    readme = [
        README_HEAD,
        "",
        README_BODY,
        "",
        "| page | items | size | layout |",
        "|---|---|---|---|",
    ]
    readme += [
        f"| `{name}.{ext}` | {n} | {size / 1024:.0f} KB | {layout.replace('|', '/')} |"
        for name, ext, n, size, layout in rows
    ]
    (OUT / "README.md").write_text("\n".join(readme) + "\n", encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
