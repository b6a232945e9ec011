"""Revoking API keys: one conditional UPDATE, shared by the owner page and the admin."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import ApiKey


def revoke_keys(keys: QuerySet[ApiKey]) -> int:
    """Revoke the still-active keys of the queryset; returns how many were revoked.

    The API looks the key up on every request, so the next request with a revoked key
    answers 401. Keys already revoked keep their original revocation time.
    """
    return keys.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
