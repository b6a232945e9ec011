# ruff: noqa: E501, RUF001  (page markup and typographic characters, as pages have them)
"""Writes the labelled corpus: `python tests/watcher/corpus/generate.py`.

Every page is made up here, modelled on the many ways real sites lay out a listing (shop
grids and lists, job boards, coin tables, pricing plans, news, forums, events, search
results, real estate, cars, hotels, app stores, feeds, JSON-LD, microdata, RDFa, CSS-in-JS
and utility-class soup). Each `NAME.html` / `NAME.xml` has `NAME.labels.json`: the items a
person would call the page's listing, with their title, link and price.

The pages are generated once and committed; re-running gives the same bytes (seeded).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from noise import (
    big_footer,
    breadcrumbs,
    cookie_banner,
    e,
    filters_sidebar,
    head,
    mega_menu,
    newsletter,
    pagination,
    scripts,
    simple_header,
    slug,
    small_footer,
)

HERE = Path(__file__).resolve().parent
Label = dict[str, Any]
Page = tuple[str, str, list[Label]]  # html, base url, items

ADJ = [
    "Classic",
    "Urban",
    "Coastal",
    "Nordic",
    "Vintage",
    "Compact",
    "Deluxe",
    "Everyday",
    "Heritage",
    "Alpine",
    "Modern",
    "Rustic",
    "Studio",
    "Trail",
    "Harbor",
    "Midnight",
    "Sunrise",
    "Granite",
    "Velvet",
    "Summit",
]
MATERIAL = [
    "Oak",
    "Linen",
    "Leather",
    "Wool",
    "Ceramic",
    "Steel",
    "Cotton",
    "Bamboo",
    "Copper",
    "Walnut",
    "Canvas",
    "Merino",
    "Glass",
    "Suede",
]
NOUN = [
    "Desk Lamp",
    "Backpack",
    "Side Table",
    "Throw Blanket",
    "Coffee Mug",
    "Chef Knife",
    "Armchair",
    "Rain Jacket",
    "Sneakers",
    "Wall Clock",
    "Headphones",
    "Water Bottle",
    "Notebook",
    "Duffel Bag",
    "Bookshelf",
    "Table Lamp",
    "Scarf",
    "Cutting Board",
    "Planter",
    "Wallet",
]


def names(rng: random.Random, n: int, pool: Callable[[random.Random], str]) -> list[str]:
    seen: list[str] = []
    while len(seen) < n:
        name = pool(rng)
        if name not in seen:
            seen.append(name)
    return seen


def product_name(rng: random.Random) -> str:
    return f"{rng.choice(ADJ)} {rng.choice(MATERIAL)} {rng.choice(NOUN)}"


def label(title: str, url: str, price: float | None = None, currency: str | None = None) -> Label:
    out: Label = {"title": title, "url": url}
    if price is not None:
        out["price"] = price
        out["currency"] = currency
    return out


def money(rng: random.Random, low: int, high: int, cents: bool = True) -> float:
    whole = rng.randint(low, high)
    return whole + (rng.choice([0, 0.5, 0.99, 0.95, 0.49]) if cents else 0)


def us(amount: float, symbol: str = "$") -> str:
    return f"{symbol}{amount:,.2f}"


def eu(amount: float, symbol: str = "€", thousands: str = ".") -> str:
    text = f"{amount:,.2f}".replace(",", "X").replace(".", ",").replace("X", thousands)
    return f"{text}\u00a0{symbol}"


# --- Shops --------------------------------------------------------------------------------


def shop_grid_cards(rng: random.Random) -> Page:
    base = "https://www.harborhome.example/c/lighting"
    items: list[Label] = []
    cards = []
    for i, name in enumerate(names(rng, 36, product_name)):
        s = slug(name)
        price = money(rng, 15, 1800)
        url = f"https://www.harborhome.example/p/{s}-{1000 + i}"
        items.append(label(name, url, price, "USD"))
        badge = '<span class="badge">New</span>' if i % 7 == 0 else ""
        cards.append(
            f'<div class="product-card" data-sku="HH{1000 + i}">\n'
            f'  <a class="product-card__image" href="/p/{s}-{1000 + i}">'
            f'<img src="/img/p/{s}.jpg" alt="{e(name)}" loading="lazy"></a>{badge}\n'
            f'  <div class="product-card__body"><h3 class="product-card__title">'
            f'<a href="/p/{s}-{1000 + i}">{e(name)}</a></h3>\n'
            f'  <div class="rating" aria-label="4.5 stars">★★★★☆ <span>({rng.randint(3, 900)})'
            "</span></div>\n"
            f'  <div class="product-card__price"><span class="price">{us(price)}</span></div>\n'
            f'  <button class="add-to-cart">Add to cart</button></div>\n</div>\n'
        )
        if i == 8:
            cards.append(
                '<div class="product-card promo-tile"><a href="/sale">'
                '<img src="/img/promo/sale.jpg" alt="Sale"><h3>Winter sale: up to 50% off</h3>'
                "</a></div>\n"
            )
    html = (
        head("Lighting | Harbor Home")
        + "<body>\n"
        + cookie_banner()
        + mega_menu(rng, "Harbor Home", big=True)
        + '<main id="content">\n'
        + breadcrumbs(["Home", "Lighting"])
        + "<h1>Lighting</h1><p>36 products</p>\n"
        + filters_sidebar(rng, {"Colour": ["Black", "Brass", "White"], "Price": ["Under $50"]})
        + '<div class="product-grid">\n'
        + "".join(cards)
        + "</div>\n"
        + pagination("/c/lighting")
        + "</main>\n"
        + newsletter()
        + big_footer("Harbor Home")
        + scripts()
    )
    return html, base, items


def shop_list_woo_sale(rng: random.Random) -> Page:
    """WooCommerce-like `ul.products > li.product`, sale prices in del/ins, GBP."""
    base = "https://shop.kettleandcrow.example/product-category/kitchen/"
    items: list[Label] = []
    lis = []
    for i, name in enumerate(names(rng, 24, product_name)):
        s = slug(name)
        price = money(rng, 5, 240)
        url = f"https://shop.kettleandcrow.example/product/{s}/"
        items.append(label(name, url, price, "GBP"))
        if i % 3 == 0:
            old = price + rng.randint(5, 40)
            price_html = (
                f'<del aria-hidden="true"><span class="woocommerce-Price-amount amount">'
                f'<bdi><span class="woocommerce-Price-currencySymbol">&pound;</span>{old:.2f}'
                f'</bdi></span></del> <ins><span class="woocommerce-Price-amount amount"><bdi>'
                f'<span class="woocommerce-Price-currencySymbol">&pound;</span>{price:.2f}'
                "</bdi></span></ins>"
            )
        else:
            price_html = (
                '<span class="woocommerce-Price-amount amount"><bdi>'
                f'<span class="woocommerce-Price-currencySymbol">&pound;</span>{price:.2f}'
                "</bdi></span>"
            )
        lis.append(
            f'<li class="product type-product post-{200 + i} status-publish instock '
            f'has-post-thumbnail shipping-taxable purchasable">\n'
            f'<a href="{url}" class="woocommerce-LoopProduct-link woocommerce-loop-product__link">'
            f'<img width="300" height="300" src="/wp-content/uploads/{s}-300x300.jpg" '
            f'class="attachment-woocommerce_thumbnail" alt="">'
            f'<h2 class="woocommerce-loop-product__title">{e(name)}</h2>\n'
            f'<span class="price">{price_html}</span>\n</a>'
            f'<a href="?add-to-cart={200 + i}" class="button add_to_cart_button">Add to basket</a>'
            "</li>\n"
        )
    html = (
        head("Kitchen Archives - Kettle & Crow", "en-GB")
        + '<body class="archive tax-product_cat woocommerce">\n'
        + simple_header("Kettle & Crow", ["Shop", "Kitchen", "Garden", "Journal", "Contact"])
        + '<div id="primary" class="content-area"><main id="main" class="site-main">'
        + '<header class="woocommerce-products-header"><h1>Kitchen</h1></header>\n'
        + '<p class="woocommerce-result-count">Showing all 24 results</p>\n'
        + '<ul class="products columns-4">\n'
        + "".join(lis)
        + "</ul>\n</main></div>\n"
        + '<div id="secondary" class="widget-area"><section class="widget">'
        + "<h2>Categories</h2><ul>"
        + "".join(f'<li><a href="/product-category/{slug(c)}/">{c}</a></li>' for c in NOUN[:8])
        + "</ul></section></div>\n"
        + big_footer("Kettle & Crow", 3)
        + scripts()
    )
    return html, base, items


def shop_de_euro(rng: random.Random) -> Page:
    """German shop: `1.299,00 €`, old prices in a `price--old` span."""
    base = "https://www.moebelhaus-nord.example/wohnzimmer/sofas/"
    words = ["Sofa", "Ecksofa", "Sessel", "Schlafsofa", "Hocker", "Recamiere", "Couch"]
    extra = ["Lund", "Bergen", "Malmö", "Oslo", "Aarhus", "Kiel", "Bremen", "Vejle", "Odense"]
    items: list[Label] = []
    tiles = []
    pool = [f"{w} {x} {c}" for w in words for x in extra for c in ("Grau", "Beige", "Blau")]
    rng.shuffle(pool)
    for i, name in enumerate(pool[:30]):
        s = slug(name)
        price = float(rng.randint(199, 3499))
        url = f"https://www.moebelhaus-nord.example/p/{s}-{50000 + i}.html"
        items.append(label(name, url, price, "EUR"))
        old = f'<span class="price--old">{eu(price * 1.25)}</span>' if i % 4 == 0 else ""
        tiles.append(
            f'<article class="artikel-kachel">\n<a href="/p/{s}-{50000 + i}.html" '
            f'class="artikel-kachel__link"><picture><source srcset="/bilder/{s}.webp 1x, '
            f'/bilder/{s}@2x.webp 2x"><img src="/bilder/{s}.jpg" alt="{e(name)}"></picture>'
            f'<div class="artikel-kachel__name">{e(name)}</div></a>\n'
            f'<div class="artikel-kachel__preis">{old}<span class="price--current">'
            f"{eu(price)}</span></div>\n"
            f'<div class="lieferzeit">Lieferzeit: {rng.randint(2, 8)} Wochen</div>\n</article>\n'
        )
    html = (
        head("Sofas online kaufen | Möbelhaus Nord", "de-DE")
        + "<body>\n"
        + mega_menu(rng, "Möbelhaus Nord")
        + "<main>"
        + breadcrumbs(["Startseite", "Wohnzimmer", "Sofas"])
        + "<h1>Sofas &amp; Couches</h1>\n"
        + '<div class="sortierung">Sortieren nach: <a href="?sort=preis">Preis</a> '
        + '<a href="?sort=neu">Neuheiten</a></div>\n'
        + '<section class="artikel-liste">\n'
        + "".join(tiles)
        + "</section>\n"
        + pagination("/wohnzimmer/sofas/", 1, 5)
        + "</main>\n"
        + big_footer("Möbelhaus Nord")
        + scripts()
    )
    return html, base, items


def shop_fr_list(rng: random.Random) -> Page:
    """French list layout with `12,99 €` and a table-free `li` list, no images."""
    base = "https://www.librairie-des-quais.example/rayon/romans"
    first = ["Le", "La", "Les", "Un", "Une"]
    mid = ["jardin", "maison", "nuit", "mer", "ville", "lettre", "voyage", "silence", "île"]
    last = ["oubliée", "du nord", "d'hiver", "des songes", "perdue", "infinie", "rouge"]
    pool = [f"{a} {b} {c}" for a in first for b in mid for c in last]
    rng.shuffle(pool)
    items: list[Label] = []
    rows = []
    for i, name in enumerate(pool[:40]):
        title = name[0].upper() + name[1:]
        price = rng.choice([7.9, 8.5, 12.99, 19.0, 21.5, 22.9, 9.2])
        url = f"https://www.librairie-des-quais.example/livre/{slug(title)}-{i}"
        items.append(label(title, url, price, "EUR"))
        author = f"{rng.choice(['Marie', 'Jean', 'Luc', 'Anne', 'Paul'])} " + rng.choice(
            ["Martin", "Bernard", "Durand", "Lefèvre", "Moreau"]
        )
        rows.append(
            f'<li class="notice">\n<p class="notice-titre"><a href="/livre/{slug(title)}-{i}">'
            f'{e(title)}</a></p>\n<p class="auteur">{author} &middot; Poche</p>\n'
            f'<p class="prix">{eu(price)}</p>\n<p class="dispo">En stock</p>\n</li>\n'
        )
    html = (
        head("Romans - Librairie des Quais", "fr-FR")
        + "<body>\n"
        + simple_header("Librairie des Quais", ["Romans", "Polars", "Jeunesse", "BD", "Essais"])
        + '<div id="page"><div class="colonne-principale">'
        + "<h1>Romans</h1>\n"
        + '<ul class="liste-resultats">\n'
        + "".join(rows)
        + "</ul>\n"
        + '<div class="pages"><a href="?p=2">Suivant</a></div>'
        + "</div></div>\n"
        + small_footer("Librairie des Quais")
        + scripts()
    )
    return html, base, items


def shop_jp_yen(rng: random.Random) -> Page:
    base = "https://store.kumo-goods.example/collections/tableware"
    kinds = ["Teacup", "Rice Bowl", "Plate", "Chopsticks", "Teapot", "Sake Set", "Tray", "Vase"]
    styles = ["Hagi", "Mino", "Arita", "Kutani", "Bizen", "Shigaraki", "Mashiko", "Tokoname"]
    pool = [f"{s} {k}" for s in styles for k in kinds]
    rng.shuffle(pool)
    items: list[Label] = []
    cards = []
    for _i, name in enumerate(pool[:20]):
        price = float(rng.randint(8, 240) * 100)
        handle = slug(name)
        url = f"https://store.kumo-goods.example/products/{handle}"
        items.append(label(name, url, price, "JPY"))
        cards.append(
            f'<li class="grid__item"><div class="card-wrapper product-card-wrapper">'
            f'<div class="card card--standard"><div class="card__media"><img '
            f'srcset="//store.kumo-goods.example/cdn/{handle}_360x.jpg 360w, '
            f'//store.kumo-goods.example/cdn/{handle}_720x.jpg 720w" '
            f'src="//store.kumo-goods.example/cdn/{handle}_720x.jpg" alt="{e(name)}"></div>'
            f'<div class="card__content"><h3 class="card__heading h5">'
            f'<a href="/products/{handle}" class="full-unstyled-link">{e(name)}</a></h3>'
            f'<div class="price"><span class="price-item price-item--regular">¥{price:,.0f}'
            f"</span></div></div></div></div></li>\n"
        )
    html = (
        head("Tableware – Kumo Goods", "ja")
        + "<body>\n"
        + '<div class="announcement-bar"><p>Free shipping over ¥10,000</p></div>\n'
        + simple_header("Kumo Goods", ["Shop all", "Tableware", "Textiles", "Journal"])
        + '<main id="MainContent"><div class="collection-hero"><h1>Tableware</h1></div>'
        + '<ul id="product-grid" class="grid product-grid grid--4-col-desktop">\n'
        + "".join(cards)
        + "</ul></main>\n"
        + big_footer("Kumo Goods", 2)
        + scripts()
    )
    return html, base, items


def shop_in_rupee(rng: random.Random) -> Page:
    base = "https://www.bazaarline.example/mobiles/smartphones"
    brands = ["Nova", "Zeta", "Orion", "Pixelon", "Lumo", "Vega"]
    items: list[Label] = []
    cards = []
    pool = [
        f"{b} {m} ({r} GB RAM, {s} GB)"
        for b in brands
        for m in ("X1", "X2 Pro", "Lite 5G")
        for r, s in ((6, 128), (8, 256))
    ]
    rng.shuffle(pool)
    for i, name in enumerate(pool[:24]):
        price = float(rng.randint(80, 900) * 100 - 1)
        url = f"https://www.bazaarline.example/{slug(name)}/p/itm{4000 + i}"
        items.append(label(name, url, price, "INR"))
        mrp = price + rng.randint(10, 60) * 100
        cards.append(
            f'<div class="_1AtVbE col-12-12"><div class="_13oc-S"><div data-id="MOB{4000 + i}">'
            f'<a class="_1fQZEK" href="/{slug(name)}/p/itm{4000 + i}">'
            f'<div class="CXW8mj"><img class="_396cs4" src="/img/{4000 + i}.jpeg" alt="{e(name)}">'
            f'</div><div class="_3pLy-c row"><div class="col col-7-12"><div class="_4rR01T">'
            f'{e(name)}</div><ul class="_1xgFaf"><li class="rgWa7D">6.5 inch Display</li>'
            f'<li class="rgWa7D">50MP Camera</li></ul></div><div class="col col-5-12 nlI3QM">'
            f'<div class="_30jeq3 _1_WHN1">₹{price:,.0f}</div>'
            f'<div class="_3I9_wc _27UcVY">₹{mrp:,.0f}</div><div class="_3Ay6Sb"><span>'
            f"{rng.randint(5, 40)}% off</span></div></div></div></a></div></div></div>\n"
        )
    html = (
        head("Smartphones - Buy Mobiles Online | Bazaarline", "en-IN")
        + "<body>\n"
        + mega_menu(rng, "Bazaarline")
        + '<div class="_1YokD2 _3Mn1Gg"><div class="_1YokD2 _2GoDe3">'
        + "<h1>Smartphones</h1>"
        + "".join(cards)
        + "</div></div>\n"
        + big_footer("Bazaarline")
        + scripts()
    )
    # the struck MRP has a hashed class only; the current price comes first in each card
    return html, base, items


def shop_ch_franc(rng: random.Random) -> Page:
    base = "https://www.bergsport-zentrale.example/de/ski/"
    models = ["Piz", "Eiger", "Säntis", "Titlis", "Rigi", "Pilatus", "Matterhorn", "Jungfrau"]
    types = ["Tourenski", "Allmountain-Ski", "Skischuh", "Skihelm", "Stöcke"]
    pool = [f"{t} {m} {y}" for t in types for m in models for y in ("2026",)]
    rng.shuffle(pool)
    items: list[Label] = []
    rows = []
    for _i, name in enumerate(pool[:18]):
        price = rng.choice([49.9, 89.0, 129.0, 349.0, 599.9, 799.0, 1099.0])
        url = f"https://www.bergsport-zentrale.example/de/artikel/{slug(name)}"
        items.append(label(name, url, price, "CHF"))
        rows.append(
            f'<div class="produkt">\n<a href="/de/artikel/{slug(name)}">'
            f'<img data-src="/media/{slug(name)}.jpg" src="data:image/gif;base64,R0lGOD" alt="">'
            f'</a>\n<h4><a href="/de/artikel/{slug(name)}">{e(name)}</a></h4>\n'
            f'<div class="preis">CHF {price:,.2f}'.replace(",", "'")
            + '</div>\n<div class="verfuegbarkeit">Sofort lieferbar</div>\n</div>\n'
        )
    html = (
        head("Ski | Bergsport Zentrale", "de-CH")
        + "<body>\n"
        + simple_header("Bergsport Zentrale", ["Ski", "Bergsport", "Bekleidung", "Marken"])
        + '<div class="inhalt"><h1>Ski &amp; Zubehör</h1><div class="produkte">\n'
        + "".join(rows)
        + "</div></div>\n"
        + big_footer("Bergsport Zentrale", 2)
        + scripts()
    )
    return html, base, items


def shop_ca_dollar(rng: random.Random) -> Page:
    base = "https://www.northernoutfit.example/en-ca/collections/parkas"
    items: list[Label] = []
    cards = []
    for _i, name in enumerate(names(rng, 15, lambda r: f"{r.choice(ADJ)} Parka {r.randint(2, 9)}")):
        price = money(rng, 199, 1299)
        url = f"https://www.northernoutfit.example/en-ca/products/{slug(name)}"
        items.append(label(name, url, price, "CAD"))
        cards.append(
            f'<div class="tile"><a href="/en-ca/products/{slug(name)}">'
            f'<img src="/i/{slug(name)}.jpg" alt="{e(name)}"><span class="tile-name">'
            f'{e(name)}</span></a><span class="tile-price">${price:,.2f}</span></div>\n'
        )
    html = (
        head("Parkas | Northern Outfit", "en-CA")
        + "<body>\n"
        + simple_header("Northern Outfit", ["Men", "Women", "Parkas", "Boots", "Stores"])
        + '<main><h1>Parkas</h1><div class="tiles">'
        + "".join(cards)
        + "</div></main>\n"
        + small_footer("Northern Outfit")
        + scripts()
    )
    return html, base, items


# --- Jobs ---------------------------------------------------------------------------------

ROLES = [
    "Backend Engineer",
    "Frontend Developer",
    "Data Analyst",
    "Product Manager",
    "DevOps Engineer",
    "UX Designer",
    "Site Reliability Engineer",
    "QA Engineer",
    "Technical Writer",
    "Data Scientist",
    "Support Specialist",
    "Account Executive",
]
LEVELS = ["Junior", "Senior", "Staff", "Lead", "Principal", ""]
CITIES = ["Berlin", "Lisbon", "Toronto", "Austin", "Remote", "London", "Warsaw", "Dublin"]
COMPANIES = ["Northwind", "Bluefin Labs", "Acme Robotics", "Quill", "Tandem Health", "Ferro"]


def job_title(rng: random.Random) -> str:
    return f"{rng.choice(LEVELS)} {rng.choice(ROLES)}".strip()


def jobs_board(rng: random.Random) -> Page:
    base = "https://jobs.devhub.example/search?q=engineer"
    items: list[Label] = []
    rows = []
    for i, title in enumerate(names(rng, 25, job_title)):
        jid = 88000 + i * 7
        url = f"https://jobs.devhub.example/jobs/{jid}-{slug(title)}"
        items.append(label(title, url))
        company = rng.choice(COMPANIES)
        rows.append(
            f'<div class="job-listing" data-job-id="{jid}">\n'
            f'  <div class="job-listing__logo"><img src="/logos/{slug(company)}.png" alt=""></div>\n'
            f'  <div class="job-listing__main"><h2 class="job-listing__title">'
            f'<a href="/jobs/{jid}-{slug(title)}">{e(title)}</a></h2>\n'
            f'  <a class="job-listing__company" href="/companies/{slug(company)}">{company}</a>\n'
            f'  <span class="job-listing__location">{rng.choice(CITIES)}</span>\n'
            f'  <span class="job-listing__salary">€{rng.randint(50, 90)}k – '
            f"€{rng.randint(91, 140)}k</span>\n"
            f'  <ul class="tags"><li>Python</li><li>Go</li><li>Full-time</li></ul></div>\n'
            f'  <time datetime="2026-11-{rng.randint(1, 20):02d}">{rng.randint(1, 20)}d ago</time>'
            f'\n  <a class="save-job" href="/login?save={jid}">Save</a>\n</div>\n'
        )
    html = (
        head("Engineer jobs | DevHub Jobs")
        + "<body>\n"
        + simple_header("DevHub Jobs", ["Find jobs", "Companies", "Salaries", "Post a job"])
        + '<div class="layout"><aside class="sidebar filters"><h3>Job type</h3><ul>'
        + '<li><a href="?type=ft">Full-time</a></li><li><a href="?type=pt">Part-time</a></li>'
        + '<li><a href="?type=c">Contract</a></li></ul></aside>\n'
        + '<section class="results"><h1>25 engineer jobs</h1>\n'
        + "".join(rows)
        + "</section></div>\n"
        + pagination("/search")
        + small_footer("DevHub Jobs")
        + scripts()
    )
    return html, base, items


def jobs_jsonld(rng: random.Random) -> Page:
    """Careers page: one JSON-LD JobPosting per job plus a plain HTML list."""
    base = "https://careers.tandemhealth.example/openings"
    items: list[Label] = []
    postings = []
    lis = []
    for i, title in enumerate(names(rng, 12, job_title)):
        url = f"https://careers.tandemhealth.example/openings/{slug(title)}-{300 + i}"
        items.append(label(title, url))
        city = rng.choice(CITIES)
        postings.append(
            {
                "@context": "https://schema.org",
                "@type": "JobPosting",
                "title": title,
                "url": url,
                "datePosted": "2026-11-02",
                "employmentType": "FULL_TIME",
                "hiringOrganization": {"@type": "Organization", "name": "Tandem Health"},
                "jobLocation": {
                    "@type": "Place",
                    "address": {
                        "@type": "PostalAddress",
                        "addressLocality": city,
                        "addressCountry": "DE",
                    },
                },
                "baseSalary": {
                    "@type": "MonetaryAmount",
                    "currency": "EUR",
                    "value": {
                        "@type": "QuantitativeValue",
                        "minValue": 60000 + i * 1000,
                        "maxValue": 90000 + i * 1000,
                        "unitText": "YEAR",
                    },
                },
            }
        )
        lis.append(f'<li><a href="{url}">{e(title)}</a> <span>{city} · Full-time</span></li>\n')
    ld = "".join(f'<script type="application/ld+json">{json.dumps(p)}</script>\n' for p in postings)
    html = (
        head("Open positions - Tandem Health", extra=ld)
        + "<body>\n"
        + simple_header("Tandem Health", ["Product", "Customers", "Careers", "Blog"])
        + "<main><h1>Open positions</h1><p>Join us in building better care.</p>"
        + '<ul class="openings">\n'
        + "".join(lis)
        + "</ul></main>\n"
        + big_footer("Tandem Health", 2)
        + scripts()
    )
    return html, base, items


# --- Tables -------------------------------------------------------------------------------

COIN_PARTS = ["Bit", "Lum", "Nex", "Sol", "Ari", "Qua", "Zen", "Hex", "Ore", "Vol", "Kai", "Tri"]
COIN_ENDS = ["coin", "chain", "ium", "ex", "ora", "net", "o", "ar"]


def crypto_table(rng: random.Random) -> Page:
    base = "https://www.coinboard.example/"
    pool = [a + b for a in COIN_PARTS for b in COIN_ENDS]
    rng.shuffle(pool)
    items: list[Label] = []
    rows = []
    for i, name in enumerate(pool[:50]):
        symbol = name[:3].upper() + str(i % 10)
        price = round(rng.uniform(0.01, 60000), 2)
        url = f"https://www.coinboard.example/currencies/{name.lower()}/"
        items.append(label(name, url, price, "USD"))
        change = round(rng.uniform(-12, 12), 2)
        rows.append(
            f'<tr><td class="rank">{i + 1}</td>'
            f'<td><a href="/currencies/{name.lower()}/" class="coin-link">'
            f'<img src="/static/coins/{name.lower()}.png" width="24" alt="">'
            f'<span class="coin-name">{name}</span></a> '
            f'<span class="coin-symbol">{symbol}</span></td>'
            f'<td>${price:,.2f}</td><td class="{"up" if change > 0 else "down"}">'
            f"{change:+.2f}%</td><td>${rng.randint(10**6, 10**9):,}</td>"
            f"<td>${rng.randint(10**5, 10**8):,}</td></tr>\n"
        )
    html = (
        head("Cryptocurrency prices by market cap | CoinBoard")
        + "<body>\n"
        + simple_header("CoinBoard", ["Cryptocurrencies", "Exchanges", "NFT", "Learn"])
        + '<div class="ticker"><a href="/global">Market cap: $2.1T</a> '
        + '<a href="/gas">Gas: 12 gwei</a></div>\n'
        + "<main><h1>Today's prices</h1>\n"
        + '<table class="coins-table"><thead><tr><th>#</th><th>Name</th><th>Price</th>'
        + "<th>24h %</th><th>Market Cap</th><th>Volume (24h)</th></tr></thead>\n<tbody>\n"
        + "".join(rows)
        + "</tbody></table>\n"
        + pagination("/")
        + "</main>\n"
        + big_footer("CoinBoard", 3)
        + scripts()
    )
    return html, base, items


def forum_threads(rng: random.Random) -> Page:
    base = "https://forum.tinkerers.example/c/electronics/12"
    topics = [
        "Soldering iron recommendations",
        "Power supply keeps tripping",
        "Best beginner oscilloscope",
        "ESP32 deep sleep current",
        "Reflow oven from toaster",
        "PCB fab with fast shipping",
        "Debugging I2C noise",
        "Lipo charging safety",
        "Rotary encoder bounce",
        "USB-C PD trigger boards",
        "Thermal camera hacks",
        "Stepper driver overheating",
        "Hot air station advice",
        "Best wire strippers",
        "Flux residue cleaning",
        "Logic analyser software",
        "Arduino vs RP2040",
        "Battery spot welder build",
        "Capacitor ESR testing",
        "Relay module clicking",
        "Grounding my workbench",
        "Nixie tube clock build",
    ]
    items: list[Label] = []
    rows = []
    for i, topic in enumerate(topics):
        tid = 5100 + i * 3
        url = f"https://forum.tinkerers.example/t/{slug(topic)}/{tid}"
        items.append(label(topic, url))
        rows.append(
            f'<tr class="topic-list-item" data-topic-id="{tid}">'
            f'<td class="main-link"><a href="/t/{slug(topic)}/{tid}" class="title raw-link">'
            f'{e(topic)}</a><div class="link-bottom-line"><a class="badge-category" '
            f'href="/c/electronics/12">Electronics</a></div></td>'
            f'<td class="posters"><a href="/u/user{i}"><img src="/avatar/{i}.png" alt="user{i}">'
            f'</a></td><td class="num posts">{rng.randint(1, 200)}</td>'
            f'<td class="num views">{rng.randint(20, 9000)}</td>'
            f'<td class="num age">{rng.randint(1, 30)}d</td></tr>\n'
        )
    html = (
        head("Latest Electronics topics - Tinkerers Forum")
        + "<body>\n"
        + '<header class="d-header"><a href="/">Tinkerers</a> <a href="/login">Log In</a></header>'
        + '<div class="category-nav"><a href="/latest">Latest</a> <a href="/top">Top</a> '
        + '<a href="/categories">Categories</a></div>\n'
        + '<div id="main-outlet"><h1>Electronics</h1>'
        + '<table class="topic-list"><thead><tr><th>Topic</th><th></th><th>Replies</th>'
        + "<th>Views</th><th>Activity</th></tr></thead><tbody>\n"
        + "".join(rows)
        + "</tbody></table></div>\n"
        + small_footer("Tinkerers")
        + scripts()
    )
    return html, base, items


def hn_like(rng: random.Random) -> Page:
    """Two table rows per story (title row, then a subtext row)."""
    base = "https://news.byteboard.example/"
    words = ["Rust", "Postgres", "SQLite", "WebAssembly", "Linux", "Kubernetes", "Python", "Zig"]
    verbs = [
        "internals explained",
        "is faster than you think",
        "in production",
        "from scratch",
        "release notes",
        "a retrospective",
        "at scale",
        "for beginners",
    ]
    pool = [f"{w} {v}" for w in words for v in verbs]
    rng.shuffle(pool)
    items: list[Label] = []
    rows = []
    for i, title in enumerate(pool[:30]):
        sid = 41000000 + i * 13
        site = rng.choice(["blog.example", "dev.example", "papers.example", "lwn.example"])
        url = f"https://{site}/{slug(title)}"
        items.append(label(title, url))
        rows.append(
            f'<tr class="athing" id="{sid}"><td class="title"><span class="rank">{i + 1}.</span>'
            f'</td><td class="votelinks"><a id="up_{sid}" href="vote?id={sid}&amp;how=up">'
            f'<div class="votearrow" title="upvote"></div></a></td><td class="title">'
            f'<span class="titleline"><a href="{url}">{e(title)}</a><span class="sitebit comhead">'
            f' (<a href="from?site={site}"><span class="sitestr">{site}</span></a>)</span></span>'
            f'</td></tr>\n<tr><td colspan="2"></td><td class="subtext"><span class="subline">'
            f'<span class="score">{rng.randint(5, 900)} points</span> by '
            f'<a href="user?id=u{i}" class="hnuser">u{i}</a> <span class="age">'
            f'<a href="item?id={sid}">{rng.randint(1, 12)} hours ago</a></span> | '
            f'<a href="item?id={sid}">{rng.randint(0, 400)}&nbsp;comments</a></span></td></tr>\n'
            '<tr class="spacer" style="height:5px"></tr>\n'
        )
    html = (
        head("Byteboard News")
        + '<body><center><table id="hnmain"><tr><td><table><tr><td><a href="/"><b>Byteboard'
        + '</b></a> <a href="newest">new</a> | <a href="front">past</a> | <a href="ask">ask</a>'
        + ' | <a href="show">show</a> | <a href="jobs">jobs</a></td></tr></table></td></tr>\n'
        + '<tr><td><table class="itemlist">\n'
        + "".join(rows)
        + '<tr><td colspan="2"></td><td class="title"><a href="?p=2" class="morelink" '
        + 'rel="next">More</a></td></tr>\n'
        + "</table></td></tr></table></center>\n"
        + scripts()
    )
    return html, base, items


# --- Plans --------------------------------------------------------------------------------


def pricing_plans(rng: random.Random) -> Page:
    base = "https://www.shipfast.example/pricing"
    plans = [("Starter", 0), ("Team", 29), ("Business", 99)]
    items = [label(n, "https://www.shipfast.example/signup", float(p), "USD") for n, p in plans]
    cols = []
    for name, price in plans:
        features = "".join(
            f"<li>{f}</li>"
            for f in rng.sample(
                [
                    "Unlimited projects",
                    "SSO",
                    "Audit log",
                    "API access",
                    "Priority support",
                    "10 GB storage",
                    "Custom domains",
                    "Analytics",
                ],
                4,
            )
        )
        cols.append(
            f'<div class="plan{" plan--featured" if name == "Team" else ""}">'
            f'<h3 class="plan-name">{name}</h3><p class="plan-price"><span class="amount">'
            f'${price}</span>/mo</p><p class="plan-desc">Everything you need to ship.</p>'
            f'<ul class="plan-features">{features}</ul>'
            f'<a class="btn" href="/signup">Get started</a></div>\n'
        )
    faq = "".join(
        f'<details class="faq"><summary>{q}</summary><p>Yes. <a href="/docs/{slug(q)}">'
        f"Read more</a></p></details>\n"
        for q in [
            "Can I cancel anytime?",
            "Do you offer discounts?",
            "Is there a free trial?",
            "Can I change plans?",
        ]
    )
    html = (
        head("Pricing | ShipFast")
        + "<body>\n"
        + simple_header("ShipFast", ["Product", "Pricing", "Docs", "Blog", "Changelog"])
        + '<main><section class="hero"><h1>Simple pricing</h1><p>Start free, upgrade anytime.</p>'
        + '</section>\n<section class="plans">\n'
        + "".join(cols)
        + '</section>\n<section class="faqs"><h2>FAQ</h2>'
        + faq
        + "</section></main>\n"
        + big_footer("ShipFast", 3)
        + scripts()
    )
    return html, base, items


def pricing_plans_tailwind(rng: random.Random) -> Page:
    base = "https://app.notewise.example/pricing"
    plans = [("Free", 0.0), ("Plus", 8.0), ("Pro", 15.0), ("Enterprise", None)]
    items = []
    cols = []
    for name, price in plans:
        url = f"https://app.notewise.example/checkout?plan={name.lower()}"
        if price is None:
            url = "https://app.notewise.example/contact-sales"
        items.append(label(name, url, price, "EUR" if price is not None else None))
        amount = f"€{price:g}" if price is not None else "Custom"
        cols.append(
            '<div class="flex flex-col rounded-3xl p-8 ring-1 ring-gray-200 xl:p-10">'
            f'<h3 class="text-lg font-semibold leading-8 text-gray-900">{name}</h3>'
            '<p class="mt-4 text-sm leading-6 text-gray-600">For individuals and teams.</p>'
            f'<p class="mt-6 flex items-baseline gap-x-1"><span class="text-4xl font-bold '
            f'tracking-tight text-gray-900">{amount}</span>'
            + (
                '<span class="text-sm font-semibold text-gray-600">/month</span>'
                if price is not None
                else ""
            )
            + f'</p><a href="{url.replace("https://app.notewise.example", "")}" '
            'class="mt-6 block rounded-md bg-indigo-600 px-3 py-2 text-center text-sm">'
            f"{'Contact sales' if price is None else 'Buy plan'}</a>"
            '<ul class="mt-8 space-y-3 text-sm leading-6 text-gray-600">'
            "<li>Unlimited notes</li><li>Sync across devices</li><li>Version history</li></ul>"
            "</div>\n"
        )
    html = (
        head("Pricing — Notewise")
        + '<body class="bg-white">\n'
        + '<header class="absolute inset-x-0 top-0 z-50"><nav class="flex items-center '
        + 'justify-between p-6"><a href="/" class="-m-1.5 p-1.5">Notewise</a>'
        + '<div class="flex gap-x-12"><a href="/features">Features</a><a href="/pricing">'
        + 'Pricing</a><a href="/blog">Blog</a></div></nav></header>\n'
        + '<div class="mx-auto max-w-7xl px-6"><h1 class="text-4xl">Pricing plans</h1>'
        + '<div class="isolate mx-auto mt-10 grid max-w-md grid-cols-1 gap-8 lg:grid-cols-4">\n'
        + "".join(cols)
        + "</div></div>\n"
        + small_footer("Notewise")
        + scripts()
    )
    return html, base, items


# --- News, events, search -----------------------------------------------------------------

TOPICS = [
    "Council",
    "Harbour",
    "Rail line",
    "School board",
    "Local market",
    "Museum",
    "Bridge repairs",
    "Library",
    "Football club",
    "Festival",
    "Storm",
    "Housing plan",
]
ACTIONS = [
    "approves new budget",
    "reopens after renovation",
    "faces delays",
    "wins award",
    "announces expansion",
    "draws record crowds",
    "sparks debate",
    "gets funding",
]


def headline(rng: random.Random) -> str:
    return f"{rng.choice(TOPICS)} {rng.choice(ACTIONS)}"


def news_list(rng: random.Random) -> Page:
    base = "https://www.baytimes.example/local/"
    items: list[Label] = []
    arts = []
    heads = names(rng, 34, headline)
    for i, h in enumerate(heads[:26]):
        url = f"https://www.baytimes.example/local/2026/11/{slug(h)}-{i}/"
        items.append(label(h, url))
        img = (
            f'<figure><a href="{url}"><img src="/images/{slug(h)}.jpg" alt=""></a></figure>'
            if i % 3
            else ""
        )
        arts.append(
            f'<article class="story">{img}<div class="story-body">'
            f'<a class="kicker" href="/local/">Local</a><h2 class="headline">'
            f'<a href="{url}">{e(h)}</a></h2><p class="dek">The decision came after months of '
            f'consultation with residents and businesses.</p><span class="byline">By Sam '
            f'Reporter</span> <time datetime="2026-11-{1 + i % 20:02d}">Nov {1 + i % 20}</time>'
            "</div></article>\n"
        )
    most_read = "".join(
        f'<li><a href="/local/2026/10/{slug(h)}/">{e(h)}</a></li>' for h in heads[26:]
    )
    html = (
        head("Local news | The Bay Times")
        + "<body>\n"
        + mega_menu(rng, "The Bay Times")
        + '<div class="page"><main class="column-main"><h1>Local</h1>\n'
        + "".join(arts)
        + '<a class="load-more" href="/local/page/2/">Older stories</a></main>\n'
        + '<aside class="sidebar"><section class="most-read"><h2>Most read</h2><ol>'
        + most_read
        + "</ol></section></aside></div>\n"
        + newsletter()
        + big_footer("The Bay Times")
        + scripts()
    )
    return html, base, items


def events_list(rng: random.Random) -> Page:
    base = "https://www.harbourhall.example/whats-on"
    acts = [
        "The Tidal Band",
        "Orchestra Nova",
        "Comedy Night",
        "Jazz Trio Blue",
        "Folk Sessions",
        "Poetry Slam",
        "Choir of the Bay",
        "Late Night Disco",
        "Piano Recital",
        "Film Club",
        "Puppet Theatre",
        "String Quartet",
        "Magic Show",
        "Open Mic",
        "Tango Evening",
    ]
    items: list[Label] = []
    lis = []
    lds = []
    for i, act in enumerate(acts):
        day = 3 + i
        url = f"https://www.harbourhall.example/events/{slug(act)}-2026-12-{day:02d}"
        price = float(rng.choice([12, 15, 18, 22, 25, 30]))
        items.append(label(act, url, price, "GBP"))
        lis.append(
            f'<li class="event-item"><div class="event-date"><span class="day">{day}</span>'
            f'<span class="month">Dec</span></div><div class="event-info"><h3>'
            f'<a href="/events/{slug(act)}-2026-12-{day:02d}">{e(act)}</a></h3>'
            f'<p class="venue">Main Hall · 19:30</p><p class="from">Tickets from £{price:.2f}</p>'
            f'</div><a class="button" href="/events/{slug(act)}-2026-12-{day:02d}#book">'
            "Book now</a></li>\n"
        )
        lds.append(
            {
                "@type": "Event",
                "name": act,
                "url": url,
                "startDate": f"2026-12-{day:02d}T19:30:00+00:00",
                "location": {
                    "@type": "Place",
                    "name": "Harbour Hall",
                    "address": {"@type": "PostalAddress", "addressLocality": "Portsmouth"},
                },
                "offers": {"@type": "Offer", "price": str(price), "priceCurrency": "GBP"},
            }
        )
    ld = json.dumps({"@context": "https://schema.org", "@graph": lds})
    html = (
        head(
            "What's on | Harbour Hall",
            "en-GB",
            f'<script type="application/ld+json">{ld}</script>\n',
        )
        + "<body>\n"
        + simple_header("Harbour Hall", ["What's on", "Visit", "Hire", "Support us"])
        + '<main><h1>What\'s on</h1><ul class="event-list">\n'
        + "".join(lis)
        + "</ul></main>\n"
        + big_footer("Harbour Hall", 2)
        + scripts()
    )
    return html, base, items


def search_results(rng: random.Random) -> Page:
    base = "https://find.seekr.example/search?q=sourdough+starter"
    sites = [
        "bakingnotes.example",
        "breadlab.example",
        "kitchenwiki.example",
        "homecook.example",
        "flourandwater.example",
        "crumbjournal.example",
    ]
    titles = [
        "How to make a sourdough starter from scratch",
        "Sourdough starter troubleshooting",
        "Feeding schedule for a healthy starter",
        "Why is my starter not rising?",
        "Rye vs wheat starters compared",
        "Storing sourdough starter in the fridge",
        "Dehydrating your starter for travel",
        "Sourdough starter hydration explained",
        "The science of wild yeast",
        "Reviving a neglected starter",
    ]
    items: list[Label] = []
    blocks = []
    for i, t in enumerate(titles):
        site = sites[i % len(sites)]
        url = f"https://{site}/{slug(t)}"
        items.append(label(t, url))
        blocks.append(
            f'<div class="result"><div class="result__head"><a href="{url}">'
            f'<h3 class="result__title">{e(t)}</h3><cite>{site} › {slug(t)[:20]}</cite></a>'
            f'</div><div class="result__snippet">Nov 2026 — A step by step guide. Mix flour and '
            f"water, wait, feed daily...</div></div>\n"
        )
    related = "".join(
        f'<a class="related" href="/search?q={slug(x)}">{x}</a>'
        for x in ["sourdough bread", "starter jar", "rye starter", "levain", "discard recipes"]
    )
    html = (
        head("sourdough starter - Seekr Search")
        + "<body>\n"
        + '<div id="searchform"><form action="/search"><input name="q" value="sourdough starter">'
        + '</form><div class="tabs"><a href="?tbm=all">All</a><a href="?tbm=img">Images</a>'
        + '<a href="?tbm=news">News</a></div></div>\n'
        + '<div id="results"><p class="stats">About 1,240,000 results</p>\n'
        + "".join(blocks)
        + '</div>\n<div class="related-searches"><h3>Related searches</h3>'
        + related
        + '</div><div class="pager"><a href="?q=sourdough+starter&amp;start=10" '
        + 'aria-label="Next page">Next</a></div>\n'
        + scripts()
    )
    return html, base, items


# --- Real estate, cars, hotels, apps ------------------------------------------------------

STREETS = ["Maple", "Harbor", "Cedar", "Elm", "Lakeview", "Ocean", "Park", "Willow", "Hill"]


def real_estate(rng: random.Random) -> Page:
    base = "https://www.homefinder.example/for-sale/seattle-wa"
    items: list[Label] = []
    cards = []
    used = set()
    for i in range(20):
        while True:
            addr = f"{rng.randint(100, 9999)} {rng.choice(STREETS)} {rng.choice(['St', 'Ave'])}"
            if addr not in used:
                used.add(addr)
                break
        price = float(rng.randint(350, 2400) * 1000)
        lid = 2200000 + i * 41
        url = f"https://www.homefinder.example/homedetails/{slug(addr)}-seattle-wa/{lid}"
        items.append(label(f"{addr}, Seattle, WA 981{i % 90:02d}", url, price, "USD"))
        cards.append(
            f'<li class="ListItem-c11n-8-84"><article data-test="property-card" '
            f'class="StyledPropertyCard-c11n-8-84 srp__sc-15y3msw-0">'
            f'<div class="StyledPropertyCardPhoto"><a href="{url}" tabindex="-1">'
            f'<img src="https://photos.homefinder.example/{lid}.jpg" alt="{e(addr)}"></a></div>'
            f'<div class="StyledPropertyCardDataWrapper"><a href="{url}" '
            f'class="property-card-link"><address data-test="property-card-addr">{e(addr)}, '
            f'Seattle, WA 981{i % 90:02d}</address></a><div class="PropertyCardWrapper">'
            f'<span data-test="property-card-price">${price:,.0f}</span></div>'
            f'<ul class="StyledPropertyCardHomeDetailsList"><li><b>{rng.randint(1, 5)}</b> bds'
            f"</li><li><b>{rng.randint(1, 4)}</b> ba</li><li><b>{rng.randint(600, 3800):,}</b> "
            "sqft</li></ul><div>House for sale</div></div></article></li>\n"
        )
    html = (
        head("Seattle WA Real Estate - Homes For Sale | HomeFinder")
        + "<body>\n"
        + simple_header("HomeFinder", ["Buy", "Rent", "Sell", "Home Loans", "Agent finder"])
        + '<div id="search-page-list-container"><h1>Seattle WA Real Estate &amp; Homes For Sale'
        + '</h1><span class="result-count">20 results</span>'
        + '<ul class="List-c11n-8-84 photo-cards">\n'
        + "".join(cards)
        + "</ul></div>\n"
        + pagination("/for-sale/seattle-wa", 1, 20)
        + big_footer("HomeFinder")
        + scripts()
    )
    return html, base, items


def car_listings_tailwind(rng: random.Random) -> Page:
    base = "https://www.motorlot.example/used-cars?make=all"
    makes = [
        ("Toyota", ["Corolla LE", "Camry SE", "RAV4 XLE"]),
        ("Honda", ["Civic EX", "CR-V"]),
        ("Ford", ["F-150 XLT", "Escape SE"]),
        ("Mazda", ["CX-5 Touring", "Mazda3"]),
        ("Subaru", ["Outback", "Forester"]),
        ("Kia", ["Sportage LX", "Telluride"]),
    ]
    pool = [f"{y} {mk} {md}" for mk, mds in makes for md in mds for y in (2018, 2020, 2022)]
    rng.shuffle(pool)
    items: list[Label] = []
    cards = []
    for i, name in enumerate(pool[:28]):
        price = float(rng.randint(12, 58) * 1000 - rng.choice([5, 1, 0]))
        vid = f"VH{77000 + i * 3}"
        url = f"https://www.motorlot.example/vehicle/{vid}/{slug(name)}"
        items.append(label(name, url, price, "USD"))
        cards.append(
            '<div class="group relative flex flex-col overflow-hidden rounded-lg border '
            'border-gray-200 bg-white">'
            '<div class="aspect-h-3 aspect-w-4 bg-gray-200 sm:aspect-none sm:h-56">'
            f'<img src="https://cdn.motorlot.example/v/{vid}/1.jpg" alt="{e(name)}" '
            'class="h-full w-full object-cover object-center"></div>'
            '<div class="flex flex-1 flex-col space-y-2 p-4">'
            f'<h3 class="text-sm font-medium text-gray-900"><a href="/vehicle/{vid}/'
            f'{slug(name)}"><span aria-hidden="true" class="absolute inset-0"></span>'
            f"{e(name)}</a></h3>"
            f'<p class="text-sm text-gray-500">{rng.randint(8, 120):,},{rng.randint(100, 999)}'
            " mi · Automatic · AWD</p>"
            '<div class="flex flex-1 flex-col justify-end">'
            f'<p class="text-base font-medium text-gray-900">${price:,.0f}</p>'
            '<p class="text-sm italic text-gray-500">Est. $389/mo</p></div></div></div>\n'
        )
    html = (
        head("Used cars for sale | MotorLot")
        + '<body class="antialiased">\n'
        + '<header class="bg-white shadow"><nav class="mx-auto flex max-w-7xl items-center '
        + 'justify-between"><a href="/" class="font-bold">MotorLot</a><div class="hidden '
        + 'lg:flex lg:gap-x-12"><a href="/used-cars">Used</a><a href="/new-cars">New</a>'
        + '<a href="/sell">Sell your car</a><a href="/finance">Finance</a></div></nav></header>\n'
        + '<main class="mx-auto max-w-7xl px-4"><h1 class="text-2xl font-bold">Used cars</h1>'
        + '<div class="grid grid-cols-1 gap-y-4 sm:grid-cols-2 sm:gap-x-6 lg:grid-cols-3">\n'
        + "".join(cards)
        + "</div></main>\n"
        + small_footer("MotorLot")
        + scripts()
    )
    return html, base, items


def hotel_results_hashed(rng: random.Random) -> Page:
    """CSS-in-JS class names and data-testid, prices `€ 142` with a struck price."""
    base = "https://www.staybook.example/searchresults.html?city=Lisbon"
    kinds = ["Hotel", "Suites", "Guesthouse", "Apartments", "Hostel", "Boutique Hotel"]
    places = [
        "Alfama",
        "Baixa",
        "Chiado",
        "Belém",
        "Príncipe Real",
        "Graça",
        "Estrela",
        "Cais do Sodré",
        "Avenida",
        "Lapa",
    ]
    pool = [f"{p} {k}" for p in places for k in kinds]
    rng.shuffle(pool)
    items: list[Label] = []
    cards = []
    for i, name in enumerate(pool[:25]):
        price = float(rng.randint(60, 420))
        hid = f"pt/{slug(name)}"
        url = f"https://www.staybook.example/hotel/{hid}.html"
        items.append(label(name, url, price, "EUR"))
        struck = (
            f'<span class="css-1k8ttp e2kmd31" aria-hidden="true"><s>€ {int(price * 1.3)}</s>'
            "</span>"
            if i % 2
            else ""
        )
        cards.append(
            f'<div data-testid="property-card" class="css-9y6ld0 e1fl9xlg0">'
            f'<div class="css-1m4rxf1"><div class="css-19pf0nk"><a href="/hotel/{hid}.html?'
            f'checkin=2026-12-01" class="css-1kz9zxt"><img class="css-hhr1sk" '
            f'src="https://cf.staybook.example/xdata/{i}.jpg" alt="{e(name)}"></a></div>'
            f'<div class="css-tu8hpx"><div class="css-1qs8vo0"><h3 class="css-a4l9ga">'
            f'<a data-testid="title-link" href="/hotel/{hid}.html?checkin=2026-12-01">'
            f'<div data-testid="title" class="css-f1yzmq">{e(name)}</div></a></h3>'
            f'<span class="css-1x0tz0t">{rng.randint(1, 5)} km from centre</span></div>'
            f'<div data-testid="review-score" class="css-m9v0ph"><div class="css-1ex8ih8">'
            f"{rng.randint(70, 96) / 10}</div><div>Very good</div></div>"
            f'<div class="css-1y1y8q2">{struck}<span data-testid="price-and-discounted-price" '
            f'class="css-1eabs7w">€ {int(price)}</span><div class="css-wzv7hn">Includes taxes '
            "and charges</div></div></div></div></div>\n"
        )
    html = (
        head("Hotels in Lisbon | StayBook", "en-GB")
        + "<body>\n"
        + '<header class="css-1u0lyn3"><nav class="css-fe5hz4"><a href="/">StayBook</a>'
        + '<a href="/flights">Flights</a><a href="/cars">Car rental</a>'
        + '<a href="/attractions">Attractions</a><a href="/signin">Sign in</a></nav></header>\n'
        + '<div class="css-5hs2wq"><div class="css-18l9kqj"><h1 class="css-v1f3oa">Lisbon: 25 '
        + 'properties found</h1><div class="css-7ecu9e">'
        + "".join(cards)
        + "</div></div></div>\n"
        + small_footer("StayBook")
        + scripts()
    )
    # links carry a query string; the label keeps the link as written on the page
    items = [dict(it, url=it["url"] + "?checkin=2026-12-01") for it in items]
    return html, base, items


def app_store(rng: random.Random) -> Page:
    base = "https://apps.marketplace.example/store/category/productivity"
    first = ["Focus", "Task", "Note", "Calendar", "Habit", "Budget", "Scan", "Mind", "Sleep"]
    second = ["Flow", "Pad", "Buddy", "Master", "Pro", "Hub", "Keeper", "Lab"]
    pool = [a + b for a in first for b in second]
    rng.shuffle(pool)
    items: list[Label] = []
    cards = []
    for i, name in enumerate(pool[:30]):
        free = i % 3 != 0
        price = None if free else rng.choice([0.99, 2.99, 4.99, 9.99])
        url = f"https://apps.marketplace.example/store/apps/details?id=com.dev{i}.{name.lower()}"
        if price is None:  # "Free" in the price element: 0, no currency
            items.append({"title": name, "url": url, "price": 0, "currency": None})
        else:
            items.append(label(name, url, price, "USD"))
        cards.append(
            f'<a class="app-tile" href="/store/apps/details?id=com.dev{i}.{name.lower()}">'
            f'<img class="app-icon" src="/icons/{name.lower()}.png" alt="">'
            f'<div class="app-meta"><span class="app-name">{e(name)}</span>'
            f'<span class="app-dev">Dev Studio {i}</span><span class="app-rating">'
            f'{rng.randint(30, 49) / 10} ★</span><span class="app-price">'
            f"{'Free' if free else f'${price}'}</span></div></a>\n"
        )
    html = (
        head("Productivity apps - Marketplace")
        + "<body>\n"
        + '<nav class="store-nav"><a href="/store/games">Games</a><a href="/store/apps">Apps</a>'
        + '<a href="/store/movies">Movies</a><a href="/store/books">Books</a>'
        + '<a href="/store/kids">Kids</a></nav>\n'
        + '<div class="chips"><a href="?c=top">Top free</a><a href="?c=paid">Top paid</a>'
        + '<a href="?c=grossing">Top grossing</a></div>\n'
        + '<main><h1>Productivity</h1><div class="app-grid">\n'
        + "".join(cards)
        + "</div></main>\n"
        + small_footer("Marketplace")
        + scripts()
    )
    return html, base, items


# --- Structured data ----------------------------------------------------------------------


def jsonld_itemlist_urls(rng: random.Random) -> Page:
    """An ItemList of ListItems with url+name; the HTML cards carry prices (ld has none)."""
    base = "https://www.gearloft.example/climbing/ropes"
    pool = names(
        rng, 16, lambda r: f"{r.choice(ADJ)} {r.randint(8, 11)}.{r.randint(1, 9)} mm Dynamic Rope"
    )
    items: list[Label] = []
    elements = []
    cards = []
    for i, name in enumerate(pool):
        url = f"https://www.gearloft.example/p/{slug(name)}"
        price = money(rng, 90, 380)
        items.append(label(name, url, price, "USD"))
        elements.append({"@type": "ListItem", "position": i + 1, "url": url, "name": name})
        cards.append(
            f'<div class="product-tile"><a href="{url}"><img src="/img/{slug(name)}.jpg" '
            f'alt="{e(name)}"><p class="product-tile-name">{e(name)}</p></a>'
            f'<p class="product-tile-price">{us(price)}</p></div>\n'
        )
    ld = {"@context": "https://schema.org", "@type": "ItemList", "itemListElement": elements}
    html = (
        head(
            "Climbing Ropes | GearLoft",
            extra='<script type="application/ld+json">' + json.dumps(ld) + "</script>\n",
        )
        + "<body>\n"
        + mega_menu(rng, "GearLoft")
        + '<main><h1>Climbing ropes</h1><div class="product-tiles">'
        + "".join(cards)
        + "</div></main>\n"
        + big_footer("GearLoft")
        + scripts()
    )
    return html, base, items


def jsonld_itemlist_products(rng: random.Random) -> Page:
    """ItemList of ListItem.item Products with offers; the HTML is an app-rendered grid
    of hashed divs with no price markup the heuristic could read reliably."""
    base = "https://www.outdoorly.example/tents"
    pool = names(rng, 22, lambda r: f"{r.choice(ADJ)} {r.randint(1, 6)}-Person Tent")
    items: list[Label] = []
    elements = []
    for i, name in enumerate(pool):
        url = f"https://www.outdoorly.example/products/{slug(name)}"
        price = money(rng, 79, 899)
        items.append(label(name, url, price, "EUR"))
        elements.append(
            {
                "@type": "ListItem",
                "position": i + 1,
                "item": {
                    "@type": "Product",
                    "name": name,
                    "url": url,
                    "image": f"https://cdn.outdoorly.example/{slug(name)}.jpg",
                    "sku": f"T{i:04d}",
                    "offers": {
                        "@type": "Offer",
                        "price": f"{price:.2f}",
                        "priceCurrency": "EUR",
                        "availability": "https://schema.org/InStock"
                        if i % 5
                        else "https://schema.org/OutOfStock",
                    },
                },
            }
        )
    ld = {"@context": "https://schema.org", "@type": "ItemList", "itemListElement": elements}
    grid = "".join(
        f'<div class="sc-a1b2c3"><a class="sc-d4e5f6" href="{it["url"]}">'
        f'<div class="sc-g7h8i9">{e(it["title"])}</div></a><div class="sc-j1k2l3">'
        f"{eu(it['price'])}</div></div>\n"
        for it in items
    )
    html = (
        head(
            "Tents | Outdoorly",
            "en-IE",
            '<script type="application/ld+json">' + json.dumps(ld) + "</script>\n",
        )
        + '<body><div id="__next">\n'
        + simple_header("Outdoorly", ["Tents", "Sleeping bags", "Stoves", "Packs"])
        + '<div class="sc-m3n4o5"><h1>Tents</h1>'
        + grid
        + "</div>"
        + small_footer("Outdoorly")
        + "</div>"
        + scripts()
    )
    return html, base, items


def jsonld_category_only(rng: random.Random) -> Page:
    """JSON-LD describes only the category (one Product with an AggregateOffer and a
    BreadcrumbList); the items are in the HTML."""
    base = "https://www.teahouse.example/collections/green-tea"
    origins = [
        "Sencha",
        "Gyokuro",
        "Matcha",
        "Longjing",
        "Bancha",
        "Genmaicha",
        "Hojicha",
        "Kukicha",
        "Biluochun",
        "Maofeng",
        "Gunpowder",
        "Jasmine Pearls",
    ]
    items: list[Label] = []
    cards = []
    for _i, name in enumerate(origins):
        full = f"{name} {rng.choice(['Premium', 'Organic', 'First Flush', 'Reserve'])} 100g"
        url = f"https://www.teahouse.example/products/{slug(full)}"
        price = money(rng, 6, 48)
        items.append(label(full, url, price, "GBP"))
        cards.append(
            f'<li class="collection-item"><a href="/products/{slug(full)}" class="item-link">'
            f'<img src="/files/{slug(full)}.jpg" alt="{e(full)}"><h2 class="item-title">'
            f'{e(full)}</h2></a><p class="item-price">£{price:.2f}</p></li>\n'
        )
    ld = [
        {
            "@context": "https://schema.org",
            "@type": "Product",
            "name": "Green tea",
            "description": "Our collection of green teas",
            "offers": {
                "@type": "AggregateOffer",
                "lowPrice": "6.00",
                "highPrice": "48.00",
                "priceCurrency": "GBP",
                "offerCount": len(origins),
            },
        },
        {
            "@context": "https://schema.org",
            "@type": "BreadcrumbList",
            "itemListElement": [
                {
                    "@type": "ListItem",
                    "position": 1,
                    "name": "Home",
                    "item": "https://www.teahouse.example/",
                },
                {
                    "@type": "ListItem",
                    "position": 2,
                    "name": "Green tea",
                    "item": "https://www.teahouse.example/collections/green-tea",
                },
                {
                    "@type": "ListItem",
                    "position": 3,
                    "name": "All",
                    "item": "https://www.teahouse.example/collections/green-tea?all",
                },
            ],
        },
    ]
    html = (
        head(
            "Green tea | The Teahouse",
            "en-GB",
            "".join(f'<script type="application/ld+json">{json.dumps(x)}</script>\n' for x in ld),
        )
        + "<body>\n"
        + simple_header("The Teahouse", ["Green tea", "Black tea", "Oolong", "Teaware"])
        + '<main><h1>Green tea</h1><ul class="collection-grid">\n'
        + "".join(cards)
        + "</ul></main>\n"
        + big_footer("The Teahouse", 2)
        + scripts()
    )
    return html, base, items


def jsonld_partial(rng: random.Random) -> Page:
    """JSON-LD lists only 3 featured products; the page shows 32 cards."""
    base = "https://www.pixelshop.example/monitors"
    pool = names(
        rng,
        32,
        lambda r: (
            f"{r.choice(['Vista', 'Aero', 'Prism', 'Nimbus', 'Ultra'])} "
            f'{r.choice([24, 27, 32, 34])}" {r.choice(["QHD", "4K", "FHD"])} Monitor '
            f"{r.randint(100, 999)}"
        ),
    )
    items: list[Label] = []
    cards = []
    for name in pool:
        url = f"https://www.pixelshop.example/product/{slug(name)}"
        price = money(rng, 129, 1499)
        items.append(label(name, url, price, "USD"))
        cards.append(
            f'<div class="card product"><a href="{url}"><img src="/p/{slug(name)}.png" alt=""></a>'
            f'<div class="card-body"><h5 class="card-title"><a href="{url}">{e(name)}</a></h5>'
            f'<p class="card-text price">{us(price)}</p><a href="{url}" class="btn btn-primary">'
            "View</a></div></div>\n"
        )
    featured = [
        {
            "@type": "Product",
            "name": it["title"],
            "url": it["url"],
            "offers": {"@type": "Offer", "price": it["price"], "priceCurrency": "USD"},
        }
        for it in items[:3]
    ]
    ld = {"@context": "https://schema.org", "@graph": featured}
    html = (
        head(
            "Monitors | PixelShop",
            extra='<script type="application/ld+json">' + json.dumps(ld) + "</script>\n",
        )
        + "<body>\n"
        + simple_header("PixelShop", ["Monitors", "Laptops", "Keyboards", "Deals"])
        + '<div class="container"><h1>Monitors</h1><div class="row row-cols-4">'
        + "".join(f'<div class="col">{c}</div>' for c in cards)
        + "</div></div>\n"
        + small_footer("PixelShop")
        + scripts()
    )
    return html, base, items


def microdata_grid(rng: random.Random) -> Page:
    base = "https://www.paperandink.example/notebooks"
    pool = names(
        rng,
        18,
        lambda r: (
            f"{r.choice(ADJ)} {r.choice(['A5', 'A4', 'B6'])} "
            f"{r.choice(['Dotted', 'Lined', 'Grid', 'Blank'])} Notebook"
        ),
    )
    items: list[Label] = []
    cards = []
    for name in pool:
        url = f"https://www.paperandink.example/item/{slug(name)}"
        price = money(rng, 8, 45)
        items.append(label(name, url, price, "EUR"))
        cards.append(
            f'<div class="cell" itemscope itemtype="https://schema.org/Product">'
            f'<a itemprop="url" href="/item/{slug(name)}"><img itemprop="image" '
            f'src="/img/{slug(name)}.jpg" alt=""><span itemprop="name">{e(name)}</span></a>'
            f'<div itemprop="offers" itemscope itemtype="https://schema.org/Offer">'
            f'<meta itemprop="priceCurrency" content="EUR"><span itemprop="price" '
            f'content="{price:.2f}">{eu(price)}</span><link itemprop="availability" '
            'href="https://schema.org/InStock"></div></div>\n'
        )
    html = (
        head("Notebooks | Paper & Ink", "nl-NL")
        + "<body>\n"
        + simple_header("Paper & Ink", ["Notebooks", "Pens", "Ink", "Gifts", "Blog"])
        + '<main><h1>Notebooks</h1><div class="cells">'
        + "".join(cards)
        + "</div></main>\n"
        + big_footer("Paper & Ink", 2)
        + scripts()
    )
    return html, base, items


def rdfa_list(rng: random.Random) -> Page:
    base = "https://www.vinylvault.example/genre/jazz"
    artists = [
        "Miles Ahead Quartet",
        "Blue Lantern",
        "Nina & The Owls",
        "Harbor Swing",
        "Cool Breeze Trio",
        "Night Owl Big Band",
        "The Velvet Keys",
        "Moonlight Sextet",
        "Sax Appeal",
        "Bebop Junction",
        "Smoke Rings",
        "Late Tram",
        "Copper Horn",
    ]
    items: list[Label] = []
    cards = []
    for i, artist in enumerate(artists):
        title = f"{artist} – Live at the Vault"
        url = f"https://www.vinylvault.example/record/{slug(artist)}-{i}"
        price = float(rng.choice([19, 22, 24, 27, 32]))
        items.append(label(title, url, price, "GBP"))
        cards.append(
            f'<div class="record" typeof="Product" resource="{url}">'
            f'<img property="image" src="/covers/{slug(artist)}.jpg" alt="">'
            f'<h3 property="name"><a property="url" href="{url}">{e(title)}</a></h3>'
            f'<div property="offers" typeof="Offer"><span property="priceCurrency" '
            f'content="GBP">£</span><span property="price" content="{price:.2f}">{price:.2f}'
            "</span></div></div>\n"
        )
    html = (
        head("Jazz vinyl | Vinyl Vault", "en-GB")
        + '<body vocab="https://schema.org/">\n'
        + simple_header("Vinyl Vault", ["New in", "Jazz", "Rock", "Soul", "Classical"])
        + '<main><h1>Jazz</h1><div class="records">'
        + "".join(cards)
        + "</div></main>\n"
        + small_footer("Vinyl Vault")
        + scripts()
    )
    return html, base, items


# --- Soup ---------------------------------------------------------------------------------


def div_soup_hashed(rng: random.Random) -> Page:
    """React app output: nested wrappers, css-xxxx classes, no semantic tags at all."""
    base = "https://www.freshcart.example/aisle/snacks"
    snacks = [
        "Sea Salt Crisps",
        "Dark Chocolate Bar",
        "Trail Mix",
        "Rice Cakes",
        "Oat Bites",
        "Pretzel Twists",
        "Salted Almonds",
        "Veggie Straws",
        "Popcorn",
        "Granola Bar",
        "Dried Mango",
        "Hummus Chips",
        "Peanut Butter Cups",
        "Cheddar Crackers",
        "Banana Chips",
        "Fruit Leather",
        "Seaweed Snack",
        "Protein Balls",
    ]
    brands = ["Crunchy Co", "Nibble", "Good Grain", "Munchly"]
    items: list[Label] = []
    tiles = []
    for i, s in enumerate(snacks):
        name = f"{rng.choice(brands)} {s} {rng.choice(['150g', '200g', '6 pack', '90g'])}"
        url = f"https://www.freshcart.example/product/{slug(name)}-{9000 + i}"
        price = rng.choice([1.25, 2.49, 3.0, 3.79, 4.5, 5.99])
        items.append(label(name, url, price, "GBP"))
        tiles.append(
            f'<div class="css-1dbjc4n r-1awozwy"><div class="css-1dbjc4n r-18u37iz">'
            f'<div class="css-1dbjc4n"><a href="/product/{slug(name)}-{9000 + i}" '
            f'class="css-4rbku5 css-18t94o4"><div class="css-1dbjc4n r-1p0dtai">'
            f'<img alt="" src="https://img.freshcart.example/{9000 + i}.jpg" class="css-9pa8cd">'
            f'</div></a></div><div class="css-1dbjc4n r-1iusvr4"><div dir="auto" '
            f'class="css-901oao r-1qd0xha">{e(name)}</div><div dir="auto" class="css-901oao '
            f'r-a023e6">£{price:.2f}</div><div dir="auto" class="css-901oao r-1b43r93">'
            f'£{price * 4:.2f}/kg</div></div><div class="css-1dbjc4n"><div role="button" '
            'class="css-18t94o4">Add</div></div></div></div>\n'
        )
    html = (
        head("Snacks | FreshCart", "en-GB")
        + '<body><div id="root"><div class="css-1dbjc4n r-13awgt0">'
        + '<div class="css-1dbjc4n r-1pi2tsx"><a href="/" class="css-4rbku5">FreshCart</a>'
        + '<a href="/aisle/fruit" class="css-4rbku5">Fruit</a><a href="/aisle/bakery" '
        + 'class="css-4rbku5">Bakery</a><a href="/aisle/snacks" class="css-4rbku5">Snacks</a>'
        + '<a href="/aisle/drinks" class="css-4rbku5">Drinks</a></div>'
        + '<div class="css-1dbjc4n r-1jgb5lz"><div dir="auto" class="css-901oao">Snacks</div>'
        + "".join(tiles)
        + "</div></div></div>\n"
        + scripts()
    )
    return html, base, items


def mega_menu_shop(rng: random.Random) -> Page:
    """A short listing (12 items) under a mega menu of 150+ links and a fat footer."""
    base = "https://www.urbanthread.example/women/knitwear"
    items: list[Label] = []
    lis = []
    for i, name in enumerate(
        names(
            rng,
            12,
            lambda r: (
                f"{r.choice(ADJ)} "
                f"{r.choice(['Merino', 'Cashmere', 'Cotton'])} "
                f"{r.choice(['Jumper', 'Cardigan', 'Turtleneck', 'Vest'])}"
            ),
        )
    ):
        url = f"https://www.urbanthread.example/women/knitwear/{slug(name)}-p{i + 100}"
        price = money(rng, 29, 189)
        items.append(label(name, url, price, "GBP"))
        lis.append(
            f'<li class="plp-item"><a href="{url}"><div class="plp-img"><img data-srcset='
            f'"/m/{slug(name)}-400.jpg 400w, /m/{slug(name)}-800.jpg 800w" alt="{e(name)}"></div>'
            f'<p class="plp-name">{e(name)}</p></a><p class="plp-price">£{price:.2f}</p>'
            '<ul class="swatches"><li><a href="?c=black">Black</a></li><li><a href="?c=grey">'
            "Grey</a></li></ul></li>\n"
        )
    html = (
        head("Women's Knitwear | Urban Thread", "en-GB")
        + "<body>\n"
        + cookie_banner()
        + mega_menu(rng, "Urban Thread", big=True)
        + '<div class="plp"><h1>Knitwear</h1>'
        + filters_sidebar(
            rng,
            {
                "Size": ["XS", "S", "M", "L", "XL"],
                "Colour": ["Black", "Grey", "Navy", "Cream"],
                "Fabric": ["Wool", "Cashmere"],
            },
        )
        + '<ul class="plp-list">'
        + "".join(lis)
        + "</ul></div>\n"
        + '<section class="recently-viewed"><h2>You may also like</h2>'
        + '<div class="carousel"><a href="/x/1">Socks</a><a href="/x/2">Scarves</a>'
        + '<a href="/x/3">Hats</a></div></section>\n'
        + big_footer("Urban Thread", 4)
        + scripts()
    )
    return html, base, items


def changelog_no_images(rng: random.Random) -> Page:
    """Items with no image and no price: a documentation index of guides."""
    base = "https://docs.pipeworks.example/guides/"
    guides = [
        "Installing the CLI",
        "Your first pipeline",
        "Configuring secrets",
        "Running jobs in parallel",
        "Caching dependencies",
        "Deploying to staging",
        "Matrix builds",
        "Self-hosted runners",
        "Artifacts and reports",
        "Scheduled pipelines",
        "Environment variables",
        "Monorepo setups",
        "Debugging failed jobs",
        "Migrating from other CI",
        "Notifications",
    ]
    items: list[Label] = []
    dls = []
    for g in guides:
        url = f"https://docs.pipeworks.example/guides/{slug(g)}/"
        items.append(label(g, url))
        dls.append(
            f'<div class="guide-entry"><h3><a href="{slug(g)}/">{e(g)}</a></h3>'
            f"<p>Learn about {e(g.lower())} with examples and best practices.</p>"
            f'<span class="reading-time">{rng.randint(3, 15)} min read</span></div>\n'
        )
    toc = "".join(
        f'<li><a href="/docs/{slug(x)}/">{x}</a></li>'
        for x in ["Overview", "Concepts", "Reference", "API", "CLI", "Changelog", "FAQ"]
    )
    html = (
        head("Guides - Pipeworks Docs")
        + "<body>\n"
        + simple_header("Pipeworks Docs", ["Docs", "Guides", "API", "Community"])
        + f'<div class="docs"><nav class="toc"><ul>{toc}</ul></nav>'
        + '<article class="content"><h1>Guides</h1><p>Step-by-step guides.</p>'
        + "".join(dls)
        + "</article></div>\n"
        + small_footer("Pipeworks")
        + scripts()
    )
    return html, base, items


def packages_search(rng: random.Random) -> Page:
    """Package registry search: `ul > li` with h3 link, version, description, no prices."""
    base = "https://registry.pkgbox.example/search?q=http"
    parts = ["http", "fetch", "request", "client", "retry", "proxy", "cookie", "agent"]
    pool = [f"{a}-{b}" for a in parts for b in parts if a != b]
    rng.shuffle(pool)
    items: list[Label] = []
    lis = []
    for name in pool[:20]:
        url = f"https://registry.pkgbox.example/package/{name}"
        items.append(label(name, url))
        lis.append(
            f'<li class="package-snippet"><h3 class="package-snippet__title">'
            f'<a href="/package/{name}"><span class="package-snippet__name">{name}</span> '
            f'<span class="package-snippet__version">{rng.randint(0, 9)}.{rng.randint(0, 20)}.'
            f'{rng.randint(0, 9)}</span></a></h3><p class="package-snippet__description">'
            f'A small library for {name.replace("-", " ")}.</p><p class="package-snippet__'
            f'created"><time>Nov {rng.randint(1, 28)}, 2026</time></p></li>\n'
        )
    html = (
        head("Search results · PkgBox")
        + "<body>\n"
        + simple_header("PkgBox", ["Help", "Sponsors", "Log in", "Register"])
        + '<main><div class="left-layout__sidebar"><h2>Filter by classifier</h2><ul>'
        + "".join(f'<li><a href="?c={x}">{x}</a></li>' for x in ["Framework", "Topic", "OS"])
        + '</ul></div><div class="left-layout__main"><p>20 projects for "http"</p>'
        + '<ul class="unstyled" aria-label="Search results">'
        + "".join(lis)
        + "</ul></div></main>\n"
        + big_footer("PkgBox", 3)
        + scripts()
    )
    return html, base, items


def recipes_grid(rng: random.Random) -> Page:
    """Cards whose whole body is one link; image first, title in a span, no price."""
    base = "https://www.simmer.example/recipes/weeknight"
    dishes = [
        "Lemon Chicken",
        "Mushroom Risotto",
        "Beef Tacos",
        "Veggie Curry",
        "Pesto Pasta",
        "Salmon Traybake",
        "Chickpea Stew",
        "Pad Thai",
        "Shakshuka",
        "Minestrone",
        "Teriyaki Tofu",
        "Fish Pie",
        "Stuffed Peppers",
        "Ramen Bowl",
        "Greek Salad",
        "Chilli con Carne",
    ]
    items: list[Label] = []
    cards = []
    for d in dishes:
        url = f"https://www.simmer.example/recipe/{slug(d)}"
        items.append(label(d, url))
        cards.append(
            f'<a class="recipe-card" href="/recipe/{slug(d)}"><div class="recipe-card__img">'
            f'<img src="/r/{slug(d)}.jpg" alt=""></div><span class="recipe-card__name">'
            f'{e(d)}</span><span class="recipe-card__meta">{rng.randint(15, 60)} mins · Easy'
            "</span></a>\n"
        )
    html = (
        head("Weeknight recipes | Simmer")
        + "<body>\n"
        + mega_menu(rng, "Simmer")
        + '<main><h1>Weeknight dinners</h1><section class="recipe-grid">'
        + "".join(cards)
        + "</section></main>\n"
        + newsletter()
        + big_footer("Simmer", 3)
        + scripts()
    )
    return html, base, items


def courses_dl(rng: random.Random) -> Page:
    """Course catalogue as a definition list and a second 'featured' strip of 3."""
    base = "https://learn.codecampus.example/catalog"
    courses = [
        "Intro to Python",
        "SQL Basics",
        "Data Visualisation",
        "Machine Learning 101",
        "Web Accessibility",
        "Git in Practice",
        "Docker Fundamentals",
        "Linux Shell",
        "Statistics for Analysts",
        "JavaScript Essentials",
        "APIs with FastAPI",
        "Cloud Foundations",
        "Testing with Pytest",
        "TypeScript Deep Dive",
    ]
    items: list[Label] = []
    articles = []
    for c in courses:
        url = f"https://learn.codecampus.example/course/{slug(c)}"
        price = float(rng.choice([0, 49, 79, 99, 129]))
        if price:
            items.append(label(c, url, price, "EUR"))
        else:  # shown as "Free": 0, no currency
            items.append({"title": c, "url": url, "price": 0, "currency": None})
        price_html = f"€{price:.0f}" if price else "Free"
        articles.append(
            f'<section class="course"><header class="course-head"><h2><a href="{url}">{e(c)}'
            f"</a></h2></header><p>Self-paced · {rng.randint(2, 12)} weeks</p>"
            f'<p class="course-fee">{price_html}</p></section>\n'
        )
    featured = "".join(
        f'<div class="featured-course"><a href="/course/{slug(c)}">{e(c)}</a></div>'
        for c in courses[:3]
    )
    html = (
        head("Course catalog | CodeCampus")
        + "<body>\n"
        + simple_header("CodeCampus", ["Catalog", "Paths", "For teams", "Pricing"])
        + f'<div class="featured"><h2>Featured</h2>{featured}</div>'
        + "<main><h1>All courses</h1>"
        + "".join(articles)
        + "</main>\n"
        + small_footer("CodeCampus")
        + scripts()
    )
    return html, base, items


def classifieds_table_layout(rng: random.Random) -> Page:
    """An old-style classifieds site: a <table> of listings with price column, no thead."""
    base = "https://www.swapmarket.example/bikes/"
    bikes = [
        "Road bike 56cm",
        "Mountain bike hardtail",
        "Kids bike 20in",
        "Fixie single speed",
        "Touring bike steel",
        "E-bike commuter",
        "BMX freestyle",
        "Gravel bike carbon",
        "Folding bike",
        "Cargo bike",
        "Vintage racer",
        "Hybrid city bike",
    ]
    items: list[Label] = []
    rows = []
    for i, b in enumerate(bikes):
        url = f"https://www.swapmarket.example/ad/{4410 + i}.html"
        price = float(rng.randint(40, 2200))
        items.append(label(b, url, price, "EUR"))
        rows.append(
            f'<tr class="{"odd" if i % 2 else "even"}"><td><img src="/thumbs/{4410 + i}.jpg" '
            f'width="60" alt=""></td><td><a href="/ad/{4410 + i}.html"><b>{e(b)}</b></a><br>'
            f"<small>Amsterdam · {rng.randint(1, 28)} nov</small></td>"
            f'<td align="right"><b>€ {price:,.0f}</b></td></tr>\n'
        )
    html = (
        head("Bikes for sale - SwapMarket", "nl")
        + '<body><table width="100%"><tr><td><a href="/">SwapMarket</a> | <a href="/post">'
        + 'Post an ad</a> | <a href="/help">Help</a></td></tr></table>\n'
        + "<h1>Bikes</h1>\n"
        + '<table class="ads" width="100%" cellpadding="4">\n'
        + "".join(rows)
        + "</table>\n"
        + '<p><a href="?page=2">Next page &raquo;</a></p>\n'
        + small_footer("SwapMarket")
        + scripts()
    )
    return html, base, items


# --- Feeds --------------------------------------------------------------------------------


def rss_feed(rng: random.Random) -> tuple[str, str, list[Label]]:
    base = "https://blog.quietcode.example/feed.xml"
    posts = names(
        rng,
        15,
        lambda r: (
            f"{r.choice(['Notes on', 'Why I like', 'Lessons from', 'A tour of'])} "
            f"{r.choice(['caching', 'queues', 'type hints', 'profiling', 'logging', 'retries'])}"
            f" {r.choice(['in Python', 'at work', 'for small teams', 'revisited'])}"
        ),
    )
    items: list[Label] = []
    entries = []
    for i, t in enumerate(posts):
        url = f"https://blog.quietcode.example/posts/{slug(t)}/"
        items.append(label(t, url))
        entries.append(
            f"<item><title>{e(t)}</title><link>{url}</link>"
            f'<guid isPermaLink="true">{url}</guid>'
            f"<pubDate>Mon, {1 + i:02d} Sep 2026 08:00:00 +0000</pubDate>"
            f"<author>ann@quietcode.example (Ann)</author>"
            f"<description>&lt;p&gt;A post about {e(t.lower())}.&lt;/p&gt;</description></item>\n"
        )
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0">\n<channel>\n'
        "<title>Quiet Code</title><link>https://blog.quietcode.example/</link>"
        "<description>Writing about software</description>\n"
        + "".join(entries)
        + "</channel>\n</rss>\n"
    )
    return xml, base, items


def atom_feed(rng: random.Random) -> tuple[str, str, list[Label]]:
    base = "https://releases.tidewatch.example/atom.xml"
    items: list[Label] = []
    entries = []
    for i in range(12):
        t = f"Tidewatch {3}.{12 - i}.0 released"
        url = f"https://releases.tidewatch.example/v3.{12 - i}.0"
        items.append(label(t, url))
        entries.append(
            f"<entry><id>tag:tidewatch.example,2026:release-3.{12 - i}.0</id>"
            f'<title>{t}</title><link rel="alternate" href="{url}"/>'
            f"<updated>2026-{12 - i:02d}-01T10:00:00Z</updated>"
            f"<author><name>Release bot</name></author>"
            f"<summary>Bug fixes and improvements.</summary></entry>\n"
        )
    xml = (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
        "<title>Tidewatch releases</title><id>tag:tidewatch.example,2026:releases</id>"
        '<updated>2026-12-01T10:00:00Z</updated><link rel="self" href="/atom.xml"/>\n'
        + "".join(entries)
        + "</feed>\n"
    )
    return xml, base, items


# --- Held-out shapes (added after the heuristic was tuned on the pages above) ---------------


def magento_special_price(rng: random.Random) -> Page:
    """Magento: `li.item.product`, `special-price` and `old-price` both in `.price`."""
    base = "https://www.kitchenpro.example/cookware/pans.html"
    items: list[Label] = []
    lis = []
    for i, name in enumerate(
        names(
            rng,
            20,
            lambda r: (
                f"{r.choice(ADJ)} "
                f"{r.choice(['Frying Pan', 'Saucepan', 'Wok', 'Skillet'])} "
                f"{r.choice([20, 24, 28, 32])}cm"
            ),
        )
    ):
        url = f"https://www.kitchenpro.example/{slug(name)}.html"
        price = money(rng, 19, 260)
        items.append(label(name, url, price, "GBP"))
        if i % 2:
            box = (
                f'<span class="special-price"><span class="price-container"><span class="price-label">'
                f'Special Price</span><span data-price-amount="{price}" class="price-wrapper">'
                f'<span class="price">£{price:.2f}</span></span></span></span>'
                f'<span class="old-price"><span class="price-container"><span class="price-label">'
                f'Regular Price</span><span class="price-wrapper"><span class="price">'
                f"£{price + 15:.2f}</span></span></span></span>"
            )
        else:
            box = (
                f'<span class="price-container"><span data-price-amount="{price}" '
                f'class="price-wrapper"><span class="price">£{price:.2f}</span></span></span>'
            )
        lis.append(
            f'<li class="item product product-item"><div class="product-item-info">'
            f'<a href="{url}" class="product photo product-item-photo"><span class="product-image-'
            f'container"><img class="product-image-photo" src="/media/catalog/{slug(name)}.jpg" '
            f'alt="{e(name)}"></span></a><div class="product details product-item-details">'
            f'<strong class="product name product-item-name"><a class="product-item-link" '
            f'href="{url}">{e(name)}</a></strong><div class="price-box price-final_price">{box}'
            f'</div><div class="product-item-actions"><button class="action tocart primary">'
            f'<span>Add to Cart</span></button><a href="/wishlist/add/{i}" class="action '
            f'towishlist">Add to Wish List</a><a href="/compare/add/{i}" class="action tocompare">'
            "Add to Compare</a></div></div></div></li>\n"
        )
    html = (
        head("Pans | KitchenPro", "en-GB")
        + '<body class="catalog-category-view">\n'
        + mega_menu(rng, "KitchenPro", big=True)
        + '<main id="maincontent" class="page-main"><h1 class="page-title">Pans</h1>'
        + '<div class="toolbar toolbar-products"><a href="?product_list_order=price">Price</a>'
        + '<a href="?product_list_mode=list">List</a></div>'
        + '<div class="products wrapper grid products-grid"><ol class="products list items '
        + 'product-items">\n'
        + "".join(lis)
        + "</ol></div>"
        + '<div class="pages"><ul class="items pages-items"><li class="item current"><strong>1'
        + '</strong></li><li class="item"><a class="page" href="?p=2">2</a></li><li class="item '
        + 'pages-item-next"><a class="action next" href="?p=2" title="Next"><span>Next</span>'
        + "</a></li></ul></div></main>\n"
        + big_footer("KitchenPro")
        + scripts()
    )
    return html, base, items


def shopify_sale_nl(rng: random.Random) -> Page:
    """Shopify Dawn sale cards: struck regular price in `s`, sale price after it, `€ 12,95`."""
    base = "https://www.fietsenwinkel.example/collections/accessoires"
    things = [
        "Fietsbel",
        "Achterlicht",
        "Koplamp",
        "Slot",
        "Fietstas",
        "Spatbord",
        "Pomp",
        "Bidon",
        "Zadel",
        "Handvatten",
        "Standaard",
        "Kinderzitje",
    ]
    items: list[Label] = []
    lis = []
    for i, t in enumerate(things):
        name = f"{t} {rng.choice(['Urban', 'Classic', 'Pro', 'City'])}"
        url = f"https://www.fietsenwinkel.example/products/{slug(name)}"
        price = rng.choice([4.95, 12.95, 19.99, 34.5, 59.0, 89.95])
        items.append(label(name, url, price, "EUR"))
        if i % 3 == 0:
            p = (
                '<div class="price price--on-sale"><div class="price__container">'
                '<div class="price__sale"><span class="visually-hidden">Normale prijs</span>'
                f'<span><s class="price-item price-item--regular">{eu(price + 5, "€")}</s></span>'
                '<span class="visually-hidden">Aanbiedingsprijs</span>'
                f'<span class="price-item price-item--sale price-item--last">€ {price:.2f}'
                "</span></div></div></div>"
            ).replace(f"€ {price:.2f}", "€ " + f"{price:.2f}".replace(".", ","))
        else:
            p = (
                '<div class="price"><div class="price__container"><div class="price__regular">'
                '<span class="price-item price-item--regular">€ '
                + f"{price:.2f}".replace(".", ",")
                + "</span></div></div></div>"
            )
        badge = '<span class="badge badge--sale">Uitverkoop</span>' if i % 3 == 0 else ""
        lis.append(
            f'<li class="grid__item"><div class="card-wrapper"><div class="card">'
            f'<div class="card__inner"><div class="card__media"><img src="//cdn.fietsenwinkel.'
            f'example/{slug(name)}.jpg" alt=""></div></div><div class="card__content">'
            f'<div class="card__badge">{badge}</div><h3 class="card__heading"><a href="/products/'
            f'{slug(name)}" class="full-unstyled-link">{e(name)}</a></h3>{p}</div></div></div>'
            "</li>\n"
        )
    html = (
        head("Accessoires – Fietsenwinkel", "nl")
        + "<body>\n"
        + simple_header("Fietsenwinkel", ["Fietsen", "Accessoires", "Onderdelen", "Service"])
        + '<main><h1>Accessoires</h1><ul id="product-grid" class="grid product-grid">\n'
        + "".join(lis)
        + "</ul></main>\n"
        + big_footer("Fietsenwinkel", 2)
        + scripts()
    )
    return html, base, items


def swedish_kronor(rng: random.Random) -> Page:
    base = "https://www.hemochtradgard.example/kategori/belysning"
    words = ["Taklampa", "Golvlampa", "Bordslampa", "Vägglampa", "Fönsterlampa"]
    names_ = ["Ljus", "Skog", "Sjö", "Fjäll", "Björk", "Gran", "Äng"]
    pool = [f"{w} {n}" for w in words for n in names_]
    rng.shuffle(pool)
    items: list[Label] = []
    cards = []
    for name in pool[:24]:
        url = f"https://www.hemochtradgard.example/produkt/{slug(name)}"
        price = float(rng.randint(2, 60) * 50 - 1)
        items.append(label(name, url, price, "SEK"))
        cards.append(
            f'<div class="col-6 col-md-3"><div class="card h-100"><img class="card-img-top" '
            f'src="/bilder/{slug(name)}.jpg" alt="{e(name)}"><div class="card-body">'
            f'<a href="{url}" class="stretched-link text-dark"><h5 class="card-title">{e(name)}'
            f'</h5></a><p class="card-text">{price:,.0f} kr</p>'.replace(",", "\u00a0")
            + "</div></div></div>\n"
        )
    html = (
        head("Belysning | Hem och Trädgård", "sv-SE")
        + "<body>\n"
        + simple_header("Hem och Trädgård", ["Möbler", "Belysning", "Textil", "Trädgård"])
        + '<div class="container"><h1>Belysning</h1><div class="row g-3">\n'
        + "".join(cards)
        + "</div></div>\n"
        + small_footer("Hem och Trädgård")
        + scripts()
    )
    return html, base, items


def blog_archive(rng: random.Random) -> Page:
    """WordPress archive: each post has category, tag, author and comment links and a
    'Continue reading' link; the sidebar has recent posts and an archive list."""
    base = "https://www.slowtravelnotes.example/category/europe/"
    places = [
        "Porto",
        "Ghent",
        "Ljubljana",
        "Bologna",
        "Tallinn",
        "Kraków",
        "Lyon",
        "Girona",
        "Bergen",
        "Split",
        "Graz",
        "Utrecht",
        "Cádiz",
        "Trieste",
    ]
    items: list[Label] = []
    posts = []
    for i, pl in enumerate(places[:10]):
        t = f"{rng.choice(['Three days in', 'A slow weekend in', 'Eating our way through', 'Walking'])} {pl}"
        url = f"https://www.slowtravelnotes.example/2026/{10 - i % 9:02d}/{slug(t)}/"
        items.append(label(t, url))
        posts.append(
            f'<article id="post-{900 + i}" class="post-{900 + i} post type-post status-publish '
            f'format-standard hentry category-europe"><header class="entry-header">'
            f'<h2 class="entry-title"><a href="{url}" rel="bookmark">{e(t)}</a></h2>'
            f'<div class="entry-meta"><span class="posted-on"><a href="{url}"><time '
            f'datetime="2026-10-0{1 + i % 9}">October {1 + i % 9}, 2026</time></a></span> '
            f'<span class="byline">by <a class="url fn n" href="/author/mara/">Mara</a></span>'
            f'</div></header><div class="entry-summary"><p>We arrived in {pl} on a grey '
            f"morning and left with a notebook full of places to come back to. Here is "
            f'everything we ate and saw.</p><a class="more-link" href="{url}#more">Continue '
            f'reading</a></div><footer class="entry-footer"><span class="cat-links">Posted in '
            f'<a href="/category/europe/" rel="category tag">Europe</a></span> <span class="tags-'
            f'links">Tagged <a href="/tag/{slug(pl)}/">{pl}</a>, <a href="/tag/food/">food</a>, '
            f'<a href="/tag/walking/">walking</a></span> <span class="comments-link"><a href="'
            f'{url}#comments">{rng.randint(0, 30)} Comments</a></span></footer></article>\n'
        )
    recent = "".join(
        f'<li><a href="/2026/09/{slug(p)}/">Notes from {p}</a></li>' for p in places[10:]
    )
    archive = "".join(f'<li><a href="/2026/{m:02d}/">2026/{m:02d}</a></li>' for m in range(1, 11))
    html = (
        head("Europe Archives - Slow Travel Notes")
        + '<body class="archive category">\n'
        + simple_header("Slow Travel Notes", ["Home", "Europe", "Asia", "About", "Newsletter"])
        + '<div id="content" class="site-content"><div id="primary" class="content-area">'
        + '<main id="main" class="site-main"><header class="page-header"><h1 class="page-title">'
        + "Category: Europe</h1></header>\n"
        + "".join(posts)
        + '<nav class="navigation posts-navigation"><div class="nav-links"><div class="nav-'
        + 'previous"><a href="/category/europe/page/2/">Older posts</a></div></div></nav>'
        + '</main></div><aside id="secondary" class="widget-area"><section class="widget '
        + f'widget_recent_entries"><h2>Recent Posts</h2><ul>{recent}</ul></section>'
        + '<section class="widget widget_archive"><h2>Archives</h2><ul>'
        + archive
        + "</ul></section></aside></div>\n"
        + small_footer("Slow Travel Notes")
        + scripts()
    )
    return html, base, items


def link_aggregator_divs(rng: random.Random) -> Page:
    """Reddit-like thread rows of divs: vote score, external title link, community link,
    comments link; no headings, no images for most."""
    base = "https://www.threadly.example/r/gardening/"
    titles = [
        "My tomatoes finally ripened",
        "What is eating my basil?",
        "First harvest of the year",
        "Raised bed build guide",
        "Is this mould on my soil?",
        "Balcony garden progress",
        "Best mulch for clay soil",
        "Composting in winter",
        "Sunflower taller than me",
        "Help identifying this weed",
        "Rescued a dying fern",
        "Pepper plant flowering",
        "Moving my garden indoors",
        "Seed swap results",
        "Grew potatoes in a bag",
        "Orchid reblooming tips",
        "Snails ate everything",
        "Garlic planting time",
    ]
    items: list[Label] = []
    rows = []
    for i, t in enumerate(titles):
        pid = f"t3_{rng.randint(100000, 999999):x}"
        url = f"https://www.threadly.example/r/gardening/comments/{pid}/{slug(t)}/"
        items.append(label(t, url))
        thumb = (
            f'<a class="thumbnail" href="{url}"><img src="https://thumbs.threadly.example/{pid}.jpg"'
            ' alt=""></a>'
            if i % 4 == 0
            else ""
        )
        rows.append(
            f'<div class="thing link" data-fullname="{pid}"><span class="rank">{i + 1}</span>'
            f'<div class="midcol"><div class="arrow up" role="button"></div><div class="score">'
            f'{rng.randint(5, 9000)}</div><div class="arrow down" role="button"></div></div>'
            f'{thumb}<div class="entry"><p class="title"><a class="title" href="{url}">{e(t)}</a>'
            f'</p><p class="tagline">submitted {rng.randint(1, 23)} hours ago by <a href="/user/'
            f'g{i}" class="author">g{i}</a> to <a href="/r/gardening/" class="subreddit">'
            f'r/gardening</a></p><ul class="flat-list buttons"><li class="first"><a href="{url}" '
            f'class="comments">{rng.randint(0, 400)} comments</a></li><li><a href="/share?{pid}">'
            'share</a></li><li><a href="/save?{pid}">save</a></li></ul></div></div>\n'
        )
    html = (
        head("gardening")
        + "<body>\n"
        + '<div id="header"><div id="sr-header-area"><a href="/r/popular/">popular</a> - '
        + '<a href="/r/all/">all</a> - <a href="/r/news/">news</a> - <a href="/r/pics/">pics</a>'
        + '</div><a href="/" id="header-img">Threadly</a><ul class="tabmenu"><li class="selected">'
        + '<a href="/r/gardening/">hot</a></li><li><a href="/r/gardening/new/">new</a></li>'
        + '<li><a href="/r/gardening/top/">top</a></li></ul></div>\n'
        + '<div class="side"><div class="md"><p>Welcome to r/gardening. Read the <a href="/r/'
        + 'gardening/wiki/rules">rules</a>.</p></div></div>\n'
        + '<div class="content" role="main"><div id="siteTable" class="sitetable linklisting">'
        + "".join(rows)
        + '<div class="nav-buttons"><span class="next-button"><a href="?count=25&amp;after=t3_x"'
        + ' rel="nofollow next">next ›</a></span></div></div></div>\n'
        + scripts()
    )
    return html, base, items


def trending_repos(rng: random.Random) -> Page:
    base = "https://www.codeforge.example/trending"
    owners = ["acme", "tidelabs", "quietcode", "northwind", "ferro", "bluefin", "quill"]
    repos = [
        "fastqueue",
        "tinydb",
        "webhooker",
        "pixelfmt",
        "cliwiz",
        "meshnet",
        "logsift",
        "schemer",
        "gridkit",
        "jsonfast",
        "tracelite",
        "edgecache",
        "ratelimit",
        "imgsqueeze",
    ]
    items: list[Label] = []
    arts = []
    for r in repos:
        o = rng.choice(owners)
        url = f"https://www.codeforge.example/{o}/{r}"
        items.append(label(f"{o} / {r}", url))
        arts.append(
            f'<article class="Box-row"><div class="float-right"><a href="/login?return_to=/{o}/'
            f'{r}" class="btn-sm btn">Star</a></div><h2 class="h3 lh-condensed"><a href="/{o}/{r}">'
            f'<svg class="octicon octicon-repo" height="16"></svg><span class="text-normal">{o} /'
            f' </span>{r}</a></h2><p class="col-9 color-fg-muted my-1 pr-4">A fast and small '
            f'library for {r}.</p><div class="f6 color-fg-muted mt-2"><span class="d-inline-'
            f'block ml-0 mr-3"><span itemprop="programmingLanguage">Rust</span></span><a class="'
            f'Link--muted d-inline-block mr-3" href="/{o}/{r}/stargazers">{rng.randint(100, 90000):,}'
            f'</a><a class="Link--muted d-inline-block mr-3" href="/{o}/{r}/forks">'
            f'{rng.randint(5, 4000):,}</a><span class="d-inline-block float-sm-right">'
            f"{rng.randint(10, 900)} stars today</span></div></article>\n"
        )
    html = (
        head("Trending repositories on CodeForge today")
        + "<body>\n"
        + simple_header("CodeForge", ["Product", "Solutions", "Open Source", "Pricing"])
        + '<main><div class="Box"><div class="Box-header"><nav class="subnav"><a href="/trending"'
        + ' class="subnav-item selected">Repositories</a><a href="/trending/developers" class="'
        + 'subnav-item">Developers</a></nav></div><div data-hpc>'
        + "".join(arts)
        + "</div></div></main>\n"
        + big_footer("CodeForge", 3)
        + scripts()
    )
    return html, base, items


def rentals_cta_only_link(rng: random.Random) -> Page:
    """German rentals: the heading is not a link; the only link is 'Exposé ansehen';
    rents as `1.250 €` with `/Monat`."""
    base = "https://www.wohnungsboerse.example/mieten/hamburg"
    districts = [
        "Altona",
        "Eimsbüttel",
        "Winterhude",
        "Barmbek",
        "Ottensen",
        "St. Georg",
        "Harburg",
        "Wandsbek",
        "Eppendorf",
        "Bahrenfeld",
        "Hamm",
        "Rotherbaum",
    ]
    items: list[Label] = []
    arts = []
    for i, d in enumerate(districts):
        rooms = rng.choice([1, 2, 3, 4])
        t = f"{rooms}-Zimmer-Wohnung in {d}"
        if i % 2:
            t = f"Helle {t}"
        url = f"https://www.wohnungsboerse.example/expose/{140000 + i * 17}"
        rent = float(rng.randint(6, 30) * 50)
        items.append(label(t, url, rent, "EUR"))
        card = (
            f'<article class="listing"><div class="listing-img"><img src="/img/{140000 + i * 17}.'
            f'jpg" alt=""></div><div class="listing-body"><h2 class="listing-title">{e(t)}</h2>'
            f'<p class="listing-address">{d}, Hamburg</p><dl class="listing-facts"><dt>Kaltmiete'
            f"</dt><dd>{rent:,.0f} €/Monat</dd><dt>Wohnfläche</dt><dd>{rng.randint(30, 120)} m²"
            f'</dd><dt>Zimmer</dt><dd>{rooms}</dd></dl><a class="btn btn-primary" href="/expose/'
            f'{140000 + i * 17}">Exposé ansehen</a></div></article>\n'
        )
        arts.append(card.replace(f"{rent:,.0f} €", f"{rent:,.0f} €".replace(",", ".")))
    html = (
        head("Wohnungen mieten in Hamburg", "de-DE")
        + "<body>\n"
        + mega_menu(rng, "Wohnungsbörse")
        + "<main><h1>Mietwohnungen in Hamburg</h1>"
        + '<div class="result-list">'
        + "".join(arts)
        + "</div></main>\n"
        + big_footer("Wohnungsbörse", 2)
        + scripts()
    )
    return html, base, items


def amazon_like_split_price(rng: random.Random) -> Page:
    """Search results with split prices (`a-price-whole` + `a-price-fraction`, plus an
    off-screen copy) and a sponsored banner between results."""
    base = "https://www.megamart.example/s?k=headphones"
    items: list[Label] = []
    divs = []
    pool = names(
        rng,
        20,
        lambda r: (
            f"{r.choice(['Sonix', 'Bassline', 'Auralite', 'Quietude'])} "
            f"{r.choice(['Wireless', 'Over-Ear', 'Noise Cancelling', 'Sport'])} Headphones "
            f"{r.choice(['Black', 'White', 'Blue'])}, {r.randint(20, 60)}h Battery"
        ),
    )
    for i, name in enumerate(pool):
        asin = f"B0{rng.randint(10**7, 10**8 - 1)}"
        path = f"/{slug(name)[:40]}/dp/{asin}"
        url = f"https://www.megamart.example{path}"
        price = money(rng, 15, 349)
        whole, frac = f"{price:.2f}".split(".")
        items.append(label(name, url, price, "USD"))
        divs.append(
            f'<div data-asin="{asin}" data-component-type="s-search-result" class="s-result-item '
            f's-asin sg-col-4-of-24"><div class="sg-col-inner"><div class="s-widget-container">'
            f'<span class="a-declarative"><a class="a-link-normal s-no-outline" href="{path}"><div class="a-section aok-relative s-image-square-aspect"><img '
            f'class="s-image" src="https://m.megamart.example/images/I/{asin}.jpg" alt="{e(name)}">'
            f'</div></a></span><div class="a-section a-spacing-small"><h2 class="a-size-mini '
            f'a-spacing-none a-color-base s-line-clamp-4"><a class="a-link-normal s-underline-text '
            f'a-text-normal" href="{path}"><span class="a-size-base-plus '
            f'a-color-base a-text-normal">{e(name)}</span></a></h2><div class="a-row a-size-small">'
            f'<span aria-label="4.4 out of 5 stars"><span class="a-icon-alt">4.4 out of 5 stars'
            f'</span></span><span class="a-size-base s-underline-text">{rng.randint(10, 9999):,}'
            f'</span></div><div class="a-row"><a class="a-link-normal s-no-hover" href="{path}">'
            f'<span class="a-price" data-a-size="xl"><span class="a-'
            f'offscreen">${price:.2f}</span><span aria-hidden="true"><span class="a-price-symbol">$'
            f'</span><span class="a-price-whole">{whole}<span class="a-price-decimal">.</span></span>'
            f'<span class="a-price-fraction">{frac}</span></span></span></a> <span class="a-size-'
            f'base a-color-secondary">Delivery Tue, Dec 2</span></div></div></div></div></div>\n'
        )
        if i == 5:
            divs.append(
                '<div class="s-result-item s-widget AdHolder"><div class="sg-col-inner"><div '
                'class="s-widget-container"><span class="a-size-medium">Sponsored brand</span>'
                '<a href="/stores/sonix"><img src="/ads/sonix.jpg" alt="">Shop Sonix</a></div>'
                "</div></div>\n"
            )
    html = (
        head("Megamart.example : headphones")
        + "<body>\n"
        + '<header id="navbar"><div id="nav-belt"><a href="/" id="nav-logo">Megamart</a><form '
        + 'id="nav-search" action="/s"><input name="k" value="headphones"></form></div><div '
        + 'id="nav-main"><a href="/deals">Today\'s Deals</a><a href="/gift-cards">Gift Cards</a>'
        + '<a href="/registry">Registry</a><a href="/sell">Sell</a></div></header>\n'
        + '<div class="s-desktop-width-max"><div class="s-main-slot s-result-list s-search-results'
        + ' sg-row">'
        + "".join(divs)
        + "</div></div>\n"
        + '<ul class="s-pagination-strip"><li><a href="?k=headphones&amp;page=2" class="s-'
        + 'pagination-item s-pagination-next">Next</a></li></ul>\n'
        + big_footer("Megamart", 4)
        + scripts()
    )
    return html, base, items


def auction_ghost_first(rng: random.Random) -> Page:
    """Auction results: price ranges (`$12.99 to $24.99`, the lower bound is the price)
    and a hidden template item first."""
    base = "https://www.bidbay.example/sch/i.html?_nkw=vintage+camera"
    cams = [
        "Canon AE-1",
        "Nikon FM2",
        "Pentax K1000",
        "Olympus OM-1",
        "Minolta X-700",
        "Yashica Mat-124G",
        "Leica M3",
        "Rolleiflex 2.8F",
        "Konica C35",
        "Mamiya RB67",
        "Praktica MTL5",
        "Zenit E",
        "Contax T2",
        "Polaroid SX-70",
        "Kodak Retina IIa",
    ]
    items: list[Label] = []
    lis = [
        '<li class="s-item s-item--placeholder" style="display:none"><div class="s-item__wrapper">'
        '<div class="s-item__info"><a class="s-item__link" href="https://www.bidbay.example/itm/'
        '123456"><div class="s-item__title"><span role="heading">Shop on BidBay</span></div></a>'
        '<span class="s-item__price">$20.00</span></div></div></li>\n'
    ]
    for i, c in enumerate(cams):
        t = f"{c} film camera{rng.choice([' - tested', ' with lens', ' body only', ''])}"
        iid = 2950000000 + i * 7919
        url = f"https://www.bidbay.example/itm/{iid}"
        low = money(rng, 20, 900)
        price_html = f"${low:,.2f}"
        if i % 4 == 1:
            price_html = (
                f'<span class="DEFAULT">${low:,.2f}</span> to <span class="DEFAULT">'
                f"${low + 40:,.2f}</span>"
            )
        items.append(label(t, url, low, "USD"))
        lis.append(
            f'<li class="s-item s-item__pl-on-bottom" id="item{iid}"><div class="s-item__wrapper '
            f'clearfix"><div class="s-item__image-section"><div class="s-item__image"><a href="'
            f'{url}?hash=item{iid}" tabindex="-1"><div class="s-item__image-wrapper"><img src="'
            f'https://i.bidbay.example/images/g/{iid}/s-l225.jpg" alt="{e(t)}"></div></a></div>'
            f'</div><div class="s-item__info clearfix"><a class="s-item__link" href="{url}?hash='
            f'item{iid}"><div class="s-item__title"><span role="heading" aria-level="3">{e(t)}'
            f'</span></div></a><div class="s-item__subtitle"><span class="SECONDARY_INFO">Pre-'
            f'Owned</span></div><div class="s-item__details clearfix"><div class="s-item__detail '
            f's-item__detail--primary"><span class="s-item__price">{price_html}</span></div><div '
            f'class="s-item__detail s-item__detail--primary"><span class="s-item__shipping">'
            f"+${rng.randint(5, 30)}.00 shipping</span></div></div></div></div></li>\n"
        )
    html = (
        head("vintage camera | BidBay")
        + "<body>\n"
        + mega_menu(rng, "BidBay")
        + '<div id="srp-river-main"><h1 class="srp-controls__count-heading">1,000+ results for '
        + "vintage camera</h1>"
        + '<ul class="srp-results srp-list clearfix">'
        + "".join(lis)
        + "</ul></div>\n"
        + big_footer("BidBay", 3)
        + scripts()
    )
    # the page links carry a tracking query; the label keeps the link as written
    items = [dict(it, url=f"{it['url']}?hash=item{it['url'].rsplit('/', 1)[1]}") for it in items]
    return html, base, items


def coin_grid_divs(rng: random.Random) -> Page:
    """A coin table drawn with divs and ARIA roles instead of <table>."""
    base = "https://www.tokenwatch.example/markets"
    pool = [a + b for a in COIN_PARTS for b in COIN_ENDS]
    rng.shuffle(pool)
    items: list[Label] = []
    rows = []
    for i, name in enumerate(pool[:30]):
        price = round(rng.uniform(0.05, 9000), 2)
        url = f"https://www.tokenwatch.example/token/{name.lower()}"
        items.append(label(name, url, price, "EUR"))
        rows.append(
            f'<div role="row" class="mkt-row"><div role="cell" class="mkt-rank">{i + 1}</div>'
            f'<div role="cell" class="mkt-name"><img src="/logo/{name.lower()}.svg" alt="">'
            f'<a href="/token/{name.lower()}">{name}</a><span class="sym">{name[:3].upper()}'
            f'</span></div><div role="cell" class="mkt-price">{eu(price, "€")}</div>'
            f'<div role="cell" class="mkt-change">{rng.uniform(-9, 9):+.2f}%</div>'
            f'<div role="cell" class="mkt-cap">{eu(rng.randint(10**6, 10**9), "€")}</div></div>\n'
        )
    html = (
        head("Markets | TokenWatch", "de-DE")
        + "<body>\n"
        + simple_header("TokenWatch", ["Märkte", "Börsen", "Portfolio", "Lernen"])
        + '<main><h1>Kryptowährungen nach Marktkapitalisierung</h1><div role="table" class="mkt">'
        + '<div role="row" class="mkt-head"><div role="columnheader">#</div><div role="column'
        + 'header">Name</div><div role="columnheader">Preis</div><div role="columnheader">24h'
        + '</div><div role="columnheader">Marktkap.</div></div>'
        + "".join(rows)
        + "</div></main>\n"
        + small_footer("TokenWatch")
        + scripts()
    )
    return html, base, items


def job_cards_whole_link(rng: random.Random) -> Page:
    """Job cards that are one `<a>` each, a 'New' badge before the title, no headings."""
    base = "https://www.workhub.example/jobs?l=remote"
    items: list[Label] = []
    cards = []
    for i, title in enumerate(names(rng, 22, job_title)):
        url = f"https://www.workhub.example/job/{slug(title)}-{7100 + i}"
        items.append(label(title, url))
        badge = '<span class="chip chip--new">New</span>' if i % 3 == 0 else ""
        cards.append(
            f'<a class="job-card" href="/job/{slug(title)}-{7100 + i}">{badge}'
            f'<span class="job-card__role">{e(title)}</span><span class="job-card__company">'
            f'{rng.choice(COMPANIES)}</span><span class="job-card__meta">Remote · Full-time · '
            f"{rng.randint(1, 28)}d</span></a>\n"
        )
    html = (
        head("Remote jobs | WorkHub")
        + "<body>\n"
        + simple_header("WorkHub", ["Jobs", "Companies", "Remote", "Salaries", "For employers"])
        + '<main><h1>Remote jobs</h1><div class="job-list">'
        + "".join(cards)
        + "</div></main>\n"
        + big_footer("WorkHub", 3)
        + scripts()
    )
    return html, base, items


def podcast_plain_html(rng: random.Random) -> Page:
    """No classes at all: `ol > li > h3 > a`, a paragraph and an audio element."""
    base = "https://harbourcast.example/episodes/"
    topics = [
        "tides",
        "lighthouses",
        "shipwrecks",
        "fishing towns",
        "sea shanties",
        "storms",
        "ferries",
        "harbour seals",
        "knots",
        "navigation",
        "boatbuilding",
        "salt",
    ]
    items: list[Label] = []
    lis = []
    for i, t in enumerate(topics):
        title = f"Episode {40 - i}: All about {t}"
        url = f"https://harbourcast.example/episodes/{40 - i}-{slug(t)}/"
        items.append(label(title, url))
        lis.append(
            f'<li><h3><a href="{40 - i}-{slug(t)}/">{e(title)}</a></h3><p>We talk about {t} '
            f'with a guest who knows far more than we do.</p><audio controls src="/audio/'
            f'{40 - i}.mp3"></audio><p><small>{rng.randint(30, 70)} minutes</small></p></li>\n'
        )
    html = (
        head("Episodes — Harbourcast")
        + '<body>\n<header><h1><a href="/">Harbourcast</a></h1><nav><a href="/episodes/">'
        + 'Episodes</a> <a href="/about/">About</a> <a href="/feed.xml">RSS</a></nav></header>\n'
        + "<main><h2>All episodes</h2><ol reversed>\n"
        + "".join(lis)
        + "</ol></main>\n<footer><p>Made by the sea.</p></footer>\n</body></html>\n"
    )
    return html, base, items


def pricing_featured_differs(rng: random.Random) -> Page:
    """Tailwind pricing where the featured tier has different classes from the others."""
    base = "https://www.formcraft.example/pricing"
    tiers = [("Hobby", 0.0), ("Freelancer", 24.0), ("Startup", 48.0)]
    items = [label(n, "https://www.formcraft.example/signup", p, "USD") for n, p in tiers]
    cards = []
    for name, price in tiers:
        featured = name == "Freelancer"
        cls = (
            "bg-gray-900 ring-gray-900 rounded-3xl p-8 ring-2 xl:p-10"
            if featured
            else "rounded-3xl p-8 ring-1 ring-gray-200 xl:p-10"
        )
        cards.append(
            f'<div class="{cls}"><div class="flex items-center justify-between gap-x-4"><h3 '
            f'class="text-lg font-semibold leading-8">{name}</h3>'
            + (
                '<p class="rounded-full bg-indigo-600/10 px-2.5 py-1 text-xs font-semibold">Most '
                "popular</p>"
                if featured
                else ""
            )
            + f'</div><p class="mt-4 text-sm leading-6">The essentials.</p><p class="mt-6 flex '
            f'items-baseline gap-x-1"><span class="text-4xl font-bold">${price:.0f}</span><span '
            'class="text-sm font-semibold">/month</span></p><a href="/signup" class="mt-6 block '
            'rounded-md px-3 py-2 text-center">Buy plan</a><ul role="list" class="mt-8 space-y-3 '
            'text-sm"><li class="flex gap-x-3">5 products</li><li class="flex gap-x-3">Up to '
            '1,000 subscribers</li><li class="flex gap-x-3">Basic analytics</li></ul></div>\n'
        )
    html = (
        head("Pricing - FormCraft")
        + "<body>\n"
        + '<header class="bg-white"><nav class="mx-auto flex max-w-7xl items-center p-6"><a href='
        + '"/">FormCraft</a><a href="/product">Product</a><a href="/features">Features</a><a '
        + 'href="/pricing">Pricing</a><a href="/login">Log in</a></nav></header>\n'
        + '<div class="bg-white py-24"><div class="mx-auto max-w-7xl px-6"><h2 class="text-base">'
        + 'Pricing</h2><p class="mt-2 text-4xl">Pricing plans for teams of all sizes</p><div '
        + 'class="isolate mx-auto mt-10 grid max-w-md grid-cols-1 gap-8 lg:max-w-none '
        + 'lg:grid-cols-3">'
        + "".join(cards)
        + "</div></div></div>\n"
        + small_footer("FormCraft")
        + scripts()
    )
    return html, base, items


def news_sections(rng: random.Random) -> Page:
    """A news front page: several sections with the same story markup in each."""
    base = "https://www.morningledger.example/"
    items: list[Label] = []
    sections = []
    heads = names(rng, 24, headline)
    for s_i, section in enumerate(["Politics", "Business", "Science", "Culture"]):
        stories = []
        for h in heads[s_i * 6 : s_i * 6 + 6]:
            url = f"https://www.morningledger.example/{slug(section)}/2026/11/22/{slug(h)}"
            items.append(label(h, url))
            stories.append(
                f'<div class="story-card"><a class="story-card__link" href="/{slug(section)}/2026/'
                f'11/22/{slug(h)}"><h3 class="story-card__headline">{e(h)}</h3></a><p class="'
                f'story-card__summary">What happened and why it matters.</p><span class="story-'
                f'card__time">{rng.randint(1, 11)}h ago</span></div>'
            )
        sections.append(
            f'<section class="front-section"><h2 class="front-section__title"><a href="/'
            f'{slug(section)}">{section}</a></h2><div class="front-section__grid">'
            + "".join(stories)
            + "</div></section>\n"
        )
    html = (
        head("The Morning Ledger")
        + "<body>\n"
        + mega_menu(rng, "The Morning Ledger")
        + '<div class="trending-bar"><span>Trending:</span><a href="/t/1">Election</a><a href='
        + '"/t/2">Markets</a><a href="/t/3">Weather</a></div>'
        + "<main>"
        + "".join(sections)
        + "</main>\n"
        + newsletter()
        + big_footer("The Morning Ledger")
        + scripts()
    )
    return html, base, items


def jsonld_products_array(rng: random.Random) -> Page:
    """Top-level JSON-LD array of Products with priceSpecification; the HTML shows a
    lazy 'skeleton' grid only."""
    base = "https://www.greenleaf.example/plants/indoor"
    plants = [
        "Monstera",
        "Fiddle Leaf Fig",
        "Snake Plant",
        "Pothos",
        "Peace Lily",
        "ZZ Plant",
        "Calathea",
        "Rubber Plant",
        "Aloe Vera",
        "Bird of Paradise",
        "Philodendron",
        "Spider Plant",
        "String of Pearls",
        "Jade Plant",
    ]
    items: list[Label] = []
    docs = []
    for p in plants:
        name = f"{p} in {rng.choice(['12cm', '17cm', '21cm'])} pot"
        url = f"https://www.greenleaf.example/plant/{slug(name)}"
        price = money(rng, 9, 120)
        items.append(label(name, url, price, "EUR"))
        docs.append(
            {
                "@context": "https://schema.org/",
                "@type": "Product",
                "name": name,
                "url": url,
                "image": [f"https://www.greenleaf.example/img/{slug(name)}.jpg"],
                "offers": {
                    "@type": "Offer",
                    "priceSpecification": {
                        "@type": "UnitPriceSpecification",
                        "price": price,
                        "priceCurrency": "EUR",
                    },
                    "availability": "https://schema.org/InStock",
                },
            }
        )
    skeleton = "".join(
        '<div class="skeleton-card"><div class="skeleton-img"></div></div>' for _ in range(8)
    )
    html = (
        head(
            "Indoor plants | Greenleaf",
            "en-IE",
            '<script type="application/ld+json">' + json.dumps(docs) + "</script>\n",
        )
        + '<body><div id="app">\n'
        + simple_header("Greenleaf", ["Indoor", "Outdoor", "Pots", "Care"])
        + '<main><h1>Indoor plants</h1><div class="grid">'
        + skeleton
        + "</div></main>"
        + small_footer("Greenleaf")
        + "</div>"
        + scripts()
    )
    return html, base, items


# --- Second held-out set (written after the fixes the first one prompted) ------------------


def grocery_price_first(rng: random.Random) -> Page:
    """Price shown before the name, a per-unit price after it, 'From' prices."""
    base = "https://www.pantrybox.example/shop/coffee"
    items: list[Label] = []
    cards = []
    for name in names(
        rng,
        18,
        lambda r: (
            f"{r.choice(['Highland', 'Sierra', 'Java', 'Andes', 'Kivu'])} "
            f"{r.choice(['Espresso', 'Filter', 'Decaf', 'House'])} Beans {r.choice([250, 500, 1000])}g"
        ),
    ):
        price = money(rng, 4, 30)
        url = f"https://www.pantrybox.example/p/{slug(name)}"
        items.append(label(name, url, price, "GBP"))
        from_ = "From " if rng.random() < 0.3 else ""
        cards.append(
            f'<div class="tile"><div class="tile-price"><span>{from_}£{price:.2f}</span></div>'
            f'<a class="tile-link" href="/p/{slug(name)}"><img src="/img/{slug(name)}.jpg" alt=""'
            f'><div class="tile-label">{e(name)}</div></a><div class="tile-unit">'
            f"£{price / 2.5:.2f}/100g</div><button>Add</button></div>\n"
        )
    html = (
        head("Coffee | PantryBox", "en-GB")
        + "<body>\n"
        + mega_menu(rng, "PantryBox")
        + '<main><h1>Coffee</h1><section class="tiles">'
        + "".join(cards)
        + "</section></main>\n"
        + big_footer("PantryBox", 2)
        + scripts()
    )
    return html, base, items


def events_sold_out(rng: random.Random) -> Page:
    """Event cards with split dates, 'From €25', free events and sold-out ones."""
    base = "https://www.nachtwerk.example/programm"
    acts = [
        "Neon Harbour",
        "Kid Kompass",
        "Die Fähre",
        "Salt & Static",
        "Nordlicht Trio",
        "Velvet Sirens",
        "Pixel Choir",
        "Low Tide Club",
        "Monsoon Radio",
        "Brass Kraken",
        "Paper Moons",
        "Glasshouse",
    ]
    items: list[Label] = []
    lis = []
    for i, a in enumerate(acts):
        url = f"https://www.nachtwerk.example/event/{slug(a)}-{i + 10}"
        kind = i % 4
        if kind == 3:
            price_html, price = '<span class="ticket-price">Eintritt frei</span>', None
        else:
            price = float(rng.choice([18, 22, 25, 32]))
            price_html = f'<span class="ticket-price">ab {price:.0f},00 €</span>'
        status = '<span class="status">Ausverkauft</span>' if kind == 1 else ""
        if price is None:
            items.append(label(a, url))
        else:
            items.append(label(a, url, price, "EUR"))
        lis.append(
            f'<article class="event-card"><a href="/event/{slug(a)}-{i + 10}" class="event-card__'
            f'link"><div class="event-card__date"><span class="d">{i + 3}</span><span class="m">'
            f'Dez</span></div><h3 class="event-card__title">{e(a)}</h3></a><p class="event-card'
            f'__venue">Halle {i % 3 + 1} · 20:00</p>{price_html}{status}</article>\n'
        )
    html = (
        head("Programm | Nachtwerk", "de-DE")
        + "<body>\n"
        + simple_header("Nachtwerk", ["Programm", "Tickets", "Anfahrt", "Vermietung"])
        + '<main><h1>Programm Dezember</h1><div class="event-grid">'
        + "".join(lis)
        + "</div></main>\n"
        + small_footer("Nachtwerk")
        + scripts()
    )
    return html, base, items


def hotels_inline_strike(rng: random.Random) -> Page:
    """'US$142 per night', old prices struck with an inline style only."""
    base = "https://www.roomfinder.example/city/new-york"
    hotels = [
        "Harbor View Inn",
        "Midtown Loft Hotel",
        "The Brickyard",
        "Parkside Suites",
        "Hudson Lights",
        "The Navigator",
        "Chelsea Yard Hotel",
        "Bowery House",
        "Pier 9 Hotel",
        "The Cartographer",
        "Greenpoint Rooms",
        "Liberty Row",
    ]
    items: list[Label] = []
    cards = []
    for i, h in enumerate(hotels):
        url = f"https://www.roomfinder.example/hotel/{slug(h)}"
        price = float(rng.randint(120, 480))
        items.append(label(h, url, price, "USD"))
        strike = (
            f'<span style="text-decoration: line-through; color:#999">US${price + 40:.0f}</span> '
            if i % 2
            else ""
        )
        cards.append(
            f'<div class="result"><img src="/photos/{slug(h)}.jpg" alt="{e(h)}"><div class="info">'
            f'<h2><a href="/hotel/{slug(h)}">{e(h)}</a></h2><div class="stars">{"★" * (3 + i % 3)}'
            f'</div><div class="reviews">{rng.randint(70, 95) / 10} · {rng.randint(100, 3000)} '
            f'reviews</div></div><div class="offer">{strike}<strong>US${price:.0f}</strong> '
            "per night<br><small>+US$38 taxes and fees</small></div></div>\n"
        )
    html = (
        head("Hotels in New York | RoomFinder")
        + "<body>\n"
        + simple_header("RoomFinder", ["Stays", "Flights", "Cars", "Deals"])
        + '<div class="page"><div class="results">'
        + "".join(cards)
        + "</div></div>\n"
        + small_footer("RoomFinder")
        + scripts()
    )
    return html, base, items


def flights_table_th_rows(rng: random.Random) -> Page:
    """A fares table: the name in a row header `<th scope=row>`, the price in a cell."""
    base = "https://www.skyfares.example/fares/lisbon"
    cities = [
        "Amsterdam",
        "Berlin",
        "Copenhagen",
        "Dublin",
        "Edinburgh",
        "Frankfurt",
        "Geneva",
        "Hamburg",
        "Istanbul",
        "Krakow",
        "London",
        "Madrid",
        "Naples",
        "Oslo",
    ]
    items: list[Label] = []
    rows = []
    for c in cities:
        url = f"https://www.skyfares.example/flights/lisbon-{slug(c)}"
        price = float(rng.randint(29, 240))
        items.append(label(f"Lisbon – {c}", url, price, "EUR"))
        rows.append(
            f'<tr><th scope="row"><a href="/flights/lisbon-{slug(c)}">Lisbon – {c}</a></th>'
            f"<td>{rng.randint(1, 3)}h {rng.randint(0, 59)}m</td><td>{rng.choice(['Direct', '1 stop'])}"
            f"</td><td>€{price:.0f}</td></tr>\n"
        )
    html = (
        head("Cheap flights from Lisbon | SkyFares", "en-IE")
        + "<body>\n"
        + simple_header("SkyFares", ["Flights", "Hotels", "Deals", "Help"])
        + '<main><h1>Cheapest fares from Lisbon</h1><table class="fares"><thead><tr><th>Route'
        + "</th><th>Duration</th><th>Stops</th><th>From</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></main>\n"
        + small_footer("SkyFares")
        + scripts()
    )
    return html, base, items


def rentals_pcm_poa(rng: random.Random) -> Page:
    """UK lettings: '£1,250 pcm', some 'POA' (no price)."""
    base = "https://www.letterbox.example/to-rent/bristol"
    streets = [
        "Gloucester Road",
        "Park Street",
        "Whiteladies Road",
        "North Street",
        "Cheltenham Road",
        "Stokes Croft",
        "Coronation Road",
        "Redland Grove",
        "St Michael's Hill",
        "Zetland Road",
        "Chandos Road",
        "Cotham Brow",
    ]
    items: list[Label] = []
    cards = []
    for i, st in enumerate(streets):
        beds = rng.randint(1, 4)
        t = f"{beds} bedroom flat to rent, {st}"
        url = f"https://www.letterbox.example/property/{70000 + i * 13}"
        poa = i % 5 == 4
        price = None if poa else float(rng.randint(9, 30) * 50)
        items.append(label(t, url, price, None if poa else "GBP"))
        price_html = "POA" if poa else f"£{price:,.0f} pcm"
        cards.append(
            f'<div class="property-card"><a href="/property/{70000 + i * 13}" class="property-card'
            f'__photo"><img data-lazy-src="/p/{70000 + i * 13}/1.jpg" src="/blank.gif" alt=""></a>'
            f'<div class="property-card__content"><div class="property-card__price">{price_html}'
            f'</div><a href="/property/{70000 + i * 13}" class="property-card__title">{e(t)}</a>'
            f'<address>{st}, Bristol BS{rng.randint(1, 9)}</address><p class="property-card__'
            f'agent">Marketed by <a href="/agents/{i % 3}">Agent {i % 3}</a></p></div></div>\n'
        )
    html = (
        head("Flats to rent in Bristol | Letterbox", "en-GB")
        + "<body>\n"
        + mega_menu(rng, "Letterbox")
        + '<main><h1>Property to rent in Bristol</h1><div class="property-list">'
        + "".join(cards)
        + "</div></main>\n"
        + big_footer("Letterbox", 3)
        + scripts()
    )
    return html, base, items


def japanese_yen_suffix(rng: random.Random) -> Page:
    """Prices written `1,200円（税込）` after the name, in Japanese."""
    base = "https://shop.wagashi-ya.example/category/seasonal"
    sweets = [
        "桜餅",
        "柏餅",
        "水羊羹",
        "栗きんとん",
        "どら焼き",
        "大福",
        "最中",
        "羊羹",
        "わらび餅",
        "おはぎ",
        "団子",
        "練り切り",
    ]
    items: list[Label] = []
    cards = []
    for i, sw in enumerate(sweets):
        t = f"{sw} {rng.choice(['6個入', '10個入', '詰め合わせ'])}"
        url = f"https://shop.wagashi-ya.example/item/{1000 + i}"
        price = float(rng.randint(6, 40) * 100)
        items.append(label(t, url, price, "JPY"))
        cards.append(
            f'<li class="item-box"><a href="/item/{1000 + i}"><img src="/img/{1000 + i}.jpg" '
            f'alt="{e(t)}"><p class="item-name">{e(t)}</p></a><p class="item-price">'
            f"{price:,.0f}円<span>（税込）</span></p></li>\n"
        )
    html = (
        head("季節の和菓子 | 和菓子屋", "ja")
        + "<body>\n"
        + simple_header("和菓子屋", ["季節の和菓子", "贈答品", "店舗案内", "お問い合わせ"])
        + '<main><h1>季節の和菓子</h1><ul class="item-list">'
        + "".join(cards)
        + "</ul></main>\n"
        + small_footer("和菓子屋")
        + scripts()
    )
    return html, base, items


def results_plus_recently_viewed(rng: random.Random) -> Page:
    """The results grid and a 'recently viewed' strip with the same card markup."""
    base = "https://www.gearbarn.example/bikes/helmets"
    items: list[Label] = []
    cards = []
    pool = names(
        rng,
        26,
        lambda r: (
            f"{r.choice(['Aero', 'Trail', 'Commuter', 'Kids'])} Helmet "
            f"{r.choice(['MIPS', 'Lite', 'Pro', 'Flow'])} {r.choice(['S', 'M', 'L'])}"
        ),
    )
    for name in pool[:20]:
        url = f"https://www.gearbarn.example/p/{slug(name)}"
        price = money(rng, 29, 249)
        items.append(label(name, url, price, "USD"))
        cards.append(
            f'<div class="pcard"><a href="/p/{slug(name)}"><img src="/i/{slug(name)}.jpg" '
            f'alt="{e(name)}"></a><h4 class="pcard-name"><a href="/p/{slug(name)}">{e(name)}</a>'
            f'</h4><span class="pcard-price">${price:.2f}</span></div>\n'
        )
    recent = "".join(
        f'<div class="pcard"><a href="/p/{slug(n)}-r"><img src="/i/{slug(n)}.jpg" alt="{e(n)}">'
        f'</a><h4 class="pcard-name"><a href="/p/{slug(n)}-r">{e(n)}</a></h4><span class="pcard-'
        f'price">$99.00</span></div>'
        for n in pool[20:]
    )
    html = (
        head("Helmets | GearBarn")
        + "<body>\n"
        + mega_menu(rng, "GearBarn", big=True)
        + '<main><h1>Helmets</h1><div class="results-grid">'
        + "".join(cards)
        + '</div><section class="recently-viewed"><h2>Recently viewed</h2><div class="strip">'
        + recent
        + "</div></section></main>\n"
        + big_footer("GearBarn", 4)
        + scripts()
    )
    return html, base, items


def news_li_time_links(rng: random.Random) -> Page:
    """A 'latest' list: each `li` has the headline link, a time link and a comments link."""
    base = "https://www.civicwire.example/latest"
    items: list[Label] = []
    lis = []
    for i, h in enumerate(names(rng, 30, headline)):
        url = f"https://www.civicwire.example/story/{8800 + i}/{slug(h)}"
        items.append(label(h, url))
        lis.append(
            f'<li><a class="hl" href="/story/{8800 + i}/{slug(h)}">{e(h)}</a> '
            f'<a class="ago" href="/story/{8800 + i}/{slug(h)}#top">{rng.randint(2, 59)} min ago'
            f'</a> · <a class="cc" href="/story/{8800 + i}/{slug(h)}#comments">{rng.randint(0, 99)}'
            f" comments</a></li>\n"
        )
    html = (
        head("Latest | CivicWire")
        + "<body>\n"
        + simple_header("CivicWire", ["Latest", "Local", "Politics", "Opinion"])
        + '<main><h1>Latest news</h1><ul class="latest">'
        + "".join(lis)
        + "</ul></main>\n"
        + small_footer("CivicWire")
        + scripts()
    )
    return html, base, items


# --- Third held-out set --------------------------------------------------------------------


def fashion_aria_label_titles(rng: random.Random) -> Page:
    """Image-only cards: the name is in the link's aria-label and the image alt is empty;
    each card also has six colour swatch links."""
    base = "https://www.threadline.example/women/dresses"
    items: list[Label] = []
    cards = []
    for i, name in enumerate(
        names(
            rng,
            24,
            lambda r: (
                f"{r.choice(['Wrap', 'Slip', 'Shirt', 'Maxi', 'Midi'])} "
                f"Dress in {r.choice(['Linen', 'Satin', 'Cotton', 'Crepe'])} "
                f"{r.choice(['Olive', 'Navy', 'Rust', 'Ivory', 'Black'])}"
            ),
        )
    ):
        url = f"https://www.threadline.example/p/{slug(name)}-{3300 + i}"
        price = money(rng, 39, 189)
        items.append(label(name, url, price, "USD"))
        swatches = "".join(
            f'<a class="swatch" href="/p/{slug(name)}-{3300 + i}?colour={c}" aria-label="{c}">'
            f'<span style="background:{c}"></span></a>'
            for c in ("olive", "navy", "rust", "ivory", "black", "sand")
        )
        cards.append(
            f'<div class="product"><a class="product__media" href="/p/{slug(name)}-{3300 + i}" '
            f'aria-label="{e(name)}"><img src="/m/{3300 + i}.jpg" alt=""></a><div class="product__'
            f'swatches">{swatches}</div><div class="product__price">${price:.2f}</div></div>\n'
        )
    html = (
        head("Dresses | Threadline")
        + "<body>\n"
        + mega_menu(rng, "Threadline", big=True)
        + '<main><h1>Dresses</h1><div class="product-list">'
        + "".join(cards)
        + "</div></main>\n"
        + big_footer("Threadline")
        + scripts()
    )
    return html, base, items


def search_with_sitelinks(rng: random.Random) -> Page:
    """Web results where some results carry a breadcrumb nav and six sitelinks."""
    base = "https://search.lookout.example/?q=harbour+ferry"
    sites = [
        "ferries",
        "portauthority",
        "islandhop",
        "seatravel",
        "harbourlines",
        "bluewave",
        "tidalways",
        "crossings",
        "boatboard",
        "wavefinder",
    ]
    items: list[Label] = []
    blocks = []
    for i, site in enumerate(sites):
        t = f"{site.capitalize()} - Harbour ferry times and tickets"
        url = f"https://www.{site}.example/harbour-ferry"
        items.append(label(t, url))
        sitelinks = ""
        if i < 2:
            sitelinks = (
                '<ul class="sitelinks">'
                + "".join(
                    f'<li><a href="https://www.{site}.example/{s}">{s.capitalize()}</a></li>'
                    for s in ("timetable", "tickets", "routes", "parking", "contact", "offers")
                )
                + "</ul>"
            )
        blocks.append(
            f'<div class="web-result"><nav class="crumbs"><a href="https://www.{site}.example/">'
            f'{site}.example</a> › <a href="https://www.{site}.example/ferries">ferries</a></nav>'
            f'<h3><a href="{url}">{e(t)}</a></h3><p>Book harbour ferry crossings online. '
            f"Daily sailings, timetables and fares.</p>{sitelinks}</div>\n"
        )
    html = (
        head("harbour ferry - Lookout")
        + "<body>\n"
        + '<div class="topbar"><form action="/"><input name="q" value="harbour ferry"></form>'
        + '<a href="/?q=harbour+ferry&amp;t=images">Images</a><a href="/?q=harbour+ferry&amp;'
        + 't=maps">Maps</a></div>\n'
        + '<div id="results">'
        + "".join(blocks)
        + '</div><div class="pages"><a href="/?q=harbour+ferry&amp;p=2">Next</a></div>\n'
        + scripts()
    )
    return html, base, items


def table_currency_in_header(rng: random.Random) -> Page:
    """A parts price list: the currency only in the header ('Price (EUR)'), plain numbers
    in the cells, the name in the second column after an image-link column."""
    base = "https://www.bolt-and-bearing.example/catalogue/bearings"
    items: list[Label] = []
    rows = []
    for i in range(25):
        code = f"62{rng.randint(0, 9)}{rng.randint(0, 9)}-{rng.choice(['2RS', 'ZZ', 'C3'])}"
        name = f"Deep groove ball bearing {code}"
        url = f"https://www.bolt-and-bearing.example/part/{slug(code)}-{i}"
        price = round(rng.uniform(2, 90), 2)
        if any(it["title"] == name for it in items):
            continue
        items.append(label(name, url, price, "EUR"))
        rows.append(
            f'<tr><td><a href="/part/{slug(code)}-{i}"><img src="/t/{i}.png" alt=""></a></td>'
            f'<td><a href="/part/{slug(code)}-{i}">{e(name)}</a></td><td>{rng.randint(10, 40)} mm'
            f"</td><td>{rng.randint(0, 500)}</td><td>{price:,.2f}</td></tr>\n"
        )
    html = (
        head("Bearings | Bolt & Bearing", "en-IE")
        + "<body>\n"
        + simple_header("Bolt & Bearing", ["Catalogue", "Bearings", "Fasteners", "Quote"])
        + '<main><h1>Bearings</h1><table class="pricelist"><thead><tr><th></th><th>Part</th>'
        + "<th>Bore</th><th>In stock</th><th>Price (EUR)</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></main>\n"
        + small_footer("Bolt & Bearing")
        + scripts()
    )
    return html, base, items


def forum_rows_with_page_links(rng: random.Random) -> Page:
    """vBulletin-like thread rows: each has page links '1 2 3 … 12' and a last-post link."""
    base = "https://boards.modelrail.example/forumdisplay.php?f=7"
    topics = [
        "N gauge layout plans",
        "DCC decoder wiring",
        "Weathering rolling stock",
        "Scenery with static grass",
        "Points motors compared",
        "Track cleaning tips",
        "Building a fiddle yard",
        "Sound chips worth it?",
        "Painting figures",
        "Signals that work",
        "Kit-bashing a station",
        "Coupling problems",
        "Lighting buildings",
        "Backscene ideas",
        "Shelf layout progress",
    ]
    items: list[Label] = []
    rows = []
    for i, t in enumerate(topics):
        tid = 51000 + i * 7
        url = f"https://boards.modelrail.example/showthread.php?t={tid}"
        items.append(label(t, url))
        pages = rng.randint(1, 14)
        pagelinks = ""
        if pages > 1:
            shown = [1, 2, 3] if pages > 3 else list(range(1, pages + 1))
            pagelinks = (
                '<span class="pagelinks">('
                + " ".join(f'<a href="showthread.php?t={tid}&amp;page={n}">{n}</a>' for n in shown)
                + (
                    f' … <a href="showthread.php?t={tid}&amp;page={pages}">{pages}</a>'
                    if pages > 3
                    else ""
                )
                + ")</span>"
            )
        rows.append(
            f'<tr id="thread_{tid}"><td class="alt1"><img src="/icons/thread.gif" alt=""></td>'
            f'<td class="alt2"><div><a id="thread_title_{tid}" href="showthread.php?t={tid}">'
            f'{e(t)}</a> {pagelinks}</div><div class="smallfont"><span>by <a href="member.php?u='
            f'{i}">member{i}</a></span></div></td><td class="alt1">Today <a href="showthread.php?t='
            f'{tid}&amp;goto=lastpost">›</a></td><td class="alt2">{rng.randint(0, 300)}</td>'
            f'<td class="alt1">{rng.randint(10, 9000):,}</td></tr>\n'
        )
    html = (
        head("Layouts & Track - ModelRail Boards")
        + "<body>\n"
        + '<table class="tborder"><tr><td><a href="index.php">ModelRail Boards</a> &gt; '
        + '<a href="forumdisplay.php?f=7">Layouts &amp; Track</a></td></tr></table>\n'
        + '<table class="tborder" id="threadslist"><tr><td class="thead"></td><td class="thead">'
        + 'Thread / Thread Starter</td><td class="thead">Last Post</td><td class="thead">Replies'
        + '</td><td class="thead">Views</td></tr>'
        + "".join(rows)
        + "</table>\n"
        + '<div class="pagenav"><a href="forumdisplay.php?f=7&amp;page=2" title="Next Page">&gt;'
        + "</a></div>\n"
        + small_footer("ModelRail Boards")
        + scripts()
    )
    return html, base, items


# --- Fourth held-out set -------------------------------------------------------------------


def save_badges_before_price(rng: random.Random) -> Page:
    """'Save $20' and '$10 off' badges before the price, no price class on the price."""
    base = "https://www.toolden.example/power-tools/drills"
    items: list[Label] = []
    cards = []
    for i, name in enumerate(
        names(
            rng,
            20,
            lambda r: (
                f"{r.choice(['Torque', 'Volt', 'Rigid', 'Forge'])} "
                f"{r.choice([12, 18, 20, 24])}V {r.choice(['Drill Driver', 'Hammer Drill', 'Impact Driver'])}"
            ),
        )
    ):
        url = f"https://www.toolden.example/item/{slug(name)}-{880 + i}"
        price = money(rng, 49, 399)
        items.append(label(name, url, price, "USD"))
        badge = (
            f'<div class="flag">Save ${rng.randint(10, 60)}.00</div>'
            if i % 2
            else f'<div class="flag">${rng.randint(5, 30)} off</div>'
            if i % 3 == 0
            else ""
        )
        cards.append(
            f'<li class="grid-tile">{badge}<a href="/item/{slug(name)}-{880 + i}"><img '
            f'src="/i/{880 + i}.jpg" alt="{e(name)}"></a><a class="tile-title" href="/item/'
            f'{slug(name)}-{880 + i}">{e(name)}</a><div class="tile-bottom"><strong>'
            f"${price:,.2f}</strong></div></li>\n"
        )
    html = (
        head("Drills | ToolDen")
        + "<body>\n"
        + mega_menu(rng, "ToolDen")
        + '<main><h1>Drills</h1><ul class="grid">'
        + "".join(cards)
        + "</ul></main>\n"
        + big_footer("ToolDen", 3)
        + scripts()
    )
    return html, base, items


def gallery_figcaptions(rng: random.Random) -> Page:
    """An art shop gallery: `figure > a > img` and `figcaption` with the name and price."""
    base = "https://www.printroom.example/prints/landscapes"
    places = [
        "Fjord",
        "Dune",
        "Glacier",
        "Harbour",
        "Meadow",
        "Canyon",
        "Lagoon",
        "Ridge",
        "Delta",
        "Moor",
        "Cove",
        "Steppe",
        "Atoll",
        "Mesa",
    ]
    items: list[Label] = []
    figs = []
    for i, pl in enumerate(places):
        t = f"{pl} at {rng.choice(['dawn', 'dusk', 'noon', 'night'])}"
        url = f"https://www.printroom.example/print/{slug(t)}-{i}"
        price = float(rng.choice([35, 45, 60, 85, 120]))
        items.append(label(t, url, price, "GBP"))
        figs.append(
            f'<figure><a href="/print/{slug(t)}-{i}"><img src="/p/{i}.jpg" alt="{e(t)}"></a>'
            f'<figcaption><a href="/print/{slug(t)}-{i}">{e(t)}</a><br>Giclée print from £{price:.0f}'
            "</figcaption></figure>\n"
        )
    html = (
        head("Landscape prints | Print Room", "en-GB")
        + "<body>\n"
        + simple_header("Print Room", ["Prints", "Artists", "Framing", "Gifts"])
        + '<main><h1>Landscapes</h1><div class="gallery">'
        + "".join(figs)
        + "</div></main>\n"
        + small_footer("Print Room")
        + scripts()
    )
    return html, base, items


def jobs_salary_per_annum(rng: random.Random) -> Page:
    """UK job list: 'Salary: £45,000 - £55,000 per annum' in plain text; no price."""
    base = "https://www.civicjobs.example/search?sector=it"
    items: list[Label] = []
    arts = []
    for i, t in enumerate(names(rng, 16, job_title)):
        url = f"https://www.civicjobs.example/vacancy/{4500 + i}"
        items.append(label(t, url))
        low = rng.randint(30, 60) * 1000
        arts.append(
            f'<article class="vacancy"><h2><a href="/vacancy/{4500 + i}">{e(t)}</a></h2><ul>'
            f"<li>Location: {rng.choice(['Leeds', 'Cardiff', 'Bristol', 'Remote'])}</li><li>"
            f"Salary: £{low:,} - £{low + 10000:,} per annum</li><li>Closing date: "
            f"{rng.randint(1, 28)} December</li></ul></article>\n"
        )
    html = (
        head("IT jobs | CivicJobs", "en-GB")
        + "<body>\n"
        + simple_header("CivicJobs", ["Search jobs", "Employers", "Advice", "Sign in"])
        + "<main><h1>16 IT jobs</h1>"
        + "".join(arts)
        + "</main>\n"
        + small_footer("CivicJobs")
        + scripts()
    )
    return html, base, items


def cards_without_anchors(rng: random.Random) -> Page:
    """Script-navigated cards: `data-href` on the card, no `<a>` at all, a price each."""
    base = "https://www.kidsbooks.example/age/5-7"
    titles = [
        "The Lighthouse Cat",
        "Moon Over the Harbour",
        "Pip the Puffin",
        "The Tide Clock",
        "A Whale of a Time",
        "Sandcastle Kingdom",
        "The Lost Anchor",
        "Crab Goes to School",
        "Seagull Street",
        "The Night Ferry",
        "Octopus Makes Soup",
        "Boats Everywhere",
    ]
    items: list[Label] = []
    cards = []
    for i, t in enumerate(titles):
        price = rng.choice([5.99, 6.99, 7.99, 12.99])
        items.append({"title": t, "url": None, "price": price, "currency": "GBP"})
        cards.append(
            f'<div class="book-card" data-href="/book/{slug(t)}" role="link" tabindex="0">'
            f'<img src="/covers/{i}.jpg" alt=""><div class="book-card__name">{e(t)}</div>'
            f'<div class="book-card__author">by A. Writer</div><div class="book-card__cost">'
            f"£{price:.2f}</div></div>\n"
        )
    html = (
        head("Books for ages 5-7 | KidsBooks", "en-GB")
        + '<body><div id="app">\n'
        + simple_header("KidsBooks", ["Ages 0-4", "Ages 5-7", "Ages 8-12", "Gifts"])
        + '<main><h1>Ages 5-7</h1><div class="books">'
        + "".join(cards)
        + "</div></main>"
        + small_footer("KidsBooks")
        + "</div>"
        + scripts()
    )
    return html, base, items


# --- Fifth held-out set --------------------------------------------------------------------


def td_layout_grid(rng: random.Random) -> Page:
    """An old shop: a layout table with three products per row, each product one `<td>`."""
    base = "http://www.modelshop-classic.example/catalog/locomotives.htm"
    items: list[Label] = []
    cells = []
    for i, name in enumerate(
        names(
            rng,
            18,
            lambda r: (
                f"{r.choice(['Class', 'Series', 'Type'])} "
                f"{r.randint(20, 99)} {r.choice(['steam', 'diesel', 'electric'])} loco "
                f"{r.choice(['HO', 'N', 'OO'])}"
            ),
        )
    ):
        url = f"http://www.modelshop-classic.example/catalog/item{100 + i}.htm"
        price = money(rng, 49, 390)
        items.append(label(name, url, price, "USD"))
        cells.append(
            f'<td align="center" valign="top" width="33%"><a href="item{100 + i}.htm"><img '
            f'src="img/{100 + i}.gif" width="120" border="0" alt=""></a><br><a href="item'
            f'{100 + i}.htm"><font face="Arial" size="2"><b>{e(name)}</b></font></a><br>'
            f'<font color="#cc0000">${price:.2f}</font><br><a href="cart.cgi?add={100 + i}">'
            '<img src="img/buy.gif" alt="Buy"></a></td>'
        )
    rows = "".join(f"<tr>{''.join(cells[i : i + 3])}</tr>\n" for i in range(0, len(cells), 3))
    html = (
        head("Locomotives - Classic Model Shop")
        + '<body bgcolor="#ffffff"><table width="760" align="center"><tr><td colspan="2">'
        + '<a href="/">Classic Model Shop</a> | <a href="/catalog/">Catalog</a> | <a href="/'
        + 'order.htm">How to order</a> | <a href="/contact.htm">Contact</a></td></tr>'
        + '<tr><td width="160" valign="top"><a href="locomotives.htm">Locomotives</a><br><a '
        + 'href="wagons.htm">Wagons</a><br><a href="track.htm">Track</a><br><a href="scenery.htm">'
        + 'Scenery</a><br><a href="books.htm">Books</a></td><td valign="top"><h2>Locomotives</h2>'
        + '<table width="100%" cellpadding="6">'
        + rows
        + "</table></td></tr></table>\n"
        + scripts()
    )
    return html, base, items


def plain_titles_view_links(rng: random.Random) -> Page:
    """Items whose name is plain text; the only link is a 'View details' button."""
    base = "https://www.venuehire.example/rooms"
    rooms = [
        "The Boathouse",
        "Captain's Room",
        "Harbour Suite",
        "The Net Loft",
        "Sail Room",
        "The Chart Room",
        "Lantern Hall",
        "Tide Room",
        "The Galley",
        "Anchor Lounge",
    ]
    items: list[Label] = []
    lis = []
    for r in rooms:
        url = f"https://www.venuehire.example/rooms/{slug(r)}"
        price = float(rng.choice([150, 220, 300, 450, 600]))
        items.append(label(r, url, price, "GBP"))
        lis.append(
            f'<li class="room"><img src="/r/{slug(r)}.jpg" alt=""><div class="room-text"><strong>'
            f"{e(r)}</strong><span>Seats {rng.randint(10, 120)} · from £{price:.0f} per day</span>"
            f'</div><a class="button" href="/rooms/{slug(r)}">View details</a></li>\n'
        )
    html = (
        head("Rooms for hire | Venue Hire", "en-GB")
        + "<body>\n"
        + simple_header("Venue Hire", ["Rooms", "Catering", "Weddings", "Contact"])
        + '<main><h1>Our rooms</h1><ul class="rooms">'
        + "".join(lis)
        + "</ul></main>\n"
        + small_footer("Venue Hire")
        + scripts()
    )
    return html, base, items


def search_mark_highlight(rng: random.Random) -> Page:
    """Shop search results with the query highlighted in `<mark>` inside the names."""
    base = "https://www.brewgear.example/search?q=grinder"
    items: list[Label] = []
    cards = []
    for i, n in enumerate(
        names(
            rng,
            16,
            lambda r: (
                f"{r.choice(['Burr', 'Hand', 'Conical', 'Flat'])} "
                f"{r.choice(['Coffee', 'Spice', 'Espresso'])} grinder "
                f"{r.choice(['Mini', 'Pro', 'XL', 'Classic'])}"
            ),
        )
    ):
        url = f"https://www.brewgear.example/product/{slug(n)}"
        price = money(rng, 19, 420)
        items.append(label(n, url, price, "USD"))
        marked = e(n).replace("grinder", "<mark>grinder</mark>")
        cards.append(
            f'<div class="hit"><a href="/product/{slug(n)}"><img src="/p/{i}.jpg" alt=""></a>'
            f'<h3 class="hit-name"><a href="/product/{slug(n)}">{marked}</a></h3><span '
            f'class="hit-price">${price:.2f}</span></div>\n'
        )
    html = (
        head("Search: grinder | BrewGear")
        + "<body>\n"
        + mega_menu(rng, "BrewGear")
        + '<main><h1>16 results for "grinder"</h1><div class="hits">'
        + "".join(cards)
        + "</div></main>\n"
        + big_footer("BrewGear", 2)
        + scripts()
    )
    return html, base, items


def norwegian_and_brazil_prices(rng: random.Random) -> Page:
    """Norwegian shop: 'kr 1 299,-' and '499,-'."""
    base = "https://www.fjellsport.example/ski/langrenn"
    items: list[Label] = []
    cards = []
    for i, n in enumerate(
        names(
            rng,
            16,
            lambda r: (
                f"{r.choice(['Fjell', 'Vidde', 'Skog', 'Nord'])} "
                f"{r.choice(['langrennsski', 'staver', 'støvler', 'bindinger'])} "
                f"{r.choice(['Pro', 'Sport', 'Tur'])}"
            ),
        )
    ):
        url = f"https://www.fjellsport.example/produkt/{slug(n)}"
        price = float(rng.randint(3, 60) * 100 - 1)
        items.append(label(n, url, price, "NOK"))
        shown = (
            f"kr {price:,.0f},-".replace(",", "\u00a0", 1) if price >= 1000 else f"{price:.0f},-"
        )
        cards.append(
            f'<article class="produktkort"><a href="/produkt/{slug(n)}"><img src="/b/{i}.jpg" '
            f'alt="{e(n)}"><h2 class="produktkort__navn">{e(n)}</h2></a><p class="produktkort__'
            f'pris">{shown}</p></article>\n'
        )
    html = (
        head("Langrenn | Fjellsport", "nb-NO")
        + "<body>\n"
        + simple_header("Fjellsport", ["Ski", "Tur", "Løp", "Sykkel"])
        + '<main><h1>Langrennsutstyr</h1><div class="produktliste">'
        + "".join(cards)
        + "</div></main>\n"
        + small_footer("Fjellsport")
        + scripts()
    )
    return html, base, items


# --- Sixth held-out set --------------------------------------------------------------------


def financing_before_price(rng: random.Random) -> Page:
    """'As low as $54/mo' before the price, neither in a price class."""
    base = "https://www.sofaworld.example/living-room/sectionals"
    items: list[Label] = []
    cards = []
    for i, n in enumerate(
        names(
            rng,
            14,
            lambda r: (
                f"{r.choice(['Carmel', 'Dover', 'Aspen', 'Lyon', 'Oslo'])} "
                f"{r.choice(['3-Piece', '2-Piece', 'L-Shaped'])} Sectional"
            ),
        )
    ):
        url = f"https://www.sofaworld.example/p/{slug(n)}-{i}"
        price = float(rng.randint(8, 40) * 100 - 1)
        items.append(label(n, url, price, "USD"))
        cards.append(
            f'<div class="sofa"><a href="/p/{slug(n)}-{i}"><img src="/s/{i}.jpg" alt=""></a>'
            f'<h3><a href="/p/{slug(n)}-{i}">{e(n)}</a></h3><p class="finance">As low as '
            f'${price / 24:.0f}/mo with Affirm</p><p class="big">${price:,.2f}</p></div>\n'
        )
    html = (
        head("Sectionals | SofaWorld")
        + "<body>\n"
        + mega_menu(rng, "SofaWorld")
        + '<main><h1>Sectionals</h1><div class="sofas">'
        + "".join(cards)
        + "</div></main>\n"
        + big_footer("SofaWorld", 3)
        + scripts()
    )
    return html, base, items


def villas_dotted_millions(rng: random.Random) -> Page:
    """Spanish villas: '€ 1.250.000' (dots for thousands, no decimals)."""
    base = "https://www.costa-casas.example/es/venta/villas"
    towns = [
        "Marbella",
        "Nerja",
        "Estepona",
        "Mijas",
        "Altea",
        "Jávea",
        "Calpe",
        "Sitges",
        "Benahavís",
        "Moraira",
        "Denia",
        "Tarifa",
    ]
    items: list[Label] = []
    arts = []
    for i, t in enumerate(towns):
        title = f"Villa en {t} con piscina"
        url = f"https://www.costa-casas.example/es/propiedad/{slug(t)}-{900 + i}"
        price = float(rng.randint(4, 60) * 50000)
        items.append(label(title, url, price, "EUR"))
        arts.append(
            f'<article class="ficha"><a href="/es/propiedad/{slug(t)}-{900 + i}"><img '
            f'src="/f/{900 + i}.jpg" alt=""></a><h2><a href="/es/propiedad/{slug(t)}-{900 + i}">'
            f'{e(title)}</a></h2><p class="datos">{rng.randint(3, 7)} hab. · {rng.randint(2, 5)} '
            f'baños · {rng.randint(180, 900)} m²</p><p class="importe">€ '
            f"{price:,.0f}</p></article>\n".replace(",", ".")
        )
    html = (
        head("Villas en venta | Costa Casas", "es-ES")
        + "<body>\n"
        + simple_header("Costa Casas", ["Comprar", "Alquilar", "Vender", "Contacto"])
        + '<main><h1>Villas en venta</h1><div class="fichas">'
        + "".join(arts)
        + "</div></main>\n"
        + big_footer("Costa Casas", 2)
        + scripts()
    )
    return html, base, items


def flat_hr_separated(rng: random.Random) -> Page:
    """A club's noticeboard: one div of `h3`, `p`, `p`, `hr` again and again."""
    base = "https://www.rowingclub.example/noticeboard"
    notices = [
        "Winter training schedule",
        "New boat christening",
        "Regatta volunteers needed",
        "Annual general meeting",
        "Coaching course dates",
        "Boathouse work party",
        "Novice intake open",
        "Ergo challenge results",
        "Club kit order",
        "River safety update",
    ]
    items: list[Label] = []
    parts = []
    for i, n in enumerate(notices):
        url = f"https://www.rowingclub.example/notices/{slug(n)}"
        items.append(label(n, url))
        parts.append(
            f'<h3><a href="/notices/{slug(n)}">{e(n)}</a></h3><p>Posted {i + 1} November by the '
            f"committee.</p><p>Details of the {e(n.lower())} are on the notice page.</p><hr>\n"
        )
    html = (
        head("Noticeboard | Riverside Rowing Club", "en-GB")
        + "<body>\n"
        + simple_header("Riverside Rowing Club", ["Home", "Join", "Noticeboard", "Contact"])
        + '<div class="content"><h1>Noticeboard</h1><div class="notices">'
        + "".join(parts)
        + "</div></div>\n"
        + small_footer("Riverside Rowing Club")
        + scripts()
    )
    return html, base, items


