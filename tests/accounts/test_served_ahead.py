"""A known key is served while Redis answers, and settled before any of the answer leaves.

Once a process has read a key's record from Redis, the next request sends the limiter's
script, builds its page on that record and reads Redis's answer afterwards
(`accounts.authentication`, `history.api.views.ReadViewSet._settle`). These tests pin what
must still hold: the answer is read after the page query, every verdict of the answer wins
over the page (401, 403, 429), a spent window stops the speculation, an answer left unread
is never taken for another command's, and a dead Redis still serves uncounted.
"""

from __future__ import annotations

from typing import Any, cast
from unittest import mock

import pytest
import redis
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from accounts import keys, ratelimit
from accounts.authentication import ApiKeyAuthentication
from accounts.models import Account, ApiKey
from accounts.revocation import revoke_keys
from tests.factories import AccountFactory, SourceFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def minted(account: Account, limiter_redis: redis.Redis) -> tuple[ApiKey, dict[str, str]]:
    row, plaintext = keys.mint_key(account=account, name="ahead", scopes=["read"])
    return row, {"Authorization": f"Bearer {plaintext}"}


def _known(row: ApiKey) -> str | None:
    return ratelimit.known(row.digest)


def test_the_answer_is_read_after_the_page_query(
    client: Client, minted: tuple[ApiKey, dict[str, str]]
) -> None:
    row, auth = minted
    assert client.get("/v1/sources", headers=auth).status_code == 200  # plain: learns it
    assert _known(row) == f"1|{row.pk}|{row.account_id}||read"
    reads: list[int] = []
    get = ratelimit.Reply.get

    def recording_get(reply: ratelimit.Reply) -> Any:
        reads.append(len(captured.captured_queries))
        return get(reply)

    with (
        CaptureQueriesContext(connection) as captured,
        mock.patch.object(ratelimit.Reply, "get", recording_get),
    ):
        response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert response["X-RateLimit-Remaining"] == "298"  # both requests counted, once each
    assert reads == [1]  # one answer, read once the page query had run
    assert "history_source" in captured.captured_queries[0]["sql"]


