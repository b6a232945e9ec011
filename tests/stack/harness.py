"""The embedded stack of `make run`, started the way `make run` starts it, for the soak tests.

`Stack` runs what the Makefile's `run` target runs (migrate, `demo`, then honcho with
Procfile.dev: web, worker, render, beat, mcp, site) on free loopback ports, with its own
VAR_DIR and none of the test run's servers in its environment, so every backend is the
embedded default: SQLite, filesystem storage, the embedded broker, no Redis.

By hand, the long run whose result docs/deploying.md gives:

    .venv/bin/python -m tests.stack.harness --minutes 30 --rate 20
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PROCESSES = ("web", "worker", "render", "beat", "mcp", "site")
# The task the soak pushes: Celery's own `celery.accumulate` (returns its arguments), which
# every worker of the app has, so the stack runs with nothing added for the test.
TASK = "celery.accumulate"
_SUCCEEDED = re.compile(rf"Task {re.escape(TASK)}\[([^\]]+)\] succeeded")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_kb(pid: int) -> int:
    """Resident memory of `pid` and all its descendants (a worker's pool, gunicorn's
    workers), in kB."""
    total = 0
    for p in [pid, *_descendants(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def _descendants(pid: int) -> list[int]:
    children: list[int] = []
    try:
        direct = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        return children
    for child in map(int, direct):
        children += [child, *_descendants(child)]
    return children


@dataclass
class Stack:
    var_dir: Path
    port: int = field(default_factory=free_port)
    mcp_port: int = field(default_factory=free_port)
    site_port: int = field(default_factory=free_port)
    honcho: subprocess.Popen[bytes] | None = None
    log_path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log_path = self.var_dir / "honcho.log"

    @property
    def env(self) -> dict[str, str]:
        """What `make run` gives the processes, on top of a bare environment."""
        return {
            "PATH": f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": os.environ.get("HOME", "/root"),
            "LANG": "C.UTF-8",
            "VAR_DIR": str(self.var_dir),
            "DATABASE_URL": f"sqlite:///{self.var_dir / 'db.sqlite3'}",
            "WEBHOOK_ALLOW_LOOPBACK": "true",
            "FETCH_ALLOW_LOOPBACK": "true",
            "MCP_PORT": str(self.mcp_port),
            "SITE_PORT": str(self.site_port),
            "APP_BASE_URL": f"http://127.0.0.1:{self.port}",
        }

    def prepare(self) -> None:
        """`make run` before honcho: migrate, then the demo account and its key."""
        self.var_dir.mkdir(parents=True, exist_ok=True)
        for args in (
            ["migrate", "--noinput"],
            ["demo", "--base-url", f"http://127.0.0.1:{self.port}"],
        ):
            subprocess.run(
                [sys.executable, "manage.py", *args],
                cwd=ROOT,
                env=self.env,
                check=True,
                capture_output=True,
            )

    def start(self) -> None:
        log = open(self.log_path, "wb")  # noqa: SIM115 (closed with the process)
        self.honcho = subprocess.Popen(
            [
                BIN / "honcho",
                "start",
                "--port",
                str(self.port),
                "--procfile",
                "Procfile.dev",
                *PROCESSES,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def pids(self) -> dict[str, int]:
        """Each process's pid, as honcho reported it."""
        found: dict[str, int] = {}
        for match in re.finditer(r"system\s+\| (\w+)\.1 started \(pid=(\d+)\)", self.log()):
            found[match.group(1)] = int(match.group(2))
        return found

    def wait_started(self, timeout: float = 120) -> dict[str, int]:
        """Wait until every process has started and the web and MCP ports answer."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = self.pids()
            if (
                set(pids) == set(PROCESSES)
                and all(_answers(port) for port in (self.port, self.mcp_port, self.site_port))
                and self.log().count(" ready.") >= 2
            ):  # worker and render
                return pids
            if self.honcho is not None and self.honcho.poll() is not None:
                break
            time.sleep(0.5)
        raise AssertionError(f"the stack did not start:\n{self.log()[-4000:]}")

    def exited(self) -> list[str]:
        """The processes that are no longer running, and honcho's own exit if it left."""
        gone = [name for name, pid in self.pids().items() if not _alive(pid)]
        if self.honcho is not None and self.honcho.poll() is not None:
            gone.append(f"honcho (exit {self.honcho.returncode})")
        return gone

    def memory_kb(self) -> dict[str, int]:
        return {name: _rss_kb(pid) for name, pid in self.pids().items()}

    def done(self, ids: set[str]) -> set[str]:
        """Which of the task ids the worker reported as succeeded."""
        return {m.group(1) for m in _SUCCEEDED.finditer(self.log())} & ids

    def publish(self, prefix: str, count: int, rate: int = 0) -> subprocess.Popen[bytes]:
        """Publish `count` tasks from another process, as the web would, with the stack's
        settings (the embedded broker); `rate` tasks a second, or all at once."""
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.stack.harness",
                "--publish",
                prefix,
                str(count),
                "--rate",
                str(rate),
            ],
            cwd=ROOT,
            env=self.env,
        )

    def publish_bad(self) -> None:
        subprocess.run(
            [sys.executable, "-m", "tests.stack.harness", "--publish-bad"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )

    def stop(self) -> int | None:
        if self.honcho is None:
            return None
        if self.honcho.poll() is None:
            os.killpg(self.honcho.pid, signal.SIGINT)
            try:
                self.honcho.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.honcho.pid, signal.SIGKILL)
                self.honcho.wait(10)
        return self.honcho.returncode

    def broker_files(self, queue: str = "*") -> dict[str, int]:
        """Messages waiting (in `queue`'s files, or every queue's) and dead-lettered files."""
        queued = (self.var_dir / "broker").glob(f"*.{queue}.msg")
        return {
            "queued": sum(1 for p in queued if p.is_file()),
            "dead": sum(1 for p in (self.var_dir / "broker-dead").glob("*") if p.is_file()),
        }


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie has exited too.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def task_ids(prefix: str, count: int) -> Iterator[str]:
    return (f"{prefix}-{i}" for i in range(count))


