"""`ingest PATH|-`: ingest an NDJSON file of fetch documents (docs/ingest.md).

The whole file is validated first (JSON per line, the schema, known accounts, unique
identity keys per fetch). Any bad line: every problem goes to stderr as
`line N: <field>: <message>`, the exit status is 1 and nothing is written. Otherwise each
line is ingested in its own transaction, in file order, and a summary is printed.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Account
from history.ingest import FetchDocument, IngestError, IngestResult, ingest_fetch, parse_fetch

MAX_REPORTED = 100


@dataclass
class Summary:
    fetches: int = 0
    new: int = 0
    modified: int = 0
    removed: int = 0
    updates: int = 0

    def add(self, result: IngestResult) -> None:
        self.fetches += 1
        self.new += result.entries_new
        self.modified += result.entries_modified
        self.removed += result.entries_removed
        self.updates += result.updates


Problem = tuple[int, str]  # (line number, what is wrong with it)


# Each digit as "0" and any other byte as a space: a run of 19 zeros marks an integer
# literal that may not fit in 64 bits.
_DIGITS_ONLY = bytes(ord("0") if ord("0") <= byte <= ord("9") else ord(" ") for byte in range(256))
_LONG_DIGIT_RUN = b"0" * 19


def _loads(raw: bytes, text: str) -> Any:
    """Decode one line with orjson, several times faster than the standard library, or with
    the standard library, which decides as it always did: where orjson refuses a line (the
    standard library accepts NaN and lone surrogates, and words a malformed line's error as
    before), and where the line holds a run of 19 or more digits (orjson reads integers past
    64 bits as floats, losing digits)."""
    if _LONG_DIGIT_RUN in raw.translate(_DIGITS_ONLY):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _parse_line(raw: bytes, number: int) -> FetchDocument | list[str]:
    """One line as a document, or every problem with it."""
    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a UTF-8 byte order mark
    try:
        # msgspec decodes and checks the line in one C pass; most lines end here.
        return parse_fetch(raw)
    except IngestError as exc:
        if not exc.message.startswith("malformed JSON"):
            return [f"{path or '(document)'}: {message}" for path, message in exc.problems]
    # Not JSON to msgspec: words the problem as the standard library does, or reads what
    # only the standard library accepts (NaN, integers past 64 bits, lone surrogates).
    try:
        # Decoded here, not by json.loads, which would guess UTF-16/32 from the bytes.
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [f"not UTF-8 ({exc.reason} at byte {exc.start})"]
    try:
        obj = _loads(raw, text)
    except json.JSONDecodeError as exc:
        return [f"malformed JSON: {exc.msg} at column {exc.colno}"]
    try:
        return parse_fetch(obj)
    except IngestError as exc:
        return [f"{path or '(document)'}: {message}" for path, message in exc.problems]


def validate_lines(lines: list[bytes]) -> tuple[list[tuple[int, FetchDocument]], list[Problem]]:
    """Parse every line; return the documents with their line numbers, and every problem."""
    docs: list[tuple[int, FetchDocument]] = []
    problems: list[Problem] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue  # blank lines (e.g. a trailing newline) carry no fetch
        parsed = _parse_line(raw, number)
        if isinstance(parsed, list):
            problems.extend((number, message) for message in parsed)
        else:
            docs.append((number, parsed))
    return docs, problems


class Command(BaseCommand):
    help = "Ingest an NDJSON file of fetch documents (one fetch per line); - reads stdin."
    stealth_options = ("stdin",)
    # A watcher may run this for every fetch: the system checks (URLs, views, templates)
    # would import half the project and double the start-up, and check nothing ingestion
    # uses. `manage.py check` and every other command still run them.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="NDJSON file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        # Parsing builds tens of thousands of objects a fetch, which sets off the garbage
        # collector's full passes; each would walk every object of Django's start-up too
        # (tens of milliseconds a pass). Frozen, those are skipped: they are not garbage.
        gc.freeze()
        try:
            self._ingest(options)
        finally:
            gc.unfreeze()

    def _ingest(self, options: dict[str, Any]) -> None:
        started = time.perf_counter()
        path: str = options["path"]
        if path == "-":
            stream: IO[bytes] = options.get("stdin") or sys.stdin.buffer
            lines = stream.read().splitlines()
        else:
            try:
                lines = Path(path).read_bytes().splitlines()
            except OSError as exc:
                raise CommandError(f"cannot read {path}: {exc.strerror}") from None

        docs, problems = validate_lines(lines)
        if not docs and not problems:
            raise CommandError(
                f"no fetch documents in {'<stdin>' if path == '-' else path}", returncode=1
            )
        slugs = {doc.account for _, doc in docs}
        accounts = {a.slug: a for a in Account.objects.filter(slug__in=slugs)}
        for number, doc in docs:
            if doc.account not in accounts:
                problems.append((number, f"account: no account '{doc.account}'"))
        if problems:
            problems.sort(key=lambda problem: problem[0])
            for number, message in problems[:MAX_REPORTED]:
                self.stderr.write(f"line {number}: {message}")
            if len(problems) > MAX_REPORTED:
                self.stderr.write(f"... and {len(problems) - MAX_REPORTED} more")
            raise CommandError(
                f"{len(problems)} problem(s) in {path}; nothing was written", returncode=1
            )

        summary = Summary()
        sources: set[int] = set()
        for number, doc in docs:
            try:
                result = ingest_fetch(doc, account=accounts[doc.account])
            except Exception as exc:
                # Each fetch is its own transaction: earlier lines stay written.
                raise CommandError(
                    f"line {number}: not written ({exc}); "
                    f"{summary.fetches} earlier fetch(es) were written",
                    returncode=1,
                ) from exc
            summary.add(result)
            sources.add(result.source_id)
        self.stdout.write(
            f"Ingested {summary.fetches} fetch(es) for {len(sources)} source(s): "
            f"entries {summary.new} new, {summary.modified} modified, {summary.removed} removed; "
            f"{summary.updates} update(s)."
        )
        if options["verbosity"] >= 2:
            # The work alone, the command's start-up left out (what `make bench` reports).
            self.stdout.write(
                f"Took {time.perf_counter() - started:.3f} s to read, validate and write "
                f"{summary.fetches} fetch(es)."
            )
