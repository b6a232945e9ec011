"""`manage.py ingest`: the whole file is validated first; a bad line writes nothing."""

from __future__ import annotations

import io
import json
import re
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


def test_every_problem_of_every_bad_line_is_reported(account, tmp_path):
    many = fetch_doc(
        "acme",
        [
            {"identityKey": "x", "title": " ", "price": "9.99", "colour": "red"},
            {"identityKey": "y", "title": "B", "attributes": {"size": {"n": 1, "s": "one"}}},
            {"identityKey": "y", "title": "C"},
        ],
        at=-5,
    )
    path = write(tmp_path, many, GOOD, fetch_doc("acme", [{"title": "D", "url": "ftp://x"}]))
    err = io.StringIO()

    with pytest.raises(CommandError, match="7 problem"):
        call_command("ingest", str(path), stdout=io.StringIO(), stderr=err)

    assert err.getvalue().splitlines() == [
        "line 1: at: must be a non-negative integer (epoch milliseconds)",
        "line 1: entries[0].colour: unknown field",
        "line 1: entries[0].title: must not be empty",
        "line 1: entries[0].price: must be a number",
        "line 1: entries[1].attributes.size: exactly one of n, s, b is required",
        "line 1: entries[2].identityKey: duplicate identity key 'y' (also entries[1])",
        "line 3: entries[0].url: must be an http(s) URL",
    ]
    assert table_counts() == (0, 0, 0, 0, 0, 0)


def test_a_well_typed_line_reports_every_rule_it_breaks(account, tmp_path):
    line = fetch_doc(
        "acme",
        [
            {"identityKey": "y", "title": "B", "attributes": {"size": {"n": 1, "s": "one"}}},
            {"identityKey": "y", "title": "C"},
        ],
        errorReason="why",
        narrations=[{"identityKey": "nope", "headline": "H"}],
    )
    err = io.StringIO()

    with pytest.raises(CommandError):
        call_command("ingest", str(write(tmp_path, line)), stdout=io.StringIO(), stderr=err)

    assert err.getvalue().splitlines() == [
        "line 1: errorReason: only allowed when outcome is failed or broken",
        "line 1: entries[0].attributes.size: exactly one of n, s, b is required",
        "line 1: entries[1].identityKey: duplicate identity key 'y' (also entries[0])",
        "line 1: narrations[0].identityKey: no entry 'nope' in this fetch",
    ]


@pytest.mark.parametrize("content", [b"", b"\n", b"  \n\n\t\n"])
def test_a_file_with_no_fetch_documents_fails(tmp_path, content):
    path = tmp_path / "empty.ndjson"
    path.write_bytes(content)

    with pytest.raises(CommandError, match=f"no fetch documents in {path}$") as caught:
        run(str(path))

    assert caught.value.returncode == 1
    assert table_counts() == (0, 0, 0, 0, 0, 0)


def test_empty_standard_input_fails_naming_it():
    with pytest.raises(CommandError, match="no fetch documents in <stdin>") as caught:
        run("-", stdin=io.BytesIO(b"\n"))

    assert caught.value.returncode == 1


def test_verbosity_two_adds_the_time_of_the_work(account, tmp_path, tmp_storage):
    """`-v 2` prints how long reading, validating and writing took (`make bench` reads it:
    the work without the command's start-up); the default output stays one line."""
    path = write(tmp_path, GOOD)
    out = io.StringIO()

    call_command("ingest", str(path), verbosity=2, stdout=out, stderr=io.StringIO())

    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Ingested 1 fetch(es)")
    took = re.fullmatch(
        r"Took (\d+\.\d{3}) s to read, validate and write 1 fetch\(es\)\.", lines[1]
    )
    assert took is not None
    assert 0 < float(took.group(1)) < 60
