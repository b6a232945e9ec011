"""schema.org in pages: JSON-LD (ItemList, Product, JobPosting, Event, offers as plans),
microdata and RDFa."""

from __future__ import annotations

import json
from typing import Any

from watcher.extract import extract_bytes

BASE = "https://shop.example/c/tents"


def page(*docs: Any, body: str = "", lang: str = "en") -> bytes:
    scripts = "".join(f'<script type="application/ld+json">{json.dumps(d)}</script>' for d in docs)
    return (
        f'<!doctype html><html lang="{lang}"><head><title>t</title>{scripts}</head>'
        f"<body><main>{body}</main></body></html>"
    ).encode()


def product(name: str, price: Any, currency: str = "EUR", **more: Any) -> dict[str, Any]:
    return {
        "@type": "Product",
        "name": name,
        "url": f"/p/{name.lower().replace(' ', '-')}",
        "image": f"/img/{name.lower().replace(' ', '-')}.jpg",
        "offers": {"@type": "Offer", "price": price, "priceCurrency": currency, **more},
    }


def test_item_list_of_products() -> None:
    doc = {
        "@context": "https://schema.org",
        "@type": "ItemList",
        "itemListElement": [
            {"@type": "ListItem", "position": 1, "item": product("Ridge Tent", "249.00")},
            {
                "@type": "ListItem",
                "position": 2,
                "item": product("Dome Tent", 99, availability="https://schema.org/OutOfStock"),
            },
            {"@type": "ListItem", "position": 3, "item": product("Tunnel Tent", "1299.5")},
        ],
    }
    ex = extract_bytes(page(doc), BASE)
    assert ex.method == "schema.org"
    assert ex.entry_kinds == [{"name": "product", "hasPrice": True}]
    ridge, dome, tunnel = ex.entries
    assert ridge == {
        "identityKey": "https://shop.example/p/ridge-tent",
        "title": "Ridge Tent",
        "url": "https://shop.example/p/ridge-tent",
        "kind": "product",
        "price": 249,
        "currency": "EUR",
        "imageUrl": "https://shop.example/img/ridge-tent.jpg",
    }
    assert isinstance(ridge["price"], int)
    assert dome["attributes"]["inStock"] == {"b": False}
    assert tunnel["price"] == 1299.5


def test_item_list_of_list_items_with_urls_and_graph() -> None:
    doc = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebPage", "name": "Tents"},
            {
                "@type": "ItemList",
                "itemListElement": [
                    {"@type": "ListItem", "position": i, "url": f"/p/{i}", "name": f"Tent {i}"}
                    for i in (1, 2, 3)
                ],
            },
        ],
    }
    ex = extract_bytes(page(doc), BASE)
    assert [e["url"] for e in ex.entries] == [f"https://shop.example/p/{i}" for i in (1, 2, 3)]
    assert [e["title"] for e in ex.entries] == ["Tent 1", "Tent 2", "Tent 3"]


def test_aggregate_offer_low_price() -> None:
    offers = {
        "@type": "AggregateOffer",
        "lowPrice": "19.99",
        "highPrice": 40,
        "priceCurrency": "GBP",
    }
    docs = [
        {"@type": "Product", "name": n, "url": f"/p/{n}", "offers": offers} for n in ("a1", "b2")
    ]
    ex = extract_bytes(page(docs), BASE)
    assert [(e["price"], e["currency"]) for e in ex.entries] == [(19.99, "GBP")] * 2


def test_job_postings() -> None:
    def job(title: str, city: str) -> dict[str, Any]:
        return {
            "@context": "https://schema.org",
            "@type": "JobPosting",
            "title": title,
            "url": f"https://jobs.example/{title.lower().replace(' ', '-')}",
            "employmentType": ["FULL_TIME", "CONTRACTOR"],
            "hiringOrganization": {"@type": "Organization", "name": "Northwind"},
            "jobLocation": {
                "@type": "Place",
                "address": {
                    "@type": "PostalAddress",
                    "addressLocality": city,
                    "addressRegion": "BE",
                    "addressCountry": "DE",
                },
            },
            "baseSalary": {
                "@type": "MonetaryAmount",
                "currency": "EUR",
                "value": {"@type": "QuantitativeValue", "minValue": 60000, "maxValue": 80000},
            },
        }

    ex = extract_bytes(page(job("Data Engineer", "Berlin"), job("Designer", "Potsdam")), BASE)
    assert ex.entry_kinds == [{"name": "jobPosting", "hasPrice": False}]
    first = ex.entries[0]
    assert first["title"] == "Data Engineer"
    assert first["kind"] == "jobPosting"
    assert "price" not in first
    attrs = first["attributes"]
    assert attrs["salaryMin"] == {"n": 60000, "unit": "EUR"}
    assert attrs["salaryMax"] == {"n": 80000, "unit": "EUR"}
    assert attrs["location"] == {"s": "Berlin, BE, DE"}
    assert "FULL_TIME" in attrs["employmentType"]["s"]


