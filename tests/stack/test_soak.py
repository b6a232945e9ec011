"""The embedded stack of `make run` stays up under load: 5,000 tasks through the embedded
broker, with a few unreadable files among them, and not one process exits."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.stack.harness import PROCESSES, Stack, task_ids

pytestmark = [pytest.mark.soak, pytest.mark.worker]

TASKS = 5_000
PUBLISHERS = 2


def test_the_stack_of_make_run_processes_5000_tasks_and_no_process_exits(
    tmp_path: Path,
) -> None:
    stack = Stack(tmp_path / "var")
    stack.prepare()
    stack.start()
    try:
        pids = stack.wait_started()
        assert set(pids) == set(PROCESSES)
        began = time.monotonic()
        per = TASKS // PUBLISHERS
        ids: set[str] = set()
        publishers = []
        for n in range(PUBLISHERS):
            publishers.append(stack.publish(f"p{n}", per))
            ids |= set(task_ids(f"p{n}", per))
        # While they publish: files no consumer can read, as a torn write used to leave.
        for n, data in enumerate([b"", b'{"body": "W1s', b"[]"]):
            time.sleep(1)
            (stack.var_dir / "broker" / f"0_{n}.celery.msg").write_bytes(data)
        for publisher in publishers:
            assert publisher.wait(240) == 0

        # About a minute here; the bound leaves room for a slower machine.
        deadline = began + 240
        while len(stack.done(ids)) < TASKS and time.monotonic() < deadline:
            assert not stack.exited(), stack.log()[-5000:]
            time.sleep(1)
        elapsed = time.monotonic() - began
        done = stack.done(ids)
        assert len(done) == TASKS, f"{len(done)} of {TASKS} in {elapsed:.0f} s"
        assert stack.exited() == []
        assert stack.pids() == pids  # nothing restarted either
        # The default queue drains. Beat keeps adding its ticks there, which the worker takes
        # at once, so it is read until a moment it is empty; the render queue may hold the
        # demo sources' renders, which are not this test's.
        drained = time.monotonic() + 60
        while stack.broker_files("celery")["queued"] and time.monotonic() < drained:
            time.sleep(0.5)
        assert stack.broker_files("celery") == {"queued": 0, "dead": 3}
        log = stack.log()
        assert "Unrecoverable" not in log
        assert "exited with code" not in log
        print(f"soak: {TASKS} tasks in {elapsed:.1f} s ({TASKS / elapsed:.0f}/s)")
    finally:
        stack.stop()
