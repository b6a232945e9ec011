"""Telling a source's owner that Tidemark paused the source (docs/owners.md, docs/alerts.md).

Two changes of status are told: `autoPaused` (its fetches kept failing; set by ingestion,
`history.ingest.service`) and `creditPaused` (its account ran out of credits; set by the
watcher's claim). Whoever changes the status calls `source_paused` inside its transaction.
The telling is the alerts app's: every account has a built-in `paused` rule whose default
target is the owner's e-mail, and `paused` rules write their outbox rows in this same
transaction, delivered after commit (a rolled-back change tells no one). `history` never
imports `alerts`: this sends `history.signals.source_paused`. The callers call only on a
change (a source that stays autoPaused across failed probes is not told again).
"""

from __future__ import annotations

from history.models import Source
from history.signals import source_paused as paused_signal

TOLD = (Source.Status.AUTO_PAUSED, Source.Status.CREDIT_PAUSED)


def source_paused(source_id: int, status: str, changed_at: int) -> None:
    """Announce, inside the caller's transaction, that the source became `status`."""
    if status not in TOLD:
        raise ValueError(f"no e-mail for status {status!r}")
    row = Source.objects.filter(pk=source_id).values_list(
        "account_id", "consecutive_fetch_failures"
    )
    found = row.first()
    if found is None:
        return
    account_id, failures = found
    paused_signal.send(
        sender=Source,
        account_id=account_id,
        source_id=source_id,
        status=status,
        at=changed_at,
        failures=failures,
    )
