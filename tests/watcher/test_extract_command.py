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
