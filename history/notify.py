"""E-mail to a source's owner when Tidemark pauses the source (docs/owners.md), and when a
check finds the page's items collapsed (`source_collapsed`, docs/watching.md).

Two changes of status are told: `autoPaused` (its fetches kept failing; set by ingestion,
`history.ingest.service`) and `creditPaused` (its account ran out of credits; set by the
watcher's claim, told by its tick). Whoever changes the status calls `source_paused` inside
its transaction; the mail task is enqueued after commit, so ingestion never waits on SMTP
and a rolled-back change tells no one. The callers call only on a change (a source that
stays autoPaused across failed probes is not told again), and the task claims each change
in the cache before sending, so a redelivered message does not send twice.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction

from history.models import Source

log = logging.getLogger(__name__)

TOLD = (Source.Status.AUTO_PAUSED, Source.Status.CREDIT_PAUSED)
SENT_KEY_SECONDS = 7 * 86_400


def source_paused(source_id: int, status: str, changed_at: int) -> None:
    """Tell the owner, after commit, that the source became `status` at `changed_at` (ms)."""
    if status not in TOLD:
        raise ValueError(f"no e-mail for status {status!r}")
    transaction.on_commit(
        lambda: send_status_mail.apply_async(args=(source_id, status, changed_at)), robust=True
    )


def _message(source: Source) -> tuple[str, str]:
    """The subject and body for the source's current status."""
    link = f"{settings.APP_BASE_URL.rstrip('/')}/sources/{source.public_id}"
    name = " ".join(str(source).split())[:120]  # one line: it goes in the subject
    if source.status == Source.Status.AUTO_PAUSED:
        reason = (
            f"its last {source.consecutive_fetch_failures} fetches failed (the last error: "
            f"{source.last_fetch_error_reason or 'unknown'})"
        )
        after = (
            "Tidemark still tries the page now and then (after an hour, then less often, at "
            "most once a day) and resumes checking on its usual schedule as soon as a fetch "
            "succeeds."
        )
    else:
        reason = f"the account {source.account.slug} has no fetch credits left"
        after = "Checking resumes, due at once, as soon as credits are added to the account."
    body = (
        f"Tidemark paused your source {name}\n({source.url})\n\nbecause {reason}.\n\n"
        f"{after}\n\nThe source: {link}\n"
    )
    return f"Tidemark paused your source {name}", body


@shared_task(
    name="history.status_mail",
    ignore_result=True,
    autoretry_for=(OSError,),  # SMTP errors included
    retry_backoff=30,
    max_retries=4,
)
def send_status_mail(source_id: int, status: str, changed_at: int) -> None:
    """Mail the owner that the source became `status`, unless that is no longer true."""
    source = Source.objects.select_related("account__owner").filter(pk=source_id).first()
    if source is None or source.status != status:
        return  # gone, or already active again: the news is stale
    address = source.account.owner.email
    if not address:
        return
    sent_key = f"statusmail:{source_id}:{status}:{changed_at}"
    if cache.add(sent_key, 1, timeout=SENT_KEY_SECONDS) is False:
        return  # told already (a redelivered message); None: no cache, send anyway
    subject, body = _message(source)
    try:
        send_mail(subject, body, from_email=None, recipient_list=[address])
    except Exception:
        cache.delete(sent_key)  # not sent: a retry may send it
        raise
    log.info("source %s: owner told it is %s", source_id, status)


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