def test_events() -> None:
    events = [
        {
            "@type": "Event",
            "name": f"Concert {i}",
            "url": f"/e/{i}",
            "startDate": f"2026-12-0{i}T19:30:00+01:00",
            "location": {"@type": "Place", "name": "Harbour Hall"},
            "offers": {"@type": "Offer", "price": "15", "priceCurrency": "EUR"},
        }
        for i in (1, 2)
    ]
    ex = extract_bytes(page({"@context": "https://schema.org", "@graph": events}), BASE)
    assert ex.entry_kinds == [{"name": "event", "hasPrice": True}]
    assert ex.entries[0]["attributes"]["startDate"] == {"s": "2026-12-01T19:30:00+01:00"}
    assert ex.entries[0]["attributes"]["location"] == {"s": "Harbour Hall"}
    assert ex.entries[1]["price"] == 15


def test_offers_as_plans() -> None:
    doc = {
        "@type": "SoftwareApplication",
        "name": "ShipFast",
        "offers": [
            {"@type": "Offer", "name": "Starter", "price": 0, "priceCurrency": "USD"},
            {"@type": "Offer", "name": "Team", "price": "29", "priceCurrency": "USD"},
            {"@type": "Offer", "name": "Business", "price": "99.00", "priceCurrency": "USD"},
        ],
    }
    ex = extract_bytes(page(doc), "https://shipfast.example/pricing")
    assert [(e["title"], e["price"]) for e in ex.entries] == [
        ("Starter", 0),
        ("Team", 29),
        ("Business", 99),
    ]
    assert {e["kind"] for e in ex.entries} == {"offer"}
    assert len({e["identityKey"] for e in ex.entries}) == 3


def test_a_lone_page_product_is_not_a_list() -> None:
    """One Product describing the category: the page's cards are the items."""
    cards = "".join(
        f'<div class="tile"><a href="/p/{n}"><h3>Tent {n}</h3></a><span>€{n}9.00</span></div>'
        for n in range(1, 6)
    )
    doc = product("All tents", "19.00")
    ex = extract_bytes(page(doc, body=f'<div class="tiles">{cards}</div>'), BASE)
    assert ex.method == "blocks"
    assert [e["title"] for e in ex.entries] == [f"Tent {n}" for n in range(1, 6)]


def test_blocks_win_when_json_ld_lists_only_a_few() -> None:
    docs = [product(f"Featured {n}", 10) for n in range(3)]
    cards = "".join(
        f'<div class="tile"><a href="/p/{n}"><h3>Tent number {n}</h3></a><span>€{n}.50</span></div>'
        for n in range(40)
    )
    ex = extract_bytes(page(docs, body=f'<div class="tiles">{cards}</div>'), BASE)
    assert ex.method == "blocks"
    assert len(ex.entries) == 40


def test_broken_json_ld_is_ignored() -> None:
    body = (
        b'<html><head><script type="application/ld+json">{"@type": "ItemList", oops'
        b"</script></head><body><p>Nothing</p></body></html>"
    )
    ex = extract_bytes(body, BASE)
    assert ex.entries == []
    assert ex.method == "none"


def test_microdata_products() -> None:
    cells = "".join(
        f'<div itemscope itemtype="https://schema.org/Product"><a itemprop="url" href="/i/{n}">'
        f'<span itemprop="name">Notebook {n}</span></a><div itemprop="offers" itemscope '
        f'itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="EUR">'
        f'<span itemprop="price" content="1{n}.50">1{n},50 €</span></div></div>'
        for n in range(3)
    )
    ex = extract_bytes(page(body=cells), "https://paper.example/notebooks")
    assert ex.method == "schema.org"
    assert [(e["title"], e["price"], e["currency"]) for e in ex.entries] == [
        ("Notebook 0", 10.5, "EUR"),
        ("Notebook 1", 11.5, "EUR"),
        ("Notebook 2", 12.5, "EUR"),
    ]
    assert ex.entries[0]["url"] == "https://paper.example/i/0"


def test_rdfa_products() -> None:
    cards = "".join(
        f'<div typeof="Product" resource="/r/{n}"><h3 property="name">Record {n}</h3>'
        f'<a property="url" href="/r/{n}">more</a><div property="offers" typeof="Offer">'
        f'<span property="priceCurrency" content="GBP">£</span>'
        f'<span property="price" content="2{n}.00">2{n}.00</span></div></div>'
        for n in range(3)
    )
    body = (
        f'<html><head><title>t</title></head><body vocab="https://schema.org/">{cards}'
        "</body></html>"
    ).encode()
    ex = extract_bytes(body, "https://vinyl.example/jazz")
    assert ex.method == "schema.org"
    assert [(e["title"], e["price"], e["currency"]) for e in ex.entries] == [
        ("Record 0", 20, "GBP"),
        ("Record 1", 21, "GBP"),
        ("Record 2", 22, "GBP"),
    ]
    assert ex.entries[1]["url"] == "https://vinyl.example/r/1"


