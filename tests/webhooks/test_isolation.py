"""A receiver's failure or slowness never reaches ingestion or another endpoint."""

from __future__ import annotations

import time
from typing import Any

import pytest

from history.models import Update
from tests.webhooks.support import (
    add_endpoint,
    closed_port_url,
    ingest_prices,
    make_account,
    wait_finished,
    wait_until,
)
from webhooks.models import WebhookDelivery

pytestmark = [pytest.mark.worker]


def test_ingestion_succeeds_and_is_fast_when_every_receiver_fails(
    worker: Any, receiver: Any
) -> None:
    account = make_account()
    add_endpoint(account, receiver(500).url)
    add_endpoint(account, receiver(404).url)
    add_endpoint(account, closed_port_url())

    started = time.monotonic()
    update_ids = ingest_prices(account, {"a": 1.0, "b": 2.0})
    elapsed = time.monotonic() - started

    assert elapsed < 2.0  # ingestion never waits for a receiver
    assert Update.objects.filter(pk__in=update_ids).count() == 2
    # one delivery per endpoint per update, written with the updates
    assert WebhookDelivery.objects.count() == 6
    first = list(WebhookDelivery.objects.values_list("pk", flat=True))
    # The receivers' failures end in failed deliveries, and the updates stay.
    deliveries = wait_finished(first, timeout=20)
    assert {d.status for d in deliveries} == {"failed"}
    assert Update.objects.filter(pk__in=update_ids).count() == 2


def test_a_slow_receiver_does_not_delay_another_endpoint(worker: Any, receiver: Any) -> None:
    account = make_account()
    slow = receiver(("sleep", 1.8, 200))
    fast = receiver(200)
    add_endpoint(account, slow.url, "slow")
    add_endpoint(account, fast.url, "fast")

    ingest_prices(account, {"a": 1.0, "b": 2.0, "c": 3.0})
    committed = time.monotonic()
    wait_until(lambda: len(fast.requests) == 3, 5, "the fast receiver's three events")

    # All three reached the fast receiver before the slow one had answered even once.
    wait_until(lambda: len(slow.requests) >= 1, 5, "the slow receiver's first request")
    assert fast.requests[-1].at < slow.requests[0].at + 1.8
    assert fast.requests[-1].at - committed < 1.8
    wait_finished(list(WebhookDelivery.objects.values_list("pk", flat=True)), timeout=20)
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"succeeded"}
    assert len(slow.requests) == 3
