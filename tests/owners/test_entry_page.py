# ruff: noqa: RUF001  (the minus sign U+2212, as the page writes it)
"""The entry page and its captures, through Django's test client (Chromium: tests/browser).

History is built by the real ingestion (`history.ingest.ingest`), one fetch document a
check, as the watcher would hand it over.
"""

from __future__ import annotations

import base64
import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Account
from history import ids
from history.ingest import ingest
from history.models import Change, Entry
from owners import entry as entry_page
from owners.snapshots import DIFF_SHOW_MAX, LINE_MAX, diff_lines, inert, render_markdown
from tests.history.conftest import fetch_doc

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


@pytest.fixture(autouse=True)
def storage(tmp_storage: Path) -> Path:
    """Blobs written by ingestion go to a throwaway folder."""
    return tmp_storage


@pytest.fixture
def owner(client: Client, account: Account) -> Account:
    client.force_login(account.owner)
    return account


def mug(price: float, *, title: str = "Mug", in_stock: bool = True) -> dict[str, Any]:
    return {
        "identityKey": "mug",
        "title": title,
        "url": "https://shop.example.com/mug",
        "kind": "product",
        "price": price,
        "currency": "EUR",
        "imageUrl": "https://shop.example.com/mug.png",
        "attributes": {"inStock": {"b": in_stock}},
    }


def check(account: Account, *entries: dict[str, Any], **extra: Any) -> Any:
    """One fetch of the shop page, ingested."""
    return ingest(fetch_doc(account.slug, list(entries), **extra))


def the_mug(account: Account) -> Entry:
    return Entry.objects.select_related("source").get(account=account, identity_key="mug")


def url_of(entry: Entry, cursor: str | None = None) -> str:
    return f"/entries/{entry.public_id}" + (f"?cursor={cursor}" if cursor else "")


def next_cursor(html: str) -> str | None:
    found = re.search(r'rel="next" href="\?cursor=([^"]+)"', html)
    return found.group(1) if found else None


def card_ids(html: str) -> list[str]:
    return re.findall(r'data-change-id="(chg_[0-9A-Za-z]+)"', html)


def test_it_needs_a_signed_in_user(client: Client, account: Account) -> None:
    check(account, mug(10))
    entry = the_mug(account)
    response = client.get(url_of(entry))
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next=/entries/{entry.public_id}"
    change = Change.objects.get()
    for path in ("snapshot", "text", "diff"):
        response = client.get(f"/changes/{change.public_id}/{path}")
        assert response.status_code == 302
        assert response["Location"].startswith("/login/")


def test_it_shows_the_entry_and_its_changes_for_people(client: Client, owner: Account) -> None:
    check(owner, mug(39.9))
    check(owner, mug(29.9, title="Big mug", in_stock=False))

    entry = the_mug(owner)
    response = client.get(url_of(entry))

    assert response.status_code == 200
    html = response.content.decode()
    assert (
        '<a href="https://shop.example.com/mug" rel="noopener noreferrer nofollow">Big mug</a>'
        in (html)
    )
    assert f'href="/sources/{entry.source.public_id}"' in html
    assert "product" in html
    assert "29.90 EUR" in html
    # The entry's image is a link, never loaded: no request goes to the shop.
    assert 'class="entry-image" href="https://shop.example.com/mug.png"' in html
    assert not re.search(r"<img[^>]*\ssrc=", html)
    # Newest first: the second check, then the first.
    first, second = Change.objects.order_by("at", "id")
    assert card_ids(html) == [second.public_id, first.public_id]
    assert "price 39.90 → 29.90 EUR, −25 %" in html
    assert "inStock yes → no" in html
    assert "title &quot;Mug&quot; → &quot;Big mug&quot;" in html
    assert '<span class="change-text">new</span>' in html
    # The card's importance: a 25 % price drop is critical by the default rules.
    assert 'data-importance="critical"' in html
    assert next_cursor(html) is None


