"""Webhook delivery measurement, run by `bench/run.py` as a Django script (issue 6).

Ingests in this process (so each fetch's commit time is known exactly: `ingest_fetch`
returns after its transaction committed and its tasks were enqueued) for an account whose
only endpoint is `bench/receiver.py`, and reads the receiver's arrival times back:

1. burst: one fetch with N new entries commits N deliveries at once; deliveries/s is
   N / (last arrival - commit), so it includes enqueueing and the worker's whole job.
2. paced: fetches that each change a few entries, at a rate below capacity; the latency
   of each delivery is its arrival minus its fetch's commit (p50/p99).

Prints one JSON object on the last line of stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.request
from typing import Any

import django


def _fetch_doc(account: str, url: str, count: int, price_bump: dict[int, float]) -> dict[str, Any]:
    entries = []
    for i in range(count):
        entries.append(
            {
                "identityKey": f"item-{i}",
                "title": f"Bench item {i}",
                "price": round(100.0 + i + price_bump.get(i, 0.0), 2),
                "currency": "EUR",
            }
        )
    return {"account": account, "source": {"url": url}, "entries": entries}


def _records(receiver: str) -> list[list[Any]]:
    with urllib.request.urlopen(receiver + "/stats", timeout=10) as answer:
        result: list[list[Any]] = json.loads(answer.read())
    return result


def _clear(receiver: str) -> None:
    request = urllib.request.Request(receiver + "/stats", method="DELETE")
    urllib.request.urlopen(request, timeout=10).read()


def _wait_for(receiver: str, count: int, timeout: float) -> list[list[Any]]:
    deadline = time.time() + timeout
    records = _records(receiver)
    while len(records) < count and time.time() < deadline:
        time.sleep(0.05)
        records = _records(receiver)
    return records


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--account", required=True)
    parser.add_argument("--receiver", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--paced-fetches", type=int, default=40)
    parser.add_argument("--paced-changes", type=int, default=20)
    parser.add_argument("--paced-interval", type=float, default=0.25)
    parser.add_argument("--tag", default=str(int(time.time())))
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, os.getcwd())
    django.setup()
    from history import ids
    from history.ingest import ingest

    url = f"https://bench.example.com/hooks/{args.tag}"
    _clear(args.receiver)

    # 1. burst
    started = time.time()
    result = ingest(_fetch_doc(args.account, url, args.burst, {}))
    committed = time.time()
    burst = result.updates
    records = _wait_for(args.receiver, burst, timeout=max(60.0, burst / 20))
    arrivals = [r[0] for r in records]
    burst_out: dict[str, Any] = {
        "deliveries": len(records),
        "expected": burst,
        "ingest_seconds": committed - started,
    }
    if records:
        span = max(arrivals) - committed
        burst_out["seconds"] = span
        burst_out["per_second"] = len(records) / span if span > 0 else float("nan")

    # 2. paced
    _clear(args.receiver)
    commits: dict[str, float] = {}
    expected = 0
    bumps: dict[int, float] = {}
    for round_no in range(args.paced_fetches):
        tick = time.time()
        first = (round_no * args.paced_changes) % args.burst
        for i in range(first, first + args.paced_changes):
            bumps[i % args.burst] = bumps.get(i % args.burst, 0.0) + 1.0
        result = ingest(_fetch_doc(args.account, url, args.burst, bumps))
        commits[ids.encode(ids.CHANGE, result.change_id)] = time.time()
        expected += result.updates
        time.sleep(max(0.0, args.paced_interval - (time.time() - tick)))
    records = _wait_for(args.receiver, expected, timeout=60.0)
    latencies = [(r[0] - commits[r[3]]) * 1000 for r in records if r[3] in commits]
    paced_out = {
        "deliveries": len(latencies),
        "expected": expected,
        "rate_offered": args.paced_changes / args.paced_interval,
        "p50_ms": _percentile(latencies, 0.50),
        "p99_ms": _percentile(latencies, 0.99),
        "max_ms": max(latencies) if latencies else float("nan"),
    }
    print(json.dumps({"burst": burst_out, "paced": paced_out}))


if __name__ == "__main__":
    main()
