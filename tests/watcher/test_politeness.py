"""Politeness per host: concurrency and the minimum gap, shared through Redis."""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any

import pytest
from django.conf import settings as django_settings

from watcher import politeness


@pytest.fixture(params=["redis", "process"])
def store(request: pytest.FixtureRequest, settings: Any) -> str:
    if request.param == "redis" and not django_settings.REDIS_URL:
        pytest.skip("no REDIS_URL")
    if request.param == "process":
        settings.REDIS_URL = ""
    return str(request.param)


def test_the_gap_spaces_out_requests_to_one_host(store: str, settings: Any) -> None:
    settings.FETCH_HOST_GAP_MS = 200
    settings.FETCH_HOST_CONCURRENCY = 5
    host = f"gap-{store}-{time.time_ns()}.test"
    starts: list[float] = []
    lock = threading.Lock()

    def one() -> None:
        with politeness.host_slot(host), lock:
            starts.append(time.monotonic())

    threads = [threading.Thread(target=one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    starts.sort()
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert all(gap >= 0.18 for gap in gaps), gaps
    # Another host is not held up by this one.
    began = time.monotonic()
    with politeness.host_slot(f"other-{host}"):
        assert time.monotonic() - began < 0.1


def test_concurrency_per_host_is_capped(store: str, settings: Any) -> None:
    settings.FETCH_HOST_GAP_MS = 0
    settings.FETCH_HOST_CONCURRENCY = 2
    host = f"cap-{store}-{time.time_ns()}.test"
    inside = peak = 0
    lock = threading.Lock()

    def one() -> None:
        nonlocal inside, peak
        with politeness.host_slot(host):
            with lock:
                inside += 1
                peak = max(peak, inside)
            time.sleep(0.1)
            with lock:
                inside -= 1

    threads = [threading.Thread(target=one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak == 2


def test_a_script_redis_forgot_is_loaded_again(settings: Any) -> None:
    """The slot script travels as its digest (EVALSHA); after Redis drops its scripts (a
    restart, SCRIPT FLUSH), the next slot still works and the gap still holds."""
    if not django_settings.REDIS_URL:
        pytest.skip("no REDIS_URL")
    settings.FETCH_HOST_GAP_MS = 150
    settings.FETCH_HOST_CONCURRENCY = 1
    host = f"flush-{time.time_ns()}.test"
    with politeness.host_slot(host):
        pass
    politeness._redis().script_flush()
    began = time.monotonic()
    with politeness.host_slot(host):
        waited = time.monotonic() - began
    assert 0.1 <= waited < 1.0
    assert politeness._redis().get(f"tm:host:{host}:n") in (b"0", None)
