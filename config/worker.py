"""The Celery worker's consumer (`CELERY_WORKER_CONSUMER`): a message the worker cannot
turn into a task is logged and rejected, not fatal."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery.worker.consumer import Consumer as _Consumer

logger = logging.getLogger(__name__)


class Consumer(_Consumer):
    """Celery's consumer, except that a message it cannot turn into a task is rejected and
    logged instead of stopping the worker.

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
