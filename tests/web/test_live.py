"""Live updates by Server-Sent Events: the state on connect, every change, heartbeats, and a
cap on streams so that plain requests are always served."""

from __future__ import annotations

import http.client
import itertools
import json
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from flask import Flask
from werkzeug.test import TestResponse

from device.journal import Journal
from device.session import TableSession
from dicetable import attacks
from dicetable.child import ServedTable
from tests.web.conftest import served_here
from web.app import create_app
from web.client import EventStream, Phone
from web.events import POLL_S, event
from web.server import end_streams
from web.table import JOIN_LOOK_S

if TYPE_CHECKING:
    from tests.web.conftest import Phone as TestPhone

DALEK = {"game": "dalek", "players": ["Jenna", "Peter"]}
ROLL = {"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]}
LONG_S = 60.0
"""A stream's lifetime that outlasts a change made from another thread on a loaded machine
(the fixtures' streams end after 1 s); the test closes it once the change came."""


def states(stream: EventStream) -> Any:
    """The parsed ``state`` events of a stream."""
    return (json.loads(data) for kind, data in stream.events() if kind == "state")


def stream_of(response: TestResponse) -> Iterable[bytes]:
    """The chunks of an unbuffered test-client response, as the app yields them."""
    return cast(Iterable[bytes], response.response)


def test_a_stream_starts_with_the_state_and_follows_every_change(tmp_path: Path) -> None:
    with ServedTable(tmp_path) as table:
        phone = Phone(table.url, pin=table.pin)
        stream = EventStream(f"{table.url}/events")
        assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
        received = states(stream)
        assert next(received)["view"] is None
        status, body = phone.post("/api/game", {"header": DALEK, "base_version": 0})
        assert status == 200
        version = body["state"]["version"]
        assert next(received)["view"]["expects"] == ["roll"]
        assert phone.post("/api/action", {"line": ROLL, "base_version": version})[0] == 200
        update = next(received)
        assert update["view"]["table"]["rolled"] == ROLL["roll"]
        assert update["colours"] == {"Jenna": 0, "Peter": 1}
        stream.close()
        phone.close()


def test_a_phone_that_reconnects_gets_the_current_state(tmp_path: Path) -> None:
    with ServedTable(tmp_path) as table:
        phone = Phone(table.url, pin=table.pin)
        phone.post("/api/game", {"header": DALEK, "base_version": 0})
        asleep = EventStream(f"{table.url}/events")
        next(states(asleep))
        asleep.close()
        version = phone.get("/api/state")[1]["state"]["version"]
        phone.post("/api/action", {"line": ROLL, "base_version": version})
        awake = EventStream(f"{table.url}/events")
        assert next(states(awake))["view"]["expects"] == ["keep"]
        awake.close()


def test_streams_beyond_the_limit_are_refused_but_plain_requests_are_served(
        tmp_path: Path) -> None:
    with ServedTable(tmp_path, max_streams=2) as table:
        streams = [EventStream(f"{table.url}/events") for _ in range(2)]
        for stream in streams:
            next(stream.events())
        other = http.client.HTTPConnection("127.0.0.1", table.port, timeout=5,
                                           source_address=(attacks.address(7), 0))
        other.request("GET", "/events")  # another phone: refused, the places are taken
        refused = other.getresponse()
        assert refused.status == 503
        assert refused.getheader("Retry-After") == "2"
        phone = Phone(table.url)
        assert phone.get("/api/state")[0] == 200
        other.close()
        for stream in streams:
            stream.close()


def test_heartbeats_keep_a_quiet_stream_alive_and_it_ends_in_time(app: Flask) -> None:
    response = app.test_client().get("/events", buffered=False)
    started = time.monotonic()
    chunks = [chunk.decode() for chunk in stream_of(response)]
    response.close()
    assert chunks[0].startswith("retry: 2000\nid: 0\nevent: state\n")
    assert "event: beat\ndata: 1\n\n" in chunks[1:]
    assert 0.9 <= time.monotonic() - started < 3


def test_a_change_during_a_stream_is_sent(app: Flask, dalek: TestPhone) -> None:
    app.config["SSE_MAX_S"] = LONG_S
    response = app.test_client().get("/events", buffered=False)
    chunks = iter(stream_of(response))
    first = next(chunks).decode()
    threading.Timer(0.1, lambda: dalek.act(ROLL)).start()
    update = next(c.decode() for c in chunks if "event: state" in c.decode())
    response.close()
    assert '"expects":["roll"]' in first and '"expects":["keep"]' in update


def test_a_new_game_reaches_the_streams_with_its_colours(app: Flask, phone: TestPhone) -> None:
    app.config["SSE_MAX_S"] = LONG_S
    response = app.test_client().get("/events", buffered=False)
    chunks = iter(stream_of(response))
    next(chunks)
    set_up = {"header": DALEK, "colours": {"Jenna": 5, "Peter": 6}}
    threading.Timer(0.1, lambda: phone.change("/api/game", set_up)).start()
    update = next(c.decode() for c in chunks if "event: state" in c.decode())
    response.close()
    assert '"colours":{"Jenna":5,"Peter":6}' in update


def test_the_join_event_is_sent_without_spaces_as_the_state_is(app: Flask) -> None:
    response = app.test_client().get("/events", base_url="http://192.168.1.20:8017",
                                     buffered=False)
    chunks = iter(stream_of(response))
    next(chunks)
    join = next(chunks).decode()
    response.close()
    assert join.startswith('event: join\ndata: {"url":"http://192.168.1.20:8017/","qr":"')
    data = json.loads(join.split("data: ", 1)[1])
    assert join == f"event: join\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def test_end_streams_stops_open_streams_and_refuses_new_ones(app: Flask) -> None:
    client = app.test_client()
    response = client.get("/events", buffered=False)
    chunks = iter(stream_of(response))
    next(chunks)
    end_streams(app)
    started = time.monotonic()
    assert list(chunks) == [] or all(b"state" not in c for c in chunks)
    assert time.monotonic() - started < 2 * POLL_S
    response.close()
    assert client.get("/events").status_code == 503


def test_the_event_wire_format() -> None:
    assert event('{"a":1}', 7) == 'id: 7\nevent: state\ndata: {"a":1}\n\n'


def test_open_streams_share_one_look_at_the_address_every_2_s(table_session: TableSession,
                                                              journal: Journal) -> None:
    # Each stream asked for the address itself every 2 s: 40 phones, 20 looks a second at the
    # system's routes and interfaces (up to 148 µs each)
    asked: list[float] = []

    def address() -> str:
        """The Pi's hotspot at first, then the house's Wi-Fi."""
        asked.append(time.monotonic())
        return "http://10.41.0.1:8017/" if len(asked) == 1 else "http://192.168.1.23:8017/"

    app = create_app({"TABLE_SESSION": table_session, "JOURNAL": journal,
                      "PUBLIC_URL": address, "SSE_MAX_S": JOIN_LOOK_S + 1.0})
    with served_here(app) as url:
        streams = [EventStream(f"{url}/events", timeout=10) for _ in range(6)]
        shown = [[json.loads(data)["url"] for kind, data in stream.events() if kind == "join"]
                 for stream in streams]
        for stream in streams:
            stream.close()
    assert all(urls[-1] == "http://192.168.1.23:8017/" for urls in shown)  # each looked again
    gaps = [later - earlier for earlier, later in itertools.pairwise(asked)]
    assert gaps and min(gaps) >= JOIN_LOOK_S, (len(asked), gaps)


def test_a_stream_opened_by_a_page_starts_with_the_address_the_page_shows(
        table_session: TableSession, journal: Journal) -> None:
    # The page looked at the address anew, but the stream it opened first sent the streams'
    # shared look, up to 2 s old: a page loaded as the Pi moved to the house's Wi-Fi showed
    # the new code, then the old one for 2 to 4 s
    moved: list[bool] = []

    def address() -> str:
        """The Pi's hotspot, then the house's Wi-Fi."""
        return "http://192.168.1.23:8017/" if moved else "http://10.41.0.1:8017/"

    app = create_app({"TABLE_SESSION": table_session, "JOURNAL": journal,
                      "PUBLIC_URL": address, "SSE_MAX_S": LONG_S})
    client = app.test_client()

    def first_join() -> str:
        response = client.get("/events", buffered=False)
        chunks = iter(stream_of(response))
        next(chunks)
        join = next(chunks).decode()
        response.close()
        return str(json.loads(join.split("data: ", 1)[1])["url"])

    assert first_join() == "http://10.41.0.1:8017/"  # the streams' look, kept 2 s
    moved.append(True)
    assert "http://192.168.1.23:8017/" in client.get("/").get_data(as_text=True)
    assert first_join() == "http://192.168.1.23:8017/"


def test_an_open_stream_shows_a_new_address_within_one_look_of_the_streams(
        table_session: TableSession, journal: Journal) -> None:
    # The stream looked at the streams' shared answer every 2 s, which was itself found again
    # every 2 s: an answer renewed by a page just after the stream looked was seen 2 s on,
    # still old, and the new address only 4 s after the stream's look
    moved: list[bool] = []

    def address() -> str:
        """The Pi's hotspot, then the house's Wi-Fi."""
        return "http://192.168.1.23:8017/" if moved else "http://10.41.0.1:8017/"

    app = create_app({"TABLE_SESSION": table_session, "JOURNAL": journal, "PUBLIC_URL": address,
                      "SSE_HEARTBEAT_S": 0.5, "SSE_MAX_S": 3 * JOIN_LOOK_S})
    client = app.test_client()
    response = client.get("/events", buffered=False)
    chunks = iter(stream_of(response))
    assert b"event: state" in next(chunks)
    assert b"10.41.0.1" in next(chunks)  # the join code; the stream looked
    assert next(chunks).startswith(b"event: beat")  # half a second on
    assert "http://10.41.0.1:8017/" in client.get("/").get_data(as_text=True)  # renewed
    moved.append(True)
    at = time.monotonic()
    seen = next((time.monotonic() for chunk in chunks if b"192.168.1.23" in chunk), None)
    response.close()
    assert seen is not None
    assert seen - at < JOIN_LOOK_S + 1.0, seen - at