def test_narrations_show_their_headline_and_description(client: Client, owner: Account) -> None:
    check(owner, mug(10))
    narration = {
        "identityKey": "mug",
        "headline": "Now sold in pairs",
        "description": "The listing says two mugs per box.",
        "importance": "minor",
    }
    check(owner, mug(10), narrations=[narration])

    html = client.get(url_of(the_mug(owner))).content.decode()

    assert '<p class="narration-headline">Now sold in pairs</p>' in html
    assert "The listing says two mugs per box." in html
    # The card's only update is the narration: its importance shows once, in the card's head.
    assert html.count(">minor</span>") == 1
    assert '<span class="visually-hidden">Importance: </span>minor</span>' in html


def _card_tags(html: str) -> list[list[str]]:
    """The importance words shown in each card, in order."""
    cards = re.findall(r'<li class="card".*?</ul>', html, re.S)
    return [
        re.findall(r'class="tag importance[^"]*">(?:<span[^>]*>[^<]*</span>)?(\w+)</span>', card)
        for card in cards
    ]


def test_a_card_shows_its_importance_once(client: Client, owner: Account) -> None:
    check(owner, mug(40))
    check(owner, mug(30))  # -25 %: critical by the default rules, the card's only change
    narration = {"identityKey": "mug", "headline": "Gift box", "importance": "minor"}
    check(owner, mug(20), narrations=[narration])  # critical price, minor narration

    tags = _card_tags(client.get(url_of(the_mug(owner))).content.decode())

    # Newest first: the card's level in its head, then an update's own only when it differs.
    assert tags[0] == ["critical", "minor"]
    assert tags[1] == ["critical"]


def test_another_accounts_entry_is_not_found(
    client: Client, owner: Account, other_account: Account
) -> None:
    check(other_account, mug(10))
    theirs = the_mug(other_account)

    assert client.get(url_of(theirs)).status_code == 404
    theirs.refresh_from_db()
    assert theirs.read is False


@pytest.mark.parametrize(
    "public_id",
    [
        "nope",
        "ent_",
        "ent_!!!!!!!!!!!",
        "ent_zzzzzzzzzzz",  # past 2**64
        ids.encode(ids.ENTRY, 987654321),  # well formed, no such entry
    ],
)
def test_an_id_that_is_not_an_entry_is_not_found(
    client: Client, owner: Account, public_id: str
) -> None:
    assert client.get(f"/entries/{public_id}").status_code == 404


def test_a_source_or_change_id_is_not_an_entry_id(client: Client, owner: Account) -> None:
    result = check(owner, mug(10))
    entry = the_mug(owner)
    # The same number under another type's prefix.
    assert client.get(f"/entries/{ids.encode(ids.SOURCE, entry.pk)}").status_code == 404
    assert client.get(f"/entries/{ids.encode(ids.CHANGE, result.change_id)}").status_code == 404


def test_viewing_an_entry_marks_it_read_with_one_update(client: Client, owner: Account) -> None:
    check(owner, mug(10))
    check(owner, mug(12))
    entry = the_mug(owner)
    assert entry.read is False

    with CaptureQueriesContext(connection) as queries:
        assert client.get(url_of(entry)).status_code == 200
    updates = [q["sql"] for q in queries if q["sql"].startswith("UPDATE")]
    assert len(updates) == 1
    assert '"history_entry"' in updates[0]
    entry.refresh_from_db()
    assert entry.read is True

    # Already read: nothing to write.
    with CaptureQueriesContext(connection) as queries:
        client.get(url_of(entry))
    assert not [q for q in queries if q["sql"].startswith("UPDATE")]

    # A new change makes it unread again, and a view reads it again.
    check(owner, mug(14))
    entry.refresh_from_db()
    assert entry.read is False
    client.get(url_of(entry))
    entry.refresh_from_db()
    assert entry.read is True


QUERY_BUDGET = 7  # session, user, account, entry, cards, formats, read flag


