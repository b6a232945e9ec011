"""The demo site `make run` watches: its pages read as items, and they move with time."""

from __future__ import annotations

from tests.live import free_port
from watcher import demosite, fetch
from watcher.extract import extract_bytes


def test_demo_pages_read_as_items(fetch_settings: object) -> None:
    port = free_port()
    server = demosite.serve(port)
    try:
        base = f"http://127.0.0.1:{port}"
        shop = fetch.get(f"{base}/shop")
        ex = extract_bytes(shop.body, shop.url, shop.content_type)
        assert len(ex.entries) >= 6
        assert all(e["currency"] == "EUR" for e in ex.entries)
        assert {k["name"] for k in ex.entry_kinds} == {"productCard"}
        jobs = fetch.get(f"{base}/jobs")
        job = extract_bytes(jobs.body, jobs.url, jobs.content_type).entries[0]
        assert job["attributes"]["salaryMin"]["unit"] == "EUR"
        news = fetch.get(f"{base}/feed.xml")
        items = extract_bytes(news.body, news.url, news.content_type)
        assert items.entry_kinds == [{"name": "feedItem", "hasPrice": False}]
    finally:
        server.shutdown()


def test_demo_prices_move_between_minutes() -> None:
    pages = {demosite.shop_page(m) for m in range(10)}
    assert len(pages) == 10
