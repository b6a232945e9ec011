"""The ingestion engine: what a watcher saw at one fetch, turned into history.

Two steps, kept apart so that a whole file can be validated before anything is written:

- `parse_fetch(obj)` checks one fetch document (one NDJSON line, docs/ingest.md) and returns
  a `FetchDocument`, or raises `IngestError` naming the field path.
- `ingest_fetch(doc, account=...)` writes it in ONE transaction, all or nothing: the
  per-account feed clock is locked and stamps `at` (DESIGN "Polling without loss"), the
  source is created or updated, one Change row is written, entries are reconciled in
  memory against the source's stored entries, and typed Update rows are bulk-inserted.
  `history.signals.updates_recorded` is sent inside the transaction.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson
from django.conf import settings
from django.db import connection, transaction

from accounts.models import Account
from history import importance as importance_rules
from history import pagestate
from history.clock import now_ms
from history.models import (
    Change,
    Entry,
    FeedClock,
    Importance,
    PageState,
    Source,
    Update,
    UpdateType,
)
from history.signals import updates_recorded

OUTCOMES = ("ok", "failed", "broken")
ATTRIBUTE_KINDS = {"n": "number", "s": "string", "b": "boolean"}
# `title` and `price` are Update.field values of their own; an attribute may not shadow them.
RESERVED_ATTRIBUTE_NAMES = frozenset({"title", "price"})

# Length limits of the entry format, shared by the full checker (`_entry`) and the one-pass
# fast path (`_plain_entry`), so the two can never disagree on them.
KEY_MAX = 512  # identityKey, and whichever field stands in for it
URL_MAX = 2048
KIND_MAX = 100
CURRENCY_MAX = 16
ATTRIBUTE_NAME_MAX = 200
UNIT_MAX = 32
_HTTP = ("http://", "https://")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

_TOP_KEYS = frozenset(
    {
        "account",
        "source",
        "at",
        "outcome",
        "errorReason",
        "entryKinds",
        "entries",
        "snapshot",
        "diff",
        "blocks",
        "narrations",
    }
)
_SOURCE_KEYS = frozenset({"url", "name", "monitoringFrequency"})
_ENTRY_KEYS = frozenset(
    {
        "identityKey",
        "title",
        "url",
        "kind",
        "price",
        "currency",
        "imageUrl",
        "attributes",
        "stub",
    }
)
_KIND_KEYS = frozenset({"name", "hasPrice"})
_SNAPSHOT_KEYS = frozenset({"markdown", "html", "screenshot"})
_DIFF_KEYS = {
    "bodyTotalAdditions": "body_total_additions",
    "bodyTotalDeletions": "body_total_deletions",
    "metaAdditions": "meta_additions",
    "metaDeletions": "meta_deletions",
}
_NARRATION_KEYS = frozenset(
    {
        "identityKey",
        "headline",
        "description",
        "importance",
        "startBlockId",
        "endBlockId",
        "blockId",
    }
)
# Fields of Entry that reconciliation may rewrite.
_ENTRY_WRITE_FIELDS = [
    "title",
    "url",
    "kind",
    "price",
    "currency",
    "image_url",
    "attributes",
    "is_stub",
    "read",
    "update_type",
    "update_time",
]
_BATCH = 2000


class IngestError(ValueError):
    """A fetch document that cannot be ingested; `path` names the field (e.g. entries[3].title)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


# --- The parsed document -----------------------------------------------------------------


class EntryDoc(NamedTuple):
    """One entry of a fetch; a named tuple, as a fetch has thousands (a third the cost of a
    frozen dataclass to build)."""

    key: str  # the reconciliation key: identityKey, else url, else title
    title: str
    attributes: dict[str, dict[str, Any]]  # wire form
    url: str | None = None
    kind: str | None = None
    price: float | int | None = None
    currency: str | None = None
    image_url: str | None = None
    stub: bool = False


@dataclass(frozen=True)
class NarrationDoc:
    key: str
    headline: str
    description: str | None = None
    importance: str | None = None
    start_block_id: str | None = None
    end_block_id: str | None = None
    block_id: str | None = None


@dataclass(frozen=True)
class FetchDocument:
    account: str
    source_url: str
    source_name: str | None = None
    monitoring_frequency: int | None = None
    at: int | None = None  # explicit (backfill) time; None = stamped by the feed clock
    outcome: str = "ok"
    error_reason: str | None = None
    entry_kinds: list[dict[str, Any]] | None = None
    entries: list[EntryDoc] | None = None
    snapshot: pagestate.Capture | None = None
    diff: pagestate.DiffCounts | None = None
    blocks: Any = None
    narrations: list[NarrationDoc] = field(default_factory=list)


@dataclass
class IngestResult:
    account_id: int
    source_id: int
    change_id: int
    at: int
    outcome: str
    source_created: bool = False
    entries_new: int = 0
    entries_modified: int = 0
    entries_removed: int = 0
    update_ids: list[int] = field(default_factory=list)

    @property
    def updates(self) -> int:
        return len(self.update_ids)


# --- Parsing and validation --------------------------------------------------------------


def _is_number(value: Any) -> bool:
    # bool is an int in Python, never a number on the wire.
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and not (isinstance(value, float) and not math.isfinite(value))
    )


