"""`manage.py fetch SOURCE_ID` / `manage.py fetch --due`: fetch in this process.

`SOURCE_ID` (the API's `src_…` id) is fetched now whatever its status (an operator's
override; it spends credits like any fetch). `--due` runs one scheduler pass: every source
due now is claimed and fetched once. One line per fetch: `<outcome>: N entries, M updates`
or `<outcome>: <reason>`.

With DEBUG on, a page on this machine, in a process without FETCH_ALLOW_LOOPBACK (a shell;
`make run` sets it), is not fetched and nothing is recorded: the error says how to run it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from history import ids
from history.models import Source
from watcher import schedule
from watcher.check import CheckResult, check
from watcher.sources import loopback_hint


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
        url = Source.objects.filter(pk=pk).values_list("url", flat=True).first() if pk else None
        if pk is None or url is None:
            raise CommandError(f"no source {public_id}")
        if loopback_hint(url):
            # This shell's setting, not the page, would fail the check: nothing is recorded
            # (a failure would count toward the source's autoPause).
            raise CommandError(
                f"{url} is on this machine, and this process does not fetch loopback "
                "addresses; nothing was recorded. As `make run` does: "
                f"FETCH_ALLOW_LOOPBACK=true .venv/bin/python manage.py fetch {public_id}"
            )
        result = check(pk)
        if result is None:
            raise CommandError(f"no source {public_id}")
        self.stdout.write(result.line)

    def _due(self) -> None:
        fetched = paused = 0
        skipped: set[int] = set()
        while True:
            batch = schedule.claim()
            for _pk in batch.credit_paused:
                self.stdout.write("paused: the account has no credits left.")
            paused += len(batch.credit_paused)
            for claim in batch.claims:
                if self._skipped(claim):
                    skipped.add(claim.source_id)
                    continue
                result: CheckResult | None = check(claim.source_id, lease=claim.lease)
                if result is not None:
                    fetched += 1
                    self.stdout.write(result.line)
            if not batch.credit_paused and all(c.source_id in skipped for c in batch.claims):
                break
        self.stdout.write(f"{fetched} source(s) fetched, {paused} paused for lack of credits.")

    def _skipped(self, claim: schedule.Claim) -> bool:
        """A loopback page this process may not fetch: its claim given back (due as when
        claimed, after the sources that were due before it), and said so."""
        url = Source.objects.filter(pk=claim.source_id).values_list("url", flat=True).first()
        if url is None or not loopback_hint(url):
            return False
        claimed_at = claim.lease - settings.WATCH_LEASE_SECONDS * 1000
        Source.objects.filter(pk=claim.source_id, next_fetch_time=claim.lease).update(
            next_fetch_time=claimed_at
        )
        self.stdout.write(
            f"skipped {url}: a page on this machine, fetched only with FETCH_ALLOW_LOOPBACK=true."
        )
        return True
