"""The outbox: delivery rows written inside the ingestion transaction, tasks sent on commit.

`history.ingest` sends `history.signals.updates_recorded` inside its transaction; the
receiver here (connected in `WebhooksConfig.ready`) writes one delivery per active endpoint
of the account per update, in that same transaction, so deliveries exist exactly when the
updates do. The Celery messages go out only after commit; if the broker is down then, the
rows are still there and the beat sweeper sends them later.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from webhooks.delivery import EVENT_TYPE, envelope
from webhooks.models import WebhookDelivery, WebhookEndpoint

log = logging.getLogger(__name__)


def on_updates_recorded(sender: Any, *, account_id: int, update_ids: list[int], **_: Any) -> None:
    """Signal receiver for `history.signals.updates_recorded`."""
    by_endpoint = write_deliveries(account_id=account_id, update_ids=update_ids)
    if by_endpoint:
        transaction.on_commit(lambda: enqueue_all(by_endpoint))


def write_deliveries(*, account_id: int, update_ids: list[int]) -> list[list[int]]:
    """Create the delivery rows for these updates; return their ids, one list per endpoint."""
    if not update_ids:
        return []
    endpoint_ids = list(
        WebhookEndpoint.objects.filter(account_id=account_id, active=True).values_list(
            "pk", flat=True
        )
    )
    if not endpoint_ids:
        return []
    # The payload's `data` is exactly what the feed serves for the update (both forms of
    # parent context), so a receiver can share its parsing code with a poller.
    from history.selectors import feed_updates_by_ids

    items = feed_updates_by_ids(account_id, update_ids)
    bodies = [(item["id"], envelope(item["id"], EVENT_TYPE, item["at"], item)) for item in items]
    if not bodies:
        return []
    now = timezone.now()
    rows = [
        WebhookDelivery(
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=EVENT_TYPE,
            body=body,
            next_attempt_at=now,
        )
        for endpoint_id in endpoint_ids
        for event_id, body in bodies
    ]
    created = WebhookDelivery.objects.bulk_create(rows)
    per_endpoint = len(bodies)
    return [
        [row.pk for row in created[start : start + per_endpoint]]
        for start in range(0, len(created), per_endpoint)
    ]


def enqueue_all(by_endpoint: list[list[int]]) -> None:
    from webhooks.tasks import enqueue_many

    # On failure the broker is down: enqueue_many stops, as the rest would fail the same
    # way, and slowly.
    if not enqueue_many(by_endpoint):
        log.warning(
            "webhooks: broker unavailable, %d deliveries left for the sweeper",
            sum(len(ids) for ids in by_endpoint),
        )
