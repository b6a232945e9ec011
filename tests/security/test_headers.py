"""The pages' Content-Security-Policy: on every owner page, the sign-in and the admin, not on
`/v1`, never over a response's own policy. That the pages still work under it, with no
violation reported, is tested in Chromium: tests/browser/test_csp.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from history.models import Change
from tests.security.support import mug_history, owner


def _directives(response: Any) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    pairs = (part.strip().partition(" ") for part in policy.split(";") if part.strip())
    return {name: value for name, _, value in pairs}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/login/", "/sources", "/feed", "/connect-agent", "/webhooks", "/admin/login/"]
)
def test_pages_carry_a_strict_policy(client: Client, path: str) -> None:
    if "login" not in path:
        client.force_login(owner("acme").owner)

    response = client.get(path)

    assert response.status_code == 200
    policy = _directives(response)
    assert policy["default-src"] == "'self'"
    assert policy["script-src"].startswith("'self' 'nonce-")
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert policy["style-src"] == "'self'"
    assert policy["img-src"] == "'self' data:"  # nothing from a watched site
    assert policy["object-src"] == "'none'"
    assert policy["base-uri"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["form-action"] == "'self'"


@pytest.mark.django_db
def test_each_response_has_its_own_nonce(client: Client) -> None:
    nonces = {_directives(client.get("/login/"))["script-src"] for _ in range(2)}
    assert len(nonces) == 2


@pytest.mark.django_db
def test_the_api_gets_no_policy(client: Client, auth: dict[str, str]) -> None:
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert not response.has_header("Content-Security-Policy")


@pytest.mark.django_db
def test_a_captured_page_keeps_its_own_sandbox_policy(client: Client, tmp_storage: Path) -> None:
    account = owner("acme")
    mug_history(account)
    change = Change.objects.order_by("-at", "-id").first()
    assert change is not None
    client.force_login(account.owner)

    for suffix in ("snapshot?format=html", "text", "diff"):
        response = client.get(f"/changes/{change.public_id}/{suffix}")
        assert response.status_code == 200
        # The captured page's own policy (owners/snapshots.py), not the pages' one over it.
        policy = _directives(response)
        assert response["Content-Security-Policy"].startswith("sandbox")
        assert policy["default-src"] == "'none'"
        assert "script-src" not in policy


@pytest.mark.django_db
def test_the_consent_page_may_send_the_owner_back_to_the_agent(client: Client) -> None:
    # Its form's answer redirects to the agent's callback, off this origin.
    client.force_login(owner("acme").owner)
    policy = _directives(client.get("/oauth/authorize/"))
    assert "form-action" not in policy
    assert policy["script-src"].startswith("'self' 'nonce-")
