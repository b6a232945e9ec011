"""The OAuth surface: only the code flow with PKCE for public clients, nothing else mounted
or granted, and a replayed authorization code revokes what it was exchanged for."""

from __future__ import annotations

import base64
import hashlib
import importlib
import json
import secrets
from datetime import timedelta
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, RefreshToken

from accounts.models import Account
from mcpserver import oauth
from tests.factories import AccountFactory

pytestmark = pytest.mark.django_db

REDIRECT = "http://127.0.0.1:9/callback"


def _register(client: Client, **metadata: Any) -> Any:
    body = {
        "client_name": "Agent",
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        **metadata,
    }
    body = {k: v for k, v in body.items() if v is not None}
    return client.post("/oauth/register/", json.dumps(body), content_type="application/json")


def _pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.rstrip(b"=").decode()


def _code(client: Client, account: Account, client_id: str, challenge: str) -> str:
    """The owner approves the agent; the authorization code it is sent back."""
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "scope": "mcp",
        "state": "s",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "resource": settings.MCP_RESOURCE_URL,
    }
    client.force_login(account.owner)
    approved = client.post("/oauth/authorize/", {**query, "allow": "Authorize"})
    assert approved.status_code == 302, approved.content
    client.logout()
    return parse_qs(urlsplit(approved["Location"]).query)["code"][0]


def _exchange(client: Client, client_id: str, code: str, verifier: str) -> Any:
    return client.post(
        "/oauth/token/",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )


@pytest.mark.parametrize(
    "grant",
    [
        "password",
        "client_credentials",
        "implicit",
        "urn:ietf:params:oauth:grant-type:device_code",
    ],
)
def test_registration_refuses_every_grant_but_the_code_flow(client: Client, grant: str) -> None:
    answer = _register(client, grant_types=[grant], redirect_uris=[REDIRECT])

    assert answer.status_code == 400
    assert answer.json()["error"] == "invalid_client_metadata"
    assert grant in answer.json()["error_description"]
    assert not Application.objects.exists()


@pytest.mark.parametrize(
    "metadata",
    [
        {"token_endpoint_auth_method": "client_secret_basic"},
        {"token_endpoint_auth_method": None},  # RFC 7591's default: client_secret_basic
        {"response_types": ["token"]},
        {"grant_types": ["authorization_code", "client_credentials"]},
        {"grant_types": ["refresh_token"]},
    ],
)
def test_registration_refuses_confidential_clients_and_other_response_types(
    client: Client, metadata: dict[str, Any]
) -> None:
    answer = _register(client, **metadata)

    assert answer.status_code == 400
    assert answer.json()["error"] == "invalid_client_metadata"
    assert not Application.objects.exists()


def test_a_registered_client_cannot_be_switched_to_another_grant(client: Client) -> None:
    registered = _register(client).json()
    update = client.put(
        registered["registration_client_uri"],
        json.dumps(
            {
                "redirect_uris": [REDIRECT],
                "grant_types": ["client_credentials"],
                "token_endpoint_auth_method": "client_secret_basic",
            }
        ),
        content_type="application/json",
        headers={"Authorization": f"Bearer {registered['registration_access_token']}"},
    )

    assert update.status_code == 400
    assert update.json()["error"] == "invalid_client_metadata"
    app = Application.objects.get(client_id=registered["client_id"])
    assert (app.authorization_grant_type, app.client_type) == ("authorization-code", "public")


@pytest.mark.parametrize("grant", ["client_credentials", "password"])
def test_the_token_endpoint_refuses_other_grants_even_to_a_client_made_for_them(
    client: Client, grant: str
) -> None:
    # As staff could make one in the admin: a confidential client with that very grant.
    account = cast(Account, AccountFactory())
    owner = account.owner
    owner.set_password("pw-for-the-grant")
    owner.save()
    secret = "s3cret-" + secrets.token_urlsafe(8)
    app = Application.objects.create(
        name="by hand",
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=grant.replace("_", "-"),
        client_secret=secret,
        user=owner,
    )

    answer = client.post(
        "/oauth/token/",
        {
            "grant_type": grant,
            "client_id": app.client_id,
            "client_secret": secret,
            "username": owner.username,
            "password": "pw-for-the-grant",
            "scope": "mcp",
        },
    )

    assert answer.status_code == 400
    assert answer.json()["error"] == "unsupported_grant_type"
    assert not AccessToken.objects.filter(application=app).exists()


