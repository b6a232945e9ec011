"""A worker on the embedded broker survives messages it cannot read or run, and goes on."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.stack.harness import BAD_MESSAGES, BIN, ROOT, TASK, Stack, _alive, task_ids

pytestmark = pytest.mark.worker


def test_a_worker_survives_bad_files_and_bad_task_messages(tmp_path: Path) -> None:
    stack = Stack(tmp_path)
    log = tmp_path / "worker.log"
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            # Procfile.dev's worker, at its default concurrency.
            [
                BIN / "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                "celery,webhooks",
                "--loglevel",
                "INFO",
                "--concurrency",
                "4",
            ],
            cwd=ROOT,
            env={**stack.env, "CELERY_SKIP_CHECKS": "1"},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while " ready." not in log.read_text() and time.monotonic() < deadline:
            assert worker.poll() is None, log.read_text()
            time.sleep(0.2)

        broken = {
            "0_1.celery.msg": b"",
            "0_2.celery.msg": b'{"body": "W1s',
            "0_3.celery.msg": b"[]",
            "0_4.celery.msg": b'{"body": "", "properties": {}}',
        }
        for name, data in broken.items():
            (tmp_path / "broker" / name).write_bytes(data)
        stack.publish_bad()
        good = set(task_ids("good", 3))
        assert stack.publish("good", 3).wait(60) == 0

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = log.read_text()
            if all(f"{TASK}[{i}] succeeded" in text for i in good):
                break
            assert worker.poll() is None, text[-5000:]
            time.sleep(0.2)
        text = log.read_text()
        assert all(f"{TASK}[{i}] succeeded" in text for i in good), text[-5000:]
        assert worker.poll() is None
        assert _alive(worker.pid)
        assert "Unrecoverable" not in text
        assert sorted(p.name for p in (tmp_path / "broker-dead").iterdir()) == sorted(broken)
        # Each bad task message was read and disposed of with a log line: five by our
        # consumer (they used to stop the worker), five by Celery itself.
        dispositions = {
            "rejected a message it cannot run": 5,
            "Can't decode message body": 2,
            "Received unregistered task": 1,
            "Received invalid task message": 2,
        }
        assert {line: text.count(line) for line in dispositions} == dispositions
        assert sum(dispositions.values()) == len(BAD_MESSAGES)
        assert "rejected a message it cannot run (KeyError('id'))" in text
        assert not [p for p in (tmp_path / "broker").iterdir() if p.is_file()]
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
