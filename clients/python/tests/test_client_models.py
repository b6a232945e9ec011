"""Reading the wire form into the generated models."""

from __future__ import annotations

from typing import Any

import pytest
import tidemark

FLAT: dict[str, Any] = {
    "id": "upd_1",
    "at": 1795305600000,
    "changeId": "chg_1",
    "entryId": "ent_1",
    "sourceId": "src_1",
    "updateType": "modified",
    "field": "price",
    "valueChange": {"type": "number", "previous": 20, "current": 24.5, "unit": "USD"},
    "importance": "material",
    "entryTitle": "Team plan",
    "kind": "plan",
}
NESTED: dict[str, Any] = {
    "id": "upd_1",
    "at": 1795305600000,
    "changeId": "chg_1",
    "updateType": "modified",
    "field": "price",
    "valueChange": {"type": "number", "previous": 20, "current": 24.5, "unit": "USD"},
    "importance": "material",
    "entry": {"id": "ent_1", "title": "Team plan", "kind": "plan"},
    "source": {"id": "src_1", "url": "https://cloud.example.com/pricing"},
}


@pytest.mark.parametrize("wire", [FLAT, NESTED, {**FLAT, **NESTED}])
def test_the_feed_accepts_the_flat_and_the_nested_parent_context(wire: dict[str, Any]) -> None:
    update = tidemark.FeedUpdate.from_dict(wire)
    assert (update.entry_id, update.source_id) == ("ent_1", "src_1")
    assert (update.entry_title, update.kind) == ("Team plan", "plan")
    assert update.value_change == tidemark.NumberChange(
        type="number", current=24.5, previous=20.0, unit="USD"
    )
    assert update.raw == wire
    assert update.headline is None  # optional and absent


def test_value_changes_are_distinct_types() -> None:
    def change(wire: dict[str, Any]) -> Any:
        return tidemark.Update.from_dict(
            {"id": "u", "at": 1, "changeId": "c", "updateType": "modified", "valueChange": wire}
        ).value_change

    assert isinstance(change({"type": "number", "current": 1}), tidemark.NumberChange)
    text = change({"type": "string", "previous": "a", "current": "b"})
    assert isinstance(text, tidemark.StringChange)
    assert (text.previous, text.current) == ("a", "b")
    flag = change({"type": "boolean", "current": False})
    assert isinstance(flag, tidemark.BooleanChange)
    assert (flag.previous, flag.current) == (None, False)
    with pytest.raises(tidemark.ModelError, match="unknown type 'date'"):
        change({"type": "date", "current": "2026-01-01"})


def test_a_missing_required_field_is_named() -> None:
    with pytest.raises(tidemark.ModelError, match="Source: required field 'url'"):
        tidemark.Source.from_dict(
            {"id": "src_1", "createdAt": 1, "status": "active", "monitoringFrequency": 60}
        )
    with pytest.raises(tidemark.ModelError, match="entryId"):
        tidemark.FeedUpdate.from_dict({k: v for k, v in FLAT.items() if k != "entryId"})


def test_entries_and_cards_read_their_nested_objects() -> None:
    entry = tidemark.Entry.from_dict(
        {
            "id": "ent_1",
            "createdAt": 1,
            "title": "Team plan",
            "read": False,
            "updateType": "new",
            "price": 24,
            "attributes": {"seats": {"n": 10}, "sso": {"b": True}, "tier": {"s": "pro"}},
        }
    )
    assert entry.update_type == "new"
    assert entry.price == 24.0
    assert entry.attributes is not None
    assert entry.attributes["seats"] == tidemark.TrackedAttribute(n=10.0)
    assert entry.attributes["sso"].b is True
    assert entry.url is None
    card = tidemark.TimelineCard.from_dict(
        {
            "changeId": "chg_1",
            "at": 2,
            "hasCurrentSnapshot": True,
            "hasPreviousSnapshot": False,
            "bodyTotalAdditions": 3,
            "bodyTotalDeletions": 1,
            "metaAdditions": 0,
            "metaDeletions": 0,
            "updates": [
                {
                    "id": "upd_2",
                    "updateType": "modified",
                    "field": "seats",
                    "valueChange": {"type": "number", "previous": 5, "current": 10},
                }
            ],
        }
    )
    [row] = card.updates
    assert isinstance(row, tidemark.CardUpdate)
    assert isinstance(row.value_change, tidemark.NumberChange)
    assert card.price_delta is None
