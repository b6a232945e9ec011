"""Rate-limit headers on /v1 answers, across a window (spec: Limits)."""

from __future__ import annotations

import time

import pytest
import redis
from django.http import HttpResponseBase
from django.test import Client, override_settings

from accounts import keys, ratelimit
from accounts.models import Account, ApiKey

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_key(account: Account) -> tuple[ApiKey, dict[str, str]]:
    row, plaintext = keys.mint_key(account=account, name="small", scopes=["read"])
    ApiKey.objects.filter(pk=row.pk).update(rate_limit=3)
    return row, {"Authorization": f"Bearer {plaintext}"}


def _limits(response: HttpResponseBase) -> tuple[str | None, str | None, str | None]:
    return (
        response.get("X-RateLimit-Limit"),
        response.get("X-RateLimit-Remaining"),
        response.get("X-RateLimit-Reset"),
    )


def test_headers_count_down_a_window_then_429(
    client: Client, small_key: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    row, auth = small_key
    seen = []
    for _ in range(3):
        response = client.get("/v1/sources", headers=auth)
        assert response.status_code == 200
        seen.append(_limits(response))
    assert seen == [("3", "2", "60"), ("3", "1", "60"), ("3", "0", "60")]

    refused = client.get("/v1/sources", headers=auth)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert _limits(refused) == ("3", "0", "60")
    assert refused["Retry-After"] == "60"

    # Late in the window: Reset and Retry-After are whole seconds, rounded up.
    limiter_redis.pexpire(ratelimit.counter_name(row.digest), 1_200)
    late = client.get("/v1/sources", headers=auth)
    assert late.status_code == 429
    assert _limits(late) == ("3", "0", "2")
    assert late["Retry-After"] == "2"

    limiter_redis.pexpire(ratelimit.counter_name(row.digest), 300)
    last = client.get("/v1/sources", headers=auth)
    assert (last.status_code, last["Retry-After"], last["X-RateLimit-Reset"]) == (429, "1", "1")

    # The window ends: a new one starts with this request.
    time.sleep(0.35)
    fresh = client.get("/v1/sources", headers=auth)
    assert fresh.status_code == 200
    assert _limits(fresh) == ("3", "2", "60")


@override_settings(RATE_LIMIT_WINDOW_SECONDS=1)
def test_a_real_window_rolls_over(
    client: Client, small_key: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    _, auth = small_key
    statuses = [client.get("/v1/sources", headers=auth).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    time.sleep(1.05)
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert _limits(response) == ("3", "2", "1")


def test_the_default_is_300(
    client: Client, auth: dict[str, str], limiter_redis: redis.Redis
) -> None:
    response = client.get("/v1/sources", headers=auth)
    assert _limits(response) == ("300", "299", "60")


def test_400_and_404_are_counted_and_carry_the_headers(
    client: Client, small_key: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    _, auth = small_key
    bad = client.get("/v1/sources?limit=abc", headers=auth)
    assert bad.status_code == 400
    assert _limits(bad) == ("3", "2", "60")
    missing = client.get("/v1/sources/src_00000000000/entries", headers=auth)
    assert missing.status_code == 404
    assert _limits(missing) == ("3", "1", "60")


def test_401_403_and_openapi_carry_no_headers_and_are_not_counted(
    client: Client, account: Account, limiter_redis: redis.Redis
) -> None:
    _, mcp_only = keys.mint_key(account=account, name="mcp", scopes=["mcp"])
    answers = [
        client.get("/v1/sources"),
        client.get("/v1/sources", headers={"Authorization": f"Bearer {keys.generate_key()}"}),
        client.get("/v1/sources", headers={"Authorization": f"Bearer {mcp_only}"}),
        client.get("/v1/openapi.json"),
    ]
    assert [a.status_code for a in answers] == [401, 401, 403, 200]
    for answer in answers:
        assert _limits(answer) == (None, None, None)
        assert "Retry-After" not in answer
    assert limiter_redis.keys("rl:*") == []


@override_settings(RATE_LIMIT_REDIS_URL="redis://127.0.0.1:9/0")
def test_an_unreachable_limiter_serves_without_headers(
    client: Client, auth: dict[str, str]
) -> None:
    ratelimit.reset()
    try:
        for _ in range(3):
            response = client.get("/v1/sources", headers=auth)
            assert response.status_code == 200
            assert _limits(response) == (None, None, None)
    finally:
        ratelimit.reset()
