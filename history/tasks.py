"""History's periodic jobs."""

from __future__ import annotations

import logging

from celery import shared_task

from history.deletion import purge_source
from history.retention import purge_snapshots

log = logging.getLogger(__name__)


@shared_task(name="history.purge_snapshots", ignore_result=True)
def purge_snapshots_task() -> None:
    """Daily: page states older than SNAPSHOT_RETENTION_DAYS (the newest of each source kept)."""
    states, blobs = purge_snapshots()
    log.info("snapshot retention: %s page states and %s blobs purged", states, blobs)


@shared_task(name="history.purge_source", ignore_result=True)
def purge_source_task(source_id: int) -> None:
    """A source its owner deleted: its history, in batches (history.deletion)."""
    rows = purge_source(source_id)
    log.info("source %s deleted: %s rows", source_id, rows)
