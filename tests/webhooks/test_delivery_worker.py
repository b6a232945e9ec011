"""Delivery policy end to end: a real Celery worker and real HTTP receivers on 127.0.0.1."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
from typing import Any

import pytest

from history.ids import encode
from history.models import Update
from history.selectors import feed_updates_by_ids
from tests.factories import api_key
from tests.webhooks.support import (
    add_endpoint,
    closed_port_url,
    ingest_prices,
    make_account,
    wait_finished,
)
from webhooks.models import WebhookDelivery

pytestmark = [pytest.mark.worker]


def verify(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """A receiver's check as docs/webhooks.md describes it, independent of webhooks.signing."""
    event_id = headers["svc-event-id"]
    timestamp = headers["svc-timestamp"]
    expected = hmac.new(
        secret.encode("utf-8"), f"{event_id}.{timestamp}.".encode() + body, hashlib.sha256
    ).hexdigest()
    return hmac.compare_digest(headers["svc-signature"], f"v1={expected}")


TIMEOUT = ("sleep", 3, 200)  # answers after the sender's 2 s deadline

# name: (receiver script, final status, attempts, what each attempt recorded)
CASES: dict[str, tuple[list[Any], str, int, list[Any]]] = {
    "200": ([200], "succeeded", 1, [200]),
    "204": ([204], "succeeded", 1, [204]),
    "302 redirect": ([302], "failed", 1, [302]),
    "410": ([410], "failed", 1, [410]),
    "418": ([418], "failed", 1, [418]),
    "429 then 204": ([429, 204], "succeeded", 2, [429, 204]),
    "503 twice then 200": ([503, 503, 200], "succeeded", 3, [503, 503, 200]),
    "503 always": ([503], "failed", 5, [503] * 5),
    "timeout": ([TIMEOUT], "failed", 5, ["timeout"] * 5),
}


def test_it_records_the_attempts_the_policy_calls_for_each_answer(
    worker: Any, receiver: Any
) -> None:
    account = make_account()
    receivers = {}
    endpoints = {}
    for name, (script, *_rest) in CASES.items():
        receivers[name] = receiver(*script)
        endpoints[name], _ = add_endpoint(account, receivers[name].url, description=name)
    endpoints["refused"], _ = add_endpoint(account, closed_port_url(), description="refused")

    ingest_prices(account, {"a": 10.0})
    deliveries = wait_finished(list(WebhookDelivery.objects.values_list("pk", flat=True)), 40)
    by_endpoint = {d.endpoint_id: d for d in deliveries}

    expected = {name: case[1:] for name, case in CASES.items()}
    expected["refused"] = ("failed", 5, ["connection_refused"] * 5)
    seen = {}
    for name, endpoint in endpoints.items():
        delivery = by_endpoint[endpoint.pk]
        attempts = list(delivery.attempts.all())
        seen[name] = (
            delivery.status,
            delivery.attempt_count,
            [a.status_code or a.error for a in attempts],
        )
        if name in receivers:
            # every attempt reached the receiver exactly once
            assert len(receivers[name].requests) == delivery.attempt_count, name
        # retries wait the configured delay (1 s in this test) between attempts
        gaps = [
            (b.started_at - a.started_at).total_seconds() for a, b in itertools.pairwise(attempts)
        ]
        assert all(gap >= 0.9 for gap in gaps), (name, gaps)
    assert seen == {name: (s, n, list(codes)) for name, (s, n, codes) in expected.items()}


def test_the_requests_are_signed_identical_across_attempts_and_carry_the_feed_update(
    worker: Any, receiver: Any, client: Any
) -> None:
    account = make_account()
    rec = receiver(503, 503, 200)
    _, secret = add_endpoint(account, rec.url)
    [update_id] = ingest_prices(account, {"a": 10.0})
    [delivery] = wait_finished(list(WebhookDelivery.objects.values_list("pk", flat=True)))
    assert delivery.status == "succeeded"

    assert len(rec.requests) == 3
    first = rec.requests[0]
    for request in rec.requests:
        assert verify(secret, request.headers, request.body)
        assert request.headers["content-type"] == "application/json"
        assert request.body == first.body  # frozen at creation, byte for byte
        assert request.headers["svc-event-id"] == first.headers["svc-event-id"]
    assert not verify("whsec_wrong", first.headers, first.body)

    # The event id is the update's public id, as the feed serves it, and `data` is the
    # feed's item for that update.
    auth = {"Authorization": f"Bearer {api_key(account, ['read'])}"}
    feed = client.get("/v1/updates", headers=auth).json()["data"]
    [served] = [item for item in feed if item["id"] == encode("upd_", update_id)]
    envelope = json.loads(first.body)
    assert first.headers["svc-event-id"] == served["id"] == envelope["id"]
    assert envelope["type"] == "content.update"
    assert envelope["occurredAt"] == served["at"] == Update.objects.get(pk=update_id).at
    assert envelope["data"] == served == feed_updates_by_ids(account.pk, [update_id])[0]


def test_a_big_commit_reaches_every_receiver_once_per_update_even_past_a_slow_answer(
    worker: Any, receiver: Any
) -> None:
    account = make_account()
    fast = receiver(200)
    slow = receiver(("sleep", 1.5, 200), 200)  # its first answer ends a batch (the rest go on)
    add_endpoint(account, fast.url)
    add_endpoint(account, slow.url)
    update_ids = ingest_prices(account, {f"item-{i}": float(i) for i in range(30)})
    deliveries = wait_finished(list(WebhookDelivery.objects.values_list("pk", flat=True)), 40)

    assert len(deliveries) == 60
    assert {(d.status, d.attempt_count) for d in deliveries} == {("succeeded", 1)}
    event_ids = sorted(encode("upd_", pk) for pk in update_ids)
    for rec in (fast, slow):
        assert sorted(r.headers["svc-event-id"] for r in rec.requests) == event_ids
