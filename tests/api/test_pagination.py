"""Keyset cursor pagination and `limit` on every collection endpoint."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from django.core import signing
from django.test import Client

from tests.api.conftest import History, seed
from tests.factories import EntryFactory, SourceFactory, UpdateFactory, api_key

pytestmark = pytest.mark.django_db


def collection_urls(history: History) -> list[str]:
    return [
        "/v1/sources",
        f"/v1/sources/{history.source.public_id}/entries",
        "/v1/updates",
        f"/v1/entries/{history.kettle.public_id}/updates",
        f"/v1/entries/{history.kettle.public_id}/changes",
    ]


def walk(client: Client, url: str, auth: dict[str, str], **params: Any) -> list[dict[str, Any]]:
    """Follow nextCursor until hasMore is false; return every page's body."""
    pages = []
    cursor = None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        body = client.get(url, query, headers=auth).json()
        pages.append(body)
        if not body["pagination"]["hasMore"]:
            assert body["pagination"]["nextCursor"] is None
            return pages
        cursor = body["pagination"]["nextCursor"]
        assert isinstance(cursor, str)


@pytest.fixture
def feed(account) -> list[Any]:
    """Seven updates, two sharing one `at`, so ties are broken by id."""
    entry = EntryFactory(source=SourceFactory(account=account))
    return [UpdateFactory(entry=entry, at=at) for at in (1, 2, 3, 3, 4, 5, 6)]


def test_walking_pages_yields_every_item_once_in_order(client, auth, feed):
    pages = walk(client, "/v1/updates", auth, limit=2)
    assert [len(p["data"]) for p in pages] == [2, 2, 2, 1]
    seen = [u["id"] for p in pages for u in p["data"]]
    expected = [u.public_id for u in sorted(feed, key=lambda u: (u.at, u.pk), reverse=True)]
    assert seen == expected


def test_has_more_is_exact_when_the_last_page_is_full(client, auth, feed):
    pages = walk(client, "/v1/updates", auth, limit=7)
    assert len(pages) == 1
    assert pages[0]["pagination"] == {"nextCursor": None, "hasMore": False}
    pages = walk(client, "/v1/updates", auth, limit=6)
    assert [len(p["data"]) for p in pages] == [6, 1]


@pytest.mark.parametrize("index", range(5))
def test_every_collection_paginates_with_limit_one(client, auth, history, index, monkeypatch):
    # Timeline cards carry signed blob URLs stamped to the second: one stamp for every page,
    # so that pages fetched a second apart compare equal.
    monkeypatch.setattr(signing.TimestampSigner, "timestamp", lambda self: "1")
    url = collection_urls(history)[index]
    everything = client.get(url, headers=auth).json()["data"]
    pages = walk(client, url, auth, limit=1)
    assert [item for p in pages for item in p["data"]] == everything
    assert len(pages) == len(everything)


def test_the_default_limit_is_25_and_the_maximum_100(client, auth, account):
    entry = EntryFactory(source=SourceFactory(account=account))
    UpdateFactory.create_batch(101, entry=entry, at=5)
    assert len(client.get("/v1/updates", headers=auth).json()["data"]) == 25
    assert len(client.get("/v1/updates?limit=1000", headers=auth).json()["data"]) == 100
    assert len(client.get("/v1/updates?limit=" + "9" * 40, headers=auth).json()["data"]) == 100


@pytest.mark.parametrize("value", ["0", "-5", "-" + "9" * 30])
def test_a_limit_below_one_is_clamped_to_one(client, auth, feed, value):
    response = client.get("/v1/updates", {"limit": value}, headers=auth)
    assert response.status_code == 200
    assert len(response.json()["data"]) == 1


@pytest.mark.parametrize("value", ["abc", "1.5", "", "ten", "1e3", "0x10"])
def test_a_non_integer_limit_answers_400(client, auth, history, value):
    for url in collection_urls(history):
        response = client.get(url, {"limit": value}, headers=auth)
        assert response.status_code == 400, url
        assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize("cursor", ["garbage", "", "AAAA", "!!!", "A" * 43])
def test_a_garbage_cursor_answers_400(client, auth, history, cursor):
    for url in collection_urls(history):
        response = client.get(url, {"cursor": cursor}, headers=auth)
        assert response.status_code == 400, url
        assert response.json()["error"]["code"] == "invalid_request"


def first_cursor(client: Client, url: str, auth: dict[str, str], **params: Any) -> str:
    body = client.get(url, {"limit": 1, **params}, headers=auth).json()
    cursor = body["pagination"]["nextCursor"]
    assert cursor
    return cursor


def test_a_tampered_cursor_answers_400(client, auth, feed):
    cursor = first_cursor(client, "/v1/updates", auth)
    raw = bytearray(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    raw[7] ^= 1  # move the sort key by one
    forged = base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()
    assert client.get("/v1/updates", {"cursor": forged}, headers=auth).status_code == 400


def test_a_cursor_reused_with_other_filters_answers_400(client, auth, feed):
    cursor = first_cursor(client, "/v1/updates", auth, importance="material")
    ok = client.get("/v1/updates", {"cursor": cursor, "importance": "material"}, headers=auth)
    assert ok.status_code == 200
    for params in ({}, {"importance": "minor"}, {"since": "1"}):
        response = client.get("/v1/updates", {"cursor": cursor, **params}, headers=auth)
        assert response.status_code == 400, params


def test_a_cursor_of_another_endpoint_answers_400(client, auth, history):
    cursor = first_cursor(client, f"/v1/entries/{history.kettle.public_id}/updates", auth)
    assert client.get("/v1/updates", {"cursor": cursor}, headers=auth).status_code == 400
    other_entry = f"/v1/entries/{history.mug.public_id}/updates"
    assert client.get(other_entry, {"cursor": cursor}, headers=auth).status_code == 400
    changes = f"/v1/entries/{history.kettle.public_id}/changes"
    assert client.get(changes, {"cursor": cursor}, headers=auth).status_code == 400


def test_a_cursor_of_another_account_answers_400(client, auth, history, other_account):
    seed(other_account)
    foreign = {"Authorization": f"Bearer {api_key(other_account)}"}
    cursor = first_cursor(client, "/v1/sources", foreign)
    assert client.get("/v1/sources", {"cursor": cursor}, headers=auth).status_code == 400


def test_limit_may_change_between_pages(client, auth, feed):
    cursor = first_cursor(client, "/v1/updates", auth)
    body = client.get("/v1/updates", {"cursor": cursor, "limit": 10}, headers=auth).json()
    assert len(body["data"]) == 6
