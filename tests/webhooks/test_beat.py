"""Every periodic job in the beat schedule can really be published by Celery."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.celery import app as celery_app

BEAT_ENTRIES = sorted(settings.CELERY_BEAT_SCHEDULE.items())


@pytest.fixture(autouse=True)
def discovered_tasks() -> None:
    """Import the apps' task modules the way the worker and beat do at start-up."""
    celery_app.loader.import_default_modules()


@pytest.mark.parametrize(("name", "entry"), BEAT_ENTRIES, ids=[n for n, _ in BEAT_ENTRIES])
def test_it_publishes_each_beat_job(name: str, entry: dict[str, object]) -> None:
    task = celery_app.tasks[str(entry["task"])]
    with (
        celery_app.connection_for_write("memory://") as connection,
        celery_app.amqp.Producer(connection) as producer,
    ):
        # apply_async is what beat calls; it refuses, e.g., a soft limit above the hard one.
        result = task.apply_async(producer=producer)
    assert result.id
    assert task.soft_time_limit is not None
    assert task.time_limit is not None
    assert task.soft_time_limit < task.time_limit


def test_the_schedule_has_the_sweeper_every_minute_and_the_daily_expiry() -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["webhooks-sweep"]["task"] == "webhooks.sweep"
    assert schedule["webhooks-sweep"]["schedule"] == 60.0
    assert schedule["webhooks-expire"]["task"] == "webhooks.expire"
