"""Live updates: a Server-Sent Events stream of the state, one event per change.

A stream starts with the current state (so a phone that slept or lost Wi-Fi catches up on
reconnecting), then sends every new version, and a ``beat`` event as heartbeat when nothing
happens. It also gives the table's join code (:mod:`web.join`) in a ``join`` event, at its
start and whenever the address changes (looked at as the stream wakes; asked again at most
every :data:`web.table.JOIN_LOOK_S`, one look for all the streams). It ends after
``SSE_MAX_S`` seconds (the browser reconnects by itself), when the phone goes away (or opens a
newer stream: :mod:`web.streams`), when more than :data:`web.server.STREAM_BACKLOG` bytes wait
for a phone that does not read, or when the server stops (:func:`web.server.end_streams`), so
it never holds a waitress thread for long. Streams beyond ``MAX_STREAMS`` are refused with 503
so that plain requests always find a thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, current_app, request

from web.errors import ApiError
from web.join import join_event
from web.server import BACKLOG_KEY, STREAM_BACKLOG
from web.streams import Ticket
from web.table import Table, table

bp = Blueprint("events", __name__)

RETRY_MS = 2000
POLL_S = 0.25
"""How often a waiting stream looks whether the server is stopping (the session's wait cannot
be woken from here), so that stopping waits at most this long for the streams."""


def event(data: str, version: int) -> str:
    """One ``state`` event in the SSE wire format (``data`` is one line of JSON).

    >>> event('{"version":3}', 3)
    'id: 3\\nevent: state\\ndata: {"version":3}\\n\\n'
    """
    return f"id: {version}\nevent: state\ndata: {data}\n\n"


@bp.get("/events")
def events() -> Response:
    """The live stream of the state."""
    current = table()
    ticket = current.streams.enter(request.remote_addr or "unknown")
    if ticket is None:
        raise ApiError(503, "error.busy", extra={"retry_after": RETRY_MS // 1000})
    phone = _Phone(ticket, request.environ.get("waitress.client_disconnected"),
                   request.environ.get(BACKLOG_KEY))
    stream = _stream(current, phone, float(current_app.config["SSE_HEARTBEAT_S"]),
                     float(current_app.config["SSE_MAX_S"]), request.host_url)
    response = Response(stream, mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(lambda: current.streams.leave(ticket))
    return response


class _Phone:
    """What a stream knows of its phone: whether it is gone, or too far behind."""

    def __init__(self, ticket: Ticket, disconnected: Callable[[], bool] | None,
                 backlog: Callable[[], int] | None) -> None:
        self._ticket = ticket
        self._disconnected = disconnected
        self._backlog = backlog

    def gone(self) -> bool:
        """True if the phone closed the stream, opened a newer one, or stopped reading."""
        return (self._ticket.ended
                or (self._disconnected is not None and self._disconnected())
                or (self._backlog is not None and self._backlog() > STREAM_BACKLOG))


def _stream(current: Table, phone: _Phone, heartbeat: float, lifetime: float,
            used: str) -> Iterator[str]:
    """The stream's events; its join code's address is the table's public address as all the
    streams share it, where it gives one, else ``used``, the address the phone used."""
    def join_address() -> str:
        return current.shared_public_address() or used

    with current.session.subscribe() as updates:
        snapshot = current.session.snapshot()
        sent = snapshot.live
        yield f"retry: {RETRY_MS}\n" + event(current.encoded(snapshot), snapshot.version)
        shown = join_address()
        yield join_event(shown)
        started = last = time.monotonic()
        while time.monotonic() - started < lifetime and not current.streams.closed:
            update = updates.get(timeout=min(POLL_S, heartbeat))
            if phone.gone():
                return
            now = time.monotonic()
            url = join_address()
            if url != shown:
                shown, last = url, now
                yield join_event(shown)
            if update is not None and update.live > sent:
                sent = update.live
                last = now
                yield event(current.encoded(update), update.version)
            elif now - last >= heartbeat:
                last = now
                yield "event: beat\ndata: 1\n\n"
