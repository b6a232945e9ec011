"""The Celery app keeps a worker's database connection from one task to the next."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from config.celery import _WorkerFixup, app
from webhooks.tasks import deliver


def test_the_worker_uses_the_fixup_that_keeps_connections() -> None:
    fixups = [f for f in vars(app)["_fixups"] if f is not None]
    assert [type(f.worker_fixup) for f in fixups] == [_WorkerFixup]


@pytest.mark.django_db(transaction=True)
def test_a_task_keeps_a_healthy_connection_and_drops_an_old_or_broken_one() -> None:
    fixup = _WorkerFixup(app)
    connection.ensure_connection()
    raw = connection.connection
    fixup.on_task_prerun(sender=deliver)
    fixup.on_task_postrun(sender=deliver)
    assert connection.connection is raw  # Celery's own fixup closes it around every task

    connection.close_at = time.monotonic() - 1  # older than CONN_MAX_AGE
    fixup.on_task_postrun(sender=deliver)
    assert connection.connection is None

    connection.ensure_connection()
    connection.errors_occurred = True
    broken = connection.cursor().connection
    broken.close()
    fixup.on_task_postrun(sender=deliver)
    assert connection.connection is None
