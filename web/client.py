"""Small standard-library clients of the score pad, for the benchmark and the tests: a phone
that enters the PIN and posts changes as the page does, and a Server-Sent Events reader."""

from __future__ import annotations

import codecs
import http.client
import json
from collections.abc import Iterator
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit


def parse_events(buffer: str) -> tuple[list[tuple[str, str]], str]:
    """The complete events in ``buffer`` (as ``(type, data)``) and the incomplete rest.

    >>> parse_events("retry: 2000\\nevent: state\\ndata: {}\\n\\nevent: be")
    ([('state', '{}')], 'event: be')
    """
    events = []
    *blocks, rest = buffer.split("\n\n")
    for block in blocks:
        kind, data = "message", []
        for line in block.split("\n"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                kind = value
            elif field == "data":
                data.append(value)
        if data:
            events.append((kind, "\n".join(data)))
    return events, rest


class EventStream:
    """One open stream of ``url`` (``http://host:port/path``); close it when done."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        parts = urlsplit(url)
        self._connection = http.client.HTTPConnection(parts.hostname or "localhost",
                                                      parts.port or 80, timeout=timeout)
        self._connection.request("GET", parts.path or "/",
                                 headers={"Accept": "text/event-stream"})
        self.response = self._connection.getresponse()
        self.status = self.response.status

    def events(self) -> Iterator[tuple[str, str]]:
        """Each event as it arrives, until the stream ends (or is closed)."""
        buffer = ""
        decoder = codecs.getincrementaldecoder("utf-8")()
        while True:
            try:
                chunk = self.response.read1(65536)
            except (http.client.HTTPException, OSError, ValueError):
                return
            if not chunk:
                return
            events, buffer = parse_events(buffer + decoder.decode(chunk))
            yield from events

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()


class Phone:
    """A phone on the table's network: one kept-alive connection, the session cookie, the
    CSRF token. Not thread-safe: one per thread.

    The server closes a connection kept alive with no request for a while (web.server's
    IDLE_S); as a browser does, a request that finds its kept-alive connection closed before
    any answer is sent once more on a new one."""

    def __init__(self, url: str, *, pin: str | None = None, timeout: float = 30.0) -> None:
        """A phone on the table at ``url``, that entered ``pin`` where it is given (it can
        change the game; raises if the PIN is refused)."""
        parts = urlsplit(url)
        self._connection = http.client.HTTPConnection(parts.hostname or "localhost",
                                                      parts.port or 80, timeout=timeout)
        self._cookies: dict[str, str] = {}
        self._answered = False  # whether the connection gave an answer (it was kept alive)
        self.csrf = ""
        status, body = self.get("/api/state")
        if status != 200:
            raise RuntimeError(f"the table answered {status} to /api/state")
        self.csrf = body["csrf"]
        if pin is not None:
            self.enter_pin(pin)

    def get(self, path: str) -> tuple[int, Any]:
        """GET ``path``: the status and the JSON body."""
        return self._request("GET", path, None)

    def post(self, path: str, body: object) -> tuple[int, Any]:
        """POST ``body`` as JSON with the CSRF token: the status and the JSON body."""
        return self._request("POST", path, body)

    def enter_pin(self, pin: str) -> None:
        """Enter the table's PIN; raises if it is refused."""
        status, body = self.post("/auth/pin", {"pin": pin})
        if status != 200:
            raise RuntimeError(f"the PIN was refused: {body}")
        self.csrf = body["csrf"]

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()

    def _request(self, method: str, path: str, body: object) -> tuple[int, Any]:
        headers = {"Accept": "application/json"}
        if self._cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self._cookies.items())
        data = None
        if method == "POST":
            data = json.dumps(body).encode()
            headers.update({"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        try:
            response = self._send(method, path, data, headers)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            if not self._answered:
                raise
            self._connection.close()  # closed while idle: the next request opens a new one
            self._answered = False
            response = self._send(method, path, data, headers)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self._cookies[name] = morsel.value
        text = response.read()
        return response.status, json.loads(text) if text else None

    def _send(self, method: str, path: str, data: bytes | None,
              headers: dict[str, str]) -> http.client.HTTPResponse:
        self._connection.request(method, path, body=data, headers=headers)
        response = self._connection.getresponse()
        self._answered = True
        return response
