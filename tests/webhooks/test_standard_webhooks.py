"""Standard Webhooks headers beside the contract's, verified by the `standardwebhooks` package,
and secret rotation with its 24-hour overlap."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from tests.webhooks.support import add_endpoint, ingest_prices, make_account, wait_finished
from webhooks import signing
from webhooks.models import ROTATION_OVERLAP, WebhookDelivery, WebhookEndpoint

BODY = b'{"id":"upd_1","type":"content.update"}'


@pytest.fixture
def owner(client: Client) -> Any:
    account = make_account(slug="acme")
    client.force_login(account.owner)
    return account


def svc_signature(secret: str, headers: dict[str, str], body: bytes) -> str:
    message = f"{headers['svc-Event-Id']}.{headers['svc-Timestamp']}.".encode() + body
    return "v1=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def test_new_secrets_are_whsec_and_standard_base64_of_32_random_bytes():
    secret = signing.new_secret()

    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret[6:], validate=True)) == 32
    assert signing.standard_key(secret) == base64.b64decode(secret[6:])
    assert signing.new_secret() != secret


def test_both_header_sets_are_sent_and_a_standard_verifier_accepts_them():
    secret = signing.new_secret()
    now = int(time.time())

    headers = signing.headers(secret, "upd_1", now, BODY)

    assert headers["webhook-id"] == headers["svc-Event-Id"] == "upd_1"
    assert headers["webhook-timestamp"] == headers["svc-Timestamp"] == str(now)
    assert headers["webhook-signature"].startswith("v1,")
    assert Webhook(secret).verify(BODY, headers, json_parse=False) is None
    # The contract's header is unchanged: keyed by the secret string as shown.
    assert headers["svc-Signature"] == svc_signature(secret, headers, BODY)
    with pytest.raises(WebhookVerificationError):
        Webhook(signing.new_secret()).verify(BODY, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(BODY + b" ", headers)


def test_a_secret_minted_before_keeps_only_the_contract_headers():
    legacy = "whsec_" + secrets.token_urlsafe(32)  # how secrets were minted before

    headers = signing.headers(legacy, "upd_1", 1_700_000_000, BODY)

    assert signing.standard_key(legacy) is None
    assert not any(name.startswith("webhook-") for name in headers)
    assert headers["svc-Signature"] == svc_signature(legacy, headers, BODY)


def test_during_a_rotation_both_secrets_sign_and_svc_signature_uses_the_new_one():
    old, new = signing.new_secret(), signing.new_secret()
    now = int(time.time())

    headers = signing.headers(new, "upd_1", now, BODY, previous=old)

    assert len(headers["webhook-signature"].split(" ")) == 2
    assert Webhook(new).verify(BODY, headers, json_parse=False) is None
    assert Webhook(old).verify(BODY, headers, json_parse=False) is None
    assert headers["svc-Signature"] == svc_signature(new, headers, BODY)
    assert headers["svc-Signature"] != svc_signature(old, headers, BODY)


@pytest.mark.django_db
def test_the_rotated_out_secret_signs_only_for_the_overlap():
    endpoint, old = add_endpoint(make_account(), "https://hooks.example.com/in")
    now = timezone.now()
    new = signing.new_secret()

    endpoint.rotate_secret(new, now)
    endpoint.save()
    endpoint.refresh_from_db()

    assert endpoint.secret == new
    assert endpoint.overlapping_secret(now + ROTATION_OVERLAP - timedelta(seconds=1)) == old
    assert endpoint.overlapping_secret(now + ROTATION_OVERLAP) is None
    assert old not in endpoint.previous_secret_encrypted  # encrypted at rest too


@pytest.mark.django_db
def test_the_owner_rotates_a_secret_and_sees_the_new_one_once(client: Client, owner: Any):
    endpoint, old = add_endpoint(owner, "https://hooks.example.com/in")

    response = client.post(f"/webhooks/{endpoint.pk}/rotate")
    assert response.status_code == 302
    page = client.get("/webhooks").content.decode()
    again = client.get("/webhooks").content.decode()

    endpoint.refresh_from_db()
    new = endpoint.secret
    assert new != old
    assert signing.standard_key(new) is not None
    assert new in page
    assert "keeps signing beside this one" in page
    assert new not in again
    assert endpoint.overlapping_secret(timezone.now()) == old


@pytest.mark.django_db
def test_another_accounts_endpoint_cannot_be_rotated(client: Client, owner: Any):
    endpoint, secret = add_endpoint(make_account(), "https://hooks.example.com/in")

    assert client.post(f"/webhooks/{endpoint.pk}/rotate").status_code == 404
    endpoint.refresh_from_db()
    assert endpoint.secret == secret


@pytest.mark.worker
def test_a_delivery_during_the_overlap_verifies_with_both_secrets(worker: Any, receiver: Any):
    account = make_account()
    rec = receiver(200)
    endpoint, old = add_endpoint(account, rec.url)
    new = signing.new_secret()
    endpoint.rotate_secret(new, timezone.now())
    endpoint.save()

    ingest_prices(account, {"a": 10.0})
    [delivery] = wait_finished(list(WebhookDelivery.objects.values_list("pk", flat=True)))

    assert delivery.status == "succeeded"
    [request] = rec.requests
    assert Webhook(new).verify(request.body, request.headers)["type"] == "content.update"
    assert Webhook(old).verify(request.body, request.headers)["id"] == request.headers["webhook-id"]
    assert request.headers["webhook-id"] == request.headers["svc-event-id"]
    assert request.headers["webhook-timestamp"] == request.headers["svc-timestamp"]
    expected = hmac.new(
        new.encode(),
        f"{request.headers['svc-event-id']}.{request.headers['svc-timestamp']}.".encode()
        + request.body,
        hashlib.sha256,
    ).hexdigest()
    assert request.headers["svc-signature"] == f"v1={expected}"
    assert WebhookEndpoint.objects.get(pk=endpoint.pk).active
