"""Keep the keys cached in Redis (`accounts.ratelimit`) true to the database.

Any save or delete of an ApiKey through the ORM replaces its cached record with a tombstone,
so the next request reads the key from the database again. Bulk revocation goes through
`accounts.revocation.revoke_keys`, which does the same.

The tombstone is written at once and again when the transaction commits. While it lives,
no request can cache the key (the cache is filled with SET NX), so nothing read before the
commit survives it; the second write covers a transaction longer than a tombstone's life.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts import ratelimit
from accounts.models import ApiKey


def forget_keys(digests: list[str]) -> None:
    if digests:
        ratelimit.forget(digests)
        transaction.on_commit(lambda: ratelimit.forget(digests))


@receiver(post_save, sender=ApiKey, dispatch_uid="accounts.forget_saved_key")
@receiver(post_delete, sender=ApiKey, dispatch_uid="accounts.forget_deleted_key")
def forget_cached_key(sender: type[ApiKey], instance: ApiKey, **kwargs: Any) -> None:
    if not kwargs.get("created"):  # a new key has nothing cached yet
        forget_keys([instance.digest])
