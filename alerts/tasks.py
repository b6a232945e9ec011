"""Thin Celery tasks over `alerts.delivery`: they take ids, and the workflow claims the work
atomically, so any of them may run twice (late acks redeliver after a lost worker)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from alerts import delivery

log = logging.getLogger(__name__)

QUEUE = "celery"  # the default queue: alerts are few beside webhook deliveries
_SOFT_LIMIT = int(settings.WEBHOOK_TOTAL_TIMEOUT) + 5
_HARD_LIMIT = int(settings.WEBHOOK_TOTAL_TIMEOUT) + 10


def enqueue(delivery_id: int, countdown: int | None = None) -> bool:
    """Send a delivery message; False (logged, never raised) when the broker is unreachable:
    the row stays pending for the sweeper."""
    try:
        if countdown:
            deliver.apply_async((delivery_id,), countdown=float(countdown), queue=QUEUE)
        else:
            deliver.apply_async((delivery_id,), queue=QUEUE)
    except Exception:
        log.exception("alerts: could not enqueue delivery %s", delivery_id)
        return False
    return True


@shared_task(
    name="alerts.deliver",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=_SOFT_LIMIT,
    time_limit=_HARD_LIMIT,
)
def deliver(delivery_id: int) -> str:
    """One attempt of one delivery; a retry is enqueued with the policy's countdown."""
    delay = delivery.attempt(delivery_id)
    if delay is not None:
        enqueue(delivery_id, countdown=delay)
        return f"retry in {delay} s"
    return "done"


@shared_task(name="alerts.sweep", acks_late=True, soft_time_limit=100, time_limit=120)
def sweep() -> int:
    """Every minute: re-enqueue overdue deliveries, and send the digests whose window closed."""
    created = delivery.gather_digests()
    ids = [*created, *delivery.due_delivery_ids()]
    sent = 0
    for delivery_id in dict.fromkeys(ids):
        if not enqueue(delivery_id):
            break
        sent += 1
    if ids:
        log.info("alerts sweeper: enqueued %d of %d deliveries", sent, len(ids))
    return sent


@shared_task(name="alerts.expire", acks_late=True, soft_time_limit=3500, time_limit=3600)
def expire() -> int:
    """Daily: delete finished delivery records past the retention period."""
    deleted = delivery.expire_finished()
    log.info("alerts expiry: deleted %d finished deliveries", deleted)
    return deleted
