"""Creating and changing rules: the one place that validates a condition, its targets and
its source, for the CLI, the owner pages and the admin alike."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from accounts.models import Account
from alerts import channels
from alerts import conditions as c
from alerts.models import AlertRule, RulesVersion
from history import ids
from history.models import Entry, Source
from history.valuechange import ATTRIBUTE_KINDS

FIELD_SAMPLE = 2000  # entries whose attribute names count as known (the latest updated)


class RuleError(ValueError):
    """A rule that cannot be saved; the message says which part and why."""


def known_fields(account_id: int, source_id: int | None = None) -> c.Fields:
    """The attribute names a condition may use: those on the account's (or the scoped
    source's) most recently updated entries, with their type."""
    entries = Entry.objects.filter(account_id=account_id, is_stub=False)
    if source_id is not None:
        entries = entries.filter(source_id=source_id)
    found: dict[str, str] = {}
    for attributes in entries.order_by("-update_time").values_list("attributes", flat=True)[
        :FIELD_SAMPLE
    ]:
        for name, value in (attributes or {}).items():
            if name in found or not isinstance(value, dict):
                continue
            key = next((k for k in ("n", "s", "b") if k in value), None)
            if key is not None:
                found[name] = ATTRIBUTE_KINDS[key]
    return c.Fields(found)


@dataclass(frozen=True)
class RuleInput:
    condition: str
    targets: list[str]
    source: str | None = None  # a public source id
    digest: str = AlertRule.Digest.NONE
    on_first: bool = False
    name: str = ""


def resolve_source(account: Account, public_id: str | None) -> Source | None:
    if not public_id:
        return None
    pk = ids.decode(ids.SOURCE, public_id.strip())
    source = Source.objects.filter(pk=pk, account=account, deleting=False).first() if pk else None
    if source is None:
        raise RuleError(f"source: no source '{public_id}' in account '{account.slug}'")
    return source


def validate(account: Account, data: RuleInput) -> tuple[str, list[str], Source | None]:
    """The normalised condition text, targets and source; RuleError names what is wrong."""
    source = resolve_source(account, data.source)
    try:
        parsed = c.parse(data.condition, known_fields(account.pk, source.pk if source else None))
    except c.ConditionError as exc:
        raise RuleError(f"condition: {exc}") from exc
    if data.digest not in AlertRule.Digest.values:
        raise RuleError(f"digest: '{data.digest}' is not one of none, hourly, daily")
    if not data.targets:
        raise RuleError("notify: give at least one target")
    if len(data.targets) > channels.MAX_TARGETS:
        raise RuleError(f"notify: at most {channels.MAX_TARGETS} targets")
    targets: list[str] = []
    for raw in data.targets:
        try:
            target = channels.check_target(raw, account_id=account.pk)
        except channels.TargetError as exc:
            raise RuleError(f"notify: {exc}") from exc
        if target not in targets:
            targets.append(target)
    if len(data.name) > 200:
        raise RuleError("name: at most 200 characters")
    return c.describe(parsed), targets, source


@transaction.atomic
def create(account: Account, data: RuleInput) -> AlertRule:
    condition, targets, source = validate(account, data)
    rule = AlertRule.objects.create(
        account=account,
        name=data.name.strip(),
        condition=condition,
        targets=targets,
        source=source,
        digest=data.digest,
        on_first=data.on_first,
    )
    RulesVersion.bump(account.pk)
    return rule


@transaction.atomic
def update(rule: AlertRule, data: RuleInput) -> AlertRule:
    condition, targets, source = validate(rule.account, data)
    rule.name, rule.condition, rule.targets = data.name.strip(), condition, targets
    rule.source, rule.digest, rule.on_first = source, data.digest, data.on_first
    rule.save()
    RulesVersion.bump(rule.account_id)
    return rule


@transaction.atomic
def set_active(rule: AlertRule, active: bool) -> None:
    AlertRule.objects.filter(pk=rule.pk).update(active=active)
    RulesVersion.bump(rule.account_id)


@transaction.atomic
def delete(rule: AlertRule) -> None:
    account_id = rule.account_id
    rule.delete()
    RulesVersion.bump(account_id)
