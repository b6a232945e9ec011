"""The pure rules: retry waits, parameters, error mapping, the polling state."""

from __future__ import annotations

import email.utils
import time
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import httpx
import pytest
import tidemark
from tidemark import _core


def response(
    status: int,
    headers: dict[str, str] | None = None,
    *,
    json: Any = None,
    text: str | None = None,
) -> httpx.Response:
    request = httpx.Request("GET", "http://t/v1/x")
    return httpx.Response(status, headers=headers, request=request, json=json, text=text)


def test_a_stated_wait_is_honoured_and_a_too_long_one_is_not_retried() -> None:
    assert _core.retry_wait(response(429, {"Retry-After": "3"}), 0, 60) == pytest.approx(3.05)
    later = email.utils.format_datetime(datetime.now(UTC) + timedelta(seconds=10), usegmt=True)
    wait = _core.retry_wait(response(503, {"Retry-After": later}), 0, 60)
    assert wait is not None
    assert 8 <= wait <= 10.1
    reset_only = response(429, {"X-RateLimit-Reset": "7", "X-RateLimit-Remaining": "0"})
    assert _core.retry_wait(reset_only, 0, 60) == pytest.approx(7.05)
    assert _core.retry_wait(response(429, {"Retry-After": "120"}), 0, 60) is None


def test_other_4xx_are_not_retried_and_5xx_back_off_with_jitter_under_the_cap() -> None:
    for status in (400, 401, 403, 404, 405):
        assert _core.retry_wait(response(status), 0, 60) is None
    assert _core.retry_wait(response(408), 0, 60) is not None
    waits = [_core.retry_wait(response(502), attempt, 60) for attempt in range(12)]
    for attempt, wait in enumerate(waits):
        assert wait is not None
        assert 0 <= wait <= min(60, 0.5 * 2**attempt)
    assert len({round(w or 0, 6) for w in waits}) > 1  # jittered, not fixed
    assert _core.retry_wait(None, 3, 60) is not None  # a connection error


def test_errors_map_status_and_envelope() -> None:
    envelope = {"error": {"code": "not_found", "message": "No such entry."}}
    error = _core.error_from_response(response(404, json=envelope))
    assert isinstance(error, tidemark.NotFoundError)
    assert (error.status, error.code, error.message) == (404, "not_found", "No such entry.")
    limited = _core.error_from_response(
        response(
            429,
            {
                "Retry-After": "4",
                "X-RateLimit-Limit": "300",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": "4",
            },
            json={"error": {"code": "rate_limited", "message": "Slow down."}},
        )
    )
    assert isinstance(limited, tidemark.RateLimitError)
    assert (limited.retry_after, limited.limit, limited.remaining, limited.reset) == (4, 300, 0, 4)
    proxy = _core.error_from_response(response(502, text="<html>Bad gateway</html>"))
    assert isinstance(proxy, tidemark.InternalServerError)
    assert (proxy.code, proxy.message) == ("internal", "<html>Bad gateway</html>")
    assert type(_core.error_from_response(response(405))) is tidemark.APIError


def test_parameters() -> None:
    assert _core.since_param(datetime(2026, 11, 20, tzinfo=UTC)) == "1795132800000"
    assert (
        _core.since_param(datetime(2026, 11, 20, 1, tzinfo=timezone(timedelta(hours=1))))
        == "1795132800000"
    )
    assert _core.since_param(1795132800000) == "1795132800000"
    assert _core.since_param("2026-11-20T00:00:00Z") == "2026-11-20T00:00:00Z"
    with pytest.raises(tidemark.TidemarkError, match="timezone"):
        _core.since_param(datetime(2026, 11, 20))
    assert (
        _core.path("/v1/entries/{}/updates", "ent_1/../x?y")
        == "/v1/entries/ent_1%2F..%2Fx%3Fy/updates"
    )
    with pytest.raises(tidemark.TidemarkError):
        _core.path("/v1/entries/{}/updates", "")
    assert _core.params(limit=None, since="5", importance=None) == {"since": "5"}


def test_a_key_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TIDEMARK_API_KEY", raising=False)
    with pytest.raises(tidemark.TidemarkError, match="API key"):
        tidemark.Client()
    monkeypatch.setenv("TIDEMARK_API_KEY", "svc_mcp_x")
    monkeypatch.setenv("TIDEMARK_BASE_URL", "http://127.0.0.1:9/")
    with tidemark.Client() as client:
        assert client._settings.base_url == "http://127.0.0.1:9"


def feed(id: str, at: int) -> tidemark.FeedUpdate:
    return tidemark.FeedUpdate(
        id=id, at=at, change_id="c", entry_id="e", source_id="s", update_type="new"
    )


def test_the_polling_state_skips_the_boundary_and_keeps_only_its_ids() -> None:
    state = _core.WatchState()
    assert state.start_now([feed("b", 20), feed("a", 20), feed("z", 10)]) is False
    assert (state.since, state.seen) == (20, {"a", "b"})
    # The next poll (since=20) returns the boundary again, plus newer ones.
    fresh = state.absorb([feed("d", 30), feed("c", 20), feed("b", 20), feed("a", 20)])
    assert [u.id for u in fresh] == ["c", "d"]  # oldest first
    assert (state.since, state.seen) == (30, {"d"})
    assert state.absorb([feed("d", 30)]) == []
    fresh = state.absorb([feed("e", 30), feed("d", 30)])  # same instant, one more
    assert [u.id for u in fresh] == ["e"]
    assert state.seen == {"d", "e"}
    assert state.absorb([]) == []
    assert state.since == 30
    assert state.polls == 4


def test_starting_now_on_a_page_that_is_all_one_instant_asks_for_the_next() -> None:
    state = _core.WatchState()
    assert state.start_now([feed("b", 20), feed("a", 20)]) is True
    assert state.start_now([feed("x", 20), feed("w", 5)]) is False
    assert state.seen == {"a", "b", "x"}
    assert _core.WatchState().start_now([]) is False


def test_backoff_is_capped() -> None:
    started = time.monotonic()
    assert max(_core.backoff(50) for _ in range(100)) <= 60
    assert time.monotonic() - started < 1
