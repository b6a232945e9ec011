"""Revoking API keys: one conditional UPDATE, shared by the owner page and the admin."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import ApiKey
from accounts.signals import forget_keys


def revoke_keys(keys: QuerySet[ApiKey]) -> int:
    """Revoke the still-active keys of the queryset; returns how many were revoked.

    Keys already revoked keep their original revocation time. The revoked keys' cached
    records are replaced by tombstones (`accounts.signals.forget_keys`), so the next request
    with one of them reads the database and answers 401.
    """
    with transaction.atomic():
        active = keys.filter(revoked_at__isnull=True).select_for_update()
        digests = list(active.values_list("digest", flat=True))
        revoked = ApiKey.objects.filter(digest__in=digests, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        forget_keys(digests)
    return revoked
