"""`manage.py ingest`: the whole file is validated first; a bad line writes nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from history.models import Change, Entry, FeedClock, PageState, Source, Update
from tests.history.conftest import fetch_doc

pytestmark = pytest.mark.django_db

GOOD = fetch_doc(
    "acme", [{"identityKey": "a", "title": "A", "price": 3}], snapshot={"markdown": "A\n"}
)


def write(tmp_path: Path, *lines: Any) -> Path:
    path = tmp_path / "fetches.ndjson"
    path.write_bytes(
        b"\n".join(line if isinstance(line, bytes) else json.dumps(line).encode() for line in lines)
        + b"\n"
    )
    return path


def run(path: str, stdin: Any = None) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("ingest", path, stdout=out, stderr=err, stdin=stdin)
    return out.getvalue(), err.getvalue()


def table_counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count() for model in (Source, Entry, Change, Update, PageState, FeedClock)
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"account": "acme", "source": ', "line 2: malformed JSON"),
        (
            fetch_doc("acme", [], outcome="maybe"),
            "line 2: outcome: must be one of ok, failed, broken",
        ),
        (fetch_doc("nobody", []), "line 2: account: no account 'nobody'"),
        (
            fetch_doc("acme", [{"title": "A", "attributes": {"size": {"n": 1, "b": True}}}]),
            "line 2: entries[0].attributes.size: exactly one of n, s, b is required",
        ),
        (
            fetch_doc("acme", [{"title": "A", "price": "12.50"}]),
            "line 2: entries[0].price: must be a number",
        ),
        (
            fetch_doc(
                "acme", [{"identityKey": "x", "title": "A"}, {"identityKey": "x", "title": "B"}]
            ),
            "line 2: entries[1].identityKey: duplicate identity key 'x'",
        ),
        (fetch_doc("acme", [{"identityKey": "x"}]), "line 2: entries[0].title: is required"),
        (b"\xff\xfe not utf-8", "line 2: not UTF-8"),
    ],
)
def test_a_bad_line_is_reported_with_its_number_and_field_and_nothing_is_written(
    account, tmp_path, tmp_storage, line, expected
):
    path = write(tmp_path, GOOD, line, GOOD)
    before = table_counts()
    err = io.StringIO()

    with pytest.raises(CommandError) as caught:
        call_command("ingest", str(path), stdout=io.StringIO(), stderr=err)

    assert caught.value.returncode == 1
    assert expected in err.getvalue()
    assert "nothing was written" in str(caught.value)
    assert table_counts() == before == (0, 0, 0, 0, 0, 0)
    assert not tmp_storage.exists() or not any(tmp_storage.rglob("*.*"))


def test_every_bad_line_is_reported_in_line_order(account, tmp_path):
    path = write(tmp_path, b"{", GOOD, fetch_doc("ghost", []), fetch_doc("acme", [{"price": 1}]))
    err = io.StringIO()

    with pytest.raises(CommandError):
        call_command("ingest", str(path), stdout=io.StringIO(), stderr=err)

    lines = err.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["line 1", "line 3", "line 4"]


def test_a_good_file_is_ingested_line_by_line_with_a_summary(account, tmp_path, tmp_storage):
    second = fetch_doc("acme", [{"identityKey": "b", "title": "B"}])
    other_source = fetch_doc("acme", [{"title": "C"}], source={"url": "https://jobs.example.com/"})
    path = write(tmp_path, GOOD, b"", second, other_source)

    out, err = run(str(path))

    assert err == ""
    assert out.strip() == (
        "Ingested 3 fetch(es) for 2 source(s): entries 3 new, 0 modified, 1 removed; 4 update(s)."
    )
    assert Update.objects.count() == 4
    assert set(Entry.objects.values_list("identity_key", "update_type")) == {
        ("a", "removed"),
        ("b", "new"),
        ("C", "new"),
    }


def test_dash_reads_standard_input(account, tmp_storage):
    stdin = io.BytesIO(json.dumps(GOOD).encode() + b"\n")

    out, _ = run("-", stdin=stdin)

    assert "Ingested 1 fetch(es)" in out
    assert Entry.objects.get().identity_key == "a"


def test_an_unreadable_path_fails(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        run(str(tmp_path / "missing.ndjson"))