def test_a_page_costs_the_same_few_queries_whatever_the_history(
    client: Client, owner: Account, django_assert_max_num_queries: Any
) -> None:
    snapshot = {"markdown": "# Shop\n\n- Mug\n", "html": "<p>Mug</p>"}
    check(owner, mug(10), snapshot=snapshot)
    entry = the_mug(owner)
    with CaptureQueriesContext(connection) as short:
        client.get(url_of(entry))

    for i in range(1, 60):
        md = f"# Shop\n\n- Mug {10 + i} EUR\n"
        check(owner, mug(10 + i), snapshot={"markdown": md, "screenshot": _b64(PNG)})
    Entry.objects.filter(pk=entry.pk).update(read=False)
    with (
        CaptureQueriesContext(connection) as long,
        django_assert_max_num_queries(QUERY_BUDGET),
    ):
        first = client.get(url_of(entry))
    cursor = next_cursor(first.content.decode())
    assert cursor is not None
    with django_assert_max_num_queries(QUERY_BUDGET):
        second = client.get(url_of(entry, cursor))

    assert len(card_ids(first.content.decode())) == entry_page.PAGE_SIZE
    assert len(card_ids(second.content.decode())) == entry_page.PAGE_SIZE
    # One history of a single change, one of sixty: the same queries (both unread).
    assert len(long) == len(short)


def test_the_timeline_pages_by_cursor_newest_first(client: Client, owner: Account) -> None:
    total = 2 * entry_page.PAGE_SIZE + 5
    for i in range(total):
        check(owner, mug(100 + i))
    entry = the_mug(owner)
    expected = [c.public_id for c in Change.objects.order_by("-at", "-id")]

    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        html = client.get(url_of(entry, cursor)).content.decode()
        pages += 1
        seen += card_ids(html)
        cursor = next_cursor(html)
        if cursor is None:
            break
        assert "Newest changes" in html or pages == 1
    assert pages == 3
    assert seen == expected
    assert "price 100 → 101 EUR, +1 %" in html  # the oldest change, on the last page


def test_a_cursor_of_another_entry_or_altered_is_not_found(client: Client, owner: Account) -> None:
    other = {**mug(5), "identityKey": "jug", "title": "Jug", "url": "https://shop.example.com/j"}
    for i in range(entry_page.PAGE_SIZE + 1):
        check(owner, mug(100 + i), {**other, "price": 5 + i})
    entry = the_mug(owner)
    jug = Entry.objects.get(account=owner, identity_key="jug")
    cursor = next_cursor(client.get(url_of(entry)).content.decode())
    assert cursor is not None

    assert client.get(url_of(jug, cursor)).status_code == 404
    assert client.get(url_of(entry, cursor[:-2] + "AA")).status_code == 404
    assert client.get(url_of(entry, "garbage")).status_code == 404
    assert client.get(url_of(entry, cursor)).status_code == 200


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


CAPTURED_HTML = (
    "<html><head><title>Shop</title></head><body><p id='marker'>script did not run</p>"
    "<script>document.getElementById('marker').textContent = 'script ran';"
    "parent.document.title = 'owned';</script></body></html>"
)


def snapshots(owner: Account) -> tuple[Change, Change]:
    """Two checks of the page, each with markdown, HTML and a screenshot."""
    check(
        owner,
        mug(39.9),
        snapshot={"markdown": "# Shop\n\n- Mug 39.90 €\n", "html": "<p>old</p>"},
    )
    check(
        owner,
        mug(29.9),
        snapshot={
            "markdown": "# Shop\n\n- Mug 29.90 €\n",
            "html": CAPTURED_HTML,
            "screenshot": _b64(PNG),
        },
    )
    first, second = Change.objects.order_by("at", "id")
    return first, second


def csp(response: Any) -> dict[str, list[str]]:
    """A response's Content-Security-Policy as {directive: [values]}."""
    policy: dict[str, list[str]] = {}
    for directive in response["Content-Security-Policy"].split(";"):
        name, *values = directive.split()
        policy[name] = values
    return policy


def test_the_page_links_each_capture_of_a_card(client: Client, owner: Account) -> None:
    first, second = snapshots(owner)
    html = client.get(url_of(the_mug(owner))).content.decode()

    chg = second.public_id
    assert f'data-src="/changes/{chg}/text"' in html
    assert f'data-src="/changes/{chg}/diff"' in html
    assert '<iframe sandbox="" referrerpolicy="no-referrer"' in html
    assert f'data-src="/changes/{chg}/snapshot?format=html"' in html
    assert f'data-src="/changes/{chg}/snapshot?format=screenshot"' in html
    # The first check has no earlier page to compare with, nor a screenshot.
    assert f"/changes/{first.public_id}/text" in html
    assert f"/changes/{first.public_id}/diff" not in html
    assert f"/changes/{first.public_id}/snapshot?format=screenshot" not in html
    # The frame never gets scripts: no allow-* in any sandbox attribute.
    assert "allow-" not in html


