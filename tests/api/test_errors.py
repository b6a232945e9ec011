"""The envelope on every /v1 failure, methods, OPTIONS/CORS and rate-limit headers."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import ApiKey
from history import selectors
from tests.api.conftest import KEYED_ENDPOINTS, History

pytestmark = pytest.mark.django_db

PATHS = [
    *KEYED_ENDPOINTS,
    "/v1/openapi.json",
    "/v1/no/such/thing",
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "head", "trace"])
def test_other_methods_answer_405_before_authentication(client: Client, path, method):
    response = client.generic(method.upper(), path)
    assert response.status_code == 405
    assert response["Allow"] == "GET, OPTIONS"
    if method != "head":  # a HEAD answer has no body
        assert response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize("path", PATHS)
def test_options_answers_without_a_key(client, path):
    response = client.options(path)
    assert response.status_code == 200
    assert response["Allow"] == "GET, OPTIONS"


@pytest.mark.parametrize("path", PATHS)
def test_cors_preflight_is_answered_without_a_key(client, path):
    response = client.options(
        path,
        headers={
            "Origin": "https://app.example.org",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization",
        },
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "authorization" in response["Access-Control-Allow-Headers"]


def test_cors_exposes_the_rate_limit_headers(client, auth):
    response = client.get("/v1/sources", headers={**auth, "Origin": "https://app.example.org"})
    exposed = response["Access-Control-Expose-Headers"]
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"):
        assert name in exposed


@pytest.mark.parametrize("path", ["/v1/nothing", "/v1/", "/v1/sources/", "/v1/updates/x"])
def test_unknown_v1_paths_answer_404_in_the_envelope(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"


def test_paths_outside_v1_keep_django_behaviour(client):
    response = client.get("/definitely-not-a-page")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_an_unexpected_exception_answers_500_without_a_trace(client, auth, monkeypatch, settings):
    settings.DEBUG = True  # even in debug the envelope hides the trace

    def boom(*args, **kwargs):
        raise RuntimeError("secret internals at /srv/app.py line 42")

    monkeypatch.setattr(selectors, "sources_page", boom)
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "internal", "message": "Internal error."}}
    assert b"secret" not in response.content
    assert b"Traceback" not in response.content


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/v1/sources", 200),
        ("/v1/updates?since=yesterday", 400),
        ("/v1/sources/src_00000000000/entries", 404),
    ],
)
def test_counted_responses_carry_rate_limit_headers(client, auth, url, status):
    response = client.get(url, headers=auth)
    assert response.status_code == status
    assert int(response["X-RateLimit-Limit"]) == 300
    assert 0 <= int(response["X-RateLimit-Remaining"]) < 300
    assert 1 <= int(response["X-RateLimit-Reset"]) <= 60


def test_remaining_counts_down(client, auth):
    first = int(client.get("/v1/sources", headers=auth)["X-RateLimit-Remaining"])
    second = int(client.get("/v1/sources", headers=auth)["X-RateLimit-Remaining"])
    assert second == first - 1


def test_over_the_limit_answers_429_with_retry_after(client, auth, key):
    ApiKey.objects.update(rate_limit=1)
    assert client.get("/v1/sources", headers=auth).status_code == 200
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response["Retry-After"]) >= 1
    assert response["X-RateLimit-Remaining"] == "0"
    assert response["X-RateLimit-Limit"] == "1"


def test_a_302_carries_rate_limit_headers(client, auth, history: History):
    response = client.get(
        f"/v1/changes/{history.second.public_id}/snapshot?format=screenshot", headers=auth
    )
    assert response.status_code == 302
    assert "X-RateLimit-Limit" in response


def test_an_unreachable_limiter_serves_uncounted_without_headers(client, auth, settings):
    from accounts import ratelimit

    settings.RATE_LIMIT_REDIS_URL = "redis://127.0.0.1:1/0"
    ratelimit.reset()
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert "X-RateLimit-Limit" not in response
