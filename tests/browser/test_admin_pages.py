"""Staff in Chromium: sign in to the admin and browse updates filtered by importance."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from accounts.keys import mint_key
from accounts.models import Account
from history.models import Source
from tests.factories import AccountFactory, EntryFactory, SourceFactory, UpdateFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"


def _data() -> Source:
    account = cast(Account, AccountFactory(slug="acme", name="Acme"))
    mint_key(account=account, name="laptop agent", scopes=["read", "mcp"])
    source = cast(Source, SourceFactory(account=account, name="Acme shop front"))
    for n, importance in enumerate(["critical", "minor", None, "critical", "material", "minor"]):
        UpdateFactory(
            entry=EntryFactory(source=source, title=f"Espresso machine {n}"),
            importance=importance,
            at=1_763_700_000_000 + n * 60_000,
        )
    return source


def test_staff_browse_updates_filtered_by_importance(
    page: Page, live_server: object, shots: Path
) -> None:
    base = str(live_server)
    cast(User, UserFactory(username="staff@example.com", is_staff=True, is_superuser=True))
    source = _data()

    page.goto(f"{base}/admin/")
    expect(page).to_have_url(f"{base}/admin/login/?next=/admin/")
    page.get_by_label("Username").fill("staff@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Updates")).to_be_visible()
    page.screenshot(path=str(shots / "01-admin-index.png"), full_page=True)

    page.get_by_role("link", name="Updates").click()
    expect(page).to_have_url(f"{base}/admin/history/update/")
    expect(page.locator("#result_list tbody tr")).to_have_count(6)
    # Epoch-ms times are shown as datetimes.
    expect(page.locator("#result_list")).to_contain_text("Nov. 21, 2025")
    page.screenshot(path=str(shots / "02-updates.png"), full_page=True)

    page.locator("#changelist-filter").get_by_role("link", name="Critical", exact=True).click()
    expect(page).to_have_url(f"{base}/admin/history/update/?importance=critical")
    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)
    for n in range(2):
        expect(rows.nth(n).locator("td.field-importance")).to_have_text("Critical")
    page.screenshot(path=str(shots / "03-updates-critical.png"), full_page=True)

    # Search: words of the entry's title; the list shows the field and old → new.
    page.goto(f"{base}/admin/history/update/")
    page.locator("#searchbar").fill("Espresso machine 3")
    page.locator("#changelist-search").get_by_role("button", name="Search").click()
    expect(page).to_have_url(f"{base}/admin/history/update/?q=Espresso+machine+3")
    found = page.locator("#result_list tbody tr")
    expect(found).to_have_count(1)
    expect(found.locator("td.field-field_name")).to_have_text("price")
    expect(found.locator("td.field-values")).to_have_text("10.0 → 12.0 EUR")
    expect(page.locator("#result_list thead")).to_contain_text("Old → new")
    page.screenshot(path=str(shots / "03b-updates-search.png"), full_page=True)
    page.goto(f"{base}/admin/history/update/?importance=critical")

    # Read-only: an update opens without a save button.
    rows.first.locator("th a").click()
    expect(page.get_by_role("heading", name="View update")).to_be_visible()
    expect(page.locator('input[name="_save"]')).to_have_count(0)
    page.screenshot(path=str(shots / "04-update-read-only.png"), full_page=True)

    # Pause a source with the action.
    page.goto(f"{base}/admin/history/source/")
    page.locator(f'input[name="_selected_action"][value="{source.pk}"]').check()
    page.locator('select[name="action"]').select_option("pause_sources")
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".messagelist")).to_contain_text("Paused 1 source(s).")
    source.refresh_from_db()
    assert source.status == "disabled"
    page.screenshot(path=str(shots / "05-source-paused.png"), full_page=True)

    page.goto(f"{base}/admin/accounts/apikey/")
    expect(page.locator("#result_list")).to_contain_text("laptop agent")
    page.screenshot(path=str(shots / "06-api-keys.png"), full_page=True)
