"""Repeated blocks in the DOM: the listing a page is about, found without any markup help.

1. One pass over the tree, bottom up, gives every element's text length, links, images,
   headings and price-looking text.
2. Elements are grouped by their *path signature*: their own tag and first class, their
   parent's and their grandparent's. The cards of a grid share one even when the grid is
   split into rows; a menu's items share another.
3. Each group is scored: how many members look like items (a link, some text, not a page
   of links), how many carry a price, an image, a heading; groups inside navigation,
   headers, footers, sidebars, breadcrumbs, pagination, cookie banners and promos are
   pushed down, and so are menu-like groups (short link-only text).
4. From each member of the best group: a title (its heading, else its main link's text,
   else an image's alt), its own link, a price with currency (a struck-through old price is
   skipped), an image, and `inStock` where the block says so. Table rows also give their
   numeric columns as attributes named after the header.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from watcher.extract.items import Item
from watcher.extract.values import (
    Locale,
    absolute,
    clean,
    has_currency,
    lower_camel,
    parse_number,
    parse_price,
)

if TYPE_CHECKING:
    from watcher.extract.page import Page

_SKIP_TAGS = frozenset(
    {"script", "style", "noscript", "template", "svg", "head", "select", "option", "iframe"}
)
_NOISE_TAGS = frozenset({"nav", "header", "footer", "aside", "menu"})
_NOISE_ROLES = frozenset({"navigation", "banner", "contentinfo", "menu", "menubar", "tablist"})
_NOISE_WORDS = re.compile(
    r"(?:^|[-_\s])(?:nav|navbar|navigation|menu|megamenu|mega-menu|submenu|footer|masthead|"
    r"breadcrumbs?|pagination|pager|paging|social|share|sharing|cookies?|consent|gdpr|"
    r"promo|promos|promotion|advert|advertisement|ads|ad|sponsor|sponsored|newsletter|"
    r"sidebar|toolbar|filters?|facets?|legal|skip|topbar|site-header|site-footer|"
    r"language|locale|widget)(?:$|[-_\s])",
    re.IGNORECASE,
)
_PROMO_MEMBER = re.compile(
    r"(?:^|[-_\s])(?:promo|promotion|advert|ad|ads|sponsored|banner|placeholder|skeleton)"
    r"(?:$|[-_\s])",
    re.IGNORECASE,
)
_OLD_PRICE = re.compile(
    r"old|was|compare|regular|strike|original|before|rrp|msrp|list-?price|crossed|previous",
    re.IGNORECASE,
)
_PRICE_CLASS = re.compile(r"price|cost|amount|fee|salary|rate", re.IGNORECASE)
_TITLE_CLASS = re.compile(r"title|name|heading|headline", re.IGNORECASE)
_CTA = re.compile(
    r"^(add to (cart|bag|basket)|buy( now)?|view|details|more|read more|learn more|"
    r"see more|shop now|apply( now)?|book( now)?|select|choose|get started|sign up|"
    r"start( free)?( trial)?|try( it)?( free)?|subscribe|compare|save|share|quick view|"
    r"order now|reserve|register|rsvp|tickets?|more info|info)$",
    re.IGNORECASE,
)
_HASHED = re.compile(r"^(css|sc|jsx|svelte|emotion|styled)-|^[a-z]{1,3}-?[A-Za-z0-9]{5,}$|\d")
_UTILITY = frozenset(
    [
        "flex",
        "grid",
        "block",
        "inline",
        "relative",
        "absolute",
        "group",
        "col",
        "row",
        "container",
        "wrapper",
        "inner",
        "outer",
        "item",
        "items",
        "clearfix",
        "shadow",
        "rounded",
        "border",
        "bg",
        "p",
        "m",
        "px",
        "py",
        "mx",
        "my",
        "w",
        "h",
        "text",
        "font",
        "card-body",
        "d-flex",
        "cell",
        "clearfix",
        "hidden",
        "visible",
        "active",
        "selected",
        "first",
        "last",
        "odd",
        "even",
        "js",
    ]
)
_STOCK_OUT = re.compile(r"\b(out of stock|sold out|unavailable|currently unavailable)\b", re.I)
_STOCK_IN = re.compile(r"\b(in stock|available now|ready to ship)\b", re.I)
_RANK_HEADERS = frozenset({"#", "rank", "no", "no.", "nr", "position", "pos", "", "№"})
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")

# Per-element statistics, summed over the subtree.
_TEXT, _LINKS, _IMAGES, _HEADS, _PRICES = range(5)


def _classes(el: Any) -> list[str]:
    return (el.get("class") or "").split()


def _sig(el: Any) -> str:
    cls = _classes(el)
    return f"{el.tag}.{cls[0]}" if cls else str(el.tag)


def _noisy(el: Any) -> bool:
    if el.tag in _NOISE_TAGS or (el.get("role") or "") in _NOISE_ROLES:
        return True
    label = f"{el.get('class') or ''} {el.get('id') or ''}"
    return bool(label.strip()) and bool(_NOISE_WORDS.search(label))


class _Stats:
    """One bottom-up pass: every element's subtree statistics."""

    def __init__(self, root: Any) -> None:
        self.elements: list[Any] = []  # keeps lxml's proxies (and so their ids) alive
        self.stats: dict[int, list[int]] = {}
        order = [el for el in root.iter() if isinstance(el.tag, str)]
        skipped: set[int] = set()
        for el in order:
            parent = el.getparent()
            if el.tag in _SKIP_TAGS or (parent is not None and id(parent) in skipped):
                skipped.add(id(el))
        self.elements = [el for el in order if id(el) not in skipped]
        for el in reversed(self.elements):
            s = [0, 0, 0, 0, 0]
            text = el.text or ""
            if text.strip():
                s[_TEXT] += len(text.strip())
                if has_currency(text) and any(c.isdigit() for c in text):
                    s[_PRICES] += 1
            for child in el:
                cs = self.stats.get(id(child))
                if cs is not None:
                    for i in range(5):
                        s[i] += cs[i]
                tail = child.tail
                if tail and tail.strip():
                    s[_TEXT] += len(tail.strip())
                    if has_currency(tail) and any(c.isdigit() for c in tail):
                        s[_PRICES] += 1
            tag = el.tag
            if tag == "a" and el.get("href"):
                s[_LINKS] += 1
            elif tag == "img":
                s[_IMAGES] += 1
            elif tag in _HEADINGS:
                s[_HEADS] += 1
            self.stats[id(el)] = s

    def of(self, el: Any) -> list[int]:
        return self.stats.get(id(el), [0, 0, 0, 0, 0])


