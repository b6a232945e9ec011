"""A real HTTP server on loopback that serves fixture pages which change between fetches.

    site = Site()                       # 127.0.0.1, a free port (or Site("127.0.0.7"))
    site.page("/shop", html)            # 200 text/html, with an ETag of the body
    site.page("/old", status=301, headers={"Location": "/shop"})
    site.url("/shop")                   # "http://127.0.0.1:PORT/shop"
    site.hits("/shop")                  # how many requests that path got

Conditional requests are answered as a real server would: 304 when If-None-Match names
the body's current ETag. Anything not configured is 404 (robots.txt included, which means
no rules).
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Answer:
    body: bytes = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    etag: bool = True


class Site:
    def __init__(self, host: str = "127.0.0.1") -> None:
        self.answers: dict[str, Answer] = {}
        self.counts: Counter[str] = Counter()
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                path = self.path
                with site.lock:
                    site.counts[path] += 1
                    site.requests.append((path, dict(self.headers.items())))
                    answer = site.answers.get(path) or site.answers.get(path.split("?")[0])
                if answer is None:
                    self._send(404, b"not found", "text/plain", {})
                    return
                headers = dict(answer.headers)
                if answer.etag and answer.status == 200:
                    tag = '"' + hashlib.sha256(answer.body).hexdigest()[:16] + '"'
                    headers["ETag"] = tag
                    if self.headers.get("If-None-Match") == tag:
                        self._send(304, b"", None, headers)
                        return
                self._send(answer.status, answer.body, answer.content_type, headers)

            def _send(
                self, status: int, body: bytes, ctype: str | None, headers: dict[str, str]
            ) -> None:
                self.send_response(status)
                if ctype:
                    self.send_header("Content-Type", ctype)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if status != 304:
                    self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((host, 0), Handler)
        self.server.daemon_threads = True
        self.host = host
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}:{self.port}{path}"

    def page(self, path: str, body: str | bytes = b"", **kwargs: Any) -> None:
        data = body.encode() if isinstance(body, str) else body
        with self.lock:
            self.answers[path] = Answer(data, **kwargs)

    def hits(self, path: str) -> int:
        with self.lock:
            return self.counts[path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
