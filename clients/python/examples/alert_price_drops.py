"""Print an alert whenever a price drops by at least a given percentage.

    export TIDEMARK_API_KEY=svc_mcp_...   # the key `make run` prints
    python alert_price_drops.py --threshold 5            # watches the feed from now on

It polls the feed with `client.updates.watch` (every 30 seconds; --interval), which never
yields an update twice nor skips one. --since starts earlier (epoch ms or an ISO-8601
instant); --once reads the feed since then and exits instead of watching.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

import tidemark


def drop(update: tidemark.FeedUpdate) -> float | None:
    """The price drop of a typed price update, in percent; None when it is not a drop."""
    change = update.value_change
    if update.field != "price" or not isinstance(change, tidemark.NumberChange):
        return None
    if change.previous is None or change.previous <= 0 or change.current >= change.previous:
        return None
    return (change.previous - change.current) / change.previous * 100


def alerts(updates: Iterable[tidemark.FeedUpdate], threshold: float) -> Iterable[str]:
    for update in updates:
        percent = drop(update)
        if percent is not None and percent >= threshold:
            change = update.value_change
            assert isinstance(change, tidemark.NumberChange)
            unit = f" {change.unit}" if change.unit else ""
            yield (
                f"PRICE DROP {percent:.1f}%: {update.entry_title or update.entry_id}: "
                f"{change.previous:g} -> {change.current:g}{unit} ({update.id})"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threshold", type=float, default=5.0, help="percent (default 5)")
    parser.add_argument("--since", default="now", help='"now", epoch ms or an ISO-8601 instant')
    parser.add_argument("--interval", type=float, default=30.0, help="seconds between polls")
    parser.add_argument("--once", action="store_true", help="read the feed once and exit")
    parser.add_argument("--base-url")
    args = parser.parse_args(argv)
    since = int(args.since) if args.since.isdigit() else args.since

    with tidemark.Client(base_url=args.base_url) as client:
        if args.once:
            if since == "now":
                parser.error("--once needs --since")
            updates: Iterable[tidemark.FeedUpdate] = reversed(
                list(client.updates.list(since=since))
            )
        else:
            updates = client.updates.watch(since=since, interval=args.interval)
        for line in alerts(updates, args.threshold):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except tidemark.TidemarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
