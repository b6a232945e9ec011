"""Endpoint 6 (snapshots) and the signed URLs for screenshots and block-diff JSON."""

from __future__ import annotations

import time

import pytest
from django.core.files.storage import default_storage
from django.test import Client

from history import signing
from tests.api.conftest import PNG, History, seed

pytestmark = pytest.mark.django_db


def snapshot(client: Client, auth, history_change, **params):
    return client.get(f"/v1/changes/{history_change.public_id}/snapshot", params, headers=auth)


def test_markdown_is_the_default_and_served_as_text_markdown(client, auth, history: History):
    response = snapshot(client, auth, history.second)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.content == b"# s2\n"


def test_previous_state_and_html(client, auth, history: History):
    response = snapshot(client, auth, history.second, state="previous", format="html")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response.content == b"<h1>s1</h1>"
    # Captured third-party HTML never runs script on Tidemark's origin.
    assert response["Content-Security-Policy"] == "sandbox"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_a_screenshot_redirects_to_a_signed_url_served_without_a_key(client, auth, history):
    response = snapshot(client, auth, history.second, format="screenshot")
    assert response.status_code == 302
    location = response["Location"]
    assert location.startswith("http://testserver/blobs/")
    image = Client().get(location.removeprefix("http://testserver"))
    assert image.status_code == 200
    assert image["Content-Type"] == "image/png"
    assert image.content == PNG


def test_previous_on_a_first_change_answers_404(client, auth, history: History):
    response = snapshot(client, auth, history.first, state="previous")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_a_purged_state_answers_404(client, auth, history: History):
    response = snapshot(client, auth, history.third)  # its current state is gone
    assert response.status_code == 404


def test_a_format_not_stored_answers_404(client, auth, history: History):
    response = snapshot(client, auth, history.second, format="html")  # s2 has no HTML
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_a_blob_missing_from_storage_answers_404(client, auth, history: History):
    state = history.second.current_state
    assert state is not None
    assert state.markdown_name is not None
    default_storage.delete(state.markdown_name)
    assert snapshot(client, auth, history.second).status_code == 404


@pytest.mark.parametrize(("param", "value"), [("state", "next"), ("format", "pdf"), ("state", "")])
def test_unknown_state_or_format_answers_400(client, auth, history, param, value):
    response = snapshot(client, auth, history.second, **{param: value})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize("change_id", ["chg_00000000000", "nonsense", "src_00000000000"])
def test_an_unknown_change_answers_404(client, auth, history, change_id):
    response = client.get(f"/v1/changes/{change_id}/snapshot", headers=auth)
    assert response.status_code == 404


def test_another_accounts_change_answers_404(client, auth, history, other_account):
    theirs = seed(other_account)
    response = snapshot(client, auth, theirs.second)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_blocks_url_serves_the_block_diff_json(client, auth, history: History):
    cards = client.get(f"/v1/entries/{history.kettle.public_id}/changes", headers=auth).json()
    url = cards["data"][1]["blocksUrl"]
    response = Client().get(url.removeprefix("http://testserver"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"blocks": [{"id": "b1", "op": "changed"}]}


def test_a_tampered_signed_url_is_refused(client, history: History):
    token = signing.sign(signing.BLOCKS, str(history.second.pk))
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(f"/blobs/{forged}").status_code == 403
    other = signing.sign(signing.BLOCKS, str(history.first.pk))
    _payload, stamp, mac = token.rsplit(":", 2)
    spliced = ":".join([other.rsplit(":", 2)[0], stamp, mac])
    assert client.get(f"/blobs/{spliced}").status_code == 403
    assert client.get(f"/blobs/{token}").status_code == 200


def test_a_signed_url_expires(client, history: History, settings, monkeypatch):
    settings.SIGNED_URL_TTL_SECONDS = 60
    token = signing.sign(signing.BLOCKS, str(history.second.pk))
    assert client.get(f"/blobs/{token}").status_code == 200
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 61)
    assert client.get(f"/blobs/{token}").status_code == 403


def test_a_blob_url_answers_only_get(client, history: History):
    token = signing.sign(signing.BLOCKS, str(history.second.pk))
    assert client.post(f"/blobs/{token}").status_code == 405
