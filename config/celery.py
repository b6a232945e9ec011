"""The Celery application: `celery -A config worker` / `celery -A config beat`."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

from celery import Celery

# celery-types declares only the first half of the fixup (DjangoWorkerFixup is in Celery).
from celery.fixups.django import DjangoFixup, DjangoWorkerFixup  # type: ignore[attr-defined]
from celery.worker.consumer import Consumer as _Consumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)


class _WorkerFixup(DjangoWorkerFixup):
    """Celery's Django worker fixup, but database connections live as long as in a web
    request.

    Celery closes every database connection before and after each task, so each webhook
    delivery opened a new PostgreSQL connection (a server process, authentication and a
    cold statement cache: more than the rest of the delivery together). Here a task ends
    the way Django ends a request: a connection is closed only when it is broken or older
    than CONN_MAX_AGE (`close_old_connections`).
    """

    def close_database(self, **kwargs: Any) -> None:
        self._db.close_old_connections()


class _Fixup(DjangoFixup):
    _worker_fixup: Any

    @property
    def worker_fixup(self) -> Any:
        # Created on first use: it reads the app's configuration, which is not loaded yet
        # when the fixup is installed.
        if self._worker_fixup is None:
            self._worker_fixup = _WorkerFixup(self.app)
        return self._worker_fixup


def django_fixup(app: Celery) -> DjangoFixup:
    """Installed in place of Celery's `celery.fixups.django:fixup`."""
    fixup = _Fixup(app)
    fixup.install()
    return fixup


class Consumer(_Consumer):
    """Celery's consumer, except that a message it cannot turn into a task is rejected and
    logged instead of stopping the worker (`CELERY_WORKER_CONSUMER`).

    Celery handles a body that does not decode and an unknown task name, but some headers
    still raise out of the consumer (a task message without an `id` raises KeyError from
    `Request`), and the worker then exits with "Unrecoverable error" after putting the
    message back, so that every restart meets it again.
    """

    def create_task_handler(self, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        handle = super().create_task_handler(*args, **kwargs)
        # Set by Consumer.__init__ (not in celery-types' stubs).
        connection_errors: tuple[type[BaseException], ...] = self.connection_errors  # type: ignore[attr-defined]

        def on_task_received(message: Any) -> Any:
            try:
                return handle(message)
            except connection_errors:
                raise  # the connection's to recover, not the message's fault
            except Exception as exc:
                logger.error(
                    "worker: rejected a message it cannot run (%r); headers: %.500r",
                    exc,
                    getattr(message, "headers", None),
                    exc_info=True,
                )
                if not message.acknowledged:
                    message.reject_log_error(logger, connection_errors)
                return None

        return on_task_received


app = Celery("tidemark", fixups=["config.celery:django_fixup"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