def _object(value: Any, path: str, allowed: frozenset[str] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise IngestError(path, "must be an object")
    if allowed is not None:
        for name in value:
            if name not in allowed:
                raise IngestError(f"{path}.{name}" if path else name, "unknown field")
    return value


def _string(
    obj: Mapping[str, Any],
    name: str,
    path: str,
    *,
    required: bool = False,
    max_length: int | None = None,
    non_empty: bool = False,
) -> str | None:
    where = f"{path}.{name}" if path else name
    if name not in obj or obj[name] is None:
        if required:
            raise IngestError(where, "is required")
        return None
    value = obj[name]
    if not isinstance(value, str):
        raise IngestError(where, "must be a string")
    if (non_empty or required) and not value.strip():
        raise IngestError(where, "must not be empty")
    if max_length is not None and len(value) > max_length:
        raise IngestError(where, f"must be at most {max_length} characters")
    return value


def _url(obj: Mapping[str, Any], name: str, path: str, *, required: bool = False) -> str | None:
    value = _string(obj, name, path, required=required, max_length=URL_MAX)
    if value is not None and not value.startswith(_HTTP):
        raise IngestError(f"{path}.{name}" if path else name, "must be an http(s) URL")
    return value


def _count(obj: Mapping[str, Any], name: str, path: str) -> int:
    value = obj.get(name, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise IngestError(f"{path}.{name}", "must be a non-negative integer")
    return value


def _attributes(value: Any, path: str) -> dict[str, dict[str, Any]]:
    attrs = _object(value, path)
    parsed: dict[str, dict[str, Any]] = {}
    for name, attr in attrs.items():
        where = f"{path}.{name}"
        if not name.strip() or len(name) > ATTRIBUTE_NAME_MAX:
            raise IngestError(
                where, f"attribute names must be 1 to {ATTRIBUTE_NAME_MAX} characters"
            )
        if name in RESERVED_ATTRIBUTE_NAMES:
            raise IngestError(where, f"'{name}' is a field of its own, not an attribute name")
        attr = _object(attr, where, frozenset({"n", "s", "b", "unit"}))
        present = [k for k in ("n", "s", "b") if k in attr and attr[k] is not None]
        if len(present) != 1:
            raise IngestError(where, "exactly one of n, s, b is required")
        kind = present[0]
        item = attr[kind]
        if kind == "n" and not _is_number(item):
            raise IngestError(f"{where}.n", "must be a number")
        if kind == "s" and not isinstance(item, str):
            raise IngestError(f"{where}.s", "must be a string")
        if kind == "b" and not isinstance(item, bool):
            raise IngestError(f"{where}.b", "must be a boolean")
        clean: dict[str, Any] = {kind: item}
        unit = _string(attr, "unit", where, max_length=UNIT_MAX)
        if unit is not None:
            clean["unit"] = unit
        parsed[name] = clean
    return parsed


def _entry(value: Any, path: str) -> EntryDoc:
    obj = _object(value, path, _ENTRY_KEYS)
    title = _string(obj, "title", path, required=True)
    assert title is not None
    identity = _string(obj, "identityKey", path, max_length=KEY_MAX, non_empty=True)
    url = _url(obj, "url", path)
    price = obj.get("price")
    if price is not None and not _is_number(price):
        raise IngestError(f"{path}.price", "must be a number")
    stub = obj.get("stub", False)
    if not isinstance(stub, bool):
        raise IngestError(f"{path}.stub", "must be a boolean")
    key = identity or url or title
    if len(key) > KEY_MAX:
        raise IngestError(
            f"{path}.title", f"is the identity key here and must be at most {KEY_MAX} characters"
        )
    return EntryDoc(
        key=key,
        title=title,
        url=url,
        kind=_string(obj, "kind", path, max_length=KIND_MAX),
        price=price,
        currency=_string(obj, "currency", path, max_length=CURRENCY_MAX),
        image_url=_url(obj, "imageUrl", path),
        attributes=_attributes(obj["attributes"], f"{path}.attributes")
        if obj.get("attributes") is not None
        else {},
        stub=stub,
    )


def _plain_attributes(value: Any) -> dict[str, dict[str, Any]] | None:
    """What `_attributes` returns, for attributes that pass every check; else None."""
    if type(value) is not dict:
        return None
    parsed: dict[str, dict[str, Any]] = {}
    for name, attr in value.items():
        if (
            type(name) is not str
            or type(attr) is not dict
            or not 0 < len(name) <= ATTRIBUTE_NAME_MAX
            or name in RESERVED_ATTRIBUTE_NAMES
            or not name.strip()
        ):
            return None
        unit = attr.get("unit")
        # One value key, and a unit only when one is given (a null unit takes the long way).
        if unit is None:
            if len(attr) != 1:
                return None
        elif len(attr) != 2 or type(unit) is not str or len(unit) > UNIT_MAX:
            return None
        if "n" in attr:
            kind, item = "n", attr["n"]
            if type(item) is not int and not (type(item) is float and math.isfinite(item)):
                return None
        elif "s" in attr:
            kind, item = "s", attr["s"]
            if type(item) is not str:
                return None
        elif "b" in attr:
            kind, item = "b", attr["b"]
            if type(item) is not bool:
                return None
        else:
            return None
        parsed[name] = {kind: item} if unit is None else {kind: item, "unit": unit}
    return parsed


def _plain_entry(obj: Any) -> EntryDoc | None:
    """The entry of a valid, plainly typed entry object, else None.

    Most entries of a fetch are valid; checking them in one pass, with no error paths,
    costs a fraction of `_entry`, which is most of parsing a fetch. Anything unusual
    returns None and goes through `_entry`, which accepts it or names what is wrong: this
    only ever decides sooner, never differently.
    """
    if type(obj) is not dict or not obj.keys() <= _ENTRY_KEYS:
        return None
    get = obj.get
    title = get("title")
    if type(title) is not str or not title.strip():
        return None
    identity = get("identityKey")
    if identity is not None and (
        type(identity) is not str or len(identity) > KEY_MAX or not identity.strip()
    ):
        return None
    url = get("url")
    if url is not None and (
        type(url) is not str or len(url) > URL_MAX or not url.startswith(_HTTP)
    ):
        return None
    kind = get("kind")
    if kind is not None and (type(kind) is not str or len(kind) > KIND_MAX):
        return None
    price = get("price")
    if (
        price is not None
        and type(price) is not int
        and not (type(price) is float and math.isfinite(price))
    ):
        return None
    currency = get("currency")
    if currency is not None and (type(currency) is not str or len(currency) > CURRENCY_MAX):
        return None
    image_url = get("imageUrl")
    if image_url is not None and (
        type(image_url) is not str or len(image_url) > URL_MAX or not image_url.startswith(_HTTP)
    ):
        return None
    stub = get("stub", False)
    if stub is not True and stub is not False:
        return None
    key = identity or url or title
    if len(key) > KEY_MAX:
        return None
    raw_attributes = get("attributes")
    attributes = {} if raw_attributes is None else _plain_attributes(raw_attributes)
    if attributes is None:
        return None
    return EntryDoc(
        key=key,
        title=title,
        url=url,
        kind=kind,
        price=price,
        currency=currency,
        image_url=image_url,
        attributes=attributes,
        stub=stub,
    )


def _key_field(entry: Mapping[str, Any]) -> str:
    if isinstance(entry.get("identityKey"), str):
        return "identityKey"
    return "url" if isinstance(entry.get("url"), str) else "title"


def _snapshot(value: Any) -> pagestate.Capture:
    obj = _object(value, "snapshot", _SNAPSHOT_KEYS)
    markdown = _string(obj, "markdown", "snapshot")
    html = _string(obj, "html", "snapshot")
    encoded = _string(obj, "screenshot", "snapshot")
    screenshot = None
    if encoded is not None:
        try:
            screenshot = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise IngestError("snapshot.screenshot", "must be base64") from None
        if not screenshot.startswith(PNG_MAGIC):
            raise IngestError("snapshot.screenshot", "must be a base64 PNG image")
    return pagestate.Capture(
        markdown=markdown.encode() if markdown is not None else None,
        html=html.encode() if html is not None else None,
        screenshot=screenshot,
    )


def _narration(value: Any, path: str) -> NarrationDoc:
    obj = _object(value, path, _NARRATION_KEYS)
    key = _string(obj, "identityKey", path, required=True, max_length=KEY_MAX)
    headline = _string(obj, "headline", path, required=True)
    level = _string(obj, "importance", path)
    if level is not None and level not in Importance.values:
        raise IngestError(f"{path}.importance", "must be one of critical, material, minor")
    assert key is not None
    assert headline is not None
    return NarrationDoc(
        key=key,
        headline=headline,
        description=_string(obj, "description", path),
        importance=level,
        start_block_id=_string(obj, "startBlockId", path, max_length=200),
        end_block_id=_string(obj, "endBlockId", path, max_length=200),
        block_id=_string(obj, "blockId", path, max_length=200),
    )


def parse_fetch(obj: Any) -> FetchDocument:
    """Validate one fetch document (a decoded NDJSON line). Raises IngestError."""
    top = _object(obj, "", _TOP_KEYS)
    account = _string(top, "account", "", required=True, max_length=64)
    src = _object(top.get("source"), "source", _SOURCE_KEYS) if "source" in top else None
    if src is None:
        raise IngestError("source", "is required")
    source_url = _url(src, "url", "source", required=True)
    frequency = src.get("monitoringFrequency")
    if frequency is not None and (
        not isinstance(frequency, int) or isinstance(frequency, bool) or frequency < 1
    ):
        raise IngestError("source.monitoringFrequency", "must be a positive integer (minutes)")

    at = top.get("at")
    if at is not None and (not isinstance(at, int) or isinstance(at, bool) or at < 0):
        raise IngestError("at", "must be a non-negative integer (epoch milliseconds)")

    outcome = top.get("outcome", "ok")
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise IngestError("outcome", "must be one of ok, failed, broken")
    error_reason = _string(top, "errorReason", "")
    if error_reason is not None and outcome == "ok":
        raise IngestError("errorReason", "only allowed when outcome is failed or broken")

    entry_kinds = None
    if top.get("entryKinds") is not None:
        if not isinstance(top["entryKinds"], list):
            raise IngestError("entryKinds", "must be an array")
        entry_kinds = []
        seen_kinds: set[str] = set()
        for i, kind in enumerate(top["entryKinds"]):
            where = f"entryKinds[{i}]"
            kind = _object(kind, where, _KIND_KEYS)
            name = _string(kind, "name", where, required=True, max_length=100)
            if not isinstance(kind.get("hasPrice"), bool):
                raise IngestError(f"{where}.hasPrice", "must be a boolean")
            if name in seen_kinds:
                raise IngestError(f"{where}.name", f"duplicate kind '{name}'")
            seen_kinds.add(name)  # type: ignore[arg-type]
            entry_kinds.append({"name": name, "hasPrice": kind["hasPrice"]})

    entries: list[EntryDoc] | None = None
    raw_entries = top.get("entries")
    if outcome == "ok":
        if not isinstance(raw_entries, list):
            raise IngestError("entries", "is required (an array) when outcome is ok")
        entries = []
        seen: dict[str, int] = {}
        for i, raw in enumerate(raw_entries):
            entry = _plain_entry(raw) or _entry(raw, f"entries[{i}]")
            if entry.key in seen:
                raise IngestError(
                    f"entries[{i}].{_key_field(raw)}",
                    f"duplicate identity key '{entry.key}' (also entries[{seen[entry.key]}])",
                )
            seen[entry.key] = i
            entries.append(entry)
    elif raw_entries is not None:
        raise IngestError("entries", "only allowed when outcome is ok")

    narrations: list[NarrationDoc] = []
    if top.get("narrations") is not None:
        if outcome != "ok":
            raise IngestError("narrations", "only allowed when outcome is ok")
        if not isinstance(top["narrations"], list):
            raise IngestError("narrations", "must be an array")
        by_key = {e.key: e for e in entries or []}
        for i, raw in enumerate(top["narrations"]):
            narration = _narration(raw, f"narrations[{i}]")
            target = by_key.get(narration.key)
            if target is None:
                raise IngestError(
                    f"narrations[{i}].identityKey", f"no entry '{narration.key}' in this fetch"
                )
            if target.stub:
                raise IngestError(f"narrations[{i}].identityKey", "refers to a stub entry")
            narrations.append(narration)

    snapshot = _snapshot(top["snapshot"]) if top.get("snapshot") is not None else None
    diff = None
    if top.get("diff") is not None:
        raw_diff = _object(top["diff"], "diff", frozenset(_DIFF_KEYS))
        diff = pagestate.DiffCounts(
            **{attr: _count(raw_diff, name, "diff") for name, attr in _DIFF_KEYS.items()}
        )

    assert account is not None
    assert source_url is not None
    return FetchDocument(
        account=account,
        source_url=source_url,
        source_name=_string(src, "name", "source", max_length=200),
        monitoring_frequency=frequency,
        at=at,
        outcome=outcome,
        error_reason=error_reason,
        entry_kinds=entry_kinds,
        entries=entries,
        snapshot=snapshot if snapshot is not None and not snapshot.is_empty() else None,
        diff=diff,
        blocks=top.get("blocks"),
        narrations=narrations,
    )


# --- Writing -----------------------------------------------------------------------------


def _stamp_at(account: Account, explicit: int | None) -> int:
    """Lock the account's feed clock for this transaction and return the fetch's `at`.

    The row lock serialises writers of one account until commit, and `at` is read after it
    is taken, so rows become visible in `at` order and a poller passing the newest `at` as
    `since` misses nothing. An explicit (backfill) `at` takes the lock but leaves the clock.
    """
    table = connection.ops.quote_name(FeedClock._meta.db_table)
    if connection.vendor == "postgresql":
        # One round trip: the row is created on first use, else locked by ON CONFLICT DO
        # UPDATE, whose SET is computed once the lock is held, so the database clock (one
        # clock for every writer) is read after it.
        now = "(extract(epoch from clock_timestamp()) * 1000)::bigint"
        with connection.cursor() as cursor:
            if explicit is not None:
                cursor.execute(
                    f"INSERT INTO {table} AS c (account_id, last_at) VALUES (%s, 0) "  # noqa: S608
                    "ON CONFLICT (account_id) DO UPDATE SET last_at = c.last_at",
                    [account.pk],
                )
                return explicit
            cursor.execute(
                f"INSERT INTO {table} AS c (account_id, last_at) VALUES (%s, {now}) "  # noqa: S608
                f"ON CONFLICT (account_id) DO UPDATE SET last_at = GREATEST({now}, c.last_at) "
                "RETURNING last_at",
                [account.pk],
            )
            row = cursor.fetchone()
        assert row is not None
        return int(row[0])

    FeedClock.objects.bulk_create([FeedClock(account=account)], ignore_conflicts=True)
    with connection.cursor() as cursor:
        if explicit is not None:
            cursor.execute(
                f"UPDATE {table} SET last_at = last_at WHERE account_id = %s",  # noqa: S608
                [account.pk],
            )
            return explicit
        # SQLite (the embedded default) has one writer at a time, so the write lock taken
        # by this UPDATE already serialises ingestion; the process clock is good enough.
        cursor.execute(
            f"UPDATE {table} SET last_at = MAX(%s, last_at) WHERE account_id = %s",  # noqa: S608
            [now_ms(), account.pk],
        )
        cursor.execute(
            f"SELECT last_at FROM {table} WHERE account_id = %s",  # noqa: S608
            [account.pk],
        )
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def _locked_source(account: Account, url: str) -> tuple[Source | None, int | None]:
    """The account's source at `url`, locked until commit (None if it is new), and the page
    state of its latest ok fetch that captured one: both in one query.

    The subquery reads the source's changes with the statement's snapshot, taken before
    the row lock: no other fetch of this source can commit in between, because every
    writer of the account already holds its feed clock (`_stamp_at`).
    """
    changes = connection.ops.quote_name(Change._meta.db_table)
    sources = connection.ops.quote_name(Source._meta.db_table)
    lock = " FOR UPDATE OF s" if connection.features.has_select_for_update_of else ""
    sql = (
        "SELECT s.*, (SELECT c.current_state_id FROM "  # noqa: S608
        f"{changes} c WHERE c.source_id = s.id AND c.outcome = %s "
        "AND c.current_state_id IS NOT NULL ORDER BY c.at DESC, c.id DESC LIMIT 1) "
        f"AS previous_state_id FROM {sources} s WHERE s.account_id = %s AND s.url = %s{lock}"
    )
    for source in Source.objects.raw(sql, [Source.Outcome.OK, account.pk, url]):
        return source, getattr(source, "previous_state_id", None)
    return None, None


def _save_source_and_change(source: Source, change: Change) -> None:
    """`source.save()` and `change.save()`; on PostgreSQL, for a source already stored, in
    one statement (the source's UPDATE in a WITH clause of the change's INSERT), which
    saves a round trip and most of the ORM's work. Neither model has save() logic or
    signal receivers (DESIGN: signals only where ingestion notifies webhooks)."""
    if connection.vendor != "postgresql" or source.pk is None:
        source.save()
        change.source = source
        change.save()
        return
    quote = connection.ops.quote_name
    source_fields = [f for f in Source._meta.concrete_fields if not f.primary_key]
    change_fields = [f for f in Change._meta.concrete_fields if not f.primary_key]
    sql = (
        f"WITH s AS (UPDATE {quote(Source._meta.db_table)} SET "  # noqa: S608
        + ", ".join(f"{quote(f.column)} = %s" for f in source_fields)
        + f" WHERE id = %s) INSERT INTO {quote(Change._meta.db_table)} ("
        + ", ".join(quote(f.column) for f in change_fields)
        + ") VALUES ("
        + ", ".join(["%s"] * len(change_fields))
        + ") RETURNING id"
    )
    params = [
        *(f.get_db_prep_save(getattr(source, f.attname), connection) for f in source_fields),
        source.pk,
        *(f.get_db_prep_save(f.pre_save(change, True), connection) for f in change_fields),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    assert row is not None
    change.pk = row[0]
    change._state.adding = False
    change._state.db = connection.alias


def _apply_fetch_outcome(source: Source, doc: FetchDocument, at: int) -> None:
    source.last_fetch_time = at
    source.last_fetch_outcome = doc.outcome
    if doc.outcome == "ok":
        source.consecutive_fetch_failures = 0
        # A page that answers again resumes on its own; the owner's `disabled` and the
        # billing `creditPaused` are not ours to lift.
        if source.status == Source.Status.AUTO_PAUSED:
            source.status = Source.Status.ACTIVE
    else:
        source.consecutive_fetch_failures += 1
        source.last_fetch_error_reason = doc.error_reason
        source.last_fetch_error_time = at
        if (
            source.status == Source.Status.ACTIVE
            and source.consecutive_fetch_failures >= settings.AUTOPAUSE_AFTER_FAILURES
        ):
            source.status = Source.Status.AUTO_PAUSED
    if source.status == Source.Status.ACTIVE:
        source.next_fetch_time = at + source.monitoring_frequency * 60_000
    else:
        source.next_fetch_time = None


def _plain_number(value: float | int) -> float | int:
    """A whole float as an int, so `previous` (read back from a float column) and `current`
    (as sent) print alike: 29, not 29.0, beside 35."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _number_change(previous: Any, current: Any, unit: str | None) -> dict[str, Any]:
    change: dict[str, Any] = {"type": "number"}
    if previous is not None:
        change["previous"] = _plain_number(previous)
    change["current"] = _plain_number(current)
    if unit is not None:
        change["unit"] = unit
    return change


def _attribute_change(
    old: Mapping[str, Any] | None, new: Mapping[str, Any]
) -> tuple[dict[str, Any], bool]:
    """The value change from one tracked attribute to another, and whether the type moved."""
    kind_key = next(k for k in ("n", "s", "b") if k in new)
    kind = ATTRIBUTE_KINDS[kind_key]
    old_key = next((k for k in ("n", "s", "b") if old and k in old), None)
    type_changed = old_key is not None and old_key != kind_key
    change: dict[str, Any] = {"type": kind}
    # A value that changed type is recorded in its new type, without `previous`: the old
    # value is not a value of that type.
    if old is not None and not type_changed:
        change["previous"] = old[kind_key]
    change["current"] = new[kind_key]
    if kind == "number":
        for side in ("previous", "current"):
            if side in change:
                change[side] = _plain_number(change[side])
    if kind == "number" and new.get("unit") is not None:
        change["unit"] = new["unit"]
    return change, type_changed


# What reconciliation reads of a stored entry: its keys and every field it may rewrite.
_STORED_FIELDS = ("id", "identity_key", *_ENTRY_WRITE_FIELDS)


class _Stored:
    """A stored entry as plain attributes: building ORM instances costs more than the rest."""

    __slots__ = _STORED_FIELDS
    id: int
    identity_key: str
    title: str
    url: str | None
    kind: str | None
    price: float | None
    currency: str | None
    image_url: str | None
    attributes: dict[str, Any]
    is_stub: bool
    read: bool
    update_type: str
    update_time: int

    def __init__(self, row: tuple[Any, ...]) -> None:
        for name, value in zip(_STORED_FIELDS, row, strict=True):
            setattr(self, name, value)
        # Raw rows: JSON as text, and SQLite's booleans as 0 and 1.
        self.attributes = _json_value(self.attributes) or {}
        self.is_stub, self.read = bool(self.is_stub), bool(self.read)

    @property
    def pk(self) -> int:
        return self.id


# Positions in a raw stored row (`_STORED_FIELDS`).
_KEY, _TITLE, _URL, _KIND, _PRICE, _CURRENCY, _IMAGE_URL, _ATTRIBUTES, _IS_STUB, _UPDATE_TYPE = (
    _STORED_FIELDS.index(name)
    for name in (
        "identity_key",
        "title",
        "url",
        "kind",
        "price",
        "currency",
        "image_url",
        "attributes",
        "is_stub",
        "update_type",
    )
)


# An integer literal that may not fit in 64 bits, which orjson would read as a float.
_LONG_INTEGER = re.compile(r"[0-9]{19}")


def _json_value(value: Any) -> Any:
    """A JSON column's value from a raw row (text on both backends, as Django reads it),
    decoded as the standard library decodes it, by orjson where that is the same."""
    if not isinstance(value, str):
        return value
    if _LONG_INTEGER.search(value):
        return json.loads(value)
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return json.loads(value)


def _stored_rows(source_id: int) -> dict[str, tuple[Any, ...]]:
    """The source's stored entries as raw rows by identity key, in one query.

    Rows, not model instances or `values_list` (which decodes every row's JSON): most
    entries of a fetch are unchanged and are compared field by field on the row itself.
    """
    columns = ", ".join(connection.ops.quote_name(name) for name in _STORED_FIELDS)
    table = connection.ops.quote_name(Entry._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {table} WHERE source_id = %s",  # noqa: S608
            [source_id],
        )
        return {row[_KEY]: row for row in cursor.fetchall()}


def _unchanged(row: tuple[Any, ...], doc: EntryDoc, decoded: dict[str, Any]) -> bool:
    """Whether a stored entry, seen again exactly as stored, records and rewrites nothing.

    The same comparisons `_reconcile` makes, on the raw row: an entry that is not removed,
    keeps its stub flag and every field is left alone. Attributes are decoded last, once
    per distinct text (`decoded`, for comparing only: entries often share them).
    """
    if not (
        row[_TITLE] == doc.title
        and row[_PRICE] == doc.price
        and row[_URL] == doc.url
        and row[_KIND] == doc.kind
        and row[_CURRENCY] == doc.currency
        and row[_IMAGE_URL] == doc.image_url
        and row[_IS_STUB] == doc.stub
        and row[_UPDATE_TYPE] != UpdateType.REMOVED
    ):
        return False
    text = row[_ATTRIBUTES]
    if not isinstance(text, str):
        return (text or {}) == doc.attributes
    attributes = decoded.get(text)
    if attributes is None:
        attributes = decoded[text] = _json_value(text) or {}
    return bool(attributes == doc.attributes)


_Row = Entry | _Stored


class _Seen(dict[str, _Row]):
    """The fetch's entries by key; an unchanged stored one is built when first asked for."""

    def __init__(self, stored: dict[str, tuple[Any, ...]]) -> None:
        super().__init__()
        self.stored = stored

    def __missing__(self, key: str) -> _Row:
        entry = self[key] = _Stored(self.stored[key])
        return entry


@dataclass
class _Pending:
    """An Update to write once its entry has a primary key."""

    entry: _Row
    update_type: str
    importance: str | None
    field: str | None = None
    value_change: dict[str, Any] | None = None
    narration: NarrationDoc | None = None


def _reconcile(
    source: Source,
    entries: list[EntryDoc],
    at: int,
    rules: importance_rules.RuleSet,
    result: IngestResult,
) -> tuple[list[Entry], dict[str, _Stored], list[_Pending], _Seen, set[str]]:
    """Compare the fetch with the stored entries in memory, with no per-entry query.

    Returns the entries to create, the stored entries to rewrite (by key), the updates to
    record, every entry of the fetch by key, and the keys of entries given an update.
    """
    stored = _stored_rows(source.pk)
    to_create: list[Entry] = []
    to_update: dict[str, _Stored] = {}
    pending: list[_Pending] = []
    seen = _Seen(stored)
    touched: set[str] = set()
    decoded: dict[str, Any] = {}

    for doc in entries:
        row = stored.get(doc.key)
        if row is not None and _unchanged(row, doc, decoded):
            continue  # `seen` builds it on demand (a narration may name it)
        if row is None:
            created = Entry(
                account_id=source.account_id,
                source_id=source.pk,
                identity_key=doc.key,
                title=doc.title,
                url=doc.url,
                kind=doc.kind,
                price=doc.price,
                currency=doc.currency,
                image_url=doc.image_url,
                attributes=doc.attributes,
                is_stub=doc.stub,
                read=False,
                update_type=UpdateType.NEW,
                update_time=at,
                created_at=at,
            )
            to_create.append(created)
            seen[doc.key] = created
            if not doc.stub:
                pending.append(_Pending(created, UpdateType.NEW, rules.for_new()))
                result.entries_new += 1
                touched.add(doc.key)
            continue

        entry = seen[doc.key] = _Stored(row)
        was_visible = not entry.is_stub and entry.update_type != UpdateType.REMOVED
        # Once an entry has been public it never goes back to being an onboarding stub.
        is_stub = entry.is_stub and doc.stub
        changes: list[_Pending] = []
        if was_visible and not is_stub:
            if doc.title != entry.title:
                change = {"type": "string", "previous": entry.title, "current": doc.title}
                changes.append(
                    _Pending(
                        entry,
                        UpdateType.MODIFIED,
                        rules.for_value_change("title", change),
                        "title",
                        change,
                    )
                )
            # A price that disappears records nothing: a value change needs a `current`.
            if doc.price is not None and (
                doc.price != entry.price
                or (entry.price is not None and doc.currency != entry.currency)
            ):
                change = _number_change(entry.price, doc.price, doc.currency)
                changes.append(
                    _Pending(
                        entry,
                        UpdateType.MODIFIED,
                        rules.for_value_change("price", change),
                        "price",
                        change,
                    )
                )
            old_attrs = entry.attributes or {}
            for name, new in doc.attributes.items():
                old = old_attrs.get(name)
                if old == new:
                    continue
                change, type_changed = _attribute_change(old, new)
                changes.append(
                    _Pending(
                        entry,
                        UpdateType.MODIFIED,
                        rules.for_value_change(name, change, type_changed=type_changed),
                        name,
                        change,
                    )
                )
            # Attributes that disappear record nothing, as a disappearing price.

        dirty = (
            entry.title != doc.title
            or entry.url != doc.url
            or entry.kind != doc.kind
            or entry.price != doc.price
            or entry.currency != doc.currency
            or entry.image_url != doc.image_url
            or (entry.attributes or {}) != doc.attributes
            or entry.is_stub != is_stub
        )
        entry.title, entry.url, entry.kind = doc.title, doc.url, doc.kind
        entry.price, entry.currency, entry.image_url = doc.price, doc.currency, doc.image_url
        entry.attributes, entry.is_stub = doc.attributes, is_stub

        if not was_visible and (not is_stub or entry.update_type == UpdateType.REMOVED):
            # Reappeared after removal, or an onboarding stub that became public: new again.
            entry.update_type, entry.update_time, entry.read = UpdateType.NEW, at, False
            dirty = True
            if not is_stub:
                pending.append(_Pending(entry, UpdateType.NEW, rules.for_new()))
                result.entries_new += 1
                touched.add(doc.key)
        elif changes:
            entry.update_type, entry.update_time, entry.read = UpdateType.MODIFIED, at, False
            dirty = True
            pending.extend(changes)
            result.entries_modified += 1
            touched.add(doc.key)
        if dirty:
            to_update[doc.key] = entry

    fetched = {doc.key for doc in entries}
    for key, row in stored.items():
        if key in fetched or row[_UPDATE_TYPE] == UpdateType.REMOVED:
            continue
        entry = _Stored(row)
        entry.update_type, entry.update_time, entry.read = UpdateType.REMOVED, at, False
        to_update[key] = entry
        if not entry.is_stub:
            pending.append(_Pending(entry, UpdateType.REMOVED, rules.for_removed()))
            result.entries_removed += 1
    return to_create, to_update, pending, seen, touched


def _update_entries(entries: list[_Stored]) -> None:
    """Rewrite reconciled entries in one statement per batch.

    Django's bulk_update builds a CASE per column and row, which takes seconds for a few
    thousand rows; on PostgreSQL one UPDATE joined to the rows sent as one JSON array
    (`json_to_recordset`) does the same in milliseconds. JSON rather than one array per
    column: orjson writes it in C, where psycopg quotes every array item in Python. Other
    databases (SQLite, the embedded default, runs in-process) take one prepared UPDATE by
    id, executed many times.
    """
    if not entries:
        return
    if connection.vendor != "postgresql":
        table = connection.ops.quote_name(Entry._meta.db_table)
        # These fields' columns are their names (no db_column, no relations).
        assignments = ", ".join(
            f"{connection.ops.quote_name(name)} = %s" for name in _ENTRY_WRITE_FIELDS
        )
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {table} SET {assignments} WHERE id = %s",  # noqa: S608
                [
                    [
                        _json_text(e.attributes or {}) if name == "attributes" else getattr(e, name)
                        for name in _ENTRY_WRITE_FIELDS
                    ]
                    + [e.pk]
                    for e in entries
                ],
            )
        return
    with connection.cursor() as cursor:
        for start in range(0, len(entries), _BATCH):
            cursor.execute(_entry_rewrite_sql(), [_entry_rows(entries[start : start + _BATCH])])


def _entry_rewrite_sql() -> str:
    """PostgreSQL: rewrite entries from one JSON array of rows (`_entry_rows`)."""
    return (
        f"UPDATE {connection.ops.quote_name(Entry._meta.db_table)} AS e "  # noqa: S608
        "SET title = v.title, url = v.url, kind = v.kind, "
        "price = v.price, currency = v.currency, image_url = v.image_url, "
        "attributes = v.attributes, is_stub = v.is_stub, read = v.read, "
        "update_type = v.update_type, update_time = v.update_time "
        "FROM json_to_recordset(%s::json) AS v(id bigint, title text, url text, kind text, "
        "price float8, currency text, image_url text, attributes jsonb, is_stub bool, "
        "read bool, update_type text, update_time bigint) WHERE e.id = v.id"
    )


def _entry_rows(entries: list[_Stored]) -> str:
    return _json_text(
        [{"id": e.pk, **{name: getattr(e, name) for name in _ENTRY_WRITE_FIELDS}} for e in entries]
    )


# Update's columns as `_write_rows` writes them, after the four every row of a fetch shares.
_UPDATE_COLUMNS = (
    "entry_id",
    "update_type",
    "field",
    "value_change",
    "importance",
    "importance_level",
    "headline",
    "description",
    "start_block_id",
    "end_block_id",
    "block_id",
)


def _write_rows(
    rewrite: list[_Stored], pending: list[_Pending], *, account_id: int, change: Change
) -> list[int]:
    """Rewrite the reconciled stored entries, write the fetch's Update rows, and return the
    updates' ids in the order of `pending`.

    On PostgreSQL, one INSERT ... SELECT FROM json_to_recordset() of the rows as one JSON
    array, written by orjson (ids come back in input order, as Django's own UNNEST bulk
    insert relies on): `bulk_create` spends most of its time preparing each of the 15
    values of every row in Python. The entries' UPDATE rides along in a WITH clause (one
    round trip for both) when both fit in one batch. Other databases take
    `_update_entries` and `bulk_create`.
    """
    if not pending or connection.vendor != "postgresql" or len(rewrite) > _BATCH:
        _update_entries(rewrite)
        rewrite = []
    if not pending:
        return []
    values = [
        (
            item.entry.pk,
            item.update_type,
            item.field,
            item.value_change,
            item.importance,
            item.importance or Importance.MATERIAL,
            *(
                (n.headline, n.description, n.start_block_id, n.end_block_id, n.block_id)
                if (n := item.narration)
                else (None, None, None, None, None)
            ),
        )
        for item in pending
    ]
    shared: dict[str, int] = {
        "account_id": account_id,
        "source_id": change.source_id,
        "change_id": change.pk,
        "at": change.at,
    }
    if connection.vendor != "postgresql":
        rows = [Update(**shared, **dict(zip(_UPDATE_COLUMNS, row, strict=True))) for row in values]
        return [row.pk for row in Update.objects.bulk_create(rows, batch_size=_BATCH)]

    quote = connection.ops.quote_name
    columns = ", ".join(quote(name) for name in (*shared, *_UPDATE_COLUMNS))
    sql = (
        f"INSERT INTO {quote(Update._meta.db_table)} ({columns}) "  # noqa: S608
        "SELECT %s::bigint, %s::bigint, %s::bigint, %s::bigint, v.entry_id, v.update_type, "
        "v.field, v.value_change, v.importance, v.importance_level, v.headline, "
        "v.description, v.start_block_id, v.end_block_id, v.block_id "
        "FROM json_to_recordset(%s::json) AS v(entry_id bigint, update_type text, field text, "
        "value_change jsonb, importance text, importance_level text, headline text, "
        "description text, start_block_id text, end_block_id text, block_id text) "
        "RETURNING id"
    )
    ids: list[int] = []
    with connection.cursor() as cursor:
        for start in range(0, len(values), _BATCH):
            batch = [
                dict(zip(_UPDATE_COLUMNS, row, strict=True))
                for row in values[start : start + _BATCH]
            ]
            params: list[int | str] = [*shared.values(), _json_text(batch)]
            if start == 0 and rewrite:
                # The WITH clause runs exactly once, whatever the INSERT reads of it.
                cursor.execute(
                    f"WITH rewritten AS ({_entry_rewrite_sql()}) {sql}",
                    [_entry_rows(rewrite), *params],
                )
            else:
                cursor.execute(sql, params)
            ids.extend(row[0] for row in cursor.fetchall())
    return ids


def _json_text(value: Any) -> str:
    """JSON text for a jsonb parameter: orjson's, or the standard library's for what orjson
    refuses (integers past 64 bits)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value)


@transaction.atomic
def ingest_fetch(doc: FetchDocument, *, account: Account | None = None) -> IngestResult:
    """Write one fetch, all or nothing. Raises IngestError for an unknown account."""
    if account is None:
        account = Account.objects.filter(slug=doc.account).first()
        if account is None:
            raise IngestError("account", f"no account '{doc.account}'")
    elif doc.account and doc.account != account.slug:
        raise IngestError("account", f"'{doc.account}' is not the account '{account.slug}'")

    at = _stamp_at(account, doc.at)
    rules = importance_rules.current_rules()

    source, previous_state_id = _locked_source(account, doc.source_url)
    created = source is None
    if source is None:
        source = Source(
            account=account,
            url=doc.source_url,
            name=doc.source_name or "",
            monitoring_frequency=doc.monitoring_frequency or 60,
            created_at=at,
        )
    else:
        if doc.source_name is not None:
            source.name = doc.source_name
        if doc.monitoring_frequency is not None:
            source.monitoring_frequency = doc.monitoring_frequency
    if doc.entry_kinds is not None:
        source.entry_kinds = doc.entry_kinds
    _apply_fetch_outcome(source, doc, at)

    # The state this fetch captured; the one of the latest ok fetch before it is
    # `previous_state_id`, loaded only to diff markdown against.
    current_state = pagestate.store_state(doc.snapshot, now=at) if doc.snapshot else None
    counts = doc.diff
    if counts is None and doc.snapshot is not None and doc.snapshot.markdown is not None:
        previous_state = (
            PageState.objects.filter(pk=previous_state_id).first() if previous_state_id else None
        )
        added, deleted = pagestate.line_diff_counts(
            pagestate.previous_markdown(previous_state), doc.snapshot.markdown.decode()
        )
        counts = pagestate.DiffCounts(body_total_additions=added, body_total_deletions=deleted)
    counts = counts or pagestate.DiffCounts()

    change = Change(
        account=account,
        source=source,
        at=at,
        outcome=doc.outcome,
        error_reason=doc.error_reason,
        current_state=current_state,
        previous_state_id=previous_state_id,
        body_total_additions=counts.body_total_additions,
        body_total_deletions=counts.body_total_deletions,
        meta_additions=counts.meta_additions,
        meta_deletions=counts.meta_deletions,
        blocks=doc.blocks,
    )
    _save_source_and_change(source, change)
    result = IngestResult(
        account_id=account.pk,
        source_id=source.pk,
        change_id=change.pk,
        at=at,
        outcome=doc.outcome,
        source_created=created,
    )
    if doc.outcome != "ok" or doc.entries is None:
        return result  # failed and broken fetches change no entry

    to_create, to_update, pending, seen, touched = _reconcile(
        source, doc.entries, at, rules, result
    )

    for narration in doc.narrations:
        entry = seen[narration.key]
        if narration.key not in touched:
            # A body narration is a change to its entry, like a moved field.
            touched.add(narration.key)
            result.entries_modified += 1
            entry.update_type, entry.update_time, entry.read = UpdateType.MODIFIED, at, False
            # Untouched entries are stored ones: new entries are always touched.
            assert isinstance(entry, _Stored)
            to_update.setdefault(narration.key, entry)
        pending.append(
            _Pending(entry, UpdateType.MODIFIED, narration.importance, narration=narration)
        )

    Entry.objects.bulk_create(to_create, batch_size=_BATCH)
    result.update_ids = _write_rows(
        list(to_update.values()), pending, account_id=account.pk, change=change
    )
    if result.update_ids:
        # Receivers (webhooks' outbox) write in this same transaction.
        updates_recorded.send(sender=Update, account_id=account.pk, update_ids=result.update_ids)
    return result


def ingest(obj: Any, *, account: Account | None = None) -> IngestResult:
    """Parse and write one fetch document (a dict as decoded from JSON)."""
    return ingest_fetch(parse_fetch(obj), account=account)
