"""`feed_updates_by_ids`: the feed's FeedUpdate shape, for the webhook payload."""

from __future__ import annotations

from typing import Any

import pytest

from history import ids
from history.selectors import feed_page, feed_updates_by_ids
from tests.factories import EntryFactory, SourceFactory, UpdateFactory

pytestmark = pytest.mark.django_db


def test_it_returns_updates_in_the_order_asked_with_both_parent_forms(account, other_account):
    source: Any = SourceFactory(account=account, url="https://shop.example.com/a")
    entry: Any = EntryFactory(
        source=source, title="Blue kettle", url="https://x.example/k", kind="product"
    )
    first: Any = UpdateFactory(entry=entry, at=1_000)
    second: Any = UpdateFactory(
        entry=entry,
        at=2_000,
        importance=None,
        field=None,
        value_change=None,
        headline="Body changed",
    )
    foreign: Any = UpdateFactory(entry=EntryFactory(source=SourceFactory(account=other_account)))

    items = feed_updates_by_ids(account.pk, [second.pk, foreign.pk, first.pk])

    assert [i["id"] for i in items] == [second.public_id, first.public_id]
    one = items[1]
    assert one["entryId"] == entry.public_id
    assert one["sourceId"] == source.public_id
    assert one["entryTitle"] == "Blue kettle"
    assert one["entryUrl"] == "https://x.example/k"
    assert one["kind"] == "product"
    assert one["entry"] == {"id": entry.public_id, "title": "Blue kettle", "kind": "product"}
    assert one["source"] == {"id": source.public_id, "url": "https://shop.example.com/a"}
    assert one["changeId"] == ids.encode(ids.CHANGE, first.change_id)
    assert one["valueChange"] == {
        "type": "number",
        "previous": 10.0,
        "current": 12.0,
        "unit": "EUR",
    }
    assert one["importance"] == "material"
    assert "importance" not in items[0]
    assert "field" not in items[0]
    assert "valueChange" not in items[0]
    assert items[0]["headline"] == "Body changed"


def test_it_matches_what_the_feed_serves(account):
    update: Any = UpdateFactory(entry=EntryFactory(source=SourceFactory(account=account)))
    page = feed_page(account.pk, since=None, importance=None, after=None, limit=25)
    assert feed_updates_by_ids(account.pk, [update.pk]) == [page[0][1]]


def test_it_returns_nothing_for_no_ids(account):
    assert feed_updates_by_ids(account.pk, []) == []
