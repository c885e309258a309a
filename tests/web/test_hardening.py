"""A hostile phone on the table's Wi-Fi, on loopback against the real ``dicetable serve``: it
cannot take the pad offline, guess the PIN, hold the live streams, turn odd input into a 500,
or keep a grant after logging out (``dicetable bench --suite hardening`` times the same
attacks)."""

from __future__ import annotations

import contextlib
import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest

from dicetable import attacks
from dicetable.child import ServedTable
from engine.selfplay import random_lines
from web.client import EventStream, Phone
from web.throttle import TABLE_BURST

PAD_BAR_S = 1.0
FREED_S = 5.0
"""How long closed streams may keep their places (a loaded machine is slow; one left open
keeps its place until its next heartbeat, 15 s)."""
HEADER = {"game": "dalek", "players": ["Ana", "Ben", "Cleo"], "target": 10_000}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[ServedTable]:
    with ServedTable(tmp_path / "state", log=tmp_path / "serve.log") as served:
        yield served


def test_idle_connections_do_not_take_the_pad_offline(table: ServedTable) -> None:
    with attacks.idle_sockets(table.url, 150):
        assert attacks.pad_answer_s(table.url) < PAD_BAR_S
    with attacks.idle_sockets(table.url, 300, addresses=30):
        assert attacks.pad_answer_s(table.url) < PAD_BAR_S


def test_slow_headers_do_not_take_the_pad_offline(table: ServedTable) -> None:
    with attacks.trickling_sockets(table.url, 250, addresses=25, every_s=0.5):
        time.sleep(1.0)
        assert attacks.pad_answer_s(table.url) < PAD_BAR_S


def test_live_streams_and_kept_alive_connections_leave_room(table: ServedTable) -> None:
    with attacks.held_streams(table.url, 40, addresses=10) as statuses, \
            attacks.kept_alive_sockets(table.url, 60, addresses=6):
        assert statuses == [200] * 40
        assert attacks.pad_answer_s(table.url) < PAD_BAR_S


def test_rotating_addresses_get_no_more_pin_checks_than_the_table_allows(
        table: ServedTable) -> None:
    started = time.monotonic()
    statuses = attacks.guess_pins(table.url, 200, addresses=200)
    extra = int((time.monotonic() - started) / 2) + 1  # 30 a minute: one per 2 s
    assert statuses[403] <= TABLE_BURST + extra
    assert statuses[403] + statuses[429] == 200


@pytest.mark.parametrize(("path", "body", "headers"), [
    ("/api/state", None, {"X-CSRF-Token": "é"}),
    ("/auth/pin", '{"pin": "\\ud800"}', {}),
    ("/api/game", '{"header": {"game": "dalek", "players": ["\\ud800", "Ben"]}, '
                  '"base_version": 0}', {}),
])
def test_odd_input_is_refused_with_a_4xx_never_a_500(
        table: ServedTable, path: str, body: str | None, headers: dict[str, str]) -> None:
    phone = Phone(table.url, pin=table.pin)
    cookie = "; ".join(f"{k}={v}" for k, v in phone._cookies.items())
    connection = http.client.HTTPConnection("127.0.0.1", table.port, timeout=5)
    connection.putrequest("POST", path)
    for name, value in {"Content-Type": "application/json", "X-CSRF-Token": phone.csrf,
                        "Cookie": cookie, "Content-Length": str(len(body or "")),
                        **headers}.items():
        connection.putheader(name, value.encode("utf-8"))
    connection.endheaders((body or "").encode())
    response = connection.getresponse()
    answer = json.loads(response.read())
    assert 400 <= response.status < 500, answer
    assert answer["error"]
    assert phone.get("/api/state")[1]["state"]["view"] is None


def test_a_closed_stream_frees_its_place_at_once(tmp_path: Path) -> None:
    with ServedTable(tmp_path / "state", max_streams=4) as table:
        with attacks.held_streams(table.url, 4, addresses=4) as statuses:
            assert statuses == [200] * 4
        # The streams notice within POLL_S, not at their next heartbeat (15 s): four new
        # phones, each asking again while refused (a refused stream holds no place), all get
        # in well before the deadline, however loaded the machine.
        deadline = time.monotonic() + FREED_S
        with contextlib.ExitStack() as held:
            for n in range(10, 14):
                held.enter_context(_stream_in(table, n, deadline))


def test_a_phone_that_comes_back_replaces_its_lingering_stream(tmp_path: Path) -> None:
    with ServedTable(tmp_path / "state", max_streams=4) as table, \
            _streams_from(table, range(4)) as lingering:  # never closed: off the Wi-Fi
        assert lingering == [200] * 4
        with _streams_from(table, range(4)) as back:
            assert back == [200] * 4