def test_a_key_revoked_meanwhile_answers_401_and_no_page(
    client: Client, minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    row, auth = minted
    SourceFactory(account=row.account, name="Secret source")
    assert client.get("/v1/sources", headers=auth).status_code == 200
    revoke_keys(ApiKey.objects.filter(pk=row.pk))
    assert _known(row) is not None  # this process still believes in the key
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"
    assert b"Secret source" not in response.content
    assert "X-RateLimit-Limit" not in response
    assert limiter_redis.get(ratelimit.counter_name(row.digest)) == b"1"  # not counted
    assert _known(row) is None


def test_a_scope_taken_away_meanwhile_answers_403(
    client: Client, minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    row, auth = minted
    assert client.get("/v1/sources", headers=auth).status_code == 200
    ApiKey.objects.filter(pk=row.pk).update(scopes=["mcp"])  # no signal: the cache is stale
    limiter_redis.set(ratelimit.record_name(row.digest), f"0|{row.pk}|{row.account_id}||mcp")
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 403
    assert "X-RateLimit-Limit" not in response
    assert limiter_redis.get(ratelimit.counter_name(row.digest)) == b"1"
    assert _known(row) is None


def test_a_spent_window_answers_429_then_stops_reaching_the_page(
    client: Client, account: Account, limiter_redis: redis.Redis
) -> None:
    row, plaintext = keys.mint_key(account=account, name="two", scopes=["read"])
    ApiKey.objects.filter(pk=row.pk).update(rate_limit=2)
    auth = {"Authorization": f"Bearer {plaintext}"}
    assert [client.get("/v1/sources", headers=auth).status_code for _ in range(2)] == [200, 200]
    # Served ahead: the page is built, then Redis's count refuses it.
    refused = client.get("/v1/sources?limit=abc", headers=auth)  # a 400 loses to the 429
    assert refused.status_code == 429
    assert (refused["X-RateLimit-Remaining"], refused["Retry-After"]) == ("0", "60")
    assert _known(row) is None  # the window is spent: no more serving ahead in it
    with CaptureQueriesContext(connection) as captured:
        again = client.get("/v1/sources", headers=auth)
    assert again.status_code == 429
    assert not [q for q in captured.captured_queries if "history_source" in q["sql"]]
    # When the window ends, the key is served ahead again.
    limiter_redis.delete(ratelimit.counter_name(row.digest))
    with mock.patch("time.monotonic", return_value=10.0**9):
        assert client.get("/v1/sources", headers=auth).status_code == 200
        assert _known(row) is not None


def test_a_key_of_another_account_than_believed_gets_that_accounts_page(
    client: Client, minted: tuple[ApiKey, dict[str, str]], limiter_redis: redis.Redis
) -> None:
    row, auth = minted
    SourceFactory(account=row.account, name="Believed")
    other = cast(Account, AccountFactory())
    SourceFactory(account=other, name="Actual")
    assert client.get("/v1/sources", headers=auth).json()["data"][0]["name"] == "Believed"
    # The database edited by hand, and the cache refilled: Redis now knows better.
    limiter_redis.set(ratelimit.record_name(row.digest), f"1|{row.pk}|{other.pk}||read")
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert [s["name"] for s in response.json()["data"]] == ["Actual"]
    assert response["X-RateLimit-Remaining"] == "298"


def test_a_request_stopped_midway_leaves_no_answer_behind_for_the_next(
    client: Client, minted: tuple[ApiKey, dict[str, str]]
) -> None:
    """A worker's timeout can stop a request anywhere (gunicorn raises SystemExit), so its
    answer may never be read; the next request on the connection must read its own."""
    _, auth = minted
    assert client.get("/v1/sources", headers=auth).status_code == 200
    with (
        mock.patch("history.selectors.sources_page", side_effect=SystemExit(1)),
        pytest.raises(SystemExit),
    ):
        client.get("/v1/sources", headers=auth)
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert response["X-RateLimit-Remaining"] == "297"  # the stopped request was counted


def test_an_error_is_settled_like_a_page(
    client: Client, minted: tuple[ApiKey, dict[str, str]]
) -> None:
    _, auth = minted
    assert client.get("/v1/sources", headers=auth).status_code == 200
    client.raise_request_exception = False
    with mock.patch("history.selectors.sources_page", side_effect=RuntimeError("boom")):
        failed = client.get("/v1/sources", headers=auth)
    assert failed.status_code == 500
    assert failed.json()["error"]["code"] == "internal"
    assert "X-RateLimit-Remaining" not in failed  # a 500 carries none (spec: Limits, 1)
    # Its answer was read when the error was answered; the next request reads its own.
    assert client.get("/v1/sources", headers=auth)["X-RateLimit-Remaining"] == "297"


def test_an_unread_answer_is_not_taken_for_a_later_command(limiter_redis: redis.Redis) -> None:
    first = ratelimit.authenticate("a" * 64)
    assert first is not None
    result = ratelimit.hit("later", 10)  # sent while the first answer waits
    assert result is not None
    assert result.remaining == 9
    assert ratelimit.cached(first) is None  # lost, not confused with the hit's answer
    again = ratelimit.hit("later", 10)
    assert again is not None
    assert again.remaining == 8


def test_redis_failing_before_it_answers_serves_uncounted(
    client: Client, minted: tuple[ApiKey, dict[str, str]]
) -> None:
    _, auth = minted
    assert client.get("/v1/sources", headers=auth).status_code == 200
    limiter = ratelimit._get_limiter()
    assert limiter is not None
    with (
        mock.patch.object(limiter, "_read", side_effect=redis.TimeoutError),
        CaptureQueriesContext(connection) as captured,
    ):
        response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert "X-RateLimit-Limit" not in response  # unknown, never zero
    assert any("accounts_apikey" in q["sql"] for q in captured.captured_queries)
    ratelimit.reset()


def test_views_that_do_not_settle_are_never_served_ahead(
    minted: tuple[ApiKey, dict[str, str]],
) -> None:
    row, auth = minted
    assert ratelimit._get_limiter() is not None
    ratelimit.remember(row.digest, f"1|{row.pk}|{row.account_id}||read", None)
    assert _known(row) is not None
    request = APIView().initialize_request(
        APIRequestFactory().get("/", HTTP_AUTHORIZATION=auth["Authorization"])
    )
    result = ApiKeyAuthentication().authenticate(request)
    assert result is not None
    assert result[1].reply is None  # resolved at once: counted, its window known
    assert result[1].ratelimit is not None