def test_the_html_snapshot_is_served_sandboxed(client: Client, owner: Account) -> None:
    _, second = snapshots(owner)

    response = client.get(f"/changes/{second.public_id}/snapshot?format=html")

    assert response.status_code == 200
    assert response.content.decode() == CAPTURED_HTML
    assert response["Content-Type"] == "text/html; charset=utf-8"
    policy = csp(response)
    assert policy["sandbox"] == []  # no allow-*: no script, form or plugin
    # Nothing is fetched from the live site (nor anywhere): only data: images and fonts.
    assert policy["default-src"] == ["'none'"]
    assert policy["img-src"] == ["data:"]
    assert policy["font-src"] == ["data:"]
    assert policy["style-src"] == ["'unsafe-inline'"]
    assert policy["base-uri"] == ["'none'"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "SAMEORIGIN"  # framed by the entry page only


def test_captured_links_and_frames_are_served_inert(client: Client, owner: Account) -> None:
    html = (
        '<LINK rel=preconnect href="http://live.example"><link/><link\trel="icon">'
        '<iframe src="http://live.example/f"></iframe><frameset><frame src="x"></frameset>'
        "<linked>kept</linked><p>a <link> in text</p>"
    )
    assert inert(html.encode()).decode() == (
        '<x-LINK rel=preconnect href="http://live.example"><x-link/><x-link\trel="icon">'
        '<x-iframe src="http://live.example/f"></iframe><frameset><x-frame src="x"></frameset>'
        "<linked>kept</linked><p>a <x-link> in text</p>"
    )
    result = check(owner, mug(10), snapshot={"html": html, "markdown": "a <link> in text\n"})
    path = f"/changes/{ids.encode(ids.CHANGE, result.change_id)}/snapshot"
    assert client.get(f"{path}?format=html").content == inert(html.encode())
    # The markdown is served as stored.
    assert client.get(f"{path}?format=markdown").content == b"a <link> in text\n"


def test_the_other_snapshot_formats(client: Client, owner: Account) -> None:
    first, second = snapshots(owner)

    shot = client.get(f"/changes/{second.public_id}/snapshot?format=screenshot")
    assert shot.status_code == 200
    assert shot["Content-Type"] == "image/png"
    assert shot.content == PNG
    text = client.get(f"/changes/{second.public_id}/snapshot?format=markdown")
    assert text["Content-Type"] == "text/plain; charset=utf-8"
    assert text.content.decode() == "# Shop\n\n- Mug 29.90 €\n"
    assert csp(text)["default-src"] == ["'none'"]
    assert "sandbox" in csp(shot)
    previous = client.get(f"/changes/{second.public_id}/snapshot?state=previous&format=html")
    assert previous.content == b"<p>old</p>"

    # Not stored, not a format, not a state, no earlier state: all 404.
    assert client.get(f"/changes/{first.public_id}/snapshot?format=screenshot").status_code == 404
    assert client.get(f"/changes/{second.public_id}/snapshot?format=pdf").status_code == 404
    assert client.get(f"/changes/{second.public_id}/snapshot?state=next").status_code == 404
    assert (
        client.get(f"/changes/{first.public_id}/snapshot?state=previous&format=html").status_code
        == 404
    )


def test_another_accounts_snapshots_are_not_found(
    client: Client, owner: Account, other_account: Account
) -> None:
    check(
        other_account,
        mug(10),
        snapshot={"markdown": "# Theirs\n", "html": "<p>theirs</p>", "screenshot": _b64(PNG)},
    )
    check(other_account, mug(12), snapshot={"markdown": "# Theirs too\n"})
    theirs = Change.objects.filter(account=other_account).order_by("-at", "-id").first()
    assert theirs is not None

    for path in (
        "snapshot?format=html",
        "snapshot?format=markdown",
        "snapshot?state=previous&format=screenshot",
        "text",
        "diff",
    ):
        response = client.get(f"/changes/{theirs.public_id}/{path}")
        assert response.status_code == 404, path
        assert b"Theirs" not in response.content
    for bad in ("chg_nope", ids.encode(ids.ENTRY, theirs.pk), ids.encode(ids.CHANGE, 987654321)):
        assert client.get(f"/changes/{bad}/snapshot?format=html").status_code == 404
        assert client.get(f"/changes/{bad}/text").status_code == 404


def test_the_page_text_is_rendered_without_raw_html_or_script_links(
    client: Client, owner: Account
) -> None:
    markdown = (
        "# Shop <script>alert(1)</script>\n\n"
        "<img src=x onerror=alert(1)>\n\n"
        "[click](javascript:alert(1)) [data](data:text/html,hi) [back](/sale) "
        "[mail](mailto:shop@example.com)\n\n"
        "![A mug](https://shop.example.com/mug.png)\n"
    )
    result = check(owner, mug(10), snapshot={"markdown": markdown})

    response = client.get(f"/changes/{ids.encode(ids.CHANGE, result.change_id)}/text")

    assert response.status_code == 200
    assert response["Content-Security-Policy"] == "sandbox"
    html = response.content.decode()
    assert "<h1>Shop &lt;script&gt;alert(1)&lt;/script&gt;</h1>" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<script" not in html
    assert "<img" not in html  # images become links: nothing loads from the captured site
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert not [h for h in hrefs if h.lower().startswith(("javascript:", "data:"))]
    # Relative links point at the captured site, not into Tidemark.
    assert 'href="https://shop.example.com/sale"' in html
    assert 'href="mailto:shop@example.com"' in html
    assert 'href="https://shop.example.com/mug.png"' in html
    assert "[image: A mug]" in html


def test_the_diff_shows_removed_and_added_lines(client: Client, owner: Account) -> None:
    first, second = snapshots(owner)

    response = client.get(f"/changes/{second.public_id}/diff")

    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r"<del class=\"line\">.*Mug 39.90 €", html)
    assert re.search(r"<ins class=\"line\">.*Mug 29.90 €", html)
    assert '<span class="added">+1</span>' in html
    # A first check has nothing to compare with.
    assert client.get(f"/changes/{first.public_id}/diff").status_code == 404


