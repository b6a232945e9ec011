"""Telling a source's owner that Tidemark paused the source (docs/owners.md, docs/alerts.md),
and e-mailing the owner when a check finds the page's items collapsed (`source_collapsed`,
docs/watching.md).

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

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction

from history.models import Source
from history.signals import source_paused as paused_signal

log = logging.getLogger(__name__)

# How long a sent e-mail is remembered, so that a redelivered task does not send it twice.
SENT_KEY_SECONDS = 7 * 86_400

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


def source_collapsed(source_id: int, change_id: int) -> None:
    """Tell the owner, after commit, that the check recorded as Change `change_id` found the
    page's items collapsed (watcher.check; called once per collapse, not per check while
    it lasts)."""
    transaction.on_commit(
        lambda: send_collapse_mail.apply_async(args=(source_id, change_id)), robust=True
    )


@shared_task(
    name="history.collapse_mail",
    ignore_result=True,
    autoretry_for=(OSError,),  # SMTP errors included
    retry_backoff=30,
    max_retries=4,
)
def send_collapse_mail(source_id: int, change_id: int) -> None:
    """Mail the owner a link to the source's repair preview, unless the source has read
    well since (the news is stale) or is gone."""
    source = Source.objects.select_related("account__owner").filter(pk=source_id).first()
    if source is None or source.last_fetch_outcome != Source.Outcome.BROKEN:
        return
    address = source.account.owner.email
    if not address:
        return
    sent_key = f"collapsemail:{source_id}:{change_id}"
    if cache.add(sent_key, 1, timeout=SENT_KEY_SECONDS) is False:
        return  # told already (a redelivered message); None: no cache, send anyway
    name = " ".join(str(source).split())[:120]
    link = f"{settings.APP_BASE_URL.rstrip('/')}/sources/{source.public_id}/edit"
    body = (
        f"Tidemark's last check of your source {name}\n({source.url})\n\nfound far fewer "
        f"items than usual: {source.last_fetch_error_reason}\n\nTidemark recorded the "
        "check as broken and kept the items as they were. If the page was redesigned, the "
        "source's edit page previews what the page resolves into now and lets you pick "
        f"the right list in one click:\n\n{link}\n"
    )
    try:
        send_mail(
            f"Tidemark: the page of {name} may have changed its layout",
            body,
            from_email=None,
            recipient_list=[address],
        )
    except Exception:
        cache.delete(sent_key)  # not sent: a retry may send it
        raise
    log.info("source %s: owner told its page collapsed", source_id)
