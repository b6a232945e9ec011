"""parse_fetch: every rule of one fetch document, each failure naming its field path."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from history.ingest import IngestError, parse_fetch
from tests.history.conftest import fetch_doc


def bad(doc: dict[str, Any]) -> IngestError:
    with pytest.raises(IngestError) as caught:
        parse_fetch(doc)
    return caught.value


def test_a_minimal_document_parses_with_defaults():
    doc = parse_fetch(
        {"account": "acme", "source": {"url": "https://x.example.com/"}, "entries": []}
    )

    assert (doc.outcome, doc.at, doc.entries, doc.narrations) == ("ok", None, [], [])
    assert (doc.source_name, doc.monitoring_frequency, doc.snapshot, doc.diff) == (
        None,
        None,
        None,
        None,
    )


def test_a_full_document_parses_every_field():
    png = base64.b64encode(b"\x89PNG\r\n\x1a\nrest").decode()
    doc = parse_fetch(
        fetch_doc(
            "acme",
            [
                {
                    "identityKey": "k",
                    "title": "T",
                    "url": "https://x.example.com/k",
                    "kind": "plan",
                    "price": 9.5,
                    "currency": "USD",
                    "imageUrl": "https://x.example.com/k.png",
                    "attributes": {"seats": {"n": 3, "unit": "users"}},
                    "stub": False,
                }
            ],
            at=1_700_000_000_000,
            entryKinds=[{"name": "plan", "hasPrice": True}],
            snapshot={"markdown": "m", "html": "h", "screenshot": png},
            diff={
                "bodyTotalAdditions": 1,
                "bodyTotalDeletions": 2,
                "metaAdditions": 3,
                "metaDeletions": 4,
            },
            blocks=[{"id": "b1"}],
            narrations=[
                {"identityKey": "k", "headline": "H", "importance": "minor", "blockId": "b1"}
            ],
        )
    )

    (entry,) = doc.entries or []
    assert (entry.key, entry.price, entry.attribute_values()) == (
        "k",
        9.5,
        {"seats": {"n": 3, "unit": "users"}},
    )
    assert doc.snapshot is not None
    assert doc.snapshot.screenshot == b"\x89PNG\r\n\x1a\nrest"
    assert doc.diff is not None
    assert doc.diff.meta_deletions == 4
    assert doc.narrations is not None
    assert (doc.narrations[0].importance, doc.blocks) == ("minor", [{"id": "b1"}])


@pytest.mark.parametrize(
    ("doc", "path", "message"),
    [
        ({"source": {"url": "https://x.example.com/"}, "entries": []}, "account", "is required"),
        ({"account": "acme", "entries": []}, "source", "is required"),
        ({"account": "acme", "source": {"url": "ftp://x"}, "entries": []}, "source.url", "http"),
        (fetch_doc("acme", [], outcome="gone"), "outcome", "must be one of"),
        (fetch_doc("acme"), "entries", "is required"),
        (fetch_doc("acme", [], outcome="failed"), "entries", "only allowed"),
        (fetch_doc("acme", [], errorReason="x"), "errorReason", "only allowed"),
        (fetch_doc("acme", [], at="yesterday"), "at", "epoch milliseconds"),
        (fetch_doc("acme", [], at=True), "at", "epoch milliseconds"),
        (fetch_doc("acme", [], surprise=1), "surprise", "unknown field"),
        (
            fetch_doc("acme", [{"url": "https://x.example.com/1"}]),
            "entries[0].title",
            "is required",
        ),
        (fetch_doc("acme", [{"title": ""}]), "entries[0].title", "must not be empty"),
        (
            fetch_doc("acme", [{"title": "A", "price": "9.99"}]),
            "entries[0].price",
            "must be a number",
        ),
        (
            fetch_doc("acme", [{"title": "A", "price": True}]),
            "entries[0].price",
            "must be a number",
        ),
        (
            fetch_doc("acme", [{"title": "A", "attributes": {"size": {"n": 1, "s": "one"}}}]),
            "entries[0].attributes.size",
            "exactly one of n, s, b",
        ),
        (
            fetch_doc("acme", [{"title": "A", "attributes": {"size": {}}}]),
            "entries[0].attributes.size",
            "exactly one of n, s, b",
        ),
        (
            fetch_doc("acme", [{"title": "A", "attributes": {"size": {"n": "1"}}}]),
            "entries[0].attributes.size.n",
            "must be a number",
        ),
        (
            fetch_doc("acme", [{"title": "A", "attributes": {"ok": {"b": "yes"}}}]),
            "entries[0].attributes.ok.b",
            "must be a boolean",
        ),
        (
            fetch_doc("acme", [{"title": "A", "attributes": {"price": {"n": 1}}}]),
            "entries[0].attributes.price",
            "field of its own",
        ),
        (
            fetch_doc(
                "acme", [{"identityKey": "k", "title": "A"}, {"identityKey": "k", "title": "B"}]
            ),
            "entries[1].identityKey",
            "duplicate identity key 'k' (also entries[0])",
        ),
        (
            fetch_doc("acme", [{"title": "Same"}, {"title": "Same"}]),
            "entries[1].title",
            "duplicate identity key",
        ),
        (fetch_doc("acme", [{"title": "A", "stub": "no"}]), "entries[0].stub", "must be a boolean"),
        (
            fetch_doc("acme", [{"title": "A", "colour": "red"}]),
            "entries[0].colour",
            "unknown field",
        ),
        (fetch_doc("acme", [], entryKinds=[{"name": "x"}]), "entryKinds[0].hasPrice", "boolean"),
        (
            fetch_doc("acme", [], snapshot={"screenshot": "not base64!"}),
            "snapshot.screenshot",
            "base64",
        ),
        (
            fetch_doc("acme", [], snapshot={"screenshot": base64.b64encode(b"GIF89a").decode()}),
            "snapshot.screenshot",
            "PNG",
        ),
        (
            fetch_doc("acme", [], diff={"bodyTotalAdditions": -1}),
            "diff.bodyTotalAdditions",
            "non-negative",
        ),
        (
            fetch_doc("acme", [], narrations=[{"identityKey": "nope", "headline": "H"}]),
            "narrations[0].identityKey",
            "no entry 'nope'",
        ),
        (
            fetch_doc(
                "acme",
                [{"title": "A"}],
                narrations=[{"identityKey": "A", "headline": "H", "importance": "huge"}],
            ),
            "narrations[0].importance",
            "must be one of",
        ),
        (
            fetch_doc(
                "acme",
                [{"title": "A", "stub": True}],
                narrations=[{"identityKey": "A", "headline": "H"}],
            ),
            "narrations[0].identityKey",
            "stub",
        ),
        (["not", "an", "object"], "", "must be an object"),
    ],
)
def test_bad_documents_name_the_field(doc, path, message):
    error = bad(doc)

    assert error.path == path
    assert message in error.message
