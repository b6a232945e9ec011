"""Property-based conformance of every /v1 endpoint with the served OpenAPI document.

Schemathesis generates requests from the document and sends them in-process through the
WSGI app, with a seeded history and a valid key. Positive runs: no 5xx, only documented
statuses, content types and headers, and every body matching its schema. Negative runs:
parameters that violate the document (a non-integer `limit`, an unknown `importance`,
`state` or `format`, an empty `field`) must be rejected with a 4xx. Path ids are either
generated (mostly 404) or swapped for a real id of the seeded account (200). Examples
are bounded and derandomized so the run stays short and repeatable.
"""

from __future__ import annotations

import copy
from typing import Any

import hypothesis
import pytest
import schemathesis
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.models import ApiKey
from config.wsgi import application
from history.api.schema import document
from tests.api.conftest import History

pytestmark = pytest.mark.django_db

MAX_EXAMPLES = 25

POSITIVE_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def load(mode: str) -> Any:
    config = schemathesis.Config.from_dict(
        {
            "seed": 20240501,
            "generation": {
                "mode": mode,
                "max-examples": MAX_EXAMPLES,
                "with-security-parameters": False,
                "deterministic": True,
                "database": "none",
            },
            "phases": {"stateful": {"enabled": False}},
        }
    )
    schema = schemathesis.openapi.from_dict(copy.deepcopy(document()), config=config)
    schema.app = application
    return schema


@pytest.fixture
def seeded(db: None, history: History, key: str, keep_test_connection: None) -> dict[str, Any]:
    """Real ids to swap in, and the key made effectively unlimited for the run."""
    ApiKey.objects.update(rate_limit=1_000_000)
    return {
        "headers": {"Authorization": f"Bearer {key}"},
        "ids": {
            "/v1/sources/{id}/entries": history.source.public_id,
            "/v1/entries/{id}/updates": history.kettle.public_id,
            "/v1/entries/{id}/changes": history.kettle.public_id,
            "/v1/changes/{id}/snapshot": history.second.public_id,
        },
    }


# Loaded at import from the generated document (no request, no database needed).
positive = load("positive")
# /v1/openapi.json takes no parameter, so there is nothing invalid to send it.
negative = load("negative").exclude(path="/v1/openapi.json")

_SETTINGS = hypothesis.settings(
    deadline=None,
    derandomize=True,
    suppress_health_check=list(hypothesis.HealthCheck),
    database=None,
)


def _use_real_id(case: Any, seeded: dict[str, Any], real: bool) -> None:
    real_id = seeded["ids"].get(case.path)
    if real and real_id is not None and case.path_parameters:
        case.path_parameters["id"] = real_id


@positive.parametrize()
@positive.given(real=st.booleans())
@_SETTINGS
def test_positive_requests_conform_to_the_document(case: Any, seeded: dict, real: bool) -> None:
    _use_real_id(case, seeded, real)
    case.call_and_validate(headers=seeded["headers"], checks=POSITIVE_CHECKS)


@negative.parametrize()
@negative.given(real=st.booleans())
@_SETTINGS
def test_invalid_parameters_are_rejected(case: Any, seeded: dict, real: bool) -> None:
    _use_real_id(case, seeded, real)
    case.call_and_validate(
        headers=seeded["headers"], checks=[*POSITIVE_CHECKS, negative_data_rejection]
    )