def cards_with_footer_price(rng: random.Random) -> Page:
    """Bootstrap-ish cards with the price in a `<footer>` inside each card, no `<main>`."""
    base = "https://www.printshop.example/mugs"
    items: list[Label] = []
    cards = []
    for i, n in enumerate(
        names(
            rng,
            12,
            lambda r: (
                f"{r.choice(['Sunset', 'Harbour', 'Forest', 'City'])} "
                f"{r.choice(['mug', 'tumbler', 'cup'])} {r.randint(250, 450)} ml"
            ),
        )
    ):
        url = f"https://www.printshop.example/item/{slug(n)}"
        price = money(rng, 8, 30)
        items.append(label(n, url, price, "EUR"))
        cards.append(
            f'<div class="card"><img class="card-img-top" src="/m/{i}.jpg" alt=""><div class="card-'
            f'body"><h5 class="card-title"><a href="/item/{slug(n)}">{e(n)}</a></h5><p class="card-'
            f'text">Dishwasher safe.</p></div><footer class="card-footer">{eu(price)}</footer>'
            "</div>\n"
        )
    html = (
        head("Mugs | PrintShop", "de-AT")
        + "<body>\n"
        + '<div class="navbar"><a href="/">PrintShop</a> <a href="/mugs">Mugs</a> <a href="/shirts">'
        + 'Shirts</a> <a href="/posters">Posters</a></div>\n'
        + '<div class="container"><h1>Mugs</h1><div class="card-deck">'
        + "".join(cards)
        + "</div></div>\n"
        + small_footer("PrintShop")
        + scripts()
    )
    return html, base, items