def _publish(prefix: str, count: int, rate: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from config.celery import app

    began = time.monotonic()
    with app.producer_or_acquire() as producer:
        for i, task_id in enumerate(task_ids(prefix, count)):
            if rate and i % rate == 0:
                time.sleep(max(0.0, began + i / rate - time.monotonic()))
            app.send_task(TASK, args=[i], task_id=task_id, producer=producer)


# Task messages that decode but that Celery cannot run; each once stopped a worker or is
# handled by Celery itself. (body, headers, content type)
BAD_MESSAGES: list[tuple[str | bytes, dict[str, object], str]] = [
    ("x", {}, "application/json"),  # no task header, body not JSON
    ("[[],{},{}]", {"task": TASK}, "application/json"),  # no id: KeyError in Request
    ("!!!", {"task": TASK, "id": "bad-1"}, "application/json"),  # body not JSON
    (
        '{"a":1}',
        {"task": TASK, "id": "bad-2"},
        "application/json",
    ),  # body not (args, kwargs, embed)
    ("[[],{},{}]", {"task": "no.such.task", "id": "bad-3"}, "application/json"),
    (b"\x80\x04K\x01.", {"task": TASK, "id": "bad-4"}, "application/x-python-serialize"),
    ("[[],{},{}]", {"task": TASK, "id": "bad-5", "eta": "garbage"}, "application/json"),
    ("[[],{},{}]", {"task": TASK, "id": "bad-6", "timelimit": "x"}, "application/json"),
    ("[[],{},{}]", {"task": [TASK], "id": "bad-7"}, "application/json"),  # unhashable name
    ("null", {"task": TASK, "id": "bad-8"}, "application/json"),
]


def _publish_bad() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from kombu import Exchange

    from config.celery import app

    with app.connection_for_write() as conn:
        producer = conn.Producer()
        for body, headers, content_type in BAD_MESSAGES:
            producer.publish(
                body,
                exchange=Exchange("celery", type="direct"),
                routing_key="celery",
                serializer=None,
                headers=headers,
                content_type=content_type,
                content_encoding="binary" if isinstance(body, bytes) else "utf-8",
            )


def _soak(minutes: float, rate: int) -> dict[str, object]:
    """Run the stack for `minutes`, publishing `rate` tasks a second in one-second batches
    from a separate process; report tasks, throughput, processes alive and memory."""
    with tempfile.TemporaryDirectory(prefix="tidemark-soak-") as tmp:
        stack = Stack(Path(tmp))
        stack.prepare()
        stack.start()
        try:
            stack.wait_started()
            memory_start = stack.memory_kb()
            began = time.monotonic()
            count = int(minutes * 60 * rate)
            published = set(task_ids("soak", count))
            publisher = stack.publish("soak", count, rate)
            samples = []
            next_sample = began + 60
            while publisher.poll() is None:
                time.sleep(1)
                if time.monotonic() < next_sample:
                    continue
                next_sample += 60
                samples.append(
                    {
                        "minute": round((time.monotonic() - began) / 60, 1),
                        "done": len(stack.done(published)),
                        "memory_kb": stack.memory_kb(),
                        "broker": stack.broker_files(),
                        "exited": stack.exited(),
                    }
                )
                print(json.dumps(samples[-1]), flush=True)
            deadline = time.monotonic() + 120
            while len(stack.done(published)) < len(published) and time.monotonic() < deadline:
                time.sleep(1)
            elapsed = time.monotonic() - began
            done = stack.done(published)
            return {
                "minutes": round(elapsed / 60, 1),
                "published": len(published),
                "done": len(done),
                "rate_per_second": round(len(done) / elapsed, 1),
                "exited": stack.exited(),
                "memory_start_kb": memory_start,
                "memory_end_kb": stack.memory_kb(),
                "broker": stack.broker_files(),
                "errors": [
                    line
                    for line in stack.log().splitlines()
                    if "CRITICAL" in line or "Unrecoverable" in line or "exited with code" in line
                ][:20],
            }
        finally:
            stack.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--publish", nargs=2, metavar=("PREFIX", "COUNT"))
    parser.add_argument("--publish-bad", action="store_true", help="BAD_MESSAGES, once each")
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--rate", type=int, default=20, help="tasks a second (0: at once)")
    args = parser.parse_args()
    if args.publish_bad:
        _publish_bad()
        return
    if args.publish:
        _publish(args.publish[0], int(args.publish[1]), args.rate)
        return
    print(json.dumps(_soak(args.minutes, args.rate), indent=2))


if __name__ == "__main__":
    main()
