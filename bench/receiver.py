"""A webhook receiver that answers 204 at once and records when each event arrived.

`python -m bench.receiver PORT` serves on 127.0.0.1:PORT. Every POST is recorded as
(arrival time, event id, occurredAt, changeId); `GET /stats` returns the records as JSON
and `DELETE /stats` clears them. The body is parsed after the answer is sent, so the
receiver adds nothing to the sender's round trip but the socket work.
"""

from __future__ import annotations

import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson

_lock = threading.Lock()
_records: list[tuple[float, str, int, str]] = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        arrived = time.time()
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.wfile.flush()
        try:
            event: dict[str, Any] = orjson.loads(body)
            record = (arrived, event["id"], int(event["occurredAt"]), event["data"]["changeId"])
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            record = (arrived, "", 0, "")
        with _lock:
            _records.append(record)

    def do_GET(self) -> None:
        with _lock:
            body = orjson.dumps(_records)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_DELETE(self) -> None:
        with _lock:
            _records.clear()
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: logging every delivery would cost more than answering it."""


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 18099
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
