"""Every read is scoped to the key's account: another account's ids answer 404."""

from __future__ import annotations

import pytest

from tests.api.conftest import History, seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def theirs(other_account) -> History:
    return seed(other_account)


def paths(h: History) -> list[str]:
    return [
        f"/v1/sources/{h.source.public_id}/entries",
        f"/v1/entries/{h.kettle.public_id}/updates",
        f"/v1/entries/{h.kettle.public_id}/changes",
        f"/v1/changes/{h.second.public_id}/snapshot",
    ]


@pytest.mark.parametrize("index", range(4))
def test_another_accounts_id_answers_404_not_403(client, auth, history, theirs, index):
    response = client.get(paths(theirs)[index], headers=auth)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert "X-RateLimit-Limit" in response  # a 404 is counted like a 200
    assert client.get(paths(history)[index], headers=auth).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/v1/sources/{}/entries",
        "/v1/entries/{}/updates",
        "/v1/entries/{}/changes",
        "/v1/changes/{}/snapshot",
    ],
)
@pytest.mark.parametrize("bad_id", ["src_00000000000", "ent_zzzzzzzzzzz", "123", "chg_", "x" * 300])
def test_ids_that_do_not_exist_answer_404(client, auth, history, path, bad_id):
    response = client.get(path.format(bad_id), headers=auth)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_an_entry_id_is_not_a_source_id(client, auth, history: History):
    url = f"/v1/sources/{history.kettle.public_id}/entries"
    assert client.get(url, headers=auth).status_code == 404


def test_the_feed_never_shows_another_accounts_updates(client, auth, history, theirs):
    data = client.get("/v1/updates?limit=100", headers=auth).json()["data"]
    assert {u["id"] for u in data} == {u.public_id for u in history.updates}
