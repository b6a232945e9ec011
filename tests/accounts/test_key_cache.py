"""API keys cached in Redis: one round trip per request, and never stale after a change.

The record of a key is cached after its first database lookup and counted in the same Lua
call; revoking, editing or deleting the key replaces it with a tombstone, which the cache
fill (SET NX) cannot overwrite.
"""

from __future__ import annotations

import pytest
import redis
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import keys, ratelimit
from accounts.models import Account, ApiKey
from accounts.revocation import revoke_keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def minted(account: Account, limiter_redis: redis.Redis) -> tuple[ApiKey, dict[str, str]]:
    row, plaintext = keys.mint_key(account=account, name="cached", scopes=["read"])
    return row, {"Authorization": f"Bearer {plaintext}"}


def _key_lookups(client: Client, auth: dict[str, str], expect: int = 200) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/v1/sources", headers=auth).status_code == expect
    return sum(1 for q in captured if "accounts_apikey" in q["sql"])


def test_a_key_is_looked_up_once_then_served_from_redis(
    client: Client, minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    row, auth = minted
    assert _key_lookups(client, auth) == 2  # the lookup, and the first last_used_at write
    record = limiter_redis.get(ratelimit.record_name(row.digest))
    assert record == f"1|{row.pk}|{row.account_id}||read".encode()
    assert 0 < limiter_redis.pttl(ratelimit.record_name(row.digest)) <= 10_000
    assert [_key_lookups(client, auth) for _ in range(3)] == [0, 0, 0]
    # Counted in the same round trip: four requests, four hits on the key's counter.
    assert limiter_redis.get(ratelimit.counter_name(row.digest)) == b"4"


def test_revocation_replaces_the_cached_record_with_a_tombstone(
    client: Client, minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    row, auth = minted
    client.get("/v1/sources", headers=auth)
    assert revoke_keys(ApiKey.objects.filter(pk=row.pk)) == 1
    assert limiter_redis.get(ratelimit.record_name(row.digest)) == b"-"
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 401
    # The refused request was not counted, and did not cache the revoked key.
    assert limiter_redis.get(ratelimit.counter_name(row.digest)) == b"1"
    assert limiter_redis.get(ratelimit.record_name(row.digest)) == b"-"


def test_revocation_forgets_the_key_again_when_the_transaction_commits(
    minted: tuple[ApiKey, dict[str, str]],
    limiter_redis: redis.Redis,
    django_capture_on_commit_callbacks,
) -> None:
    row, _ = minted
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        revoke_keys(ApiKey.objects.filter(pk=row.pk))
    # A request that read the key before the commit tries to cache it: the tombstone wins.
    assert ratelimit.fill(row.digest, f"1|{row.pk}|{row.account_id}||read", None) is not None
    assert limiter_redis.get(ratelimit.record_name(row.digest)) == b"-"
    limiter_redis.set(ratelimit.record_name(row.digest), "1|stale")  # as if it had expired
    assert len(callbacks) == 1
    callbacks[0]()
    assert limiter_redis.get(ratelimit.record_name(row.digest)) == b"-"


def test_editing_the_scopes_applies_on_the_next_request(
    client: Client, minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    row, auth = minted
    assert client.get("/v1/sources", headers=auth).status_code == 200
    row.scopes = ["mcp"]
    row.save()
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 403
    assert "X-RateLimit-Limit" not in response
    assert limiter_redis.get(ratelimit.counter_name(row.digest)) == b"1"  # 403: not counted


def test_a_cached_key_without_the_read_scope_is_refused_and_never_counted(
    client: Client, account: Account, limiter_redis: redis.Redis
) -> None:
    row, plaintext = keys.mint_key(account=account, name="mcp only", scopes=["mcp"])
    auth = {"Authorization": f"Bearer {plaintext}"}
    assert client.get("/v1/sources", headers=auth).status_code == 403
    assert limiter_redis.get(ratelimit.record_name(row.digest)) == (
        f"0|{row.pk}|{row.account_id}||mcp".encode()
    )
    response = client.get("/v1/sources", headers=auth)  # served from the cache
    assert response.status_code == 403
    assert limiter_redis.get(ratelimit.counter_name(row.digest)) is None


def test_a_new_rate_limit_applies_on_the_next_request(
    client: Client, minted: tuple[ApiKey, dict[str, str]]
) -> None:
    row, auth = minted
    assert client.get("/v1/sources", headers=auth)["X-RateLimit-Limit"] == "300"
    row.rate_limit = 5
    row.save()
    response = client.get("/v1/sources", headers=auth)
    assert (response["X-RateLimit-Limit"], response["X-RateLimit-Remaining"]) == ("5", "3")


def test_deleting_a_key_applies_on_the_next_request(
    client: Client, minted: tuple[ApiKey, dict[str, str]]
) -> None:
    row, auth = minted
    client.get("/v1/sources", headers=auth)
    row.delete()
    assert client.get("/v1/sources", headers=auth).status_code == 401


def test_deleting_the_account_applies_on_the_next_request(
    client: Client, account: Account, minted: tuple[ApiKey, dict[str, str]]
) -> None:
    _, auth = minted
    client.get("/v1/sources", headers=auth)
    account.delete()
    assert client.get("/v1/sources", headers=auth).status_code == 401


def test_with_the_limiter_off_keys_are_cached_but_nothing_is_counted(
    client: Client, minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis, settings
) -> None:
    settings.RATE_LIMIT_ENABLED = False
    row, auth = minted
    assert [_key_lookups(client, auth) for _ in range(3)] == [2, 0, 0]
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert "X-RateLimit-Limit" not in response
    assert limiter_redis.get(ratelimit.counter_name(row.digest)) is None


def test_a_dead_redis_falls_back_to_the_database_uncounted(
    client: Client, minted: tuple[ApiKey, dict[str, str]], settings
) -> None:
    settings.RATE_LIMIT_REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens there
    ratelimit.reset()
    _, auth = minted
    try:
        for _ in range(2):
            assert _key_lookups(client, auth) >= 1
        response = client.get("/v1/sources", headers=auth)
        assert response.status_code == 200
        assert "X-RateLimit-Limit" not in response
    finally:
        ratelimit.reset()


def test_peek_and_keep_read_and_fill_the_cache_without_counting(
    minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    """The MCP server's pair: it counts tool calls itself, not every request."""
    row, _ = minted
    record = f"1|{row.pk}|{row.account_id}||read"
    assert ratelimit.peek(row.digest) is None  # a miss
    ratelimit.keep(row.digest, record)
    assert ratelimit.peek(row.digest) == record
    assert 0 < limiter_redis.pttl(ratelimit.record_name(row.digest)) <= 10_000
    assert limiter_redis.get(ratelimit.counter_name(row.digest)) is None


def test_keep_never_replaces_a_tombstone(
    minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    row, _ = minted
    assert revoke_keys(ApiKey.objects.filter(pk=row.pk)) == 1
    ratelimit.keep(row.digest, f"1|{row.pk}|{row.account_id}||read")  # a stale read
    assert ratelimit.peek(row.digest) is None
    assert limiter_redis.get(ratelimit.record_name(row.digest)) == b"-"
