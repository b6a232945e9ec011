"""An owner in Chromium: sign in, mint a key, see it once, use it, revoke it."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import cast

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from accounts.keys import is_well_formed, mint_key
from accounts.models import Account, ApiKey
from tests.factories import AccountFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"


def _get(url: str, key: str) -> tuple[int, dict[str, str], bytes]:
    """GET with the key from the test itself, as an agent would."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _owner(slug: str) -> Account:
    user = cast(User, UserFactory(username=f"{slug}@example.com"))
    return cast(Account, AccountFactory(slug=slug, name=slug.title(), owner=user))


def _sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/connect-agent")
    expect(page).to_have_url(f"{base}/login/?next=/connect-agent")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{base}/connect-agent")


def test_mint_see_once_use_revoke(
    page: Page, context: BrowserContext, live_server: object, shots: Path
) -> None:
    base = str(live_server)
    account = _owner("acme")

    page.goto(f"{base}/login/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.screenshot(path=str(shots / "01-login.png"), full_page=True)

    _sign_in(page, base, "acme@example.com")
    expect(page.get_by_text("No keys yet.")).to_be_visible()
    page.screenshot(path=str(shots / "02-connect-agent-empty.png"), full_page=True)

    # Mint a key with both scopes.
    page.get_by_label("Name").fill("laptop agent")
    page.get_by_label("mcp: the MCP server for agents").check()
    page.get_by_role("button", name="Create key").click()
    expect(page).to_have_url(f"{base}/connect-agent")  # POST, then redirect to GET
    secret_box = page.locator("#new-key-value")
    expect(secret_box).to_be_visible()
    plaintext = secret_box.input_value()
    assert is_well_formed(plaintext)
    expect(page.locator("#curl-example")).to_have_text(
        f'curl -H "Authorization: Bearer {plaintext}" {base}/v1/sources'
    )
    row = ApiKey.objects.get(account=account)
    assert row.scopes == ["mcp", "read"]
    expect(page.locator(f"#key-{row.pk}")).to_contain_text("laptop agent")
    expect(page.locator(f"#key-{row.pk}")).to_contain_text("Active")

    # The copy button puts the key on the clipboard and says so.
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page.get_by_role("button", name="Copy key").click()
    expect(page.locator(".copy-status")).to_have_text("Copied to the clipboard.")
    assert page.evaluate("navigator.clipboard.readText()") == plaintext
    page.screenshot(path=str(shots / "03-key-shown-once.png"), full_page=True)

    # Shown once: a reload no longer has it.
    page.reload()
    expect(page.locator("#new-key-value")).to_have_count(0)
    assert plaintext not in page.content()
    page.screenshot(path=str(shots / "04-after-reload.png"), full_page=True)

    # The key works on the API.
    status, headers, body = _get(f"{base}/v1/sources", plaintext)
    assert status == 200, body
    assert json.loads(body)["data"] == []

    # Revoke, after a confirmation page.
    page.locator(f"#key-{row.pk}").get_by_role("link", name="Revoke").click()
    expect(page).to_have_url(f"{base}/connect-agent/keys/{row.pk}/revoke")
    expect(page.get_by_role("heading", name="Revoke key “laptop agent”?")).to_be_visible()
    page.screenshot(path=str(shots / "05-revoke-confirm.png"), full_page=True)
    row.refresh_from_db()
    assert row.revoked_at is None  # the GET asked, it did not revoke
    page.get_by_role("button", name="Revoke key").click()
    expect(page).to_have_url(f"{base}/connect-agent")
    expect(page.get_by_role("status").first).to_contain_text("was revoked")
    expect(page.locator(f"#key-{row.pk}")).to_contain_text("Revoked")
    page.screenshot(path=str(shots / "06-revoked.png"), full_page=True)

    # Revocation takes effect on the very next request.
    status, headers, body = _get(f"{base}/v1/sources", plaintext)
    assert status == 401
    assert json.loads(body)["error"]["code"] == "unauthorized"
    assert "X-RateLimit-Limit" not in headers


def test_pages_fit_a_phone(
    browser: object, live_server: object, shots: Path, context: BrowserContext
) -> None:
    base = str(live_server)
    account = _owner("acme")
    mint_key(account=account, name="phone agent", scopes=["read", "mcp"])
    phone = context.browser.new_context(  # type: ignore[union-attr]
        viewport={"width": 375, "height": 740}, device_scale_factor=2, is_mobile=True
    )
    page = phone.new_page()
    _sign_in(page, base, "acme@example.com")
    page.get_by_label("Name").fill("pocket")
    page.get_by_role("button", name="Create key").click()
    expect(page.locator("#new-key-value")).to_be_visible()
    # Nothing sticks out sideways: the page is no wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(shots / "01-phone-connect-agent.png"), full_page=True)
    page.goto(f"{base}/password/change/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(shots / "02-phone-password-change.png"), full_page=True)
    phone.close()


def test_an_owner_cannot_see_or_revoke_another_accounts_keys(
    page: Page, live_server: object, shots: Path
) -> None:
    base = str(live_server)
    _owner("acme")
    rival = _owner("rival")
    theirs, _ = mint_key(account=rival, name="rival secret agent")

    _sign_in(page, base, "acme@example.com")
    expect(page.get_by_text("rival secret agent")).to_have_count(0)
    expect(page.get_by_text(theirs.prefix)).to_have_count(0)

    response = page.goto(f"{base}/connect-agent/keys/{theirs.pk}/revoke")
    assert response is not None
    assert response.status == 404
    page.screenshot(path=str(shots / "01-other-accounts-key-404.png"), full_page=True)

    # Posting the other key's id, with a valid CSRF token, is a 404 too.
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    posted = page.request.post(
        f"{base}/connect-agent/keys/{theirs.pk}/revoke",
        form={"csrfmiddlewaretoken": token},
        headers={"X-CSRFToken": token},
        max_redirects=0,
    )
    assert posted.status == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None


def test_password_change_and_sign_out(page: Page, live_server: object, shots: Path) -> None:
    base = str(live_server)
    account = _owner("acme")
    _sign_in(page, base, "acme@example.com")
    page.get_by_role("link", name="Change password").click()
    expect(page).to_have_url(f"{base}/password/change/")
    page.screenshot(path=str(shots / "01-password-change.png"), full_page=True)
    page.get_by_label("Old password").fill(PASSWORD)
    page.get_by_label("New password", exact=True).fill("a much newer passphrase 42")
    page.get_by_label("New password confirmation").fill("a much newer passphrase 42")
    page.get_by_role("button", name="Change my password").click()
    expect(page.get_by_role("heading", name="Password changed")).to_be_visible()
    page.screenshot(path=str(shots / "02-password-changed.png"), full_page=True)
    account.owner.refresh_from_db()
    assert account.owner.check_password("a much newer passphrase 42")

    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(f"{base}/login/")
    expect(page.get_by_text("You are signed out.")).to_be_visible()
    page.screenshot(path=str(shots / "03-signed-out.png"), full_page=True)
