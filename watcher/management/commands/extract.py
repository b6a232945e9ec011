"""`manage.py extract FILE --base-url URL [--selector CSS] [--field NAME=CSS]... [--ignore F]`

Runs the extraction on a saved page (HTML, or an RSS/Atom feed; `-` reads standard input)
without fetching or writing anything, and prints `{"entryKinds": [...], "entries": [...]}`
in the fetch document's field names: how an owner or operator sees why a page reads the
way it does.

With `--candidates`, prints `{"candidates": [...]}` instead: the page's distinct lists, best
first, each a CSS selector that matches its items (give it as `--selector`, or as a
source's item selector), their count and the first items' title, url and price
(`watcher.extract.candidates`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from watcher.extract import Page, SelectorProblem, extract
from watcher.extract.candidates import candidates
from watcher.sources import SourceRefused, check_selector, parse_fields


class Command(BaseCommand):
    help = "Print the entries the watcher would extract from a saved page."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a saved page (HTML, RSS or Atom), or - for stdin")
        parser.add_argument("--base-url", required=True, help="the page's URL")
        parser.add_argument("--selector", default="", help="CSS selector of one item")
        parser.add_argument("--field", action="append", default=[], metavar="NAME=CSS")
        parser.add_argument("--ignore", action="append", default=[], metavar="FIELD")
        parser.add_argument(
            "--candidates", action="store_true", help="print the page's ranked lists instead"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        base_url = options["base_url"]
        if not base_url.startswith(("http://", "https://")):
            raise CommandError("--base-url must be an http(s) URL")
        try:
            fields = parse_fields(options["field"])
            selector = (
                check_selector(options["selector"], "--selector") if options["selector"] else ""
            )
        except SourceRefused as exc:
            raise CommandError(str(exc)) from exc
        path = options["file"]
        try:
            body = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from exc
        page = Page.parse(body, base_url)
        if options["candidates"]:
            ranked = [c.as_json() for c in candidates(page)]
            self.stdout.write(json.dumps({"candidates": ranked}, indent=2, ensure_ascii=False))
            return
        try:
            ex = extract(page, selector=selector or None, fields=fields, ignore=options["ignore"])
        except SelectorProblem as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(ex.as_json(), indent=2, ensure_ascii=False))
