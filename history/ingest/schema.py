"""docs/ingest.schema.json, generated from the document's structures (`make schema`).

msgspec writes the schema of every field from the Structs in `document`; this adds what
their types cannot carry, all of it rules `FetchDocument.problems()` also checks: which
fields go with which outcome, and exactly one of n, s, b in an attribute. A test fails
while the committed file differs from what this generates.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from history.ingest.document import FetchDocument

SCHEMA_ID = "urn:tidemark:ingest:fetch-document:1"

_OUTCOME_RULES: dict[str, Any] = {
    "if": {"properties": {"outcome": {"const": "ok"}}},
    "then": {
        "required": ["entries"],
        "properties": {"entries": {"type": "array"}, "errorReason": {"type": "null"}},
    },
    "else": {"properties": {"entries": {"type": "null"}, "narrations": {"type": "null"}}},
}
_ONE_VALUE: dict[str, Any] = {
    "oneOf": [
        {
            "required": [key],
            "properties": {key: {"not": {"type": "null"}}}
            | {other: {"type": "null"} for other in ("n", "s", "b") if other != key},
        }
        for key in ("n", "s", "b")
    ]
}


def json_schema() -> dict[str, Any]:
    """The fetch document's JSON Schema (draft 2020-12)."""
    generated = msgspec.json.schema(FetchDocument)
    defs: dict[str, Any] = generated["$defs"]
    root = defs.pop("FetchDocument")
    root.pop("title", None)
    defs["Attribute"].update(_ONE_VALUE)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Tidemark fetch document",
        "description": (
            "One line of an ingest file (NDJSON): what a watcher observed at one fetch of one "
            "page. See docs/ingest.md. Generated from history/ingest/document.py by "
            "`make schema`. Rules a schema cannot express (a known account, unique identity "
            "keys and kind names within the fetch, narrations naming a non-stub entry of the "
            "fetch, finite numbers, a PNG screenshot) are checked by `manage.py ingest` too."
        ),
        **root,
        **_OUTCOME_RULES,
        "$defs": defs,
    }


def json_text() -> str:
    """The schema as committed: indented, keys in generation order, a final newline."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
