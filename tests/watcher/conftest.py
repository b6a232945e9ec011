from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.watcher.site import Site


@pytest.fixture
def fetch_settings(settings: Any) -> Any:
    """Loopback pages allowed, no politeness gap, short timeouts."""
    settings.FETCH_ALLOW_LOOPBACK = True
    settings.FETCH_HOST_GAP_MS = 0
    settings.FETCH_CONNECT_TIMEOUT = 2.0
    settings.FETCH_TOTAL_TIMEOUT = 5.0
    return settings


@pytest.fixture
def site(fetch_settings: Any) -> Iterator[Site]:
    s = Site()
    yield s
    s.close()


@pytest.fixture
def make_site(fetch_settings: Any) -> Iterator[Callable[[str], Site]]:
    sites: list[Site] = []

    def make(host: str = "127.0.0.1") -> Site:
        s = Site(host)
        sites.append(s)
        return s

    yield make
    for s in sites:
        s.close()


@pytest.fixture(autouse=True)
def _tmp_storage(tmp_storage: Any) -> None:
    """Snapshots written by these tests go to a temporary folder."""


@pytest.fixture(autouse=True)
def _fresh_robots_cache() -> None:
    """robots.txt answers are cached per origin; each test starts without them."""
    from django.core.cache import cache

    from watcher import robots

    robots._MEMO.clear()
    if hasattr(cache, "delete_pattern"):
        cache.delete_pattern("*tm:robots:*")
    else:
        cache.clear()