def _groups(stats: _Stats) -> dict[tuple[str, str, str], list[Any]]:
    groups: dict[tuple[str, str, str], list[Any]] = defaultdict(list)
    for el in stats.elements:
        parent = el.getparent()
        if parent is None or el.tag in ("html", "body", "head", "tbody", "thead"):
            continue
        grand = parent.getparent()
        key = (_sig(el), _sig(parent), _sig(grand) if grand is not None else "")
        groups[key].append(el)
    return groups


def _in_noise(el: Any, memo: dict[int, bool]) -> bool:
    chain = []
    node = el.getparent()
    result = False
    while node is not None and node.tag not in ("body", "html"):
        known = memo.get(id(node))
        if known is not None:
            result = known
            break
        chain.append(node)
        if _noisy(node):
            result = True
            break
        node = node.getparent()
    for n in chain:
        memo[id(n)] = result
    return result


def _score(members: list[Any], stats: _Stats, memo: dict[int, bool]) -> float:
    n = len(members)
    good = prices = images = heads = 0
    text_total = links_total = 0
    for el in members:
        s = stats.of(el)
        text, links = s[_TEXT], s[_LINKS]
        text_total += text
        links_total += links
        if 3 <= text <= 4000 and links <= 15 and (links >= 1 or s[_PRICES] >= 1):
            good += 1
        prices += s[_PRICES] >= 1
        images += s[_IMAGES] >= 1
        heads += s[_HEADS] >= 1
    if good < 2 or good / n < 0.6:
        return 0.0
    price_frac, image_frac, head_frac = prices / n, images / n, heads / n
    if good < 3 and price_frac < 0.99:
        return 0.0  # two blocks make a list only when both carry a price (plans)
    avg_text, avg_links = text_total / n, links_total / n
    quality = 1 + 1.0 * price_frac + 0.5 * image_frac + 0.5 * head_frac
    if avg_text < 25 and price_frac < 0.3 and image_frac < 0.3:
        quality *= 0.25  # a menu: short link-only entries
    if avg_links > 6:
        quality *= 0.3  # containers of many items, not items
    if avg_text > 1500:
        quality *= 0.5
    if _in_noise(members[0], memo) or _noisy(members[0]):
        quality *= 0.05
    return good * quality


