"""API keys: format and checksum, storage, and their use on the API (spec: Authentication)."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import timedelta

import pytest
import redis
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import keys, ratelimit
from accounts.models import Account, ApiKey
from accounts.revocation import revoke_keys

pytestmark = pytest.mark.django_db

PREFIX = "svc_mcp_"


def test_keys_carry_the_prefix_160_random_bits_and_a_checksum() -> None:
    key = keys.generate_key()
    assert key.startswith(PREFIX)
    body = key[len(PREFIX) :]
    assert len(body) == keys.RANDOM_LENGTH + keys.CHECKSUM_LENGTH
    assert set(body) <= set(keys.ALPHABET)
    assert keys.RANDOM_LENGTH * math.log2(len(keys.ALPHABET)) >= 160
    assert keys.is_well_formed(key)


def test_keys_are_unique() -> None:
    assert len({keys.generate_key() for _ in range(2000)}) == 2000


@pytest.mark.parametrize(
    "mangle",
    [
        lambda k: k[:-1] + ("A" if k[-1] != "A" else "B"),  # checksum typo
        lambda k: k[:12] + ("x" if k[12] != "x" else "y") + k[13:],  # body typo
        lambda k: k[:-1],  # too short
        lambda k: k + "0",  # too long
        lambda k: k.replace(PREFIX, "svc_oat_"),  # another prefix
        lambda k: k[:20] + "-" + k[21:],  # outside the alphabet
        lambda k: "",
    ],
)
def test_a_mangled_key_is_not_well_formed(mangle: Callable[[str], str]) -> None:
    assert not keys.is_well_formed(mangle(keys.generate_key()))


def test_only_a_digest_and_a_display_prefix_are_stored(account: Account) -> None:
    row, plaintext = keys.mint_key(account=account, name="n", scopes=["read"])
    assert row.digest == keys.digest(plaintext)
    assert len(row.digest) == 64
    assert row.prefix == plaintext[: len(PREFIX) + keys.DISPLAY_LENGTH]
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_apikey WHERE id = %s", [row.pk])
        stored = cursor.fetchone()
    assert stored is not None
    assert not any(isinstance(value, str) and plaintext in value for value in stored)


@pytest.mark.parametrize(
    "header",
    [
        "Bearer svc_mcp_tooshort",
        "Bearer svc_oat_0123456789abcdefghijABCDEFGHIJ012345",
        "Token abc",
        "Bearer ",
    ],
)
def test_malformed_keys_are_refused_before_any_query(
    client: Client, header: str, django_assert_num_queries
) -> None:
    with django_assert_num_queries(0):
        response = client.get("/v1/sources", headers={"Authorization": header})
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"
    assert "X-RateLimit-Limit" not in response


def test_a_checksum_typo_is_refused_before_any_query(
    client: Client, key: str, django_assert_num_queries
) -> None:
    typo = key[:-1] + ("A" if key[-1] != "A" else "B")
    with django_assert_num_queries(0):
        response = client.get("/v1/sources", headers={"Authorization": f"Bearer {typo}"})
    assert response.status_code == 401


def test_a_well_formed_unknown_key_costs_one_lookup(
    client: Client, db: None, django_assert_num_queries
) -> None:
    with django_assert_num_queries(1):
        response = client.get(
            "/v1/sources", headers={"Authorization": f"Bearer {keys.generate_key()}"}
        )
    assert response.status_code == 401


def test_revocation_takes_effect_on_the_next_request(
    client: Client, account: Account, limiter_redis: redis.Redis
) -> None:
    row, plaintext = keys.mint_key(account=account, name="n", scopes=["read"])
    auth = {"Authorization": f"Bearer {plaintext}"}
    assert client.get("/v1/sources", headers=auth).status_code == 200
    revoke_keys(ApiKey.objects.filter(pk=row.pk))
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"


def test_last_used_is_written_at_most_once_a_minute(
    client: Client, account: Account, limiter_redis: redis.Redis
) -> None:
    row, plaintext = keys.mint_key(account=account, name="n", scopes=["read"])
    auth = {"Authorization": f"Bearer {plaintext}"}

    def writes() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/v1/sources", headers=auth).status_code == 200
        return sum(1 for q in captured if q["sql"].lstrip().upper().startswith("UPDATE"))

    assert writes() == 1
    row.refresh_from_db()
    first = row.last_used_at
    assert first is not None
    assert [writes() for _ in range(5)] == [0] * 5
    row.refresh_from_db()
    assert row.last_used_at == first

    # A minute later (the key's cached record long expired), the next request records the
    # use again.
    ApiKey.objects.filter(pk=row.pk).update(last_used_at=first - timedelta(seconds=61))
    limiter_redis.delete(ratelimit.record_name(row.digest))
    assert writes() == 1
    row.refresh_from_db()
    assert row.last_used_at is not None
    assert row.last_used_at > first - timedelta(seconds=1)
    assert row.last_used_at <= timezone.now()


def test_a_key_without_the_read_scope_is_forbidden_and_not_counted(
    client: Client, account: Account, limiter_redis: redis.Redis
) -> None:
    _, plaintext = keys.mint_key(account=account, name="agent only", scopes=["mcp"])
    response = client.get("/v1/sources", headers={"Authorization": f"Bearer {plaintext}"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert "X-RateLimit-Limit" not in response
    assert limiter_redis.keys("rl:*") == []
