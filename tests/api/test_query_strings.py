"""The `/v1` views read query parameters exactly as Django's QueryDict would.

`history.api.views._query` parses short ASCII query strings itself (Django's `parse_qsl`
arguments, without building the QueryDict); these tests hold it to `query_params.get` on
arbitrary query strings, and check that the rest still goes through Django.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from accounts.models import Account
from history.api.views import _FEW_FIELDS, _query
from tests.factories import api_key

NAMES = ("since", "importance", "limit", "cursor", "a b", "é")


def _request(query_string: str) -> Request:
    request = APIRequestFactory().get("/v1/updates")
    request.META["QUERY_STRING"] = query_string  # as a WSGI server hands it over
    return Request(request)


def _django(query_string: str) -> dict[str, str | None]:
    request = _request(query_string)
    return {name: request.query_params.get(name) for name in NAMES}


_PIECES = st.sampled_from(
    ["since", "importance", "limit", "cursor", "=", "&", ";", "+", "%", "%20", "%2", "%zz",
     "%C3%A9", "%e9", "%00", "a", "b", " ", "material", "1", "-", "é", "\x7f", "?", "#"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=24).map("".join))
def test_any_query_string_reads_as_django_reads_it(query_string: str) -> None:
    assert _query(_request(query_string), *NAMES) == _django(query_string)


@pytest.mark.parametrize(
    "query_string",
    [
        "importance=material&importance=minor",  # the last value wins
        "importance=&limit",  # blank values are kept
        "a+b=1&since=%31%32",  # '+' is a space; percent-decoding
        "since=1;importance=minor",  # ';' does not separate
        "&&limit=5&&",
        "%C3%A9=1",  # a percent-encoded UTF-8 name
        "cursor=%E9",  # not UTF-8: replaced, as Django does
    ],
)
def test_edge_cases_read_as_django_reads_them(query_string: str) -> None:
    assert _query(_request(query_string), *NAMES) == _django(query_string)


def test_short_ascii_query_strings_skip_the_querydict() -> None:
    request = _request("importance=material&limit=5")
    with mock.patch("django.http.request.QueryDict.__init__", side_effect=AssertionError):
        assert _query(request, "importance", "limit", "since") == {
            "importance": "material",
            "limit": "5",
            "since": None,
        }


@pytest.mark.parametrize(
    "query_string",
    [
        "&".join(f"f{i}=1" for i in range(_FEW_FIELDS)) + "&limit=7",  # many fields
        "cursor=\xe9&limit=7",  # raw Latin-1 from the server: Django decodes it
    ],
)
def test_other_query_strings_go_through_django(query_string: str) -> None:
    request = _request(query_string)
    assert _query(request, *NAMES) == _django(query_string)
    assert _query(request, "limit")["limit"] == "7"
    assert "GET" in request._request.__dict__  # Django's QueryDict was built


@pytest.mark.django_db
def test_too_many_fields_answer_400_invalid_request(client: Client, account: Account) -> None:
    auth = {"Authorization": f"Bearer {api_key(account)}"}
    fields = "&".join(f"f{i}=1" for i in range(1_001))  # DATA_UPLOAD_MAX_NUMBER_FIELDS: 1,000
    response = client.get(f"/v1/updates?{fields}", headers=auth)
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": "invalid_request",
            "message": "The query string has more than 1000 parameters.",
        }
    }
    assert "X-RateLimit-Remaining" in response  # counted, like any 400
