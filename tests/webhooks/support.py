"""Webhook test rig: scripted HTTP receivers on 127.0.0.1 and a real Celery worker process.

The worker is a `celery -A config worker` subprocess pointed at pytest-django's test
database (so tests that use it need `transactional_db`: their rows must be committed to be
seen) and at the test run's broker, with loopback receivers allowed and short delays.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast

import pytest
from django.conf import settings as django_settings
from django.db import connection

from accounts.models import Account
from history.ingest import ingest
from tests.factories import AccountFactory
from webhooks import signing
from webhooks.models import WebhookDelivery, WebhookEndpoint

ROOT = Path(__file__).resolve().parents[2]

# What the worker runs with; the test process mirrors the ones it needs via `settings`.
WORKER_ENV = {
    "WEBHOOK_ALLOW_LOOPBACK": "true",
    "NOTIFY_ALLOW_LOOPBACK": "true",  # alerts' Apprise targets (tests/alerts)
    "WEBHOOK_RETRY_DELAYS": "1,1,1,1",
    "WEBHOOK_CONNECT_TIMEOUT": "1",
    "WEBHOOK_TOTAL_TIMEOUT": "2",
    "WEBHOOK_LEASE_GRACE_SECONDS": "1",
    "WEBHOOK_SWEEP_GRACE_SECONDS": "0",
    # The watcher's tests serve their pages on loopback; no gap between requests to a host.
    "FETCH_ALLOW_LOOPBACK": "true",
    "FETCH_HOST_GAP_MS": "0",
    # Django system checks import every URLconf and view; the worker needs none of them.
    "CELERY_SKIP_CHECKS": "1",
}


# --- Receivers ----------------------------------------------------------------------------


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    at: float  # time.monotonic() when the request arrived


@dataclass
class Receiver:
    """An HTTP server on 127.0.0.1 that answers from a script.

    Each script item answers one request: an int status, or a tuple
    ("sleep", seconds, status). Once the script runs out, the last item repeats.
    """

    script: list[Any]
    requests: list[Received] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def next_answer(self) -> Any:
        index = min(len(self.requests) - 1, len(self.script) - 1)
        return self.script[index]

    def bodies(self) -> list[bytes]:
        return [r.body for r in self.requests]


def _handler_for(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            receiver.requests.append(
                Received({k.lower(): v for k, v in self.headers.items()}, body, time.monotonic())
            )
            receiver.arrived.set()
            answer = receiver.next_answer()
            if isinstance(answer, tuple):
                _, seconds, answer = answer
                time.sleep(seconds)
            try:
                self.send_response(answer)
                if 300 <= answer < 400:
                    self.send_header("Location", "http://127.0.0.1:1/elsewhere")
                self.send_header("Content-Length", "2")
                self.end_headers()
                if answer not in (204, 304):
                    self.wfile.write(b"ok")
            except OSError:
                pass  # the sender gave up (timeout) or its worker was killed

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def receiver() -> Iterator[Callable[..., Receiver]]:
    """Factory: `receiver(200)` or `receiver(503, 503, 200)` starts a scripted receiver."""
    servers: list[ThreadingHTTPServer] = []

    def start(*script: Any) -> Receiver:
        rec = Receiver(list(script))
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(rec))
        server.daemon_threads = True
        rec.server = server
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return rec

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def closed_port_url() -> str:
    """A loopback URL where nothing listens (connection refused)."""
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}/hook"


# --- The worker ----------------------------------------------------------------------------


class Worker:
    """A `celery -A config worker` subprocess on the test database."""

    # Every worker this test process started: two live ones would race for one queue.
    started: list[Worker] = []

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        Worker.started.append(self)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def env(self) -> dict[str, str]:
        db = connection.settings_dict
        url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        env = {**os.environ, **WORKER_ENV}
        env["DATABASE_URL"] = url
        env["CELERY_BROKER_URL"] = django_settings.CELERY_BROKER_URL
        env["REDIS_URL"] = django_settings.REDIS_URL
        return env

    def start(self) -> None:
        others = [w for w in Worker.started if w is not self and w.running]
        assert not others, "a second Celery worker would race the first for the queue"
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                "celery,webhooks,render",
                "--pool=threads",
                "--concurrency=8",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
                "-n",
                f"webhooks-test-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=self.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_ready()

    def _wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited: see {self.log_path}")
            if b"ready." in self.log_path.read_bytes()[-20000:]:
                return
            time.sleep(0.1)
        raise RuntimeError(f"worker not ready after {timeout}s: see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL the worker (no graceful shutdown, nothing acked or restored)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.proc = None


def purge_queues() -> None:
    from config.celery import app

    with app.connection_for_write() as conn:
        for queue in ("celery", "webhooks", "render"):
            conn.default_channel.queue_purge(queue)  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def _session_worker(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Worker]:
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    with django_db_blocker.unblock():
        purge_queues()
        worker = Worker(log_path)
        worker.start()
    yield worker
    worker.stop()


@pytest.fixture
def worker(_session_worker: Worker, transactional_db: Any, settings: Any) -> Iterator[Worker]:
    """The running worker; the test process gets the same webhook settings as the worker."""
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    settings.WEBHOOK_RETRY_DELAYS = [1, 1, 1, 1]
    settings.WEBHOOK_CONNECT_TIMEOUT = 1.0
    settings.WEBHOOK_TOTAL_TIMEOUT = 2.0
    settings.WEBHOOK_LEASE_GRACE_SECONDS = 1.0
    settings.WEBHOOK_SWEEP_GRACE_SECONDS = 0.0
    if not _session_worker.running:
        _session_worker.start()  # a previous test killed it
    yield _session_worker
    # Nothing of this test may leak into the next one (rows are flushed, messages too).
    purge_queues()


# --- Data helpers --------------------------------------------------------------------------


def make_account(**fields: Any) -> Account:
    return cast(Account, AccountFactory(**fields))


def add_endpoint(account: Any, url: str, description: str = "") -> tuple[WebhookEndpoint, str]:
    secret = signing.new_secret()
    endpoint = WebhookEndpoint(account=account, url=url, description=description)
    endpoint.secret = secret
    endpoint.save()
    return endpoint, secret


def ingest_prices(account: Any, prices: dict[str, float]) -> list[int]:
    """Ingest one fetch of https://shop.example.com/list; return the new update ids."""
    doc = {
        "account": account.slug,
        "source": {"url": "https://shop.example.com/list", "name": "Shop"},
        "entries": [
            {"identityKey": key, "title": f"Item {key}", "price": price, "currency": "EUR"}
            for key, price in prices.items()
        ],
    }
    return list(ingest(doc, account=account).update_ids)


def wait_until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def wait_finished(delivery_ids: list[int], timeout: float = 20) -> list[WebhookDelivery]:
    def done() -> bool:
        finished = WebhookDelivery.objects.filter(
            pk__in=delivery_ids, status__in=["succeeded", "failed"]
        ).count()
        return finished == len(delivery_ids)

    wait_until(done, timeout, f"deliveries {delivery_ids} to finish")
    return list(WebhookDelivery.objects.filter(pk__in=delivery_ids).order_by("pk"))