def _best_group(page: Page) -> list[Any]:
    body = page.tree.find("body")
    stats = _Stats(body if body is not None else page.tree)
    memo: dict[int, bool] = {}
    best: list[Any] = []
    best_key: tuple[float, int] = (0.0, 0)
    for members in _groups(stats).values():
        if len(members) < 2:
            continue
        score = _score(members, stats, memo)
        if score <= 0:
            continue
        depth = len(list(members[0].iterancestors()))
        key = (round(score, 6), depth)
        if key > best_key:
            best, best_key = members, key
    return best


# --- Reading one block -------------------------------------------------------------------


def _text_without_old(el: Any) -> str:
    """Text of `el` leaving out struck-through and "was" prices."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        if node.text:
            parts.append(node.text)
        for child in node:
            if isinstance(child.tag, str) and not (
                child.tag in ("del", "s", "strike")
                or _OLD_PRICE.search(child.get("class") or "")
                or child.tag in _SKIP_TAGS
            ):
                walk(child)
            if child.tail:
                parts.append(child.tail)

    walk(el)
    return clean(" ".join(parts))


def _price(block: Any, locale: Locale) -> tuple[int | float, str | None] | None:
    candidates = []
    for el in block.iter():
        if not isinstance(el.tag, str):
            continue
        label = f"{el.get('class') or ''} {el.get('itemprop') or ''} {el.get('data-testid') or ''}"
        if _PRICE_CLASS.search(label) and not _OLD_PRICE.search(label):
            if any(a.tag in ("del", "s", "strike") for a in el.iterancestors()):
                continue
            candidates.append(el)
    for el in candidates:
        content = el.get("content")
        text = _text_without_old(el)
        found = parse_price(text, locale) if text else None
        if found is not None and found[1] is None and content:
            found = parse_price(content, locale) or found
        if found is not None:
            return found
    # No price element: the first text with a currency and a number, not struck through.
    text = _text_without_old(block)
    for chunk in re.split(r"\s{2,}|\|", text):
        if has_currency(chunk):
            found = parse_price(chunk, locale)
            if found is not None:
                return found
    return None


def _links(block: Any) -> list[Any]:
    links = [a for a in block.iter("a") if a.get("href")]
    if block.tag == "a" and block.get("href"):
        links.insert(0, block)
    return links


def _title_and_link(block: Any, base: str) -> tuple[str, str | None]:
    links = _links(block)
    title_el = None
    for tag in _HEADINGS:
        for h in block.iter(tag):
            if clean(h.text_content()):
                title_el = h
                break
        if title_el is not None:
            break
    if title_el is None:
        for el in block.iter():
            if isinstance(el.tag, str) and el.tag not in ("a", "img"):
                label = f"{el.get('class') or ''} {el.get('itemprop') or ''}"
                if _TITLE_CLASS.search(label) and clean(el.text_content()):
                    title_el = el
                    break
    link = None
    if title_el is not None:
        title = clean(title_el.text_content())
        inner = next((a for a in title_el.iter("a") if a.get("href")), None)
        outer = next((a for a in title_el.iterancestors("a") if a.get("href")), None)
        link = inner if inner is not None else outer
        if link is None:
            link = next((a for a in links if clean(a.text_content()) == title), None)
    else:
        named = [(clean(a.text_content()), a) for a in links]
        named = [(t, a) for t, a in named if t and not _CTA.match(t)]
        if named:
            title, link = max(named, key=lambda pair: len(pair[0]))
        else:
            alts = [clean(img.get("alt")) for img in block.iter("img") if clean(img.get("alt"))]
            title = alts[0] if alts else ""
        if not title:
            title = _first_text(block)
    if link is None:
        useful = [a for a in links if not _CTA.match(clean(a.text_content()))]
        link = useful[0] if useful else (links[0] if links else None)
    url = absolute(link.get("href"), base) if link is not None else None
    return title, url


def _first_text(block: Any) -> str:
    for text in block.itertext():
        t = clean(text)
        if len(t) >= 3 and not has_currency(t):
            return t
    return ""


def _image(block: Any, base: str) -> str | None:
    for img in block.iter("img"):
        for attr in ("src", "data-src", "data-lazy-src", "data-original"):
            value = img.get(attr)
            if value and not value.startswith("data:"):
                return absolute(value, base)
        srcset = img.get("srcset") or img.get("data-srcset")
        if srcset:
            return absolute(srcset.split(",")[0].strip().split(" ")[0], base)
    return None


def _kind(block: Any) -> str:
    if block.tag == "tr":
        return "row"
    for cls in _classes(block):
        token = cls.lower()
        if len(token) < 3 or token in _UTILITY or _HASHED.search(token):
            continue
        if token.startswith(("col-", "is-", "has-", "js-", "u-", "w-", "h-", "md:", "lg:")):
            continue
        name = lower_camel(token.replace("__", "-"))
        if name:
            return name[:100]
    return "article" if block.tag == "article" else "item"


def _stock(block: Any) -> bool | None:
    text = block.text_content()
    if _STOCK_OUT.search(text):
        return False
    if _STOCK_IN.search(text):
        return True
    return None


def _block_item(block: Any, page: Page) -> Item | None:
    if _PROMO_MEMBER.search(block.get("class") or ""):
        return None
    title, url = _title_and_link(block, page.base)
    if not title:
        return None
    item = Item(title=title, url=url, kind=_kind(block), image=_image(block, page.base))
    found = _price(block, page.locale)
    if found is not None:
        item.price, item.currency = found
    stock = _stock(block)
    if stock is not None:
        item.attributes["inStock"] = {"b": stock}
    return item


# --- Tables ------------------------------------------------------------------------------


def _headers(table: Any) -> list[str]:
    row = table.find(".//thead/tr")
    if row is None:
        first = table.find(".//tr")
        if first is None or first.find("th") is None:
            return []
        row = first
    return [clean(cell.text_content()) for cell in row if cell.tag in ("th", "td")]


def _row_item(row: Any, headers: list[str], page: Page) -> Item | None:
    cells = [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]
    if not cells or all(c.tag == "th" for c in cells):
        return None
    item = Item(title="", kind="row", image=_image(row, page.base))
    title_index = -1
    for i, cell in enumerate(cells):
        link = next((a for a in cell.iter("a") if a.get("href")), None)
        text = clean(cell.text_content())
        if link is not None and text and parse_number(text) is None:
            item.title, item.url, title_index = text, absolute(link.get("href"), page.base), i
            break
    if not item.title:
        for i, cell in enumerate(cells):
            text = clean(cell.text_content())
            if text and parse_number(text) is None and not has_currency(text):
                item.title, title_index = text, i
                break
    if not item.title:
        return None
    for i, cell in enumerate(cells):
        if i == title_index:
            continue
        header = headers[i] if i < len(headers) else ""
        text = clean(cell.text_content())
        if not text or header.lower() in _RANK_HEADERS:
            continue
        if item.price is None and (
            "price" in header.lower() or (not header and has_currency(text))
        ):
            found = parse_price(text, page.locale)
            if found is not None:
                item.price, item.currency = found
                continue
        name = lower_camel(header)
        if not name or name in ("title", "price", "name"):
            continue
        value = parse_number(text)
        if value is None and has_currency(text):
            found = parse_price(text, page.locale)
            value = found[0] if found else None
        if value is not None:
            item.attributes[name] = {"n": value}
    return item


def block_items(page: Page) -> list[Item]:
    members = _best_group(page)
    if not members:
        return []
    if members[0].tag == "tr":
        table = next(members[0].iterancestors("table"), None)
        headers = _headers(table) if table is not None else []
        rows = [_row_item(row, headers, page) for row in members]
        return [r for r in rows if r is not None]
    items = [_block_item(block, page) for block in members]
    return [i for i in items if i is not None]