def test_the_diff_of_huge_pages_is_bounded_and_quick() -> None:
    old = "\n".join(f"old line {i} " + "x" * 50 for i in range(50_000))
    new = "\n".join(f"new line {i} " + "y" * 50 for i in range(50_000))

    started = time.monotonic()
    diff = diff_lines(old, new)
    elapsed = time.monotonic() - started

    shown = sum(max(len(b.old), len(b.new)) for hunk in diff.hunks for b in hunk)
    assert diff.truncated
    assert 0 < shown <= DIFF_SHOW_MAX
    assert elapsed < 5


def test_the_diff_keeps_context_and_cuts_long_lines() -> None:
    old = "\n".join(["a", "b", "c", "d", "e", "f", "g", "x" * 5000, "h"])
    new = "\n".join(["a", "b", "c", "d", "e", "f", "g", "y" * 5000, "h"])

    diff = diff_lines(old, new)

    assert not diff.truncated
    assert (diff.additions, diff.deletions) == (1, 1)
    [hunk] = diff.hunks
    equal, replace, after = hunk
    assert equal.tag == "equal"
    assert [n for n, _ in equal.new] == [5, 6, 7]  # three lines of context, numbered
    assert replace.tag == "replace"
    assert replace.old[0][0] == 8
    assert len(replace.old[0][1]) == LINE_MAX
    assert after.new == [(9, "h")]
    assert diff_lines("same\n", "same\n").hunks == []


def test_render_markdown_escapes_everything_it_does_not_know() -> None:
    html = render_markdown('[x](JAVASCRIPT:alert(1)) <b onclick="x">b</b>', base=None)
    assert "href" not in html  # no base to resolve against, and not a safe scheme
    assert "&lt;b onclick=&quot;x&quot;&gt;" in html
