"""An owner in Chromium: add a webhook, see its secret once, send a test event to a local
receiver through a real Celery worker, watch status and attempts update, redeliver."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect
from standardwebhooks.webhooks import Webhook

from accounts.models import Account
from tests.factories import AccountFactory, UserFactory
from tests.webhooks.support import wait_until
from webhooks.models import WebhookEndpoint

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"


def _reload_until(
    page: Page, cell: Callable[[Page], Locator], text: str, timeout: float = 15
) -> None:
    """Reload the page until a cell shows the text (the page is server-rendered)."""
    deadline = time.monotonic() + timeout
    while True:
        if text in cell(page).inner_text():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} not shown; the cell says {cell(page).inner_text()!r}")
        time.sleep(0.3)
        page.reload()


def test_add_see_secret_once_test_event_status_and_redeliver(
    page: Page,
    live_server: Any,
    worker: Any,
    receiver: Any,
    shots: Path,
) -> None:
    base = str(live_server)
    user = cast(User, UserFactory(username="hooks@example.com"))
    account = cast(Account, AccountFactory(slug="hooks", owner=user))
    rec = receiver(418, 200)  # the test event is refused once, then accepted

    page.goto(f"{base}/webhooks")
    page.get_by_label("Username").fill("hooks@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{base}/webhooks")
    expect(page.get_by_text("No webhooks yet.")).to_be_visible()

    # Add: the secret is shown once, and never in the address bar.
    page.get_by_label("Receiver URL").fill(rec.url)
    page.get_by_label("Description").fill("local receiver")
    page.get_by_role("button", name="Add webhook").click()
    expect(page).to_have_url(f"{base}/webhooks")
    secret = page.locator("#new-secret-value").input_value()
    assert secret.startswith("whsec_")
    assert secret not in page.url
    assert WebhookEndpoint.objects.get(account=account).secret == secret
    page.screenshot(path=str(shots / "01-secret-once.png"), full_page=True)
    page.reload()
    expect(page.locator("#new-secret-value")).to_have_count(0)
    assert secret not in page.content()

    # Send a test event: it reaches the receiver, signed with that secret, and is refused.
    row = page.locator("tr[data-endpoint-id]")
    row.get_by_role("button", name="Send test event").click()
    expect(page.get_by_text("queued for")).to_be_visible()
    wait_until(lambda: len(rec.requests) == 1, 10, "the test event")
    request = rec.requests[0]
    event_id, timestamp = request.headers["svc-event-id"], request.headers["svc-timestamp"]
    mac = hmac.new(
        secret.encode(), f"{event_id}.{timestamp}.".encode() + request.body, hashlib.sha256
    )
    assert request.headers["svc-signature"] == f"v1={mac.hexdigest()}"
    body = json.loads(request.body)
    assert (body["type"], body["test"]) == ("content.update", True)
    # The Standard Webhooks headers verify with the reference package too.
    assert Webhook(secret).verify(request.body, request.headers) == body

    _reload_until(page, lambda p: p.locator("td.latest-status"), "failed")
    expect(page.locator("td.latest-status")).to_contain_text("HTTP 418")
    expect(page.locator("td.latest-attempts")).to_have_text("1")
    page.screenshot(path=str(shots / "02-failed.png"), full_page=True)

    # The delivery log shows the attempt; redeliver it and watch it succeed.
    page.get_by_role("link", name=rec.url, exact=True).click()
    expect(page.get_by_role("heading", name="Deliveries to")).to_be_visible()
    expect(page.locator("ol.attempts")).to_contain_text("Attempt 1")
    page.get_by_role("button", name="Redeliver").click()
    expect(page.get_by_text("queued for redelivery")).to_be_visible()
    _reload_until(page, lambda p: p.locator("td.delivery-status"), "succeeded")
    expect(page.locator("td.delivery-attempts")).to_have_text("2")
    expect(page.locator("ol.attempts li")).to_have_count(2)
    page.screenshot(path=str(shots / "03-redelivered.png"), full_page=True)
    assert len(rec.requests) == 2
    assert rec.requests[1].body == request.body

    page.get_by_role("link", name="All webhooks").click()
    expect(page.locator("td.latest-status")).to_contain_text("succeeded")
    expect(page.locator("td.latest-attempts")).to_have_text("2")

    # Disable, enable, delete.
    page.get_by_role("button", name="Disable").click()
    expect(page.locator("tr[data-endpoint-id]")).to_contain_text("Disabled")
    page.get_by_role("button", name="Enable").click()
    expect(page.locator("tr[data-endpoint-id]")).to_contain_text("Active")
    page.get_by_role("link", name="Delete").click()
    expect(page.get_by_text("What is deleted")).to_be_visible()
    assert WebhookEndpoint.objects.exists()  # nothing goes before the confirmation
    page.get_by_role("button", name="Delete webhook").click()
    expect(page.get_by_text("No webhooks yet.")).to_be_visible()
    assert not WebhookEndpoint.objects.exists()
