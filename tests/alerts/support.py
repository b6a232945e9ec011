"""Helpers for the alerts tests: rules and fetches of one shop page."""

from __future__ import annotations

from typing import Any

from accounts.models import Account
from alerts import rules
from alerts.models import AlertDelivery, AlertRule
from history.ingest import ingest


def add_rule(account: Account, condition: str, *targets: str, **options: Any) -> AlertRule:
    data = rules.RuleInput(
        condition=condition, targets=list(targets or ["mailto:o@example.com"]), **options
    )
    return rules.create(account, data)


def item(key: str, price: float | None = None, **attributes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "identityKey": key,
        "title": f"Lamp {key}",
        "currency": "EUR",
        "url": f"https://shop.example.com/p/{key}",
    }
    if price is not None:
        entry["price"] = price
    if attributes:
        entry["attributes"] = {
            name: {"b": value} if isinstance(value, bool) else {"n": value}
            for name, value in attributes.items()
        }
    return entry


def fetch(
    account: Account, *entries: dict[str, Any], url: str = "https://shop.example.com/list"
) -> list[int]:
    doc = {
        "account": account.slug,
        "source": {"url": url, "name": "Shop"},
        "entries": list(entries),
    }
    return list(ingest(doc, account=account).update_ids)


def fired(rule: AlertRule) -> int:
    """How many messages the rule has produced (deliveries of its first target)."""
    return AlertDelivery.objects.filter(rule=rule, target=rule.targets[0]).count()
