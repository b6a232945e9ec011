"""Snapshot bytes in S3 (django-storages against moto's server on loopback)."""

from __future__ import annotations

import base64
import urllib.request
from typing import Any

import pytest
from django.core.cache import cache

from history import ids
from history.ingest import ingest
from history.models import Change, PageState
from tests.factories import AccountFactory, api_key

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg=="
)

pytestmark = pytest.mark.django_db


def _fetch(account: str, markdown: str) -> dict[str, Any]:
    return {
        "account": account,
        "source": {"url": "https://shop.example.com/list"},
        "entries": [{"title": "Lamp", "url": "https://shop.example.com/p/lamp", "price": 10}],
        "snapshot": {
            "markdown": markdown,
            "html": "<h1>Lamps</h1>",
            "screenshot": base64.b64encode(PNG).decode(),
        },
    }


def test_snapshots_live_in_the_bucket_and_are_served(s3: Any, client: Any) -> None:
    account: Any = AccountFactory(slug="acme")
    other: Any = AccountFactory(slug="rival")
    ingest(_fetch("acme", "# Lamps\n"))
    ingest(_fetch("rival", "# Lamps\n"))  # the same capture: one object, shared
    state = PageState.objects.get()
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket=s3.bucket)["Contents"]}
    assert keys == {state.markdown_name, state.html_name, state.screenshot_name}
    assert other.pk != account.pk

    change = Change.objects.filter(source__account=account).get()
    url = f"/v1/changes/{ids.encode(ids.CHANGE, change.pk)}/snapshot"
    auth = {"Authorization": f"Bearer {api_key(account, ['read'])}"}
    cache.delete(f"tm:blob:{state.markdown_name}")
    md = client.get(url, headers=auth)
    assert md.status_code == 200
    assert md.content == b"# Lamps\n"
    html = client.get(url + "?format=html", headers=auth)
    assert html.content == b"<h1>Lamps</h1>"
    assert html["Content-Security-Policy"] == "sandbox"

    shot = client.get(url + "?format=screenshot", headers=auth)
    assert shot.status_code == 302
    location = shot["Location"]
    assert location.startswith(s3.meta.endpoint_url)  # a presigned URL of the object
    assert "X-Amz-Signature=" in location
    assert "X-Amz-Expires=300" in location  # SIGNED_URL_TTL_SECONDS
    with urllib.request.urlopen(location) as answer:
        assert answer.read() == PNG


def test_reads_are_cached_and_a_missing_object_is_a_404(s3: Any, client: Any) -> None:
    account: Any = AccountFactory(slug="acme")
    ingest(_fetch("acme", "# Cached\n"))
    state = PageState.objects.get()
    change = Change.objects.get()
    url = f"/v1/changes/{ids.encode(ids.CHANGE, change.pk)}/snapshot"
    auth = {"Authorization": f"Bearer {api_key(account, ['read'])}"}
    cache.delete(f"tm:blob:{state.markdown_name}")
    assert client.get(url, headers=auth).content == b"# Cached\n"
    assert cache.get(f"tm:blob:{state.markdown_name}") == b"# Cached\n"
    s3.delete_object(Bucket=s3.bucket, Key=state.html_name)
    cache.delete(f"tm:blob:{state.html_name}")
    gone = client.get(url + "?format=html", headers=auth)
    assert gone.status_code == 404
    assert gone.json()["error"]["code"] == "not_found"


def test_block_diff_urls_work_on_s3(s3: Any, client: Any) -> None:
    account: Any = AccountFactory(slug="acme")
    doc = _fetch("acme", "# Blocks\n")
    doc["blocks"] = {"blocks": [{"id": "b1", "op": "changed"}]}
    ingest(doc)
    entry = account.sources.get().entries.get()
    auth = {"Authorization": f"Bearer {api_key(account, ['read'])}"}
    cards = client.get(f"/v1/entries/{entry.public_id}/changes", headers=auth).json()
    url = cards["data"][0]["blocksUrl"]
    answer = client.get(url.removeprefix("http://testserver"))
    assert answer.status_code == 200
    assert answer.json() == {"blocks": [{"id": "b1", "op": "changed"}]}
