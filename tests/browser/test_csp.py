"""The pages under their Content-Security-Policy (config/middleware.py) in Chromium: the
owner pages and the admin work with no violation reported, and an inline script injected
into a page is refused. The headers themselves: tests/security/test_headers.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from accounts.keys import mint_key
from tests.factories import UserFactory
from tests.security.support import mug_history, owner

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"


class Violations:
    """Every Content-Security-Policy report Chromium writes to a page's console."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.seen.append(message.text)


def _sign_in(page: Page, base: str, path: str, username: str, button: str) -> None:
    page.goto(f"{base}{path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=button).click()


def test_owner_pages_work_under_the_policy_with_no_violation(
    page: Page, context: BrowserContext, live_server: object, tmp_storage: Path
) -> None:
    base = str(live_server)
    account = owner("acme")
    entry = mug_history(account)
    violations = Violations(page)

    _sign_in(page, base, "/login/?next=/sources", "acme@example.com", "Sign in")
    expect(page).to_have_url(f"{base}/sources")
    source = entry.source.public_id
    for path in ("/feed", "/webhooks", "/alerts", f"/sources/{source}", f"/sources/{source}/edit"):
        page.goto(f"{base}{path}")
        expect(page.locator("main")).to_be_visible()

    # The key page's copy button (a static script).
    page.goto(f"{base}/connect-agent")
    page.get_by_label("Name").fill("laptop")
    page.get_by_role("button", name="Create key").click()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page.get_by_role("button", name="Copy key").click()
    expect(page.locator(".copy-status")).not_to_be_empty()

    # The entry page's inline script (its nonce) loads each capture when opened.
    page.goto(f"{base}/entries/{entry.public_id}")
    card = page.locator("li.card").first
    for summary in card.locator("details.capture > summary").all():
        summary.click()
    expect(card.locator(".capture-text .page-text")).to_be_visible()
    expect(card.locator(".capture-diff .diff")).to_be_visible()
    expect(card.frame_locator(".capture-html iframe").get_by_role("heading")).to_be_visible()
    # (expect, not wait_for_function: that evaluates a string, which the policy forbids)
    expect(card.locator(".capture-screenshot img")).to_have_js_property("naturalWidth", 1)
    assert page.evaluate("window.owned === undefined")

    assert violations.seen == []

    # And the policy is in force: a script injected inline is refused, and reported.
    with pytest.raises(Exception):  # noqa: B017, PT011 - Playwright's error for a refused tag
        page.add_script_tag(content="window.injected = true;")
    assert page.evaluate("window.injected === undefined")
    assert violations.seen


def test_the_admin_works_under_the_policy_with_no_violation(
    page: Page, live_server: object
) -> None:
    base = str(live_server)
    UserFactory(username="staff@example.com", is_staff=True, is_superuser=True)
    account = owner("acme")
    key, _ = mint_key(account=account, name="agent", scopes=["read"])
    violations = Violations(page)

    _sign_in(page, base, "/admin/", "staff@example.com", "Log in")
    expect(page.get_by_role("link", name="Accounts").first).to_be_visible()
    page.goto(f"{base}/admin/accounts/account/")
    expect(page.locator("#result_list")).to_be_visible()
    page.goto(f"{base}/admin/accounts/apikey/{key.pk}/change/")
    expect(page.locator("#apikey_form")).to_be_visible()
    # A change form with the date and time widgets' scripts, used.
    staff = User.objects.get(username="staff@example.com")
    page.goto(f"{base}/admin/auth/user/{staff.pk}/change/")
    page.locator("#id_last_login_0").fill("")
    page.locator(".datetimeshortcuts a", has_text="Today").first.click()
    expect(page.locator("#id_last_login_0")).not_to_have_value("")
    page.locator("#calendarlink0").click()
    expect(page.locator("#calendarbox0")).to_be_visible()
    # The add-user form (its password widgets) and the changelist's actions bar.
    page.goto(f"{base}/admin/auth/user/add/")
    expect(page.locator("#id_username")).to_be_visible()
    page.goto(f"{base}/admin/auth/user/")
    page.locator("#action-toggle").check()
    expect(page.locator(".action-counter")).to_contain_text("selected")

    assert violations.seen == []
