"""Thin Celery tasks: they take ids, and the workflow in `webhooks.delivery` claims the work
atomically, so any of them may run twice (late acks redeliver after a lost worker)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from webhooks import delivery

log = logging.getLogger(__name__)

QUEUE = "webhooks"
# Above the sender's hard deadline, below the claim lease (see delivery.lease_seconds).
_SOFT_LIMIT = int(settings.WEBHOOK_TOTAL_TIMEOUT) + 5
_HARD_LIMIT = int(settings.WEBHOOK_TOTAL_TIMEOUT) + 10


def enqueue(delivery_id: int, countdown: int | None = None) -> bool:
    """Send a delivery message; False (logged, never raised) when the broker is unreachable.

    Callers run after commit, so a failure here cannot undo ingestion: the row stays
    `pending` and the sweeper re-enqueues it once the broker is back.
    """
    try:
        if countdown:
            deliver.apply_async((delivery_id,), countdown=float(countdown), queue=QUEUE)
        else:
            deliver.apply_async((delivery_id,), queue=QUEUE)
    except Exception:
        log.exception("webhooks: could not enqueue delivery %s", delivery_id)
        return False
    return True


@shared_task(
    name="webhooks.deliver",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=_SOFT_LIMIT,
    time_limit=_HARD_LIMIT,
)
def deliver(delivery_id: int) -> str:
    """One attempt of one delivery; a retry is enqueued with the policy's countdown."""
    outcome = delivery.attempt(delivery_id)
    if outcome.retry_in is not None:
        enqueue(delivery_id, countdown=outcome.retry_in)
    return outcome.result


@shared_task(name="webhooks.sweep", acks_late=True, soft_time_limit=100, time_limit=120)
def sweep() -> int:
    """Every minute: re-enqueue deliveries whose attempt is overdue."""
    ids = delivery.due_delivery_ids()
    sent = 0
    for delivery_id in ids:
        if not enqueue(delivery_id):
            break
        sent += 1
    if ids:
        log.info("webhooks sweeper: re-enqueued %d of %d overdue deliveries", sent, len(ids))
    return sent


@shared_task(name="webhooks.expire", acks_late=True, soft_time_limit=3500, time_limit=3600)
def expire() -> int:
    """Daily: delete finished delivery records older than the retention period (30 days)."""
    deleted = delivery.expire_finished()
    log.info("webhooks expiry: deleted %d finished deliveries", deleted)
    return deleted
