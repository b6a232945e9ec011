"""`manage.py addsource SLUG URL [...]`: watch a page for an account (docs/watching.md).

Prints the new source's API id as the last line. Refusals (not http(s), a forbidden
address, a URL the account already has, bad options) go to stderr with exit status 1, and
nothing is written.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Account
from watcher.models import Watch
from watcher.sources import SourceRefused, add_source, parse_fields


class Command(BaseCommand):
    help = "Watch a page for an account; prints the source's API id last."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the account's slug")
        parser.add_argument("url", help="the page's http(s) URL")
        parser.add_argument("--name", default="", help="a display name")
        parser.add_argument("--frequency", type=int, default=60, help="minutes between checks")
        parser.add_argument("--selector", default="", help="CSS selector of one item")
        parser.add_argument(
            "--field", action="append", default=[], metavar="NAME=CSS", help="an attribute"
        )
        parser.add_argument(
            "--ignore", action="append", default=[], metavar="FIELD", help="do not track it"
        )
        parser.add_argument("--pages", type=int, default=1, help="listing pages to follow")
        parser.add_argument("--render", choices=Watch.Render.values, default=Watch.Render.AUTO)

    def handle(self, *args: Any, **options: Any) -> None:
        account = Account.objects.filter(slug=options["slug"]).first()
        if account is None:
            raise CommandError(f"no account with slug {options['slug']!r}")
        try:
            source = add_source(
                account,
                options["url"],
                name=options["name"],
                frequency=options["frequency"],
                selector=options["selector"],
                fields=parse_fields(options["field"]),
                ignore=options["ignore"],
                pages=options["pages"],
                render=options["render"],
            )
        except SourceRefused as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Watching {source.url} for {account.slug}; the first fetch is due now.")
        self.stdout.write(source.public_id)
