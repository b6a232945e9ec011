"""`manage.py fetch SOURCE_ID` / `manage.py fetch --due`: fetch in this process.

`SOURCE_ID` (the API's `src_…` id) is fetched now whatever its status (an operator's
override; it spends credits like any fetch). `--due` runs one scheduler pass: every source
due now is claimed and fetched once. One line per fetch: `<outcome>: N entries, M updates`
or `<outcome>: <reason>`.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from history import ids
from history.models import Source
from watcher import schedule
from watcher.check import CheckResult, check


class Command(BaseCommand):
    help = "Fetch one source now, or every due source once (--due)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source_id", nargs="?", help="the source's API id (src_…)")
        parser.add_argument("--due", action="store_true", help="fetch every due source once")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["due"] == bool(options["source_id"]):
            raise CommandError("give either a SOURCE_ID or --due")
        if options["due"]:
            self._due()
            return
        public_id = options["source_id"]
        pk = ids.decode(ids.SOURCE, public_id)
        if pk is None or not Source.objects.filter(pk=pk).exists():
            raise CommandError(f"no source {public_id}")
        result = check(pk)
        if result is None:
            raise CommandError(f"no source {public_id}")
        self.stdout.write(result.line)

    def _due(self) -> None:
        fetched = paused = 0
        while True:
            batch = schedule.claim()
            for _pk in batch.credit_paused:
                self.stdout.write("paused: the account has no credits left.")
            paused += len(batch.credit_paused)
            for claim in batch.claims:
                result: CheckResult | None = check(claim.source_id, lease=claim.lease)
                if result is not None:
                    fetched += 1
                    self.stdout.write(result.line)
            if not batch.claims and not batch.credit_paused:
                break
        self.stdout.write(f"{fetched} source(s) fetched, {paused} paused for lack of credits.")
