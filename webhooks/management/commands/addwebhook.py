"""`manage.py addwebhook SLUG URL [--description D]`: register a receiver for an account.

Prints the signing secret alone on the last line of stdout (the only time it is shown).
An unknown account or an unsafe URL prints a message on stderr and exits non-zero.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Account
from webhooks import sender, signing
from webhooks.models import WebhookEndpoint


class Command(BaseCommand):
    help = "Register a webhook receiver for an account and print its signing secret."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the account's slug")
        parser.add_argument("url", help="the receiver's public https URL")
        parser.add_argument("--description", default="", help="a note for the owner")

    def handle(self, *args: Any, **options: Any) -> None:
        account = Account.objects.filter(slug=options["slug"]).first()
        if account is None:
            raise CommandError(f"no account with slug {options['slug']!r}")
        url = options["url"].strip()
        try:
            sender.check_url(url)
        except sender.UnsafeURL as exc:
            raise CommandError(f"refusing unsafe webhook URL {url}: {exc}") from exc
        except sender.DNSFailure as exc:
            raise CommandError(f"webhook URL does not resolve: {exc}") from exc
        existing = WebhookEndpoint.objects.filter(account=account, url=url).first()
        if existing is not None:
            raise CommandError(f"{url} is already webhook {existing.pk} of {account.slug}")
        secret = signing.new_secret()
        endpoint = WebhookEndpoint(account=account, url=url, description=options["description"])
        endpoint.secret = secret
        endpoint.save()
        self.stdout.write(f"Webhook {endpoint.pk} registered for {account.slug}: {url}")
        self.stdout.write("Signing secret (shown once):")
        self.stdout.write(secret)
