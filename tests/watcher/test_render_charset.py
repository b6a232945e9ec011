"""One decoding rule for both paths: a page read statically and the same page rendered
give the same text, so a source that switches path records no false title changes."""

from __future__ import annotations

import os
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from history import ids
from history.models import Entry
from tests.factories import AccountFactory
from tests.watcher.site import Site
from watcher import render

pytestmark = [pytest.mark.django_db, pytest.mark.browser]

if not render.available():
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI requires Chromium for the rendering tests")
    pytest.skip("no Chromium here", allow_module_level=True)

# En and em dashes and curly quotes: three bytes each in UTF-8, mojibake in Windows-1252.
NAMES = (
    "Caf\u00e9 \u2013 Dover",
    "Cr\u00e8me br\u00fbl\u00e9e \u2014 Calais",
    "Ostend \u201cHarbour\u201d",
)


def listing(head: str = "") -> str:
    cards = "".join(
        f'<div class="card"><h3><a href="/item/{i}">{name}</a></h3><p>€{i + 3}.50</p></div>'
        for i, name in enumerate(NAMES)
    )
    head = f"<head>{head}<title>Tides</title></head>"
    return f"<!doctype html><html>{head}<body>{cards}</body></html>"


@pytest.fixture(autouse=True, scope="module")
def _close_browser() -> Any:
    yield
    render.shutdown()


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip().splitlines()[-1]


def titles(source_id: str) -> list[str]:
    pk = ids.decode(ids.SOURCE, source_id)
    assert pk is not None
    return sorted(Entry.objects.filter(source_id=pk).values_list("title", flat=True))


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        pytest.param(listing().encode("utf-8"), "text/html", id="no-charset-utf8"),
        pytest.param(listing().encode("utf-8"), None, id="no-content-type-utf8"),
        pytest.param(
            listing('<meta charset="windows-1252">').encode("cp1252"),
            "text/html",
            id="meta-windows-1252",
        ),
        pytest.param(
            listing().encode("iso-8859-15", "replace"),
            "text/html; charset=ISO-8859-15",
            id="header-latin-9",
        ),
    ],
)
def test_static_and_rendered_read_the_same_titles(
    site: Site, body: bytes, content_type: str | None
) -> None:
    AccountFactory(slug="acme")
    site.page("/static", body, content_type=content_type)
    site.page("/rendered", body, content_type=content_type)
    static = run("addsource", "acme", site.url("/static"), "--render", "never")
    rendered = run("addsource", "acme", site.url("/rendered"), "--render", "always")
    assert run("fetch", static) == "ok: 3 entries, 3 updates"
    assert run("fetch", rendered) == "ok: 3 entries, 3 updates"
    expected = sorted(name.encode("iso-8859-15", "replace").decode("iso-8859-15") for name in NAMES)
    if content_type is None or "charset" not in content_type:
        expected = sorted(NAMES)
    assert titles(static) == expected
    assert titles(rendered) == titles(static)


def test_the_browser_is_told_the_charset_the_static_path_reads(site: Site) -> None:
    site.page("/p", listing().encode("utf-8"), content_type="text/html")
    html = render.render(site.url("/p")).html
    assert NAMES[0] in html
    assert "â€" not in html  # what Windows-1252 makes of UTF-8's dashes
