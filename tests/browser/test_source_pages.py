"""An owner in Chromium: add a watched page, see its first check, follow a change from the
feed to the entry, edit, pause, resume and delete the source; at phone and desktop widths."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from accounts.models import Account
from history.models import Change, Source
from tests.factories import AccountFactory, UserFactory
from tests.watcher.site import Site
from watcher.check import check

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"


def _listing(prices: dict[str, str]) -> str:
    cards = "".join(
        f'<li class="card"><a href="/p/{slug}"><h3>{slug.title()} lamp</h3></a>'
        f'<span class="price">{price} €</span><p>Hand-made, ships in two days.</p></li>'
        for slug, price in prices.items()
    )
    return (
        "<html><head><title>Lamps</title></head><body><nav><a href='/'>Home</a>"
        f"<a href='/about'>About</a></nav><main><h1>Lamps</h1><ul class='grid'>{cards}</ul>"
        "</main><footer><a href='/legal'>Legal</a></footer></body></html>"
    )


@pytest.fixture
def shop(settings: Any, tmp_storage: Path) -> Iterator[Site]:
    settings.FETCH_ALLOW_LOOPBACK = True
    settings.FETCH_HOST_GAP_MS = 0
    site = Site()
    yield site
    site.close()


def _owner(slug: str) -> Account:
    user = cast(User, UserFactory(username=slug))
    return cast(Account, AccountFactory(slug=slug, name=slug.title(), owner=user))


def _sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/sources")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{base}/sources")


def _fits(page: Page, shots: Path, name: str) -> None:
    """No horizontal scrolling at a phone's and a desktop's width; a screenshot of each."""
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {width}px"
        page.screenshot(path=str(shots / f"{name}-{width}.png"), full_page=True)


def test_watch_a_page_follow_a_change_then_pause_resume_edit_delete(
    page: Page, live_server: object, shots: Path, shop: Site
) -> None:
    base = str(live_server)
    account = _owner("lampco")
    rival = _owner("rival")
    rival_source = Source.objects.create(account=rival, url="https://rival.example/x", created_at=1)
    shop.page("/lamps", _listing({"brass": "39,90", "oak": "59,00", "glass": "24,50"}))

    _sign_in(page, base, "lampco")
    expect(page.get_by_text("No sources yet.")).to_be_visible()
    _fits(page, shots, "01-sources-empty")

    page.get_by_label("Page address").fill(shop.url("/lamps"))
    page.get_by_label("Name").fill("Lamp shop")
    page.get_by_label("Check every (minutes)").fill("30")
    page.get_by_role("button", name="Add source").click()
    expect(page.get_by_text("Its first check starts now.")).to_be_visible()
    source = Source.objects.get(account=account)
    expect(page).to_have_url(f"{base}/sources/{source.public_id}")

    # The watcher's check (a Celery worker runs it in production; here, in process).
    assert check(source.pk) is not None
    page.reload()
    expect(page.locator("table.entries tbody tr")).to_have_count(3)
    expect(page.locator("table.fetches")).to_contain_text("ok")
    _fits(page, shots, "02-source")

    page.goto(f"{base}/sources")
    expect(page.locator(f"#{source.public_id}")).to_contain_text("Lamp shop")
    expect(page.locator(f"#{source.public_id} td.count")).to_have_text("3")
    _fits(page, shots, "03-sources")

    # A price falls; the next check records it as a typed change.
    shop.page("/lamps", _listing({"brass": "29,90", "oak": "59,00", "glass": "24,50"}))
    assert check(source.pk) is not None
    page.goto(f"{base}/feed")
    item = page.locator(".feed-item").first
    expect(item).to_contain_text("Brass lamp")
    expect(item).to_contain_text("39.9")
    expect(item).to_contain_text("29.9")
    _fits(page, shots, "04-feed")
    page.get_by_label("Source").select_option(source.public_id)
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".feed-item")).to_have_count(4)  # 3 new, 1 price
    item.get_by_role("link", name="Brass lamp").click()
    page.wait_for_url("**/entries/ent_*")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Brass lamp")
    page.screenshot(path=str(shots / "05-entry.png"), full_page=True)

    # The glass lamp leaves the page: it is no longer counted or listed, but kept apart.
    shop.page("/lamps", _listing({"brass": "29,90", "oak": "59,00"}))
    assert check(source.pk) is not None
    page.goto(f"{base}/sources")
    expect(page.locator(f"#{source.public_id} td.count")).to_have_text("2")
    page.goto(f"{base}/sources/{source.public_id}")
    expect(page.locator("table.entries tbody tr")).to_have_count(2)
    expect(page.locator("table.entries")).not_to_contain_text("Glass lamp")
    page.get_by_role("link", name="Removed (1)").click()
    expect(page).to_have_url(f"{base}/sources/{source.public_id}?removed=1")
    expect(page.locator("table.entries tbody tr")).to_have_count(1)
    expect(page.locator("table.entries")).to_contain_text("Glass lamp")
    _fits(page, shots, "05b-removed-entries")

    # Edit: a new frequency.
    page.goto(f"{base}/sources/{source.public_id}")
    page.get_by_role("link", name="Edit").click()
    expect(page.get_by_label("Page address")).to_have_value(shop.url("/lamps"))
    page.get_by_label("Check every (minutes)").fill("10")
    _fits(page, shots, "06-edit")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Checked every")).to_be_visible()
    expect(page.locator("dl.facts")).to_contain_text("10 minutes")

    # Pause, then resume.
    page.get_by_role("button", name="Pause").click()
    expect(page.locator("dl.facts")).to_contain_text("Paused")
    assert Source.objects.get(pk=source.pk).next_fetch_time is None
    page.get_by_role("button", name="Resume").click()
    expect(page.locator("dl.facts")).to_contain_text("Active")
    assert Source.objects.get(pk=source.pk).next_fetch_time is not None

    # Another account's source is not found.
    response = page.goto(f"{base}/sources/{rival_source.public_id}")
    assert response is not None
    assert response.status == 404

    # Delete, after a confirmation that says what goes.
    page.goto(f"{base}/sources/{source.public_id}")
    page.get_by_role("link", name="Delete").click()
    # At least the two checks above; a Celery worker left running by an earlier test may
    # have claimed it too (adding and resuming make it due at once), so count them.
    checks = Change.objects.filter(source=source).count()
    assert checks >= 2
    expect(page.locator(".warning")).to_contain_text("3 entries")
    expect(page.locator(".warning")).to_contain_text(f"{checks} checks")
    _fits(page, shots, "07-delete")
    page.get_by_role("button", name="Delete source and history").click()
    expect(page).to_have_url(f"{base}/sources")
    expect(page.get_by_text("No sources yet.")).to_be_visible()
    response = page.goto(f"{base}/sources/{source.public_id}")
    assert response is not None
    assert response.status == 404
