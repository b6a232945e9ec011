"""Markdown of a page's main content, written from the lxml tree."""

from __future__ import annotations

from watcher.extract import Page

BASE = "https://news.example/section/local/"

HTML = """<!doctype html><html><head><title>Local</title><style>p{color:red}</style>
<script>var x = "<p>not content</p>";</script></head><body>
<header><nav><a href="/">Home</a> <a href="/world">World</a></nav></header>
<main>
<h1>Local news</h1>
<p>The <strong>harbour</strong> reopened on <em>Monday</em>. Read
<a href="../../stories/harbour">the full story</a> or see
<a href="https://other.example/x">elsewhere</a>.</p>
<h2>Pictures</h2>
<p><img src="/img/harbour.jpg" alt="The harbour at dawn"></p>
<ul><li>First point</li><li>Second point with <a href="/p/2">a link</a>
<ul><li>Nested point</li></ul></li></ul>
<ol><li>One</li><li>Two</li></ol>
<table><thead><tr><th>Boat</th><th>Length</th></tr></thead>
<tbody><tr><td>Gull</td><td>12 m</td></tr><tr><td>Tern | II</td><td>9 m</td></tr></tbody></table>
<blockquote><p>A quote about the sea.</p></blockquote>
<pre>code   block</pre>
<form><input name="q"><button>Search</button></form>
</main>
<aside><p>Advert text</p></aside>
<footer><a href="/privacy">Privacy</a></footer>
</body></html>"""


def test_structure_and_absolute_links() -> None:
    md = Page.parse(HTML.encode(), BASE).markdown()
    assert md.startswith("# Local news\n")
    assert "## Pictures" in md
    assert "The **harbour** reopened on *Monday*." in md
    assert "[the full story](https://news.example/stories/harbour)" in md
    assert "[elsewhere](https://other.example/x)" in md
    assert "![The harbour at dawn](https://news.example/img/harbour.jpg)" in md
    assert "- First point" in md
    assert "- Second point with [a link](https://news.example/p/2)" in md
    assert "  - Nested point" in md
    assert "1. One" in md
    assert "2. Two" in md
    assert "| Boat | Length |" in md
    assert "| --- | --- |" in md
    assert "| Tern \\| II | 9 m |" in md
    assert "> A quote about the sea." in md
    assert "```\ncode   block\n```" in md


def test_chrome_scripts_and_forms_are_left_out() -> None:
    md = Page.parse(HTML.encode(), BASE).markdown()
    for absent in ("World", "Privacy", "Advert", "not content", "color:red", "Search"):
        assert absent not in md


def test_body_without_main() -> None:
    body = (
        b"<html><body><nav><a href='/a'>Menu</a></nav><div><h2>Title</h2><p>Text "
        b"<a href='x'>link</a></p></div><footer>Foot</footer></body></html>"
    )
    md = Page.parse(body, "https://a.example/dir/").markdown()
    assert "## Title" in md
    assert "[link](https://a.example/dir/x)" in md
    assert "Menu" not in md
    assert "Foot" not in md


def test_large_listing_page() -> None:
    cards = "".join(
        f'<div class="card"><a href="/p/{n}"><img src="/i/{n}.jpg" alt="Item {n}"></a>'
        f'<h3><a href="/p/{n}">Item {n}</a></h3><span class="price">${n}.99</span></div>'
        for n in range(100)
    )
    md = Page.parse(f"<html><body><main>{cards}</main></body></html>".encode(), BASE).markdown()
    assert md.count("### [Item ") == 100
    assert "### [Item 42](https://news.example/p/42)" in md
    assert "$42.99" in md
