"""Parsing and validating one 1,000-entry fetch document, in process (median of N runs).

Prints one JSON object: the median milliseconds to parse the document from its JSON bytes
(what `manage.py ingest` does for each line), from a decoded dict (what an in-process caller
such as the watcher does), and the floor: decoding the same bytes with no types or checks.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

import msgspec  # noqa: E402

from history.ingest import parse_fetch  # noqa: E402


def document(entries: int) -> dict[str, Any]:
    return {
        "account": "bench",
        "source": {"url": "https://shop.example.com/list", "name": "Bench"},
        "entryKinds": [{"name": "product", "hasPrice": True}],
        "entries": [
            {
                "identityKey": f"sku-{i}",
                "title": f"Parse item {i}",
                "url": f"https://shop.example.com/p/{i}",
                "kind": "product",
                "price": 100.0 + i,
                "currency": "EUR",
                "imageUrl": f"https://img.example.com/{i}.png",
                "attributes": {"inStock": {"b": True}, "rating": {"n": 4.5}},
            }
            for i in range(entries)
        ],
    }


def median_ms(fn: Any, runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    doc = document(1000)
    raw = json.dumps(doc).encode()
    print(
        json.dumps(
            {
                "bytes_ms": median_ms(lambda: parse_fetch(raw), runs),
                "dict_ms": median_ms(lambda: parse_fetch(doc), runs),
                "floor_ms": median_ms(lambda: msgspec.json.decode(raw), runs),
                "runs": runs,
            }
        )
    )


if __name__ == "__main__":
    main()
