"""`tidemark.webhooks.verify` on real deliveries: a Celery worker posts an ingested update to
a loopback receiver, and the client verifies what arrived, under both header schemes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import tidemark

from history.models import Update
from tests.webhooks.support import (
    Receiver,
    add_endpoint,
    ingest_prices,
    make_account,
    wait_until,
)

pytestmark = pytest.mark.worker


def test_a_real_delivery_verifies_under_both_schemes(
    worker: Any, receiver: Callable[..., Receiver]
) -> None:
    rec = receiver(204)
    account = make_account()
    _, secret = add_endpoint(account, rec.url)
    ingest_prices(account, {"a": 10.0})
    [update_id] = ingest_prices(account, {"a": 8.0})
    wait_until(lambda: len(rec.requests) >= 2, 20, "two deliveries")
    update = Update.objects.get(pk=update_id)
    request = next(r for r in rec.requests if r.headers["svc-event-id"] == update.public_id)
    assert "webhook-signature" in request.headers  # a secret in the current format

    event = tidemark.webhooks.verify(request.body, request.headers, secret)
    branded_only = {k: v for k, v in request.headers.items() if not k.startswith("webhook-")}
    same = tidemark.webhooks.verify(request.body, branded_only, secret)

    assert event == same
    assert event.id == update.public_id
    assert event.type == "content.update"
    assert event.test is False
    assert event.occurred_at == update.at
    assert event.data is not None
    assert event.data.id == update.public_id
    assert event.data.field == "price"
    assert isinstance(event.data.value_change, tidemark.NumberChange)
    assert (event.data.value_change.previous, event.data.value_change.current) == (10.0, 8.0)
    assert event.raw["data"]["sourceId"] == event.data.source_id


def test_a_tampered_or_foreign_delivery_is_refused(
    worker: Any, receiver: Callable[..., Receiver]
) -> None:
    rec = receiver(204)
    account = make_account()
    _, secret = add_endpoint(account, rec.url)
    ingest_prices(account, {"a": 10.0})
    wait_until(lambda: len(rec.requests) >= 1, 20, "a delivery")
    request = rec.requests[0]
    tampered = request.body.replace(b"Item a", b"Item b")
    assert tampered != request.body
    branded_only = {k: v for k, v in request.headers.items() if not k.startswith("webhook-")}
    _, other_secret = add_endpoint(account, rec.url)

    for body, headers, key in [
        (tampered, request.headers, secret),
        (tampered, branded_only, secret),
        (request.body, request.headers, other_secret),
        (request.body, branded_only, other_secret),
        (request.body, {"content-type": "application/json"}, secret),
    ]:
        with pytest.raises(tidemark.WebhookVerificationError):
            tidemark.webhooks.verify(body, headers, key)
    with pytest.raises(tidemark.WebhookVerificationError):
        tidemark.webhooks.verify(request.body, branded_only, secret, brand="acme")
