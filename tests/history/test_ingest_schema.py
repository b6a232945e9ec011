"""docs/ingest.schema.json: valid draft 2020-12, matching the examples and the parser."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from jsonschema import Draft202012Validator

from history.ingest import IngestError, parse_fetch
from history.models import Change, Update
from tests.factories import AccountFactory
from tests.history.conftest import fetch_doc

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLES = sorted((DOCS / "examples").glob("*.ndjson"))


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = json.loads((DOCS / "ingest.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def example_lines() -> list[tuple[str, int, dict[str, Any]]]:
    return [
        (path.name, number, json.loads(line))
        for path in EXAMPLES
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.strip()
    ]


def test_there_are_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize(("name", "number", "doc"), example_lines())
def test_every_example_line_validates_against_the_schema_and_parses(validator, name, number, doc):
    errors = [e.message for e in validator.iter_errors(doc)]
    assert errors == [], f"{name} line {number}"
    parse_fetch(doc)


@pytest.mark.django_db
def test_the_examples_ingest_with_the_command(tmp_storage):
    AccountFactory(slug="acme")
    out = io.StringIO()

    for path in EXAMPLES:
        call_command("ingest", str(path), stdout=out, stderr=io.StringIO())

    assert out.getvalue().count("Ingested") == len(EXAMPLES)
    assert set(Change.objects.values_list("outcome", flat=True)) == {"ok", "failed", "broken"}
    assert Update.objects.filter(headline__isnull=False).count() == 2


@pytest.mark.parametrize(
    "doc",
    [
        fetch_doc("acme", [], outcome="gone"),
        fetch_doc("acme", [], outcome=None),
        fetch_doc("acme"),
        fetch_doc("acme", [], outcome="failed"),
        fetch_doc("acme", [], errorReason="x"),
        fetch_doc("acme", [], at=-1),
        fetch_doc("acme", [], surprise=1),
        fetch_doc("acme", [{"url": "https://x.example.com/1"}]),
        fetch_doc("acme", [{"title": " "}]),
        fetch_doc("acme", [{"title": "A", "price": "9.99"}]),
        fetch_doc("acme", [{"title": "A", "attributes": {"size": {"n": 1, "s": "one"}}}]),
        fetch_doc("acme", [{"title": "A", "attributes": {"size": {"unit": "GB"}}}]),
        fetch_doc("acme", [{"title": "A", "attributes": {"size": {"n": "1"}}}]),
        fetch_doc("acme", [{"title": "A", "attributes": {"title": {"s": "x"}}}]),
        fetch_doc("acme", [{"title": "A", "stub": None}]),
        fetch_doc("acme", [{"title": "A", "url": "mailto:a@example.com"}]),
        fetch_doc("acme", [], entryKinds=[{"name": "x"}]),
        fetch_doc("acme", [], snapshot={"screenshot": "not base64!"}),
        fetch_doc("acme", [], diff={"metaDeletions": -1}),
        fetch_doc("acme", [{"title": "A"}], narrations=[{"identityKey": "A"}]),
        fetch_doc(
            "acme",
            [{"title": "A"}],
            narrations=[{"identityKey": "A", "headline": "H", "importance": "huge"}],
        ),
        fetch_doc("acme", outcome="failed", narrations=[]),
        {"account": "acme", "entries": []},
        {"account": "", "source": {"url": "https://x.example.com/"}, "entries": []},
    ],
)
def test_documents_the_parser_rejects_the_schema_rejects_too(validator, doc):
    with pytest.raises(IngestError):
        parse_fetch(doc)
    assert not validator.is_valid(doc)


def test_the_committed_schema_is_the_one_the_document_structures_generate():
    from history.ingest.schema import json_text

    committed = (DOCS / "ingest.schema.json").read_text()

    assert committed == json_text(), "docs/ingest.schema.json is stale: run `make schema`"
