"""`mintkey SLUG [--scope read|mcp]... [--name N]`: prints only the key on stdout."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.keys import mint_key
from accounts.models import Account


class Command(BaseCommand):
    help = "Mint an API key for an account and print it (shown only this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="account slug")
        parser.add_argument(
            "--scope",
            action="append",
            choices=list(settings.API_SCOPES),
            help="a scope to grant (repeatable); none given means read",
        )
        parser.add_argument("--name", default="", help="a label for the key")

    def handle(self, *args: Any, **options: Any) -> None:
        account = Account.objects.filter(slug=options["slug"]).first()
        if account is None:
            raise CommandError(f"no account '{options['slug']}'")
        try:
            _, plaintext = mint_key(account=account, name=options["name"], scopes=options["scope"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        # Only the key, so that `KEY=$(manage.py mintkey acme)` works.
        self.stdout.write(plaintext)
