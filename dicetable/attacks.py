"""A hostile phone on the table's Wi-Fi, on loopback: what the hardening tests and the
``hardening`` bench suite run against a real ``dicetable serve``.

Every attacker socket comes from its own loopback address when asked (``127.0.x.y``: Linux
answers on all of ``127.0.0.0/8``), as a guesser rotating through addresses would. Each attack
is a context manager that holds its sockets open while the ``with`` block measures the pad.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

PAD_TIMEOUT_S = 5.0


def address(n: int) -> str:
    """The ``n``-th attacker address: 127.1.0.1, 127.1.0.2, … (never in 127.0.0.0/16, where
    the pad is); 15 million of them before they repeat."""
    return f"127.{1 + n // 62_500 % 250}.{n // 250 % 250}.{n % 250 + 1}"


def pad_answer_s(url: str, *, timeout: float = PAD_TIMEOUT_S) -> float:
    """Seconds a new phone (from 127.0.0.1) waits for ``GET /api/state`` on a new connection;
    ``inf`` if no answer came within ``timeout``."""
    host, port = _host_port(url)
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request("GET", "/api/state")
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            return float("inf")
    except OSError:
        return float("inf")
    finally:
        connection.close()
    return time.perf_counter() - started


def connect(url: str, source: str | None = None, *, receive_buffer: int | None = None
            ) -> socket.socket:
    """A TCP connection to the table from ``source`` (default: any loopback address)."""
    host, port = _host_port(url)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    if source is not None:
        sock.bind((source, 0))
    sock.settimeout(PAD_TIMEOUT_S)
    sock.connect((host, port))
    return sock


@contextmanager
def idle_sockets(url: str, count: int, addresses: int = 1) -> Iterator[list[socket.socket]]:
    """``count`` connections that never send a byte, spread over ``addresses`` addresses."""
    sockets = [connect(url, address(i % addresses)) for i in range(count)]
    try:
        yield sockets
    finally:
        _close(sockets)


@contextmanager
def trickling_sockets(url: str, count: int, addresses: int = 1, *, every_s: float = 2.0
                      ) -> Iterator[list[socket.socket]]:
    """``count`` connections that send ``GET / HTTP/1.1`` and then one header line every
    ``every_s`` seconds, never ending the head (a slow-headers attack)."""
    sockets = []
    for i in range(count):
        sock = connect(url, address(i % addresses))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: table\r\n")
        sockets.append(sock)
    stop = threading.Event()

    def trickle() -> None:
        line = 0
        while not stop.wait(every_s):
            line += 1
            for sock in sockets:
                with contextlib.suppress(OSError):  # closed by the server: go on with others
                    sock.sendall(f"X-Slow-{line}: {line}\r\n".encode())

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        yield sockets
    finally:
        stop.set()
        thread.join()
        _close(sockets)


@contextmanager
def kept_alive_sockets(url: str, count: int, addresses: int = 1
                       ) -> Iterator[list[socket.socket]]:
    """``count`` connections that made one request, read its answer and stay open."""
    sockets = []
    for i in range(count):
        sock = connect(url, address(i % addresses))
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\n\r\n")
        _read_head(sock)
        sockets.append(sock)
    try:
        yield sockets
    finally:
        _close(sockets)


@contextmanager
def held_streams(url: str, count: int, addresses: int = 1, *, read: bool = True,
                 receive_buffer: int | None = None) -> Iterator[list[int]]:
    """``count`` live streams (``GET /events``) held open, read by threads (or never read past
    the answer's head); yields the status each got, once the table answered them all."""
    sockets, statuses = [], []
    for i in range(count):
        sock = connect(url, address(i % addresses), receive_buffer=receive_buffer)
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: table\r\nAccept: text/event-stream\r\n\r\n")
        sockets.append(sock)
        statuses.append(_read_head(sock))
        if read:
            threading.Thread(target=_drain, args=(sock,), daemon=True).start()
    try:
        yield statuses
    finally:
        _close(sockets)


def guess_pins(url: str, tries: int, addresses: int, *, first: int = 0) -> Counter[int]:
    """``tries`` wrong PINs, each from a new connection, rotating through ``addresses``
    addresses from the ``first``-th; returns how many got each status (403: checked and
    wrong; 429: not checked)."""
    statuses: Counter[int] = Counter()
    for i in range(tries):
        statuses[_guess(url, address(first + i % addresses), f"{i % 1_000_000:06d}x")] += 1
    return statuses


def _guess(url: str, source: str, pin: str) -> int:
    sock = connect(url, source)
    try:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\n\r\n")
        head, body = _read_response(sock)
        cookie = next((line.split(":", 1)[1].split(";")[0].strip()
                       for line in head.split("\r\n") if line.lower().startswith("set-cookie:")),
                      "")
        csrf = json.loads(body)["csrf"]
        data = json.dumps({"pin": pin}).encode()
        sock.sendall(b"POST /auth/pin HTTP/1.1\r\nHost: table\r\nContent-Type: application/json"
                     + f"\r\nX-CSRF-Token: {csrf}\r\nCookie: {cookie}\r\nContent-Length: "
                       f"{len(data)}\r\n\r\n".encode() + data)
        head, _ = _read_response(sock)
        return int(head.split(" ", 2)[1])
    finally:
        sock.close()


def _read_head(sock: socket.socket) -> int:
    """The status of the answer (and its body when it has a length: a stream has none)."""
    head, _ = _read_response(sock)
    return int(head.split(" ", 2)[1])


def _read_response(sock: socket.socket) -> tuple[str, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the table closed the connection")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    text = head.decode("latin-1")
    length = next((int(line.split(":", 1)[1]) for line in text.split("\r\n")
                   if line.lower().startswith("content-length:")), 0)
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return text, body


def _drain(sock: socket.socket) -> None:
    try:
        while sock.recv(65536):
            pass
    except OSError:
        return


def _close(sockets: list[socket.socket]) -> None:
    """Close each socket as a phone going away does (a thread blocked reading one would
    otherwise keep it open, and no FIN would be sent)."""
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()


def _host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80
