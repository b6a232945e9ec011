"""Webhook signatures: the contract's `svc-*` headers, and Standard Webhooks' `webhook-*`.

- `svc-Signature: v1=<hex HMAC-SHA256(secret, "<event-id>.<timestamp>.<raw-body>")>`, keyed
  by the secret string exactly as shown to the owner (its UTF-8 bytes), for every secret.
- `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of
  "<id>.<timestamp>.<body>">` as the Standard Webhooks specification defines them, keyed by
  the base64-decoded bytes after `whsec_`. Secrets minted since Standard Webhooks support are
  `whsec_` + standard base64 of 32 random bytes; older secrets do not decode that way and get
  only the `svc-*` headers until the owner rotates them.

During a rotation's overlap both secrets sign: `webhook-signature` carries both signatures,
space separated (the spec allows several); `svc-Signature` carries the new one.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

from django.conf import settings

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32
MIN_STANDARD_KEY_BYTES = 24


def new_secret() -> str:
    """A fresh signing secret: `whsec_` + standard base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def standard_key(secret: str) -> bytes | None:
    """The Standard Webhooks HMAC key of a secret, or None for a secret minted before
    (not `whsec_` + padded standard base64 of at least 24 bytes)."""
    if not secret.startswith(SECRET_PREFIX):
        return None
    try:
        key = base64.b64decode(secret[len(SECRET_PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        return None
    return key if len(key) >= MIN_STANDARD_KEY_BYTES else None


def signature(secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    """The contract's `svc-Signature` value."""
    message = f"{event_id}.{timestamp}.".encode() + body
    return "v1=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def standard_signature(key: bytes, event_id: str, timestamp: int, body: bytes) -> str:
    """One `webhook-signature` entry: `v1,<base64 HMAC-SHA256>`."""
    message = f"{event_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()


def headers(
    secret: str, event_id: str, timestamp: int, body: bytes, *, previous: str | None = None
) -> dict[str, str]:
    """The request headers of one attempt; the brand word is `settings.BRAND`.

    `previous` is a rotated-out secret still inside its overlap: it signs beside `secret`
    in `webhook-signature`."""
    brand = settings.BRAND
    out = {
        "Content-Type": "application/json",
        f"{brand}-Event-Id": event_id,
        f"{brand}-Timestamp": str(timestamp),
        f"{brand}-Signature": signature(secret, event_id, timestamp, body),
    }
    current_key = standard_key(secret)
    if current_key is not None:
        old_key = standard_key(previous) if previous else None
        keys = [current_key] if old_key is None else [current_key, old_key]
        out["webhook-id"] = event_id
        out["webhook-timestamp"] = str(timestamp)
        out["webhook-signature"] = " ".join(
            standard_signature(key, event_id, timestamp, body) for key in keys
        )
    return out
