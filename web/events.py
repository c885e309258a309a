"""Live updates: a Server-Sent Events stream of the state, one event per change.

A stream starts with the current state (so a phone that slept or lost Wi-Fi catches up on
reconnecting), then sends every new version, and a ``beat`` event as heartbeat when nothing
happens. It ends after ``SSE_MAX_S`` seconds (the browser reconnects by itself), when the
phone goes away, or when the server stops (:func:`web.server.end_streams`), so it never holds
a waitress thread for long. Streams beyond
``MAX_STREAMS`` are refused with 503 so that plain requests always find a thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, current_app, request

from web.errors import ApiError
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
    if not current.streams.enter():
        raise ApiError(503, "error.busy", extra={"retry_after": RETRY_MS // 1000})
    disconnected = request.environ.get("waitress.client_disconnected")
    stream = _stream(current, disconnected, float(current_app.config["SSE_HEARTBEAT_S"]),
                     float(current_app.config["SSE_MAX_S"]))
    response = Response(stream, mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(current.streams.leave)
    return response


def _stream(current: Table, disconnected: Callable[[], bool] | None, heartbeat: float,
            lifetime: float) -> Iterator[str]:
    with current.session.subscribe() as updates:
        snapshot = current.session.snapshot()
        sent = snapshot.live
        yield f"retry: {RETRY_MS}\n" + event(current.encoded(snapshot), snapshot.version)
        started = last = time.monotonic()
        while time.monotonic() - started < lifetime and not current.streams.closed:
            update = updates.get(timeout=min(POLL_S, heartbeat))
            if disconnected is not None and disconnected():
                return
            now = time.monotonic()
            if update is not None and update.live > sent:
                sent = update.live
                last = now
                yield event(current.encoded(update), update.version)
            elif now - last >= heartbeat:
                last = now
                yield "event: beat\ndata: 1\n\n"
