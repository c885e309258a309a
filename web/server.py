"""Serving the app with waitress, in the process that owns the camera and the buttons, so that
no phone on the table's Wi-Fi can take the score pad offline.

Every open live stream holds one waitress thread, so the server gets ``MAX_STREAMS`` threads
plus :data:`SPARE_THREADS` for plain requests; :mod:`web.events` refuses streams beyond that.
Connections are bounded the same way, without a PIN being needed to abuse them:

- a request's head and body must arrive within :data:`REQUEST_S` (a client trickling a header
  line every few seconds is closed); a kept-alive connection with no request is closed after
  :data:`IDLE_S`;
- one address holds at most :data:`PER_ADDRESS` connections and the server
  :data:`CONNECTIONS`: beyond that, a new connection closes the oldest one that is not being
  answered (idle or trickling), so a new phone always gets in;
- an answer nobody reads is cut off: a live stream ends once :data:`STREAM_BACKLOG` bytes wait
  for its phone, and a connection whose output has not moved for :data:`STALL_S` is closed;
- a phone that closes its stream frees the stream's place within :data:`web.events.POLL_S`.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from typing import Any, Protocol, cast

from flask import Flask
from waitress.adjustments import Adjustments  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import MultiSocketServer, TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ThreadedTaskDispatcher, WSGITask  # type: ignore[import-untyped]

from web.table import table

SPARE_THREADS = 8
CONNECTIONS = 200
PER_ADDRESS = 64
"""Connections one address may hold: a whole table's phones and a TV behind one Wi-Fi
extender that shares its address hold six or so each (at 24, they closed each other's)."""
REQUEST_S = 10.0
IDLE_S = 30
STALL_S = 20.0
STREAM_BACKLOG = 64 * 1024
OUTPUT_HIGH_WATER = 256 * 1024
SEND_BUFFER = 32 * 1024
"""The kernel's send buffer per connection (Linux doubles it): bounded, as the output is."""
BACKLOG_KEY = "dicetable.backlog"
"""The WSGI environ key of a function that gives the bytes waiting to be sent to the phone."""


def end_streams(app: Flask) -> None:
    """End the live streams (within :data:`web.events.POLL_S`) so that stopping waitress does
    not wait for them; call it before the server stops (e.g. on SIGTERM)."""
    table(app).streams.close()


class Server(Protocol):
    """The part of a waitress server the table uses."""

    effective_port: int

    def run(self) -> None:
        """Serve until closed."""

    def close(self) -> None:
        """Stop serving and close the sockets."""


def threads_for_streams(max_streams: int) -> int:
    """The waitress threads for ``max_streams`` live streams: one each, plus the spare ones."""
    return max_streams + SPARE_THREADS


def threads_for(app: Flask) -> int:
    """The waitress threads ``app`` needs."""
    return threads_for_streams(int(app.config["MAX_STREAMS"]))


def create_server(app: Flask, *, host: str, port: int) -> Server:
    """A waitress server for ``app`` (not started: call ``.run()``, stop with ``.close()``)."""
    adj = Adjustments(host=host, port=port, threads=threads_for(app), ident="dicetable",
                      connection_limit=CONNECTIONS + 16, channel_timeout=IDLE_S,
                      cleanup_interval=1, channel_request_lookahead=1, asyncore_use_poll=True,
                      outbuf_high_watermark=OUTPUT_HIGH_WATER,
                      max_request_header_size=32 * 1024,
                      max_request_body_size=int(app.config["MAX_CONTENT_LENGTH"]))
    adj.socket_options = [*adj.socket_options, (socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)]
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict[int, Any] = {}
    servers = [_GuardedServer(app, sockets, dispatcher=dispatcher, adj=adj, sockinfo=info)
               for info in adj.listen]
    if len(servers) == 1:
        return cast(Server, servers[0])
    listening = [(s.effective_host, s.effective_port) for s in servers]
    multi = MultiSocketServer(sockets, adj, listening, dispatcher, servers[-1].log_info)
    multi.effective_port = servers[-1].effective_port
    return cast(Server, multi)


class _Task(WSGITask):  # type: ignore[misc]
    """A request's task: its environ also tells how much output waits for the phone."""

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        channel = self.channel
        backlog: Callable[[], int] = lambda: int(channel.total_outbufs_len)  # noqa: E731
        environ[BACKLOG_KEY] = backlog
        return environ


class _Channel(HTTPChannel):  # type: ignore[misc]
    """A connection that notes when its request in progress began."""

    task_class = _Task
    request_started = 0.0

    def received(self, data: bytes) -> bool:
        if self.request is None:
            self.request_started = time.monotonic()
        return bool(super().received(data))

    @property
    def answering(self) -> bool:
        """True while a request of this connection is being (or waits to be) answered."""
        return bool(self.requests)


class _GuardedServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server with the bounds of the module's docstring."""

    channel_class = _Channel

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        address = addr[0] if isinstance(addr, tuple) else str(addr)
        channels = list(self.active_channels.values())
        mine = [c for c in channels if _address(c) == address]
        if len(mine) >= PER_ADDRESS:
            room = self._evict_oldest_idle(mine)
        elif len(channels) >= CONNECTIONS:
            room = self._evict_oldest_idle(channels)
        else:
            room = True
        if not room:
            conn.close()  # every connection is being answered now: this one waits for none
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def _evict_oldest_idle(self, channels: list[_Channel]) -> bool:
        idle = [c for c in channels if not c.answering and not c.will_close]
        if not idle:
            return False
        _close_soon(min(idle, key=lambda c: c.last_activity))
        return True

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # closes kept-alive connections idle past IDLE_S
        started = time.monotonic()
        for channel in list(self.active_channels.values()):
            if not channel.answering and channel.request is not None \
                    and started - channel.request_started > REQUEST_S:
                _close_soon(channel)
            elif channel.total_outbufs_len and now - channel.last_activity > STALL_S:
                _close_soon(channel)  # the close wakes a task blocked on the full buffer


def _close_soon(channel: _Channel) -> None:
    """Close a connection from the server's loop, on its next turn. Its socket is shut down
    now but not closed, so that its number is not reused within this turn."""
    channel.will_close = True
    with contextlib.suppress(OSError):
        channel.socket.shutdown(socket.SHUT_RDWR)


def _address(channel: _Channel) -> str:
    addr = channel.addr
    return str(addr[0]) if isinstance(addr, tuple) else str(addr)
