"""At-least-once across a broker outage, a killed worker and duplicate messages."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from config.celery import app
from history.models import Update
from tests.webhooks.support import (
    add_endpoint,
    ingest_prices,
    make_account,
    wait_finished,
    wait_until,
)
from webhooks import tasks
from webhooks.models import WebhookDelivery

pytestmark = [pytest.mark.worker]


def _reset_producers() -> None:
    # The app caches its connection and producer pools; drop them so the next publish
    # connects to the current broker_url.
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


@contextmanager
def broker_unreachable() -> Iterator[None]:
    """Point this process's Celery producers at a port where no broker listens."""
    good = app.conf.broker_write_url
    app.conf.update(broker_write_url="redis://127.0.0.1:1/0")
    _reset_producers()
    try:
        yield
    finally:
        app.conf.update(broker_write_url=good)
        _reset_producers()


def test_updates_survive_a_broker_outage_and_the_sweeper_delivers_them(
    worker: Any, receiver: Any
) -> None:
    account = make_account()
    rec = receiver(200)
    add_endpoint(account, rec.url)

    with broker_unreachable():
        started = time.monotonic()
        update_ids = ingest_prices(account, {"a": 1.0, "b": 2.0})
        assert time.monotonic() - started < 5  # the publish gives up quickly
    assert Update.objects.filter(pk__in=update_ids).count() == 2
    assert list(WebhookDelivery.objects.values_list("status", flat=True)) == ["pending"] * 2
    time.sleep(1)
    assert rec.requests == []  # nothing reached the broker, so nothing was sent

    # Broker back: the beat sweeper's task re-enqueues the overdue deliveries.
    assert tasks.sweep() == 2
    deliveries = wait_finished(list(WebhookDelivery.objects.values_list("pk", flat=True)))
    assert [d.status for d in deliveries] == ["succeeded"] * 2
    assert sorted(r.headers["svc-event-id"] for r in rec.requests) == sorted(
        d.event_id for d in deliveries
    )


def test_a_delivery_completes_after_its_worker_is_killed_mid_attempt(
    worker: Any, receiver: Any
) -> None:
    account = make_account()
    rec = receiver(("sleep", 1.5, 200), 200)
    add_endpoint(account, rec.url)
    ingest_prices(account, {"a": 1.0})
    [delivery] = WebhookDelivery.objects.all()

    assert rec.arrived.wait(10)
    worker.kill()  # SIGKILL while the receiver holds the first attempt
    delivery.refresh_from_db()
    assert delivery.status == "sending"
    assert delivery.attempt_count == 1

    # A live claim is never taken over: the sweeper waits for the lease to run out.
    assert tasks.sweep() == 0
    worker.start()
    lease_until = delivery.lease_until
    assert lease_until is not None
    wait_until(lambda: time.time() > lease_until.timestamp() + 0.1, 10, "the lease")
    assert tasks.sweep() == 1
    [delivery] = wait_finished([delivery.pk])

    assert delivery.status == "succeeded"
    assert [(a.number, a.status_code, a.error) for a in delivery.attempts.all()] == [
        (1, None, "interrupted"),
        (2, 200, ""),
    ]
    # One duplicate, and only because the first attempt really was cut off; same bytes.
    assert len(rec.requests) == 2
    assert rec.requests[0].body == rec.requests[1].body


def test_duplicate_messages_and_sweeps_do_not_send_twice(worker: Any, receiver: Any) -> None:
    account = make_account()
    rec = receiver(200)
    add_endpoint(account, rec.url)
    ingest_prices(account, {"a": 1.0})
    [delivery] = WebhookDelivery.objects.all()
    # Three extra messages for the same delivery, racing the first one.
    for _ in range(3):
        assert tasks.enqueue(delivery.pk)
    tasks.sweep()
    [delivery] = wait_finished([delivery.pk])
    time.sleep(1.5)  # give any duplicate time to (wrongly) go out

    assert len(rec.requests) == 1
    assert delivery.attempt_count == 1
    assert delivery.attempts.count() == 1
