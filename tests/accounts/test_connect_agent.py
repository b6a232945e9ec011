"""The owner's /connect-agent page: list, create (shown once), revoke after confirmation."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application

from accounts.keys import digest, is_well_formed, mint_key
from accounts.models import Account, ApiKey
from accounts.views import SESSION_NEW_KEY
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

KEY_RE = re.compile(r"svc_mcp_[0-9A-Za-z]{38}")


def _create(client: Client, name: str = "laptop agent", scopes: list[str] | None = None):
    return client.post("/connect-agent/keys", {"name": name, "scopes": scopes or ["read"]})


def test_it_sends_anonymous_visitors_to_sign_in(client: Client) -> None:
    response = client.get("/connect-agent")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=/connect-agent")


def test_it_lists_only_the_owners_keys(
    owner_client: Client, account: Account, other_account: Account
) -> None:
    mint_key(account=account, name="mine", scopes=["read"])
    mint_key(account=other_account, name="theirs", scopes=["read", "mcp"])
    response = owner_client.get("/connect-agent")
    assert response.status_code == 200
    body = response.content.decode()
    assert "mine" in body
    assert "theirs" not in body
    assert list(response.context["keys"].values_list("name", flat=True)) == ["mine"]


def test_it_shows_each_keys_details(owner_client: Client, account: Account) -> None:
    row, _ = mint_key(account=account, name="nightly", scopes=["read", "mcp"])
    ApiKey.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
    revoked, _ = mint_key(account=account, name="old one", scopes=["read"])
    ApiKey.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    body = owner_client.get("/connect-agent").content.decode()
    assert f"{row.prefix}…" in body
    assert '<span class="tag">mcp</span>' in body
    assert "Active" in body
    assert "Revoked" in body
    assert "Never" not in body.split(f'id="key-{row.pk}"')[1].split("</tr>")[0]


def test_it_creates_a_key_and_shows_it_exactly_once(owner_client: Client, account: Account) -> None:
    response = _create(owner_client, scopes=["read", "mcp"])
    assert response.status_code == 302
    assert response["Location"] == "/connect-agent"  # no secret in the URL

    first = owner_client.get("/connect-agent")
    assert first["Cache-Control"].startswith("max-age=0")
    assert "no-store" in first["Cache-Control"]
    found = KEY_RE.findall(first.content.decode())
    assert found, "the new key must be on the page"
    plaintext = found[0]
    assert is_well_formed(plaintext)
    assert (
        f'curl -H "Authorization: Bearer {plaintext}" http://testserver/v1/sources'
        in first.content.decode()
    )
    assert 'data-copy="#new-key-value"' in first.content.decode()

    row = ApiKey.objects.get(account=account)
    assert row.name == "laptop agent"
    assert row.scopes == ["mcp", "read"]
    assert row.digest == digest(plaintext)
    assert plaintext.startswith(row.prefix)
    assert plaintext not in (row.prefix, row.name, row.digest)

    second = owner_client.get("/connect-agent")
    assert KEY_RE.findall(second.content.decode()) == []
    assert SESSION_NEW_KEY not in owner_client.session


def test_it_refuses_a_key_without_scopes(owner_client: Client, account: Account) -> None:
    response = owner_client.post("/connect-agent/keys", {"name": "no scopes"})
    assert response.status_code == 400
    assert "Choose at least one scope." in response.content.decode()
    assert not ApiKey.objects.filter(account=account).exists()


def test_it_refuses_an_unknown_scope(owner_client: Client, account: Account) -> None:
    response = _create(owner_client, scopes=["admin"])
    assert response.status_code == 400
    assert not ApiKey.objects.filter(account=account).exists()


def test_it_refuses_a_blank_name(owner_client: Client, account: Account) -> None:
    response = _create(owner_client, name="   ")
    assert response.status_code == 400
    assert not ApiKey.objects.filter(account=account).exists()


def test_create_only_accepts_post(owner_client: Client) -> None:
    assert owner_client.get("/connect-agent/keys").status_code == 405


def test_forms_need_a_csrf_token(account: Account) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(account.owner)
    assert strict.post("/connect-agent/keys", {"name": "x", "scopes": ["read"]}).status_code == 403
    row, _ = mint_key(account=account, name="keep")
    assert strict.post(f"/connect-agent/keys/{row.pk}/revoke").status_code == 403
    row.refresh_from_db()
    assert row.revoked_at is None
    page = strict.get("/connect-agent").content.decode()
    assert page.count('name="csrfmiddlewaretoken"') == 2  # log out + create


def test_revoke_asks_for_confirmation_first(owner_client: Client, account: Account) -> None:
    row, _ = mint_key(account=account, name="doomed")
    response = owner_client.get(f"/connect-agent/keys/{row.pk}/revoke")
    assert response.status_code == 200
    assert "Revoke key “doomed”?" in response.content.decode()
    row.refresh_from_db()
    assert row.revoked_at is None


def test_revoke_then_redirects_to_the_list(owner_client: Client, account: Account) -> None:
    row, _ = mint_key(account=account, name="doomed")
    response = owner_client.post(f"/connect-agent/keys/{row.pk}/revoke")
    assert response.status_code == 302
    assert response["Location"] == "/connect-agent"
    row.refresh_from_db()
    assert row.revoked_at is not None
    page = owner_client.get("/connect-agent").content.decode()
    assert "Key “doomed” was revoked." in page


def test_revoking_twice_keeps_the_first_time(owner_client: Client, account: Account) -> None:
    row, _ = mint_key(account=account, name="doomed")
    owner_client.post(f"/connect-agent/keys/{row.pk}/revoke")
    row.refresh_from_db()
    first = row.revoked_at
    owner_client.post(f"/connect-agent/keys/{row.pk}/revoke")
    row.refresh_from_db()
    assert row.revoked_at == first


def test_another_accounts_key_is_not_found(owner_client: Client, other_account: Account) -> None:
    theirs, _ = mint_key(account=other_account, name="theirs")
    assert owner_client.get(f"/connect-agent/keys/{theirs.pk}/revoke").status_code == 404
    assert owner_client.post(f"/connect-agent/keys/{theirs.pk}/revoke").status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None


def test_a_user_without_an_account_gets_a_clear_message(client: Client) -> None:
    client.force_login(cast(User, UserFactory(username="drifter@example.com")))
    response = client.get("/connect-agent")
    assert response.status_code == 403
    assert "No account is linked to your user" in response.content.decode()
    assert client.post("/connect-agent/keys", {"name": "x", "scopes": ["read"]}).status_code == 403
    assert not ApiKey.objects.exists()


def test_the_list_costs_a_fixed_number_of_queries(
    owner_client: Client, account: Account, django_assert_max_num_queries
) -> None:
    for n in range(20):
        mint_key(account=account, name=f"key {n}")
    expires = timezone.now() + timedelta(hours=1)
    for n in range(5):
        app = Application.objects.create(
            name=f"agent {n}",
            client_type=Application.CLIENT_PUBLIC,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris="http://127.0.0.1:9/cb",
        )
        AccessToken.objects.create(
            user=account.owner, application=app, token=f"svc_oat_test{n}", expires=expires
        )
    # session, user, account, keys, approved agents
    with django_assert_max_num_queries(5):
        response = owner_client.get("/connect-agent")
    assert len(response.context["keys"]) == 20
    assert len(response.context["agents"]) == 5


def test_form_errors_are_tied_to_their_fields(owner_client: Client) -> None:
    body = owner_client.post("/connect-agent/keys", {"name": ""}).content.decode()
    assert 'aria-invalid="true"' in body
    assert 'aria-describedby="id_name_helptext id_name_error"' in body
    assert '<div id="id_name_error"><p class="field-error">This field is required.</p>' in body
    assert '<div id="id_scopes_error">' in body


def test_a_new_key_carries_read_and_mcp_by_default_and_shows_the_mcp_configuration(
    owner_client: Client, settings: Any
) -> None:
    page = owner_client.get("/connect-agent")
    assert page.context["form"].fields["scopes"].initial == ["read", "mcp"]

    _create(owner_client, "agent", ["read", "mcp"])
    shown = owner_client.get("/connect-agent").content.decode()

    assert f'"url": "{settings.MCP_RESOURCE_URL}"' in shown
    assert '"Authorization": "Bearer svc_mcp_' in shown
