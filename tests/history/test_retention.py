"""Snapshot retention: old page states purged in batches, the newest of each source kept,
shared blobs kept while named, the API's flags and the snapshot endpoint follow."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.storage import default_storage

from history import ids
from history.ingest import ingest
from history.models import Change, PageState
from history.retention import DAY_MS, purge_snapshots
from tests.factories import api_key

pytestmark = pytest.mark.django_db
NOW = 1_800_000_000_000


def _fetch(url: str, markdown: str, html: str, at: int) -> dict[str, Any]:
    """A fetch whose lamp is priced anew each time, so every fetch is a timeline card."""
    return {
        "account": "acme",
        "source": {"url": url},
        "at": at,
        "entries": [{"title": "Lamp", "url": "https://shop.example.com/p/lamp", "price": at % 97}],
        "snapshot": {"markdown": markdown, "html": html},
    }


def test_old_states_go_the_newest_of_each_source_stays(
    account: Any, tmp_storage: Any, client: Any
) -> None:
    a, b = "https://shop.example.com/a", "https://shop.example.com/b"
    ingest(_fetch(a, "# v1\n", "<p>shared</p>", NOW - 100 * DAY_MS))
    ingest(_fetch(a, "# v2\n", "<p>shared</p>", NOW - 95 * DAY_MS))
    ingest(_fetch(a, "# v3\n", "<p>a3</p>", NOW - 1 * DAY_MS))
    ingest(_fetch(b, "# only\n", "<p>b</p>", NOW - 200 * DAY_MS))  # old, but b's newest
    for state in PageState.objects.all():
        PageState.objects.filter(pk=state.pk).update(
            created_at=Change.objects.filter(current_state=state).order_by("at").first().at  # type: ignore[union-attr]
        )
    first, second, third = Change.objects.filter(source__url=a).order_by("at")
    v1, v2 = first.current_state, second.current_state
    assert v1 is not None
    assert v2 is not None
    shared_html = v1.html_name
    assert shared_html is not None
    assert shared_html == v2.html_name

    states, blobs = purge_snapshots(90, now=NOW)

    assert states == 2  # v1 and v2 of source a
    assert blobs == 3  # v1 and v2 markdown, and the html they shared (no state names it now)
    assert not PageState.objects.filter(pk__in=[v1.pk, v2.pk]).exists()
    assert not default_storage.exists(str(v1.markdown_name))
    assert not default_storage.exists(str(shared_html))
    remaining = PageState.objects.count()
    assert remaining == 2  # a's v3 (young) and b's only state (old, but its newest)
    third.refresh_from_db()
    assert third.current_state is not None
    assert third.previous_state is None  # v2 is gone: hasPreviousSnapshot turns false
    # The API follows: the card's flags, and the snapshot endpoint's 404.
    auth = {"Authorization": f"Bearer {api_key(account, ['read'])}"}
    entry = third.source.entries.get()
    cards = client.get(f"/v1/entries/{entry.public_id}/changes", headers=auth).json()["data"]
    flags = {c["changeId"]: (c["hasCurrentSnapshot"], c["hasPreviousSnapshot"]) for c in cards}
    assert flags[third.public_id] == (True, False)
    assert flags[first.public_id] == (False, False)
    url = f"/v1/changes/{ids.encode(ids.CHANGE, first.pk)}/snapshot"
    assert client.get(url, headers=auth).status_code == 404
    # Nothing left to purge: a second run is a no-op.
    assert purge_snapshots(90, now=NOW) == (0, 0)


def test_a_blob_another_state_still_names_is_kept(account: Any, tmp_storage: Any) -> None:
    a, b = "https://shop.example.com/a", "https://shop.example.com/b"
    ingest(_fetch(a, "# old\n", "<p>same</p>", NOW - 100 * DAY_MS))
    ingest(_fetch(a, "# new\n", "<p>a</p>", NOW - DAY_MS))
    ingest(_fetch(b, "# b\n", "<p>same</p>", NOW - DAY_MS))
    old = Change.objects.filter(source__url=a).order_by("at").first()
    assert old is not None
    assert old.current_state is not None
    PageState.objects.filter(pk=old.current_state.pk).update(created_at=NOW - 100 * DAY_MS)
    PageState.objects.exclude(pk=old.current_state.pk).update(created_at=NOW - DAY_MS)
    html = old.current_state.html_name
    assert html is not None
    assert purge_snapshots(90, now=NOW) == (1, 1)  # its markdown only
    assert default_storage.exists(str(html))  # b's state still names the same bytes
