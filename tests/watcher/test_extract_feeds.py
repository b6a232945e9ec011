"""RSS 2.0 and Atom feeds: each item an entry of kind `feedItem`."""

from __future__ import annotations

from watcher.extract import Page, extract, extract_bytes

RSS = b"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Pier Notes</title><link>https://pier.example/</link>
<item><title>  Low tide   walk </title><link>https://pier.example/posts/low-tide</link>
<guid isPermaLink="false">pier-post-17</guid><author>ann@pier.example (Ann)</author>
<pubDate>Tue, 03 Nov 2026 09:30:00 +0000</pubDate></item>
<item><title>Harbour lights</title><link>/posts/harbour-lights</link></item>
<item><title>Fog horn</title><guid>https://pier.example/posts/fog-horn</guid></item>
</channel></rss>"""

ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Releases</title>
<id>tag:rel.example,2026:feed</id><updated>2026-11-01T00:00:00Z</updated>
<entry><id>tag:rel.example,2026:2.0</id><title>Version 2.0</title>
<link rel="alternate" href="https://rel.example/2.0"/><updated>2026-11-01T10:00:00Z</updated>
<author><name>Release bot</name></author></entry>
<entry><id>tag:rel.example,2026:1.9</id><title>Version 1.9</title>
<link href="https://rel.example/1.9"/><updated>2026-10-01T10:00:00Z</updated></entry>
</feed>"""


def test_rss_items_by_sniffing() -> None:
    page = Page.parse(RSS, "https://pier.example/feed")
    assert page.is_feed
    ex = extract(page)
    assert ex.method == "feed"
    assert ex.entry_kinds == [{"name": "feedItem", "hasPrice": False}]
    first, second, third = ex.entries
    assert first["title"] == "Low tide walk"
    assert first["url"] == "https://pier.example/posts/low-tide"
    assert first["identityKey"] == "pier-post-17"
    assert first["attributes"]["published"]["s"].startswith("2026-11-03T09:30:00")
    assert "Ann" in first["attributes"]["author"]["s"]
    assert second["url"] == "https://pier.example/posts/harbour-lights"
    assert second["identityKey"] == "https://pier.example/posts/harbour-lights"
    assert third["url"] == "https://pier.example/posts/fog-horn"


def test_rss_by_content_type_even_with_leading_junk() -> None:
    body = b"\n\n  " + RSS
    ex = extract_bytes(body, "https://pier.example/feed", "application/rss+xml; charset=utf-8")
    assert ex.method == "feed"
    assert len(ex.entries) == 3


def test_atom_entries() -> None:
    ex = extract_bytes(ATOM, "https://rel.example/atom.xml", "application/atom+xml")
    assert [e["title"] for e in ex.entries] == ["Version 2.0", "Version 1.9"]
    assert ex.entries[0]["identityKey"] == "tag:rel.example,2026:2.0"
    assert ex.entries[0]["url"] == "https://rel.example/2.0"
    assert ex.entries[0]["kind"] == "feedItem"
    assert ex.entries[0]["attributes"]["author"] == {"s": "Release bot"}


def test_feed_page_helpers() -> None:
    page = Page.parse(ATOM, "https://rel.example/atom.xml")
    assert page.next_page_url() is None
    assert page.looks_script_built() is False
    assert "Version 2.0" in page.html_text()
    md = page.markdown()
    assert "- [Version 2.0](https://rel.example/2.0)" in md


def test_html_is_not_a_feed() -> None:
    page = Page.parse(b"<html><body><p>rss</p></body></html>", "https://a.example/")
    assert not page.is_feed
