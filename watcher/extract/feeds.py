"""RSS and Atom feeds (feedparser): each item an entry of kind `feedItem`, identified by its
link (its id or guid where it has no link)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import feedparser

from watcher.extract.items import Item
from watcher.extract.values import absolute, clean

if TYPE_CHECKING:
    from watcher.extract.page import Page


def _parsed(page: Page) -> Any:
    cached = getattr(page, "_feed", None)
    if cached is None:
        # feedparser reads bytes; it never fetches: sanitising and relative-URI resolution
        # are off since only titles and links are used.
        cached = feedparser.parse(page.body, sanitize_html=False, resolve_relative_uris=False)
        page._feed = cached  # type: ignore[attr-defined]
    return cached


def feed_items(page: Page) -> list[Item]:
    base = page.base_url
    items: list[Item] = []
    for e in _parsed(page).entries:
        link = absolute(e.get("link"), base)
        guid = e.get("id") or e.get("guid")
        title = clean(e.get("title") or "") or clean(e.get("summary") or "")[:120]
        if not title:
            continue
        url = link or absolute(guid, base)
        item = Item(title=title, url=url, kind="feedItem", key=clean(str(guid)) if guid else None)
        published = e.get("published_parsed") or e.get("updated_parsed")
        if published:
            item.attributes["published"] = {
                "s": "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}Z".format(*published[:6])
            }
        author = clean(e.get("author") or "")
        if author:
            item.attributes["author"] = {"s": author[:500]}
        items.append(item)
    return items


def feed_markdown(page: Page) -> str:
    parsed = _parsed(page)
    lines = []
    title = clean(parsed.feed.get("title") or "")
    if title:
        lines.append(f"# {title}\n")
    for e in parsed.entries:
        name = clean(e.get("title") or "")
        link = absolute(e.get("link"), page.base_url)
        if name:
            lines.append(f"- [{name}]({link})" if link else f"- {name}")
    return "\n".join(lines) + "\n"
