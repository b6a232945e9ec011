"""Precision and recall of the automatic extraction on a labelled corpus (`make eval`).

    python -m watcher.extract.evaluate [DIR]      # default: tests/watcher/corpus

Each page `NAME.html` (or `.xml`) has `NAME.labels.json`: `{baseUrl, contentType, items:
[{title, url, price, currency}]}`, the items a person would call the page's listing. The
extraction runs with no selector; extracted entries are matched to labelled items by URL
(where the labelled URL is unique on the page), else by normalised title. Reported per page
and in total: precision (extracted entries that are labelled items), recall (labelled
items found), and of matched items the share whose title, link and price (with currency)
are right.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from watcher.extract import Page, extract
from watcher.extract.values import clean

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "tests" / "watcher" / "corpus"


@dataclass
class Score:
    name: str
    labelled: int = 0
    extracted: int = 0
    matched: int = 0
    title_ok: int = 0
    url_ok: int = 0
    price_ok: int = 0
    ms: float = 0.0

    def add(self, other: Score) -> None:
        for name in ("labelled", "extracted", "matched", "title_ok", "url_ok", "price_ok"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ms += other.ms

    @property
    def precision(self) -> float:
        return self.matched / self.extracted if self.extracted else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.labelled if self.labelled else 1.0


def _norm(title: str | None) -> str:
    return clean(title).lower()


def _same_price(label: dict[str, Any], entry: dict[str, Any]) -> bool:
    if label.get("price") is None:
        return entry.get("price") is None
    if entry.get("price") is None or abs(float(entry["price"]) - float(label["price"])) > 0.005:
        return False
    return (label.get("currency") or None) == (entry.get("currency") or None)


def score_page(page_path: Path, labels: dict[str, Any]) -> Score:
    body = page_path.read_bytes()
    started = time.perf_counter()
    page = Page.parse(body, labels["baseUrl"], labels.get("contentType"))
    entries = extract(page).entries
    score = Score(page_path.stem, ms=(time.perf_counter() - started) * 1000)
    items: list[dict[str, Any]] = labels["items"]
    score.labelled, score.extracted = len(items), len(entries)
    url_counts = Counter(i.get("url") for i in items if i.get("url"))
    by_url = {i["url"]: i for i in items if i.get("url") and url_counts[i["url"]] == 1}
    by_title: dict[str, dict[str, Any]] = {}
    for i in items:
        by_title.setdefault(_norm(i["title"]), i)
    taken: set[int] = set()
    for entry in entries:
        label = by_url.get(entry.get("url") or "")
        if label is None or id(label) in taken:
            label = by_title.get(_norm(entry.get("title")))
        if label is None or id(label) in taken:
            continue
        taken.add(id(label))
        score.matched += 1
        score.title_ok += _norm(entry.get("title")) == _norm(label["title"])
        score.url_ok += (entry.get("url") or None) == (label.get("url") or None)
        score.price_ok += _same_price(label, entry)
    return score


def pages(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """(page, labels) for every `NAME.labels.json` with its `NAME.html` or `NAME.xml`."""
    found = []
    for labels_path in sorted(folder.glob("*.labels.json")):
        name = labels_path.name.removesuffix(".labels.json")
        page_path = next(
            (p for p in (folder / f"{name}.html", folder / f"{name}.xml") if p.exists()), None
        )
        if page_path is not None:
            found.append((page_path, json.loads(labels_path.read_text(encoding="utf-8"))))
    return found


def evaluate(folder: Path) -> tuple[list[Score], Score]:
    """Every page's score, and the total."""
    total = Score("TOTAL")
    rows = []
    for page_path, labels in pages(folder):
        score = score_page(page_path, labels)
        rows.append(score)
        total.add(score)
    return rows, total


def run(folder: Path) -> Score:
    rows, total = evaluate(folder)
    header = f"{'page':34} {'items':>5} {'found':>5} {'prec':>6} {'recall':>6} "
    header += f"{'title':>6} {'link':>6} {'price':>6} {'ms':>6}"
    print(header)
    for s in [*rows, total]:
        m = s.matched or 1
        print(
            f"{s.name[:34]:34} {s.labelled:5} {s.extracted:5} {s.precision:6.3f} {s.recall:6.3f} "
            f"{s.title_ok / m:6.3f} {s.url_ok / m:6.3f} {s.price_ok / m:6.3f} {s.ms:6.1f}"
        )
    return total


def main(argv: list[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else DEFAULT_DIR
    total = run(folder)
    m = total.matched or 1
    print(
        f"\n{len(pages(folder))} pages, {total.labelled} labelled items: "
        f"precision {total.precision:.3f}, recall {total.recall:.3f}; of matched items "
        f"title {total.title_ok / m:.3f}, link {total.url_ok / m:.3f}, "
        f"price {total.price_ok / m:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
