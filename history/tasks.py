"""History's periodic jobs."""

from __future__ import annotations

import logging

from celery import shared_task

from config.celery import enqueue_after_commit
from history.deletion import deleting_source_ids, purge_source
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


@shared_task(name="history.resume_deletions", ignore_result=True)
def resume_deletions_task() -> int:
    """Every ten minutes (beat): queue the purge of every source still hidden for deletion,
    whose first purge was never sent (the broker was down when its owner deleted it) or
    stopped half-way (a time limit, a lost worker). A purge is safe to run twice."""
    pending = deleting_source_ids()
    for source_id in pending:
        enqueue_after_commit(purge_source_task, source_id)
    if pending:
        log.info("deletions: %s purges queued again", len(pending))
    return len(pending)
