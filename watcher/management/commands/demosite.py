"""`manage.py demosite [--port 8002] [--account demo]`: serve the demo site on loopback and
make sure the account watches its pages (`make run` runs it beside the other processes)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Account
from history.models import Source
from watcher import demosite
from watcher.sources import SourceRefused, add_source

SOURCES = [
    ("/shop", "Harbor Supply: lanterns and charts"),
    ("/jobs", "Harbor Supply: jobs"),
    ("/feed.xml", "Harbor news (RSS)"),
]


class Command(BaseCommand):
    help = "Serve the demo site on 127.0.0.1 and watch its pages for the demo account."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8002)
        parser.add_argument("--account", default="demo")
        parser.add_argument("--frequency", type=int, default=1, help="minutes between checks")

    def handle(self, *args: Any, **options: Any) -> None:
        server = demosite.serve(options["port"])
        base = f"http://127.0.0.1:{options['port']}"
        account = Account.objects.filter(slug=options["account"]).first()
        if account is None:
            raise CommandError(f"no account {options['account']!r} (run manage.py demo first)")
        for path, name in SOURCES:
            url = base + path
            if Source.objects.filter(account=account, url=url, deleting=False).exists():
                continue
            try:
                add_source(account, url, name=name, frequency=options["frequency"])
            except SourceRefused as exc:
                raise CommandError(f"{exc} (make run sets FETCH_ALLOW_LOOPBACK=true)") from exc
        self.stdout.write(f"Demo site on {base}/ (watched every {options['frequency']} min).")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            server.shutdown()
