"""`manage.py alerts ACCOUNT`: the account's rules, one a line."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Account
from alerts.channels import display
from alerts.models import AlertRule


class Command(BaseCommand):
    help = "List an account's alert rules."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("account", help="the account's slug")

    def handle(self, *args: Any, **options: Any) -> None:
        account = Account.objects.filter(slug=options["account"]).first()
        if account is None:
            raise CommandError(f"account: no account '{options['account']}'")
        for rule in (
            AlertRule.objects.filter(account=account).select_related("source").order_by("pk")
        ):
            scope = rule.source.public_id if rule.source else "every source"
            state = "active" if rule.active else "paused"
            targets = ", ".join(display(t) for t in rule.targets)
            extras = [f"digest {rule.digest}"] if rule.digest != "none" else []
            extras += ["on first"] if rule.on_first else []
            self.stdout.write(
                "\t".join([rule.public_id, state, rule.condition, scope, targets, *extras])
            )
