"""Serving the app with waitress, in the process that owns the camera and the buttons.

Every open live stream holds one waitress thread, so the server gets ``MAX_STREAMS`` threads
plus :data:`SPARE_THREADS` for plain requests; :mod:`web.events` refuses streams beyond that.
"""

from __future__ import annotations

from typing import Protocol, cast

import waitress  # type: ignore[import-untyped]
from flask import Flask

from web.table import table

SPARE_THREADS = 8


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
    server = waitress.create_server(app, host=host, port=port, threads=threads_for(app),
                                    ident="dicetable", channel_timeout=60)
    return cast(Server, server)