def test_microdata_job_location_written_as_text() -> None:
    """A nested item with no properties of its own (`<span itemprop="address" itemscope
    itemtype=".../PostalAddress">London</span>`): its text is the location."""
    jobs = "".join(
        f'<article itemscope itemtype="http://schema.org/JobPosting"><h2><a itemprop="url" '
        f'href="/job/{n}"><span itemprop="title">Engineer {n}</span></a></h2>'
        '<div itemprop="hiringOrganization" itemscope itemtype="http://schema.org/Organization">'
        f'<span itemprop="name">Firm {n}</span></div><div itemprop="jobLocation" itemscope '
        'itemtype="http://schema.org/Place"><span itemprop="address" itemscope '
        'itemtype="http://schema.org/PostalAddress"> London, England </span></div></article>'
        for n in range(3)
    )
    ex = extract_bytes(page(body=jobs), "https://jobs.example/search")
    assert ex.method == "schema.org"
    assert [e["attributes"] for e in ex.entries] == [
        {"location": {"s": "London, England"}, "company": {"s": f"Firm {n}"}} for n in range(3)
    ]


def test_microdata_job_title_on_a_link_and_a_leaking_employer_name() -> None:
    """`<a itemprop="title" href=…>` reads as the link's address and the employer's
    `itemprop="name"` leaks into the job (no `itemscope` on the employer): neither is the
    job's name, so the page's blocks give the jobs, titled as shown."""
    jobs = "".join(
        f'<div class="result" itemscope itemtype="http://schema.org/JobPosting"><h2>'
        f'<a itemprop="title" href="/company/firm-{n}/jobs/clerk-{n}">Office clerk {n}</a>'
        f'</h2><span class="company" itemprop="hiringOrganization"><span itemprop="name">'
        f"Firm {n}</span></span><p>Answer the phone and keep the books at firm {n}.</p></div>"
        for n in range(4)
    )
    ex = extract_bytes(page(body=jobs), "https://jobs.example/search")
    assert [(e["title"], e["url"]) for e in ex.entries] == [
        (f"Office clerk {n}", f"https://jobs.example/company/firm-{n}/jobs/clerk-{n}")
        for n in range(4)
    ]


def test_microdata_job_title_before_its_name() -> None:
    jobs = "".join(
        f'<div itemscope itemtype="http://schema.org/JobPosting"><a itemprop="url" '
        f'href="/j/{n}"><span itemprop="title">Welder {n}</span></a><meta itemprop="name" '
        f'content="Job ad {n}"></div>'
        for n in range(3)
    )
    ex = extract_bytes(page(body=jobs), "https://jobs.example/search")
    assert ex.method == "schema.org"
    assert [e["title"] for e in ex.entries] == ["Welder 0", "Welder 1", "Welder 2"]


def test_markup_naming_dated_events_alike_yields_to_the_blocks() -> None:
    """Microdata events with no link of their own, all named alike (a weekly club run):
    the markup makes one entry, the page's blocks one per date, each with its link."""
    events = "".join(
        f'<h2>Saturday {d}</h2><div itemscope itemtype="http://schema.org/Event" class="event">'
        f'<div class="event_body"><h3 itemprop="name"><a href="/events/2026/07/{d:02d}/club-run">'
        f'Club run</a></h3><meta itemprop="startDate" content="2026-07-{d:02d}T08:00">'
        f"<p>Runs through the park in small groups.</p></div></div>"
        for d in (4, 11, 18, 25)
    )
    ex = extract_bytes(page(body=f"<div>{events}</div>"), "https://parks.example/events")
    assert ex.method == "blocks"
    assert [e["url"] for e in ex.entries] == [
        f"https://parks.example/events/2026/07/{d:02d}/club-run" for d in (4, 11, 18, 25)
    ]


def test_microdata_without_currency_or_link_takes_them_from_the_page() -> None:
    """`<span itemprop="price">179,90 EUR</span>` with no `priceCurrency` and no `url`: the
    currency written in the price, the link of the one card of the same name."""
    cells = "".join(
        f'<div class="product" itemscope itemtype="http://schema.org/Product"><h3><a '
        f'href="/shop/item-{n}.html"><span itemprop="name">Radio set {n}</span></a></h3>'
        f'<div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><span '
        f'itemprop="price">1{n}9,90 EUR</span></div></div>'
        for n in range(3)
    )
    ex = extract_bytes(page(body=cells, lang="de"), "https://rc.example/featured")
    assert ex.method == "schema.org"
    assert [(e["title"], e["url"], e["price"], e["currency"]) for e in ex.entries] == [
        (f"Radio set {n}", f"https://rc.example/shop/item-{n}.html", float(f"1{n}9.9"), "EUR")
        for n in range(3)
    ]


def test_microdata_price_alone_takes_the_pages_currency() -> None:
    cells = "".join(
        f'<div itemscope itemtype="http://schema.org/Product"><a itemprop="url" href="/j/{n}">'
        f'<span itemprop="name">Jas {n}</span></a><div itemprop="offers" itemscope '
        f'itemtype="http://schema.org/Offer"><span itemprop="price">{n}49,95</span></div></div>'
        for n in range(1, 4)
    )
    ex = extract_bytes(page(body=cells, lang="nl"), "https://warenhuis.example/heren/jassen")
    assert [(e["price"], e["currency"]) for e in ex.entries] == [
        (float(f"{n}49.95"), "EUR") for n in range(1, 4)
    ]