def test_a_whole_table_behind_one_address_keeps_its_streams(tmp_path: Path) -> None:
    """A Wi-Fi extender that shares its address: every phone's stream comes from it."""
    with ServedTable(tmp_path / "state") as table:
        streams = [EventStream(f"{table.url}/events", timeout=30) for _ in range(10)]
        try:
            events = [stream.events() for stream in streams]
            assert [next(each)[0] for each in events] == ["state"] * 10
            phone = Phone(table.url, pin=table.pin)
            phone.post("/api/game", {"header": HEADER, "base_version": 0})
            # every phone sees the game: none was ended to make room for the next
            assert [_game_seen(each) for each in events] == [1] * 10
        finally:
            for stream in streams:
                stream.close()


def test_the_connections_of_a_whole_table_behind_one_address_stay_open(tmp_path: Path) -> None:
    """Eight phones and a TV behind one Wi-Fi extender keep some 40 connections alive: none
    is closed under another (a phone's next tap found its connection gone)."""
    with ServedTable(tmp_path / "state") as table:
        host, port = table.url.removeprefix("http://").split(":")
        kept = [http.client.HTTPConnection(host, int(port), timeout=10) for _ in range(40)]
        try:
            for _ in range(2):  # each used, then used again once all are open
                for connection in kept:
                    connection.request("GET", "/api/state")
                    answer = connection.getresponse()
                    answer.read()
                    assert answer.status == 200 and not answer.will_close
        finally:
            for connection in kept:
                connection.close()


def test_a_phone_that_never_reads_loses_its_stream_not_a_thread(tmp_path: Path) -> None:
    with ServedTable(tmp_path / "state", max_streams=1) as table:
        phone = Phone(table.url, pin=table.pin)
        status, body = phone.post("/api/game", {"header": HEADER, "base_version": 0})
        version = body["state"]["version"]
        freed_after = None
        with attacks.held_streams(table.url, 1, read=False, receive_buffer=4096) as statuses:
            assert statuses == [200]
            assert _stream_status(table) == 503  # the one place is taken
            for count, line in enumerate(random_lines(HEADER, 400, Random(5)), start=1):
                status, body = phone.post("/api/action", {"line": line, "base_version": version})
                assert status == 200, body
                version = body["state"]["version"]
                if count % 25 == 0 and _stream_status(table) == 200:
                    freed_after = count
                    break
        assert freed_after is not None, "a phone that never reads kept its stream"


def test_logging_out_revokes_every_copy_of_the_cookie(table: ServedTable) -> None:
    phone = Phone(table.url, pin=table.pin)
    copy = Phone(table.url)
    copy._cookies = dict(phone._cookies)
    copy.csrf = phone.csrf
    assert copy.get("/api/state")[1]["auth"] is True
    assert phone.post("/auth/logout", {})[0] == 200
    assert copy.get("/api/state")[1]["auth"] is False
    status, _ = copy.post("/api/game", {"header": HEADER, "base_version": 0})
    assert status == 401


def test_the_page_allows_no_foreign_script_frame_or_sniffing(table: ServedTable) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", table.port, timeout=5)
    connection.request("GET", "/")
    response = connection.getresponse()
    response.read()
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_the_pin_and_host_link_stay_out_of_the_log(table: ServedTable) -> None:
    assert table.log is not None
    deadline = time.monotonic() + 10  # the port listens a moment before the start is logged
    while "State folder" not in (text := table.log.read_text()):
        assert time.monotonic() < deadline, text
        time.sleep(0.05)
    assert "dicetable is serving the score pad" in text
    assert table.pin not in text and "/auth/join?token=" not in text


def _streams_from(table: ServedTable, numbers: range) -> _Streams:
    return _Streams(table, numbers)


@contextlib.contextmanager
def _stream_in(table: ServedTable, n: int, deadline: float) -> Iterator[None]:
    """A stream from attacker address ``n``, asked for again while refused (a refused one
    holds no place) until ``deadline``; held until the end."""
    while True:
        with _streams_from(table, range(n, n + 1)) as statuses:
            if statuses == [200]:
                yield
                return
        assert time.monotonic() < deadline, f"address {n} got no stream: {statuses}"
        time.sleep(0.05)


class _Streams:
    """Streams opened from the attacker addresses ``numbers`` and held until the end."""

    def __init__(self, table: ServedTable, numbers: range) -> None:
        self._sockets = [attacks.connect(table.url, attacks.address(n)) for n in numbers]

    def __enter__(self) -> list[int]:
        statuses = []
        for sock in self._sockets:
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: table\r\n\r\n")
            data = sock.recv(65536)
            statuses.append(int(data.split(b" ", 2)[1]))
        return statuses

    def __exit__(self, *exc: object) -> None:
        for sock in self._sockets:
            sock.close()


def _game_seen(events: Iterator[tuple[str, str]]) -> int:
    """The id of the first game a live stream shows; fails if the stream ends first."""
    for kind, data in events:
        game_id = json.loads(data)["game_id"] if kind == "state" else None
        if game_id is not None:
            return int(game_id)
    raise AssertionError("the stream ended before the game came")


def _stream_status(table: ServedTable) -> int:
    stream = EventStream(f"{table.url}/events", timeout=5)
    try:
        return stream.status
    finally:
        stream.close()
