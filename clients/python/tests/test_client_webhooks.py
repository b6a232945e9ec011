"""`tidemark.webhooks.verify` on requests signed here the way docs/webhooks.md describes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time

import pytest
import tidemark

SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()
OLD = "whsec_" + base64.b64encode(b"o" * 32).decode()
BODY = json.dumps(
    {
        "id": "upd_1",
        "type": "content.update",
        "occurredAt": 1795305600000,
        "data": {
            "id": "upd_1",
            "at": 1795305600000,
            "changeId": "chg_1",
            "entryId": "ent_1",
            "sourceId": "src_1",
            "updateType": "new",
        },
    }
).encode()


def signed(
    secret: str,
    *,
    at: int | None = None,
    brand: str = "svc",
    standard: bool = True,
    extra_secret: str | None = None,
) -> dict[str, str]:
    ts = str(at if at is not None else int(time.time()))
    message = f"upd_1.{ts}.".encode() + BODY
    headers = {
        f"{brand}-Event-Id": "upd_1",
        f"{brand}-Timestamp": ts,
        f"{brand}-Signature": "v1="
        + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest(),
    }
    if standard:
        sigs = []
        for key in [secret] + ([extra_secret] if extra_secret else []):
            raw = base64.b64decode(key.removeprefix("whsec_"))
            sigs.append(
                "v1," + base64.b64encode(hmac.new(raw, message, hashlib.sha256).digest()).decode()
            )
        headers |= {
            "webhook-id": "upd_1",
            "webhook-timestamp": ts,
            "webhook-signature": " ".join(sigs),
        }
    return headers


def test_both_schemes_verify_and_give_the_typed_event() -> None:
    for headers in (signed(SECRET), signed(SECRET, standard=False)):
        event = tidemark.webhooks.verify(BODY, headers, SECRET)
        assert (event.id, event.type, event.occurred_at) == (
            "upd_1",
            "content.update",
            1795305600000,
        )
        assert isinstance(event.data, tidemark.FeedUpdate)
        assert event.data.entry_id == "ent_1"


def test_a_rotation_overlap_verifies_with_either_secret() -> None:
    headers = signed(SECRET, extra_secret=OLD)
    assert tidemark.webhooks.verify(BODY, headers, OLD).id == "upd_1"
    assert tidemark.webhooks.verify(BODY, headers, SECRET).id == "upd_1"


def test_a_legacy_secret_verifies_with_the_branded_header_and_another_brand() -> None:
    legacy = "not-base64-secret!"
    headers = signed(legacy, standard=False, brand="acme")
    assert tidemark.webhooks.verify(BODY, headers, legacy, brand="acme").id == "upd_1"
    with pytest.raises(tidemark.WebhookVerificationError):
        tidemark.webhooks.verify(BODY, headers, legacy)  # brand svc: no svc-Signature


@pytest.mark.parametrize("standard", [True, False])
def test_stale_tampered_or_foreign_requests_are_refused(standard: bool) -> None:
    stale = signed(SECRET, at=int(time.time()) - 600, standard=standard)
    with pytest.raises(tidemark.WebhookVerificationError):
        tidemark.webhooks.verify(BODY, stale, SECRET)
    with pytest.raises(tidemark.WebhookVerificationError):
        tidemark.webhooks.verify(BODY + b" ", signed(SECRET, standard=standard), SECRET)
    with pytest.raises(tidemark.WebhookVerificationError):
        tidemark.webhooks.verify(BODY, signed(OLD, standard=standard), SECRET)
    broken = signed(SECRET, standard=standard) | {
        "webhook-signature": "garbage",
        "svc-Signature": "x",
    }
    with pytest.raises(tidemark.WebhookVerificationError):
        tidemark.webhooks.verify(BODY, broken, SECRET)
