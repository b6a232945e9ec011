"""`manage.py extract FILE --base-url URL [--selector CSS] [--field NAME=CSS]... [--ignore F]`"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.watcher.pages import lists_page
from watcher.extract import Page
from watcher.extract.candidates import selector_of
from watcher.extract.selector import selector_items

CORPUS = Path(__file__).parent / "corpus"

PAGE = """<html><head><title>Boats</title></head><body><main>{cards}</main></body></html>"""
CARDS = "".join(
    f'<div class="boat"><h3><a href="/b/{n}">Sailing boat {n}</a></h3>'
    f'<span class="price">£{n}2,500</span><span class="len">{n + 6} m</span></div>'
    for n in range(1, 5)
)


def run(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("extract", *args, stdout=out)
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "boats.html"
    path.write_text(PAGE.format(cards=CARDS), encoding="utf-8")
    return path


def test_prints_one_json_document(saved: Path) -> None:
    out = io.StringIO()
    call_command("extract", str(saved), "--base-url", "https://boats.example/", stdout=out)
    text = out.getvalue()
    doc = json.loads(text)
    assert set(doc) == {"entryKinds", "entries"}
    assert text.startswith('{\n  "entryKinds"')  # indented
    assert doc["entryKinds"] == [{"name": "boat", "hasPrice": True}]
    assert [e["title"] for e in doc["entries"]] == [f"Sailing boat {n}" for n in range(1, 5)]
    assert doc["entries"][0]["url"] == "https://boats.example/b/1"
    assert (doc["entries"][0]["price"], doc["entries"][0]["currency"]) == (12500, "GBP")


def test_selector_fields_and_ignore(saved: Path) -> None:
    doc = run(
        str(saved),
        "--base-url",
        "https://boats.example/",
        "--selector",
        "div.boat",
        "--field",
        "length=.len",
        "--field",
        "title=h3",
        "--field",
        "priceText=.price",
        "--ignore",
        "priceText",
    )
    first = doc["entries"][0]
    assert first["title"] == "Sailing boat 1"
    assert first["attributes"] == {"length": {"s": "7 m"}}


def test_reads_feeds_and_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    feed = (CORPUS / "atom_feed.xml").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(feed)))
    doc = run("-", "--base-url", "https://releases.tidewatch.example/atom.xml")
    assert doc["entryKinds"] == [{"name": "feedItem", "hasPrice": False}]
    assert len(doc["entries"]) == 12


def test_unicode_is_printed_as_is(tmp_path: Path) -> None:
    path = tmp_path / "p.html"
    cards = "".join(
        f'<li class="livre"><a href="/l/{n}">Café numéro {n}</a> <b>{n},50 €</b></li>'
        for n in range(1, 4)
    )
    path.write_text(f"<html lang='fr'><body><ul>{cards}</ul></body></html>", encoding="utf-8")
    out = io.StringIO()
    call_command("extract", str(path), "--base-url", "https://l.example/", stdout=out)
    assert "Café numéro 1" in out.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/no/such/file.html", "--base-url", "https://a.example/"], "cannot read"),
        (["{saved}", "--base-url", "https://a.example/", "--field", "nocss"], "NAME=CSS"),
        (["{saved}", "--base-url", "https://a.example/", "--selector", "div[["], "CSS"),
        (
            ["{saved}", "--base-url", "https://a.example/", "--selector", "a", "--field", "x=(("],
            "CSS",
        ),
        (["{saved}", "--base-url", "ftp://a.example/"], "http"),
    ],
)
def test_errors(saved: Path, args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("extract", *[a.format(saved=saved) for a in args], stdout=io.StringIO())


def test_candidates_prints_the_ranked_distinct_lists(tmp_path: Path) -> None:

    path = tmp_path / "harbour.html"
    path.write_text(lists_page(), encoding="utf-8")
    out = run(str(path), "--base-url", "https://harbour.example/", "--candidates")
    ranked = out["candidates"]
    assert [c["selector"] for c in ranked] == [
        "div.product", "li.guide", "article.event", "tr.store",
    ]  # fmt: skip
    assert [c["count"] for c in ranked] == [6, 4, 3, 3]
    first = ranked[0]["items"][0]
    assert first == {
        "title": "Harbour lamp 1",
        "url": "https://harbour.example/p/lamp-1",
        "price": 11.0,
        "currency": "EUR",
    }
    # The link wrapping each card's content yields the same six items: not a candidate.
    assert not any("product-link" in c["selector"] for c in ranked)
    # Each selector reads, as a source's item selector, exactly its list's items.
    page = Page.parse(lists_page().encode(), "https://harbour.example/")
    for candidate in ranked:
        read = selector_items(page, candidate["selector"], None)
        assert [i.title for i in read] == [i["title"] for i in candidate["items"]]


def test_candidates_of_a_page_without_a_class_name_its_container(tmp_path: Path) -> None:

    html = (
        '<html><body><div id="results"><div><a href="/a">Alpha ridge walk</a></div>'
        '<div><a href="/b">Beta ridge walk</a></div><div><a href="/c">Gamma ridge walk</a>'
        "</div></div><div><div>Not an item</div><div>Nor this</div></div></body></html>"
    )

    page = Page.parse(html.encode(), "https://walks.example/")
    members = page.tree.cssselect("#results > div")
    assert selector_of(page.tree, members) == "#results > div"
    path = tmp_path / "walks.html"
    path.write_text(html, encoding="utf-8")
    ranked = run(str(path), "--base-url", "https://walks.example/", "--candidates")["candidates"]
    assert ranked[0]["selector"] == "#results > div"
    assert [i["title"] for i in ranked[0]["items"]] == [
        "Alpha ridge walk", "Beta ridge walk", "Gamma ridge walk",
    ]  # fmt: skip