def test_the_device_grant_at_the_token_endpoint_is_refused_not_a_500(client: Client) -> None:
    answer = client.post(
        "/oauth/token/",
        {"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "client_id": "x"},
    )

    assert answer.status_code == 400
    assert answer.json()["error"] == "unsupported_grant_type"


@pytest.mark.parametrize(
    "path",
    [
        "/oauth/introspect/",
        "/oauth/device-authorization/",
        "/oauth/device/",
        "/oauth/applications/",
        "/oauth/applications/register/",
        "/oauth/authorized_tokens/",
        "/oauth/userinfo/",
        "/oauth/.well-known/openid-configuration",
    ],
)
def test_endpoints_the_code_flow_does_not_need_are_not_mounted(client: Client, path: str) -> None:
    account = cast(Account, AccountFactory())
    client.force_login(account.owner)  # not even for a signed-in owner

    assert client.get(path).status_code == 404
    assert client.post(path, {"client_id": "x", "token": "y"}).status_code == 404


def test_another_clients_token_cannot_be_introspected(client: Client) -> None:
    account = cast(Account, AccountFactory())
    victim = _register(client).json()["client_id"]
    verifier, challenge = _pkce()
    token = _exchange(client, victim, _code(client, account, victim, challenge), verifier).json()
    nosy = _register(client, client_name="Nosy").json()["client_id"]

    answer = client.post("/oauth/introspect/", {"token": token["access_token"], "client_id": nosy})

    assert answer.status_code == 404
    assert account.owner.email not in answer.content.decode()


def test_the_metadata_names_only_the_code_flow(client: Client) -> None:
    metadata = client.get("/.well-known/oauth-authorization-server").json()

    assert metadata["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert metadata["response_types_supported"] == ["code"]
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["token_endpoint_auth_methods_supported"] == ["none"]
    assert {
        "authorization_endpoint",
        "token_endpoint",
        "revocation_endpoint",
        "registration_endpoint",
    } <= set(metadata)
    assert "introspection_endpoint" not in metadata
    assert "device_authorization_endpoint" not in metadata


def test_authorization_without_pkce_is_refused(client: Client) -> None:
    account = cast(Account, AccountFactory())
    client_id = _register(client).json()["client_id"]
    client.force_login(account.owner)

    answer = client.get(
        "/oauth/authorize/",
        {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT},
    )

    assert answer.status_code == 302
    assert parse_qs(urlsplit(answer["Location"]).query)["error"] == ["invalid_request"]


def test_a_replayed_code_is_refused_and_revokes_the_tokens_it_gave(client: Client) -> None:
    account = cast(Account, AccountFactory())
    client_id = _register(client).json()["client_id"]
    verifier, challenge = _pkce()
    code = _code(client, account, client_id, challenge)

    first = _exchange(client, client_id, code, verifier)
    assert first.status_code == 200
    tokens = first.json()
    assert oauth.verify(tokens["access_token"]) is not None
    # The first client refreshes once: the rotated tokens descend from the same code.
    refreshed = client.post(
        "/oauth/token/",
        {
            "grant_type": "refresh_token",
            "refresh_token": tokens["refresh_token"],
            "client_id": client_id,
        },
    )
    assert refreshed.status_code == 200
    rotated = refreshed.json()
    assert oauth.verify(rotated["access_token"]) is not None

    replay = _exchange(client, client_id, code, verifier)

    assert replay.status_code == 400
    assert replay.json()["error"] == "invalid_grant"
    assert oauth.verify(tokens["access_token"]) is None
    assert oauth.verify(rotated["access_token"]) is None
    assert not AccessToken.objects.filter(user=account.owner).exists()
    assert not RefreshToken.objects.filter(
        application__client_id=client_id, revoked__isnull=True
    ).exists()
    again = client.post(
        "/oauth/token/",
        {
            "grant_type": "refresh_token",
            "refresh_token": rotated["refresh_token"],
            "client_id": client_id,
        },
    )
    assert again.status_code == 400


def test_a_wrong_code_revokes_nothing(client: Client) -> None:
    account = cast(Account, AccountFactory())
    client_id = _register(client).json()["client_id"]
    verifier, challenge = _pkce()
    tokens = _exchange(client, client_id, _code(client, account, client_id, challenge), verifier)

    wrong = _exchange(client, client_id, "not-a-code", verifier)

    assert wrong.status_code == 400
    assert oauth.verify(tokens.json()["access_token"]) is not None


def test_tokens_other_grants_gave_before_are_revoked_by_the_migration() -> None:
    account = cast(Account, AccountFactory())
    made = {}
    for grant in ("password", "client-credentials", "authorization-code"):
        app = Application.objects.create(
            name=grant,
            client_type=Application.CLIENT_PUBLIC,
            authorization_grant_type=grant,
            redirect_uris=REDIRECT,
        )
        token = AccessToken.objects.create(
            user=account.owner,
            application=app,
            token=f"{settings.OAUTH_TOKEN_PREFIX}{grant}",
            expires=timezone.now() + timedelta(hours=1),
            scope="mcp",
            resource=[settings.MCP_RESOURCE_URL],
        )
        made[grant] = token.pk
    migration = importlib.import_module("accounts.migrations.0003_used_authorization_code")

    migration.revoke_other_grants(apps, None)

    assert list(AccessToken.objects.values_list("pk", flat=True)) == [made["authorization-code"]]
    assert Application.objects.count() == 3  # the clients stay, refused everything