TEMPLATES: dict[str, Callable[[random.Random], Page]] = {
    "shop_grid_cards": shop_grid_cards,
    "shop_list_woo_sale": shop_list_woo_sale,
    "shop_de_euro": shop_de_euro,
    "shop_fr_list": shop_fr_list,
    "shop_jp_yen": shop_jp_yen,
    "shop_in_rupee": shop_in_rupee,
    "shop_ch_franc": shop_ch_franc,
    "shop_ca_dollar": shop_ca_dollar,
    "jobs_board": jobs_board,
    "jobs_jsonld": jobs_jsonld,
    "crypto_table": crypto_table,
    "forum_threads": forum_threads,
    "hn_like": hn_like,
    "pricing_plans": pricing_plans,
    "pricing_plans_tailwind": pricing_plans_tailwind,
    "news_list": news_list,
    "events_list": events_list,
    "search_results": search_results,
    "real_estate": real_estate,
    "car_listings_tailwind": car_listings_tailwind,
    "hotel_results_hashed": hotel_results_hashed,
    "app_store": app_store,
    "jsonld_itemlist_urls": jsonld_itemlist_urls,
    "jsonld_itemlist_products": jsonld_itemlist_products,
    "jsonld_category_only": jsonld_category_only,
    "jsonld_partial": jsonld_partial,
    "microdata_grid": microdata_grid,
    "rdfa_list": rdfa_list,
    "div_soup_hashed": div_soup_hashed,
    "mega_menu_shop": mega_menu_shop,
    "changelog_no_images": changelog_no_images,
    "packages_search": packages_search,
    "recipes_grid": recipes_grid,
    "courses_dl": courses_dl,
    "classifieds_table_layout": classifieds_table_layout,
    "magento_special_price": magento_special_price,
    "shopify_sale_nl": shopify_sale_nl,
    "swedish_kronor": swedish_kronor,
    "blog_archive": blog_archive,
    "link_aggregator_divs": link_aggregator_divs,
    "trending_repos": trending_repos,
    "rentals_cta_only_link": rentals_cta_only_link,
    "amazon_like_split_price": amazon_like_split_price,
    "auction_ghost_first": auction_ghost_first,
    "coin_grid_divs": coin_grid_divs,
    "job_cards_whole_link": job_cards_whole_link,
    "podcast_plain_html": podcast_plain_html,
    "pricing_featured_differs": pricing_featured_differs,
    "news_sections": news_sections,
    "jsonld_products_array": jsonld_products_array,
    "grocery_price_first": grocery_price_first,
    "events_sold_out": events_sold_out,
    "hotels_inline_strike": hotels_inline_strike,
    "flights_table_th_rows": flights_table_th_rows,
    "rentals_pcm_poa": rentals_pcm_poa,
    "japanese_yen_suffix": japanese_yen_suffix,
    "results_plus_recently_viewed": results_plus_recently_viewed,
    "news_li_time_links": news_li_time_links,
    "fashion_aria_label_titles": fashion_aria_label_titles,
    "search_with_sitelinks": search_with_sitelinks,
    "table_currency_in_header": table_currency_in_header,
    "forum_rows_with_page_links": forum_rows_with_page_links,
    "save_badges_before_price": save_badges_before_price,
    "gallery_figcaptions": gallery_figcaptions,
    "jobs_salary_per_annum": jobs_salary_per_annum,
    "cards_without_anchors": cards_without_anchors,
    "td_layout_grid": td_layout_grid,
    "plain_titles_view_links": plain_titles_view_links,
    "search_mark_highlight": search_mark_highlight,
    "norwegian_kroner": norwegian_and_brazil_prices,
    "financing_before_price": financing_before_price,
    "villas_dotted_millions": villas_dotted_millions,
    "flat_hr_separated": flat_hr_separated,
    "cards_with_footer_price": cards_with_footer_price,
}
FEEDS = {"rss_feed": (rss_feed, "application/rss+xml"), "atom_feed": (atom_feed, None)}


def main() -> None:
    for n, (name, template) in enumerate(TEMPLATES.items()):
        html, base, items = template(random.Random(1000 + n))
        (HERE / f"{name}.html").write_text(html, encoding="utf-8")
        labels = {"baseUrl": base, "items": items}
        (HERE / f"{name}.labels.json").write_text(
            json.dumps(labels, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    for n, (name, (feed, content_type)) in enumerate(FEEDS.items()):
        xml, base, items = feed(random.Random(2000 + n))
        (HERE / f"{name}.xml").write_text(xml, encoding="utf-8")
        labels = {"baseUrl": base, "items": items}
        if content_type:
            labels["contentType"] = content_type
        (HERE / f"{name}.labels.json").write_text(
            json.dumps(labels, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
