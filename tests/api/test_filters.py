"""`since`, `importance` and `field`, run in the database (DESIGN decisions 1, 2, 7)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import History
from tests.factories import EntryFactory, SourceFactory, UpdateFactory

pytestmark = pytest.mark.django_db

T = 1_714_564_800_000  # 2024-05-01T12:00:00Z


@pytest.fixture
def timed(account) -> list:
    entry = EntryFactory(source=SourceFactory(account=account))
    return [UpdateFactory(entry=entry, at=T + delta) for delta in (-1, 0, 1)]


def ats(client, auth, **params) -> list[int]:
    response = client.get("/v1/updates", params, headers=auth)
    assert response.status_code == 200, response.content
    return [u["at"] for u in response.json()["data"]]


@pytest.mark.parametrize(
    "since",
    [
        str(T),
        "2024-05-01T12:00:00Z",
        "2024-05-01T12:00:00.000Z",
        "2024-05-01T14:00:00+02:00",
        "2024-05-01T12:00:00+00:00",
        "2024-05-01t12:00:00z",
    ],
)
def test_since_selects_at_or_after_the_instant(client, auth, timed, since):
    assert ats(client, auth, since=since) == [T + 1, T]


@pytest.mark.parametrize(
    "since",
    [
        "yesterday",
        "2024-05-01",  # a date is not an instant
        "2024-05-01T12:00:00",  # no offset: ambiguous
        "-5",
        "1.5",
        "",
        "99999999999999999999999",
        "2024-13-01T00:00:00Z",
    ],
)
def test_an_unparseable_since_answers_400(client, auth, timed, since):
    response = client.get("/v1/updates", {"since": since}, headers=auth)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


def test_polling_with_the_newest_at_returns_it_again_and_everything_newer(client, auth, timed):
    newest = client.get("/v1/updates", headers=auth).json()["data"][0]
    entry = timed[0].entry
    later: Any = UpdateFactory(entry=entry, at=newest["at"] + 10)
    ids = [
        u["id"]
        for u in client.get("/v1/updates", {"since": newest["at"]}, headers=auth).json()["data"]
    ]
    assert ids == [later.public_id, newest["id"]]


def test_importance_is_exact_and_missing_counts_as_material(client, auth, history: History):
    def feed(importance: str) -> list[str]:
        body = client.get("/v1/updates", {"importance": importance}, headers=auth).json()
        return [u["id"] for u in body["data"]]

    u = history.updates
    assert feed("critical") == [u[2].public_id]
    assert feed("minor") == [u[3].public_id, u[1].public_id]
    # u[4] has no importance: it counts as material, and its JSON still omits the field.
    material = client.get("/v1/updates", {"importance": "material"}, headers=auth).json()["data"]
    assert [m["id"] for m in material] == [u[4].public_id, u[0].public_id]
    assert "importance" not in material[0]


def test_importance_filters_per_entry_updates(client, auth, history: History):
    url = f"/v1/entries/{history.kettle.public_id}/updates"
    body = client.get(url, {"importance": "minor"}, headers=auth).json()
    assert [x["id"] for x in body["data"]] == [history.updates[3].public_id]


@pytest.mark.parametrize("importance", ["major", "", "CRITICAL", "none"])
@pytest.mark.parametrize("path", ["/v1/updates", "entry"])
def test_an_unknown_importance_answers_400(client, auth, history, importance, path):
    url = path if path.startswith("/") else f"/v1/entries/{history.kettle.public_id}/updates"
    response = client.get(url, {"importance": importance}, headers=auth)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


def test_field_selects_one_fields_history(client, auth, history: History):
    url = f"/v1/entries/{history.kettle.public_id}/updates"
    price = client.get(url, {"field": "price"}, headers=auth).json()["data"]
    assert [x["id"] for x in price] == [history.updates[2].public_id]
    title = client.get(url, {"field": "title"}, headers=auth).json()["data"]
    assert [x["field"] for x in title] == ["title"]
    assert client.get(url, {"field": "colour"}, headers=auth).json()["data"] == []


def test_an_empty_field_answers_400(client, auth, history: History):
    url = f"/v1/entries/{history.kettle.public_id}/updates"
    assert client.get(url, {"field": ""}, headers=auth).status_code == 400


def test_filters_fill_pages_from_the_database(client, auth, account):
    """DESIGN 1: filtering in SQL means a page is full whenever matching rows exist."""
    entry = EntryFactory(source=SourceFactory(account=account))
    for i in range(30):
        UpdateFactory(entry=entry, at=i, importance="critical" if i % 3 == 0 else "minor")
    body = client.get("/v1/updates", {"importance": "critical", "limit": 5}, headers=auth).json()
    assert len(body["data"]) == 5
    assert body["pagination"]["hasMore"] is True
