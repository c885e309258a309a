"""The standard-library phone the benchmarks and tests drive the table with (web.client)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from web.client import Phone


class ClosesAfterEachAnswer(BaseHTTPRequestHandler):
    """A server that keeps no connection alive past its answer, without saying so (as the
    table's server does to one idle too long): it counts the requests it answered."""

    protocol_version = "HTTP/1.1"
    answered: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self._answer({"csrf": "token", "state": {}})

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self._answer({"ok": True})

    def _answer(self, body: object) -> None:
        self.answered.append(f"{self.command} {self.path}")
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def idle_closing() -> Iterator[str]:
    ClosesAfterEachAnswer.answered = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), ClosesAfterEachAnswer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_phone_whose_kept_connection_was_closed_asks_again_once_on_a_new_one(
        idle_closing: str) -> None:
    phone = Phone(idle_closing)
    assert phone.get("/api/state") == (200, {"csrf": "token", "state": {}})
    assert phone.post("/api/action", {"line": {}}) == (200, {"ok": True})
    phone.close()
    assert ClosesAfterEachAnswer.answered == [
        "GET /api/state", "GET /api/state", "POST /api/action"]
