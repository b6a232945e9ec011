"""A `/v1` request leaves no reference cycles: reference counting frees it, not the collector.

DRF links each request's view, request and response in cycles; the API's base view cuts
them when the response is closed (`history.api.views._break_cycles`). Left in place, the
cycle collector freed every page, at about 80 us a request on the feed.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from io import BytesIO
from typing import Any
from urllib.parse import urlsplit
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.handlers.wsgi import WSGIHandler

from tests.api.conftest import History
from tests.api.test_query_budget import endpoints

pytestmark = pytest.mark.django_db


def _serve(handler: WSGIHandler, url: str, headers: dict[str, str]) -> str:
    """One request as gunicorn serves it: call the app, read the body, close the response."""
    parts = urlsplit(url)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": parts.path,
        "QUERY_STRING": parts.query,
        "SERVER_NAME": "testserver",
        "HTTP_HOST": "testserver",
        "wsgi.input": BytesIO(),
    }
    for name, value in headers.items():
        environ[f"HTTP_{name.upper().replace('-', '_')}"] = value
    setup_testing_defaults(environ)
    status: list[str] = []

    def start_response(line: str, headers: Any, exc_info: Any = None) -> Any:
        status.append(line)

    body = handler(environ, start_response)
    try:
        b"".join(body)
    finally:
        body.close()
    return status[0]


@pytest.fixture
def quiet_collector(keep_test_connection: None) -> Iterator[None]:
    """No automatic collection, so that a cycle left behind is still there to be found."""
    gc.disable()
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_no_request_leaves_a_reference_cycle(auth, history: History, quiet_collector: None) -> None:
    handler = WSGIHandler()
    urls = [url for url, _ in endpoints(history)] + [
        "/v1/updates?limit=many",  # 400
        "/v1/entries/ent_00000000000/updates",  # 404
        "/v1/no/such/path",  # 404, no key needed
    ]
    for url in urls:  # warm-up: caches the key, the OpenAPI document, lazy module state
        _serve(handler, url, auth)
    gc.collect()
    statuses = [_serve(handler, url, auth) for url in urls]
    statuses.append(_serve(handler, "/v1/updates", {}))  # 401
    assert [s.split()[0] for s in statuses] == [
        "200",
        "200",
        "200",
        "200",
        "200",
        "200",
        "302",
        "200",
        "400",
        "404",
        "404",
        "401",
    ]
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what is found, to name it if the test fails
    assert gc.collect() == 0, sorted({type(o).__name__ for o in gc.garbage})
