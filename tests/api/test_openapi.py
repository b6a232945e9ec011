"""Endpoint 7 and the committed OpenAPI document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client
from openapi_spec_validator import validate

from history.api.errors import CODES
from history.api.schema import document

COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


@pytest.fixture
def served(client: Client, db: None) -> dict:
    response = client.get("/v1/openapi.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_it_is_served_without_a_key_and_without_rate_limit_headers(client, db):
    response = client.get("/v1/openapi.json")
    assert response.status_code == 200
    assert not [h for h in response.headers if h.lower().startswith("x-ratelimit")]


def test_it_ignores_a_bad_key(client, db):
    response = client.get("/v1/openapi.json", headers={"Authorization": "Bearer nonsense"})
    assert response.status_code == 200


def test_it_is_a_valid_openapi_3_0_3_document(served):
    validate(served)
    assert served["openapi"] == "3.0.3"
    assert served["info"]["title"] == "Tidemark API"
    assert served["info"]["version"] == "1.0.0"


def test_the_committed_copy_matches_the_generated_document(served):
    """Regenerate with `make openapi` after an intended API change."""
    assert json.loads(COMMITTED.read_text()) == served == document()


def test_it_lists_exactly_the_seven_endpoints(served):
    assert sorted(served["paths"]) == [
        "/v1/changes/{id}/snapshot",
        "/v1/entries/{id}/changes",
        "/v1/entries/{id}/updates",
        "/v1/openapi.json",
        "/v1/sources",
        "/v1/sources/{id}/entries",
        "/v1/updates",
    ]
    for item in served["paths"].values():
        assert list(item) == ["get"]


def test_it_documents_the_error_schema_with_the_code_enum(served):
    code = served["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]
    assert code["enum"] == list(CODES.values())


@pytest.mark.parametrize(
    ("path", "statuses"),
    [
        ("/v1/sources", {"200", "400", "401", "403", "405", "429"}),
        ("/v1/sources/{id}/entries", {"200", "400", "401", "403", "404", "405", "429"}),
        ("/v1/updates", {"200", "400", "401", "403", "405", "429"}),
        ("/v1/entries/{id}/updates", {"200", "400", "401", "403", "404", "405", "429"}),
        ("/v1/entries/{id}/changes", {"200", "400", "401", "403", "404", "405", "429"}),
        ("/v1/changes/{id}/snapshot", {"200", "302", "400", "401", "403", "404", "405", "429"}),
        ("/v1/openapi.json", {"200", "405"}),
    ],
)
def test_it_documents_every_status_with_its_headers(served, path, statuses):
    responses = served["paths"][path]["get"]["responses"]
    assert set(responses) == statuses
    for status, response in responses.items():
        headers = set(response.get("headers", {}))
        counted = path != "/v1/openapi.json" and status in {"200", "302", "400", "404", "429"}
        rate = {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}
        assert (rate <= headers) is counted, (path, status)
        if status not in {"200", "302"}:
            assert response["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Error"
            }
    assert (
        "WWW-Authenticate" in responses.get("401", {"headers": {"WWW-Authenticate": 1}})["headers"]
    )
    assert "Allow" in responses["405"]["headers"]
    if "429" in responses:
        assert "Retry-After" in responses["429"]["headers"]
    if "302" in responses:
        assert "Location" in responses["302"]["headers"]


def test_it_documents_every_parameter(served):
    def names(path: str) -> set[str]:
        return {p["name"] for p in served["paths"][path]["get"].get("parameters", [])}

    assert names("/v1/sources") == {"limit", "cursor"}
    assert names("/v1/sources/{id}/entries") == {"id", "limit", "cursor"}
    assert names("/v1/updates") == {"since", "importance", "limit", "cursor"}
    assert names("/v1/entries/{id}/updates") == {"id", "field", "importance", "limit", "cursor"}
    assert names("/v1/entries/{id}/changes") == {"id", "limit", "cursor"}
    assert names("/v1/changes/{id}/snapshot") == {"id", "state", "format"}


def test_it_documents_the_bearer_scheme_on_every_keyed_endpoint(served):
    assert served["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    for path, item in served["paths"].items():
        expected: list[dict[str, list[str]]] = (
            [] if path == "/v1/openapi.json" else [{"bearerAuth": []}]
        )
        assert item["get"]["security"] == expected


def test_value_change_is_a_oneof_with_a_discriminator_on_type(served):
    value_change = served["components"]["schemas"]["ValueChange"]
    assert len(value_change["oneOf"]) == 3
    assert value_change["discriminator"]["propertyName"] == "type"
    assert set(value_change["discriminator"]["mapping"]) == {"number", "string", "boolean"}


def test_feed_update_documents_both_parent_context_forms(served):
    properties = served["components"]["schemas"]["FeedUpdate"]["properties"]
    assert {"entryId", "sourceId", "entryTitle", "entryUrl", "kind", "entry", "source"} <= set(
        properties
    )


def test_snapshot_documents_its_two_content_types(served):
    content = served["paths"]["/v1/changes/{id}/snapshot"]["get"]["responses"]["200"]["content"]
    assert set(content) == {"text/markdown", "text/html"}
