"""A source's own selectors: `selector` picks the items, `fields` their values."""

from __future__ import annotations

import pytest

from watcher.extract import SelectorProblem, extract_bytes

BASE = "https://homes.example/search?city=porto"

PAGE = """<html lang="pt-PT"><head><title>Homes</title></head><body>
<nav><a href="/">Home</a><a href="/rent">Rent</a><a href="/buy">Buy</a></nav>
<section id="results">{rows}</section></body></html>"""


def listing(n: int, beds: int, balcony: str, stock: str) -> str:
    return (
        f'<div class="res" data-id="{n}"><span class="addr">Rua Nova {n}, Porto</span>'
        f'<a class="go" href="/h/{n}">details</a><img class="pic" src="/p/{n}.jpg">'
        f'<b class="cost">{n}95.000 €</b><i class="beds">{beds}</i>'
        f'<i class="balcony">{balcony}</i><i class="state">{stock}</i>'
        f'<i class="ref">Ref. PT-{n}</i><i class="area">1.234,5</i></div>'
    )


def body() -> bytes:
    rows = listing(1, 2, "yes", "Available") + listing(2, 3, "no", "Sold out")
    return PAGE.format(rows=rows).encode()


FIELDS = {
    "title": ".addr",
    "url": "a.go",
    "price": ".cost",
    "image": "img.pic",
    "bedrooms": ".beds",
    "balcony": ".balcony",
    "inStock": ".state",
    "reference": ".ref",
    "area": ".area",
    "missing": ".nothing-here",
}


def test_selector_and_fields() -> None:
    ex = extract_bytes(body(), BASE, selector="#results .res", fields=FIELDS)
    assert ex.method == "selector"
    first, second = ex.entries
    assert first["title"] == "Rua Nova 1, Porto"
    assert first["url"] == "https://homes.example/h/1"
    assert first["identityKey"] == "https://homes.example/h/1"
    assert (first["price"], first["currency"]) == (195000, "EUR")
    assert first["imageUrl"] == "https://homes.example/p/1.jpg"
    attrs = first["attributes"]
    assert attrs["bedrooms"] == {"n": 2}
    assert attrs["balcony"] == {"b": True}
    assert attrs["inStock"] == {"b": True}
    assert attrs["reference"] == {"s": "Ref. PT-1"}
    assert attrs["area"] == {"n": 1234.5}
    assert "missing" not in attrs
    assert second["attributes"]["balcony"] == {"b": False}
    assert second["attributes"]["inStock"] == {"b": False}


def test_selector_overrides_schema_org_and_blocks() -> None:
    ld = (
        '<script type="application/ld+json">{"@type": "ItemList", "itemListElement": ['
        '{"@type": "ListItem", "url": "/a", "name": "A"},'
        '{"@type": "ListItem", "url": "/b", "name": "B"}]}</script>'
    )
    page = body().replace(b"<title>", ld.encode() + b"<title>")
    ex = extract_bytes(page, BASE, selector=".res")
    assert ex.method == "selector"
    assert len(ex.entries) == 2


def test_without_a_title_field_the_title_is_found_as_for_blocks() -> None:
    html = (
        "<html><body>"
        + "".join(
            f'<article class="post"><h2><a href="/posts/{n}">Post number {n}</a></h2>'
            f"<p>Body {n}</p></article>"
            for n in range(3)
        )
        + "</body></html>"
    )
    ex = extract_bytes(html.encode(), "https://blog.example/", selector="article.post")
    assert [e["title"] for e in ex.entries] == ["Post number 0", "Post number 1", "Post number 2"]
    assert ex.entries[2]["url"] == "https://blog.example/posts/2"


def test_ignore_drops_attributes() -> None:
    ex = extract_bytes(
        body(), BASE, selector=".res", fields=FIELDS, ignore=["reference", "area", "inStock"]
    )
    for entry in ex.entries:
        assert not {"reference", "area", "inStock"} & set(entry["attributes"])
        assert "bedrooms" in entry["attributes"]


def test_a_selector_matching_nothing_gives_no_entries() -> None:
    ex = extract_bytes(body(), BASE, selector=".no-such-thing")
    assert ex.entries == []
    assert ex.method == "none"


def test_bad_css_is_refused() -> None:
    with pytest.raises(SelectorProblem):
        extract_bytes(body(), BASE, selector="div[[")
    with pytest.raises(SelectorProblem):
        extract_bytes(body(), BASE, selector=".res", fields={"x": "::nope("})
