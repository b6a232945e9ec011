"""gunicorn settings read by the Procfile's `web` (`-c python:config.gunicorn`)."""

from __future__ import annotations

import os
from typing import Any


def child_exit(server: Any, worker: Any) -> None:
    """A worker that exits leaves its live gauges behind unless told (prometheus-client)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
