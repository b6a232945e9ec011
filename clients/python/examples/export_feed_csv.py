"""Export the feed of updates to CSV, oldest first.

    export TIDEMARK_API_KEY=svc_mcp_...   # the key `make run` prints
    python export_feed_csv.py --since 2026-11-01T00:00:00Z > updates.csv

Options: --since (epoch ms or an ISO-8601 instant with an offset), --importance
(critical, material, minor), --base-url (default TIDEMARK_BASE_URL or
http://127.0.0.1:8000), --out FILE (default: standard output).
"""

from __future__ import annotations

import argparse
import csv
import sys
from datetime import UTC, datetime

import tidemark

COLUMNS = [
    "at",
    "id",
    "source_id",
    "entry_id",
    "entry_title",
    "update_type",
    "field",
    "previous",
    "current",
    "unit",
    "importance",
    "headline",
]


def row(update: tidemark.FeedUpdate) -> dict[str, object]:
    change = update.value_change
    return {
        "at": datetime.fromtimestamp(update.at / 1000, tz=UTC).isoformat(timespec="milliseconds"),
        "id": update.id,
        "source_id": update.source_id,
        "entry_id": update.entry_id,
        "entry_title": update.entry_title or "",
        "update_type": update.update_type,
        "field": update.field or "",
        "previous": "" if change is None or change.previous is None else change.previous,
        "current": "" if change is None else change.current,
        "unit": change.unit or "" if isinstance(change, tidemark.NumberChange) else "",
        "importance": update.importance or "",
        "headline": update.headline or "",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--since", help="epoch ms or an ISO-8601 instant with an offset")
    parser.add_argument("--importance", choices=["critical", "material", "minor"])
    parser.add_argument("--base-url")
    parser.add_argument("--out", help="a file to write (default: standard output)")
    args = parser.parse_args(argv)
    since = int(args.since) if args.since and args.since.isdigit() else args.since

    with tidemark.Client(base_url=args.base_url) as client:
        # The feed is newest first; a CSV reads better oldest first.
        updates = list(client.updates.list(since=since, importance=args.importance, limit=100))
    out = open(args.out, "w", newline="") if args.out else sys.stdout  # noqa: SIM115
    try:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        for update in reversed(updates):
            writer.writerow(row(update))
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"{len(updates)} updates", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except tidemark.TidemarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
