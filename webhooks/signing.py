"""Webhook signatures: `v1=<hex HMAC-SHA256(secret, "<event-id>.<timestamp>.<raw-body>")>`."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A fresh signing secret (256 random bits); the HMAC key is this whole string."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def signature(secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    message = f"{event_id}.{timestamp}.".encode() + body
    return "v1=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def headers(secret: str, event_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The request headers of one attempt; the brand word is `settings.BRAND`."""
    brand = settings.BRAND
    return {
        "Content-Type": "application/json",
        f"{brand}-Event-Id": event_id,
        f"{brand}-Timestamp": str(timestamp),
        f"{brand}-Signature": signature(secret, event_id, timestamp, body),
    }
