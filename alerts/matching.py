"""Conditions compiled into an index that an update looks up, inside the ingest transaction.

An account's active rules are compiled once and kept in process memory with the account's
`RulesVersion`: each fetch reads that one counter, and compiles again only when it moved.
Rules are indexed by what they look at, so an update checks only the rules that can fire
for it: `new` / `removed` by update type, moves by field, and the thresholds of `price < N`
(and every `FIELD OP N`) in sorted lists, where a crossing from `previous` to `current` is
the slice of thresholds between the two values (two bisections, whatever the rule count).
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from alerts import conditions as c

IMPORTANCE_RANK = {"minor": 0, "material": 1, "critical": 2}


class EntryView(Protocol):
    title: str
    kind: str | None
    price: float | None
    attributes: dict[str, Any]


class UpdateView(Protocol):
    """What matching reads of an update: ingestion's `PendingUpdate` has these attributes."""

    @property
    def entry(self) -> EntryView: ...
    @property
    def update_type(self) -> str: ...
    @property
    def importance(self) -> str | None: ...
    @property
    def field(self) -> str | None: ...
    @property
    def value_change(self) -> dict[str, Any] | None: ...


Check = Callable[[UpdateView], bool]


@dataclass(frozen=True)
class Compiled:
    """One rule, ready to match."""

    rule_id: int
    source_id: int | None
    condition: c.Condition
    on_first: bool
    passes: Check | None  # its filters, None when it has none
    lowest: bool = False


def _filters(filters: Sequence[c.Filter]) -> Check | None:
    if not filters:
        return None
    checks: list[Check] = []
    for item in filters:
        if isinstance(item, c.ImportanceAtLeast):
            checks.append(_importance_check(IMPORTANCE_RANK[item.level]))
        elif isinstance(item, c.TitleContains):
            checks.append(_title_check(item.text))
        else:
            checks.append(_kind_check(item.name))
    if len(checks) == 1:
        return checks[0]
    return lambda u: all(check(u) for check in checks)


def _importance_check(least: int) -> Check:
    def check(update: UpdateView) -> bool:
        return IMPORTANCE_RANK[update.importance or "material"] >= least

    return check


def _title_check(text: str) -> Check:
    def check(update: UpdateView) -> bool:
        return text in (update.entry.title or "").casefold()

    return check


def _kind_check(name: str) -> Check:
    def check(update: UpdateView) -> bool:
        return update.entry.kind == name

    return check


def _compare(op: str, left: float, right: float) -> bool:
    if op == "<":
        return left < right
    if op == "<=":
        return left <= right
    if op == ">":
        return left > right
    return left >= right


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _entry_value(entry: EntryView, name: str) -> Any:
    if name == "price":
        return entry.price
    value = (entry.attributes or {}).get(name)
    if isinstance(value, Mapping):
        for key in ("n", "b", "s"):
            if key in value:
                return value[key]
    return None


def holds_on_first(condition: c.Condition, entry: EntryView) -> bool:
    """Whether a field trigger already holds for an entry seen for the first time."""
    trigger = condition.trigger
    if isinstance(trigger, c.Compare):
        value = _number(_entry_value(entry, trigger.field))
        return value is not None and _compare(trigger.op, value, trigger.value)
    if isinstance(trigger, c.Becomes):
        value = _entry_value(entry, trigger.field)
        return isinstance(value, bool) and value is trigger.value
    if isinstance(trigger, c.Lowest):
        return entry.price is not None  # its first price is its lowest
    return False


def move_fires(trigger: c.Move, previous: float, current: float) -> bool:
    delta = previous - current if trigger.direction == "drop" else current - previous
    if delta <= 0:
        return False
    if trigger.percent:
        return previous > 0 and delta * 100 >= trigger.amount * previous - 1e-9
    return delta >= trigger.amount - 1e-9


@dataclass
class _Thresholds:
    values: list[float] = field(default_factory=list)
    rules: list[Compiled] = field(default_factory=list)

    def crossed(self, op: str, previous: float | None, current: float) -> list[Compiled]:
        """Rules `FIELD op N` that `previous` → `current` makes true (N between the two)."""
        values = self.values
        if op == "<":  # current < N <= previous
            lo = bisect.bisect_right(values, current)
            hi = len(values) if previous is None else bisect.bisect_right(values, previous)
        elif op == "<=":  # current <= N < previous
            lo = bisect.bisect_left(values, current)
            hi = len(values) if previous is None else bisect.bisect_left(values, previous)
        elif op == ">":  # previous <= N < current
            lo = 0 if previous is None else bisect.bisect_left(values, previous)
            hi = bisect.bisect_left(values, current)
        else:  # previous < N <= current
            lo = 0 if previous is None else bisect.bisect_right(values, previous)
            hi = bisect.bisect_right(values, current)
        return self.rules[lo:hi] if lo < hi else []


