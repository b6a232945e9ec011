"""The watcher's Celery tasks: the beat tick that claims due sources, the fetch task, and
the render task (its own `render` queue, low concurrency: one browser per worker process)."""

from __future__ import annotations

import logging

from celery import current_app, shared_task
from celery.signals import worker_process_shutdown
from django.conf import settings

from watcher import render, schedule
from watcher.check import NeedsRender, check, record_lost

log = logging.getLogger(__name__)

MAX_BATCHES_PER_TICK = 10


@shared_task(name="watcher.tick", ignore_result=True)
def tick() -> int:
    """Claim due sources in batches and enqueue one fetch each; returns how many."""
    queued = 0
    with current_app.producer_or_acquire() as producer:  # one broker connection for all
        for _ in range(MAX_BATCHES_PER_TICK):
            batch = schedule.claim()
            for c in batch.claims:
                fetch_source.apply_async(args=(c.source_id, c.lease), producer=producer)
            queued += len(batch.claims)
            if len(batch.claims) + len(batch.credit_paused) < settings.WATCH_CLAIM_BATCH:
                break
    return queued


@shared_task(name="watcher.fetch", ignore_result=True)
def fetch_source(source_id: int, lease: int) -> None:
    try:
        result = check(source_id, lease=lease, can_render=False)
    except NeedsRender as exc:
        try:
            render_source.apply_async(args=(source_id, exc.lease))
        except Exception as err:  # the broker refused it: recorded, not lost (DESIGN)
            log.error("source %s: the render task could not be queued", source_id, exc_info=err)
            record_lost(
                source_id,
                "failed",
                f"the page could not be handed to the browser ({type(err).__name__}).",
                lease=exc.lease,
            )
        return
    if result is not None:
        log.info("source %s: %s", source_id, result.line)


@shared_task(name="watcher.render", ignore_result=True)
def render_source(source_id: int, lease: int | None) -> None:
    result = check(source_id, lease=lease, can_render=True)
    if result is not None:
        log.info("source %s (rendered): %s", source_id, result.line)


@worker_process_shutdown.connect
def _close_browser(**kwargs: object) -> None:
    render.shutdown()
