"""`manage.py addalert ACCOUNT --when CONDITION --notify TARGET ...`: prints the rule's id."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Account
from alerts import rules


class Command(BaseCommand):
    help = "Add an alert rule to an account; prints the new rule's id as the last line."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("account", help="the account's slug")
        parser.add_argument("--when", required=True, help='a condition, e.g. "price < 30"')
        parser.add_argument("--notify", action="append", required=True, help="a target")
        parser.add_argument("--source", default=None, help="a source id (src_…)")
        parser.add_argument("--digest", default="none", help="none, hourly or daily")
        parser.add_argument("--on-first", action="store_true", dest="on_first")
        parser.add_argument("--name", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        account = Account.objects.filter(slug=options["account"]).first()
        if account is None:
            raise CommandError(f"account: no account '{options['account']}'")
        data = rules.RuleInput(
            condition=options["when"],
            targets=options["notify"],
            source=options["source"],
            digest=options["digest"],
            on_first=options["on_first"],
            name=options["name"],
        )
        try:
            rule = rules.create(account, data)
        except rules.RuleError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(rule.public_id)
