"""Authentication and the read scope (spec: Authentication)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts import ratelimit
from accounts.keys import digest
from accounts.models import ApiKey
from accounts.revocation import revoke_keys
from tests.api.conftest import KEYED_ENDPOINTS
from tests.factories import api_key

pytestmark = pytest.mark.django_db

ENDPOINTS = KEYED_ENDPOINTS


def assert_unauthorized(response, challenge: str) -> None:
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"
    assert response["WWW-Authenticate"] == challenge
    assert "X-RateLimit-Limit" not in response


@pytest.mark.parametrize("url", ENDPOINTS)
def test_no_key_answers_401_with_the_plain_challenge(client: Client, url):
    assert_unauthorized(client.get(url), 'Bearer realm="api"')


@pytest.mark.parametrize(
    "header",
    [
        "Bearer svc_mcp_tooshort",
        "Bearer " + "svc_mcp_" + "A" * 38,  # right length, bad checksum
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "Token abc",
    ],
)
def test_a_malformed_key_answers_401_without_touching_the_database(
    client, django_assert_num_queries, header
):
    with django_assert_num_queries(0):
        response = client.get("/v1/sources", headers={"Authorization": header})
    assert_unauthorized(response, 'Bearer realm="api", error="invalid_token"')


def test_an_unknown_well_formed_key_answers_401(client, account):
    key = api_key(account)
    ApiKey.objects.filter(digest=digest(key)).delete()
    response = client.get("/v1/sources", headers={"Authorization": f"Bearer {key}"})
    assert_unauthorized(response, 'Bearer realm="api", error="invalid_token"')
    assert response.json()["error"]["message"] == "Unknown API key."


def test_a_revoked_key_answers_401_at_once(client, auth, key):
    assert client.get("/v1/sources", headers=auth).status_code == 200  # caches the key
    revoke_keys(ApiKey.objects.filter(digest=digest(key)))
    response = client.get("/v1/sources", headers=auth)
    assert_unauthorized(response, 'Bearer realm="api", error="invalid_token"')
    assert "revoked" in response.json()["error"]["message"]


def test_a_key_revoked_behind_the_apps_back_answers_401_once_its_cached_record_expires(
    client, auth, key, settings
):
    """A raw UPDATE tells no one: the bound is KEY_CACHE_SECONDS (docs/performance.md)."""
    settings.KEY_CACHE_SECONDS = 0.3
    assert client.get("/v1/sources", headers=auth).status_code == 200  # caches the key
    ApiKey.objects.filter(digest=digest(key)).update(revoked_at=timezone.now())
    assert client.get("/v1/sources", headers=auth).status_code == 200  # still cached
    time.sleep(0.35)
    response = client.get("/v1/sources", headers=auth)
    assert_unauthorized(response, 'Bearer realm="api", error="invalid_token"')


def test_an_oauth_token_answers_401_saying_oauth_is_not_accepted(client, db):
    token = settings.OAUTH_TOKEN_PREFIX + "x" * 40
    response = client.get("/v1/sources", headers={"Authorization": f"Bearer {token}"})
    assert_unauthorized(response, 'Bearer realm="api", error="invalid_token"')
    assert "OAuth" in response.json()["error"]["message"]
    assert "not accepted" in response.json()["error"]["message"]


@pytest.mark.parametrize("url", ENDPOINTS)
def test_a_key_without_the_read_scope_answers_403_without_rate_limit_headers(client, account, url):
    key = api_key(account, ["mcp"])
    response = client.get(url, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert "X-RateLimit-Limit" not in response


def test_the_scheme_word_is_case_insensitive(client, key):
    assert client.get("/v1/sources", headers={"Authorization": f"bearer {key}"}).status_code == 200


def test_last_used_at_is_written_at_most_once_a_minute(
    client, auth, key, django_assert_num_queries
):
    row = ApiKey.objects.get(digest=digest(key))
    assert row.last_used_at is None
    client.get("/v1/sources", headers=auth)
    first = ApiKey.objects.get(pk=row.pk).last_used_at
    assert first is not None
    # Cached: the page only, no lookup and no UPDATE.
    with django_assert_num_queries(1):
        client.get("/v1/sources", headers=auth)
    # Looked up again (the cached record expired), but fresh: lookup + page, no UPDATE.
    ratelimit.forget([row.digest])
    with django_assert_num_queries(2):
        client.get("/v1/sources", headers=auth)
    assert ApiKey.objects.get(pk=row.pk).last_used_at == first
    stale = timezone.now() - timedelta(minutes=2)
    ApiKey.objects.filter(pk=row.pk).update(last_used_at=stale)
    ratelimit.forget([row.digest])
    with django_assert_num_queries(3):
        client.get("/v1/sources", headers=auth)
    touched = ApiKey.objects.get(pk=row.pk).last_used_at
    assert touched is not None
    assert touched > stale
