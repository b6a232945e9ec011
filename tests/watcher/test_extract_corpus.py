"""The labelled corpus (`make eval`): a regression in the heuristic fails here."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import lxml.html
import pytest

from watcher.extract import Page, extract
from watcher.extract.evaluate import evaluate, pages
from watcher.extract.values import absolute

CORPUS = Path(__file__).parent / "corpus"
PAGES = pages(CORPUS)


def test_the_corpus_is_varied() -> None:
    assert len(PAGES) >= 30
    assert sum(len(labels["items"]) for _, labels in PAGES) >= 600


def test_recall_and_precision_overall() -> None:
    _rows, total = evaluate(CORPUS)
    assert total.recall >= 0.95
    assert total.precision >= 0.95
    matched = total.matched or 1
    assert total.title_ok / matched >= 0.95
    assert total.url_ok / matched >= 0.95
    assert total.price_ok / matched >= 0.9


@pytest.mark.parametrize(("path", "labels"), PAGES, ids=[p.stem for p, _ in PAGES])
def test_entries_are_well_formed(path: Path, labels: dict[str, object]) -> None:
    page = Page.parse(path.read_bytes(), str(labels["baseUrl"]), labels.get("contentType"))  # type: ignore[arg-type]
    entries = extract(page).entries
    keys = [e["identityKey"] for e in entries]
    assert len(keys) == len(set(keys))
    for e in entries:
        assert e["title"]
        assert e["title"] == " ".join(e["title"].split())
        assert 0 < len(e["identityKey"]) <= 512
        assert e.get("url", "https://x").startswith(("http://", "https://"))
        if "price" in e:
            assert isinstance(e["price"], int | float)
            assert not isinstance(e["price"], bool)
        if "currency" in e:
            assert "price" in e
            assert re.fullmatch(r"[A-Z]{3}", e["currency"])
        assert not {"title", "price"} & set(e.get("attributes", {}))


@pytest.mark.parametrize(
    "name", ["shop_grid_cards", "jobs_board", "crypto_table", "news_list", "div_soup_hashed"]
)
def test_shuffling_items_changes_no_identity(name: str) -> None:
    """Items moved around on the page keep their keys: shuffle the listing's own blocks."""
    path = CORPUS / f"{name}.html"
    labels = next(lab for p, lab in PAGES if p == path)
    page = Page.parse(path.read_bytes(), str(labels["baseUrl"]))
    before = extract(page).entries
    tree = page.tree
    shuffle_blocks(tree, {str(item["url"]) for item in labels["items"]}, str(labels["baseUrl"]))
    again = Page.parse(lxml.html.tostring(tree), str(labels["baseUrl"]))
    after = extract(again).entries
    assert [e["identityKey"] for e in before] != [e["identityKey"] for e in after]  # moved
    assert {e["identityKey"] for e in before} == {e["identityKey"] for e in after}
    by_key = {e["identityKey"]: e for e in after}
    assert all(by_key[e["identityKey"]] == e for e in before)


def shuffle_blocks(tree: Any, urls: set[str], base: str) -> None:
    """Shuffle the labelled items' blocks among their siblings. An item's block is the
    highest ancestor of its link that holds no other labelled item's link."""
    blocks: list[Any] = []
    for a in tree.iter("a"):
        url = absolute(a.get("href"), base)
        if url not in urls:
            continue
        block = a
        for node in a.iterancestors():
            linked = {absolute(x.get("href"), base) for x in node.iter("a")} & urls
            if len(linked) > 1:
                break
            block = node
        if all(block is not b for b in blocks):
            blocks.append(block)
    assert len(blocks) >= 3
    by_parent: dict[int, list[Any]] = {}
    for b in blocks:
        by_parent.setdefault(id(b.getparent()), []).append(b)
    for siblings in by_parent.values():
        parent = siblings[0].getparent()
        positions = [parent.index(m) for m in siblings]
        shuffled = siblings[:]
        random.Random(5).shuffle(shuffled)
        for m in siblings:
            parent.remove(m)
        for pos, m in sorted(zip(positions, shuffled, strict=True), key=lambda pair: pair[0]):
            parent.insert(pos, m)