@dataclass
class RuleIndex:
    """The rules that apply to one source, indexed by what they look at."""

    by_type: dict[str, list[Compiled]] = field(default_factory=dict)  # new, removed
    changed: list[Compiled] = field(default_factory=list)  # any modified update
    every: list[Compiled] = field(default_factory=list)  # filters only: any update
    moves: dict[str, list[Compiled]] = field(default_factory=dict)  # field → drop/rise/...
    thresholds: dict[tuple[str, str], _Thresholds] = field(default_factory=dict)
    fields: set[str] = field(default_factory=set)  # the fields any threshold or move reads
    on_first: list[Compiled] = field(default_factory=list)
    broken: list[Compiled] = field(default_factory=list)
    paused: list[Compiled] = field(default_factory=list)

    @property
    def watches_updates(self) -> bool:
        return bool(self.by_type or self.changed or self.every or self.fields or self.on_first)

    @classmethod
    def build(cls, rules: Iterable[Compiled]) -> RuleIndex:
        index = cls()
        pending: dict[tuple[str, str], list[Compiled]] = {}
        for rule in rules:
            trigger = rule.condition.trigger
            if trigger is None:
                index.every.append(rule)
            elif isinstance(trigger, c.Event):
                if trigger.name == "changed":
                    index.changed.append(rule)
                else:
                    index.by_type.setdefault(trigger.name, []).append(rule)
            elif isinstance(trigger, c.Broken):
                index.broken.append(rule)
            elif isinstance(trigger, c.Paused):
                index.paused.append(rule)
            elif isinstance(trigger, c.Compare):
                pending.setdefault((trigger.field, trigger.op), []).append(rule)
                index.fields.add(trigger.field)
            else:
                name = "price" if isinstance(trigger, c.Move | c.Lowest) else trigger.field
                index.moves.setdefault(name, []).append(rule)
                index.fields.add(name)
            if rule.on_first and isinstance(trigger, c.Compare | c.Becomes | c.Lowest):
                index.on_first.append(rule)
        for key, group in pending.items():
            group.sort(key=lambda r: _threshold(r))
            index.thresholds[key] = _Thresholds([_threshold(r) for r in group], group)
        return index

    def match(self, update: UpdateView) -> tuple[list[Compiled], list[Compiled]]:
        """The rules this update fires, and the `price lowest` rules it may fire (these need
        the entry's all-time low, read afterwards for all of a fetch's candidates at once)."""
        kind = update.update_type
        candidates: list[Compiled] = []
        if self.every:
            candidates.extend(self.every)
        if kind == "modified":
            if self.changed:
                candidates.extend(self.changed)
            name = update.field
            if name is not None and name in self.fields:
                return self._field(update, name, candidates)
        else:
            typed = self.by_type.get(kind)
            if typed:
                candidates.extend(typed)
            if kind == "new" and self.on_first:
                entry = update.entry
                candidates.extend(r for r in self.on_first if holds_on_first(r.condition, entry))
        if not candidates:
            return candidates, []
        return [r for r in candidates if r.passes is None or r.passes(update)], []

    def _field(
        self, update: UpdateView, name: str, candidates: list[Compiled]
    ) -> tuple[list[Compiled], list[Compiled]]:
        change = update.value_change or {}
        current = _number(change.get("current"))
        previous = _number(change.get("previous"))
        lowest: list[Compiled] = []
        if current is not None and change.get("type") == "number":
            for op in c.CMP_OPS:
                group = self.thresholds.get((name, op))
                if group is not None:
                    candidates.extend(group.crossed(op, previous, current))
        for rule in self.moves.get(name, ()):
            trigger = rule.condition.trigger
            if isinstance(trigger, c.Becomes):
                before, after = change.get("previous"), change.get("current")
                if after is trigger.value and isinstance(before, bool) and before is not after:
                    candidates.append(rule)
            elif current is None:
                continue
            elif isinstance(trigger, c.Move):
                if previous is not None and move_fires(trigger, previous, current):
                    candidates.append(rule)
            elif isinstance(trigger, c.Lowest) and (rule.passes is None or rule.passes(update)):
                lowest.append(rule)
        return [r for r in candidates if r.passes is None or r.passes(update)], lowest


def _threshold(rule: Compiled) -> float:
    trigger = rule.condition.trigger
    assert isinstance(trigger, c.Compare)
    return trigger.value


@dataclass
class AccountRules:
    """An account's compiled active rules, and an index per source built on first use."""

    version: int
    rules: list[Compiled]
    _by_source: dict[int, RuleIndex] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def for_source(self, source_id: int) -> RuleIndex:
        index = self._by_source.get(source_id)
        if index is None:
            index = RuleIndex.build(
                r for r in self.rules if r.source_id is None or r.source_id == source_id
            )
            with self._lock:
                if len(self._by_source) > 10_000:  # an account with very many sources
                    self._by_source.clear()
                self._by_source[source_id] = index
        return index


def compile_rule(
    rule_id: int, condition: str, *, source_id: int | None, on_first: bool
) -> Compiled | None:
    """A stored rule compiled; None for text that no longer parses (never raised here: a
    bad rule must not fail a fetch)."""
    try:
        parsed = c.parse(condition)
    except c.ConditionError:
        return None
    return Compiled(
        rule_id=rule_id,
        source_id=source_id,
        condition=parsed,
        on_first=on_first,
        passes=_filters(parsed.filters),
        lowest=isinstance(parsed.trigger, c.Lowest),
    )
