"""Deleting a source: hidden at once, its history removed in the background in batches.

A source with millions of updates cannot be deleted inside one request. `hide_source`
marks it `deleting` (every page, the API, the MCP tools and the webhooks leave it out from
that commit on, and the watcher never claims it again), then `purge_source` runs in a Celery
task: updates, fetches and entries go in batches of `SOURCE_DELETE_BATCH` rows, each batch
its own short transaction, and the source row last. A purge that dies half-way leaves a
hidden source whose next purge carries on where it stopped; `history.resume_deletions`
(beat) queues that next purge, and the first one when the broker was down at delete time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models, transaction

from config.celery import enqueue_after_commit
from history.models import Change, Entry, Source, Update


def hide_source(source: Source) -> None:
    """Hide the source now and queue the purge of its history after commit."""
    from history.tasks import purge_source_task  # here: history.tasks imports this module

    Source.objects.filter(pk=source.pk).update(
        deleting=True, status=Source.Status.DISABLED, next_fetch_time=None
    )
    enqueue_after_commit(purge_source_task, source.pk)


def deleting_source_ids() -> list[int]:
    """Sources hidden for deletion whose purge has not finished: its message was never
    sent (the broker was down), or the purge died half-way."""
    return list(Source.objects.filter(deleting=True).order_by("pk").values_list("pk", flat=True))


def _delete_batches(model: type[models.Model], source_id: int, batch: int) -> int:
    deleted = 0
    while True:
        with transaction.atomic():
            pks = list(
                model._default_manager.filter(source_id=source_id).values_list("pk", flat=True)[
                    :batch
                ]
            )
            if not pks:
                return deleted
            model._default_manager.filter(pk__in=pks).delete()
        deleted += len(pks)


def purge_source(source_id: int, batch: int | None = None) -> int:
    """Remove a hidden source and its history; the number of rows deleted. A source that is
    not hidden (or no longer exists) is left alone."""
    if not Source.objects.filter(pk=source_id, deleting=True).exists():
        return 0
    batch = batch or settings.SOURCE_DELETE_BATCH
    deleted = sum(_delete_batches(model, source_id, batch) for model in (Update, Change, Entry))
    with transaction.atomic():
        removed, _ = Source.objects.filter(pk=source_id, deleting=True).delete()
    return deleted + removed
