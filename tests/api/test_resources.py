"""Resource shapes of endpoints 1-5: exact keys, types, orders; optional fields absent."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from history import ids
from tests.api.conftest import History

pytestmark = pytest.mark.django_db


def get(client: Client, url: str, auth: dict[str, str], **params: Any) -> dict[str, Any]:
    response = client.get(url, params, headers=auth)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_sources_are_listed_newest_first_with_exact_fields(client, auth, history: History):
    body = get(client, "/v1/sources", auth)
    assert body["pagination"] == {"nextCursor": None, "hasMore": False}
    paused, source = body["data"]
    assert paused == {
        "id": history.paused.public_id,
        "createdAt": 2_000,
        "url": "https://jobs.example.com/",
        "status": "autoPaused",
        "active": False,
        "monitoringFrequency": 60,
        "lastFetchTime": 4_000,
        "lastFetchOutcome": "failed",
        "lastFetchErrorReason": "timeout",
        "lastFetchErrorTime": 4_000,
        "consecutiveFetchFailures": 5,
    }
    assert source == {
        "id": history.source.public_id,
        "createdAt": 1_000,
        "url": "https://shop.example.com/kettles",
        "name": "Kettles",
        "status": "active",
        "active": True,
        "monitoringFrequency": 60,
        "lastFetchTime": 5_000,
        "lastFetchOutcome": "ok",
        "consecutiveFetchFailures": 0,
        "nextFetchTime": 9_000,
        "entryKinds": [{"name": "product", "hasPrice": True}],
    }


def test_sources_of_another_account_are_not_listed(client, auth, history, other_account):
    from tests.api.conftest import seed

    seed(other_account)
    body = get(client, "/v1/sources", auth)
    assert {s["id"] for s in body["data"]} == {history.source.public_id, history.paused.public_id}


def test_entries_are_most_recently_updated_first_and_omit_stubs(client, auth, history: History):
    body = get(client, f"/v1/sources/{history.source.public_id}/entries", auth)
    kettle, mug = body["data"]
    assert kettle == {
        "id": history.kettle.public_id,
        "createdAt": 1_000,
        "title": "Blue kettle",
        "url": "https://shop.example.com/kettles/blue",
        "kind": "product",
        "price": 12.0,
        "currency": "EUR",
        "identityKey": "kettle",
        "read": False,
        "updateType": "modified",
        "updateTime": 4_000,
        "imageUrl": "https://shop.example.com/img/blue.png",
        "attributes": {"stock": {"n": 3, "unit": "pcs"}, "color": {"s": "blue"}},
    }
    assert mug == {
        "id": history.mug.public_id,
        "createdAt": 1_000,
        "title": "Mug",
        "identityKey": "mug",
        "read": False,
        "updateType": "new",
        "updateTime": 1_000,
    }


def test_feed_serves_feed_updates_newest_first_with_both_parent_forms(client, auth, history):
    body = get(client, "/v1/updates", auth)
    data = body["data"]
    assert [u["at"] for u in data] == [4_000, 3_000, 3_000, 1_000, 1_000]
    title_change = data[0]
    assert title_change == {
        "id": history.updates[4].public_id,
        "at": 4_000,
        "changeId": history.third.public_id,
        "entryId": history.kettle.public_id,
        "sourceId": history.source.public_id,
        "updateType": "modified",
        "field": "title",
        "valueChange": {"type": "string", "previous": "Kettle", "current": "Blue kettle"},
        "entryTitle": "Blue kettle",
        "entryUrl": "https://shop.example.com/kettles/blue",
        "kind": "product",
        "entry": {"id": history.kettle.public_id, "title": "Blue kettle", "kind": "product"},
        "source": {"id": history.source.public_id, "url": "https://shop.example.com/kettles"},
    }
    mug_new = next(u for u in data if u["entryId"] == history.mug.public_id)
    assert "entryUrl" not in mug_new
    assert "kind" not in mug_new
    assert mug_new["entry"] == {"id": history.mug.public_id, "title": "Mug"}


def test_entry_updates_have_the_update_shape(client, auth, history: History):
    body = get(client, f"/v1/entries/{history.kettle.public_id}/updates", auth)
    narration = body["data"][1]
    assert narration == {
        "id": history.updates[3].public_id,
        "at": 3_000,
        "changeId": history.second.public_id,
        "updateType": "modified",
        "importance": "minor",
        "headline": "Now with a lid",
        "description": "Lid added",
        "startBlockId": "b1",
        "endBlockId": "b2",
        "blockId": "b1",
    }
    assert [u["id"] for u in body["data"]] == [
        history.updates[4].public_id,
        history.updates[3].public_id,
        history.updates[2].public_id,
        history.updates[0].public_id,
    ]


def test_timeline_cards_fold_the_price_and_rank_importance(client, auth, history: History):
    body = get(client, f"/v1/entries/{history.kettle.public_id}/changes", auth)
    third, second, first = body["data"]
    assert third == {
        "changeId": history.third.public_id,
        "at": 4_000,
        "hasCurrentSnapshot": False,
        "hasPreviousSnapshot": True,
        "bodyTotalAdditions": 0,
        "bodyTotalDeletions": 0,
        "metaAdditions": 0,
        "metaDeletions": 0,
        "updates": [
            {
                "id": history.updates[4].public_id,
                "updateType": "modified",
                "field": "title",
                "valueChange": {"type": "string", "previous": "Kettle", "current": "Blue kettle"},
            }
        ],
    }
    assert second["previousPrice"] == 10.0
    assert second["currentPrice"] == 12.0
    assert second["priceDelta"] == 2.0
    assert second["currency"] == "EUR"
    assert second["importance"] == "critical"  # the folded price row counts
    assert [u["id"] for u in second["updates"]] == [history.updates[3].public_id]
    assert second["hasCurrentSnapshot"] is True
    assert second["hasPreviousSnapshot"] is True
    assert second["blocksUrl"].startswith("http://testserver/blobs/")
    assert (second["bodyTotalAdditions"], second["bodyTotalDeletions"]) == (4, 1)
    assert first["hasPreviousSnapshot"] is False
    assert first["importance"] == "material"
    assert "blocksUrl" not in first
    assert ids.decode(ids.CHANGE, first["changeId"]) == history.first.pk
