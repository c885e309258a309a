"""systemd's notify protocol against a real Unix datagram socket: ready, status, stopping,
and the watchdog, which stops pinging when the session worker or the camera loop hangs."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.notify import Notifier, Watchdog, watchdog_interval
from device.session import TableSession
from dicetable.pi_bench import camera_hang


class Manager:
    """The service manager's end: a datagram socket that keeps what it gets, with times."""

    def __init__(self, path: Path) -> None:
        self.address = str(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.address)
        self.sock.settimeout(0.05)
        self.got: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            self.got.append((time.monotonic(), data.decode()))

    def messages(self) -> list[str]:
        return [text for _, text in self.got]

    def pings(self) -> list[float]:
        return [at for at, text in self.got if text == "WATCHDOG=1"]

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[Manager]:
    made = Manager(tmp_path / "notify")
    yield made
    made.close()


def eventually(done: object, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "it did not happen"
        time.sleep(0.01)


def test_ready_status_and_stopping_reach_the_socket(manager: Manager) -> None:
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": manager.address})
    assert notifier.ready("serving 0 phones; no camera; buttons")
    assert notifier.status("serving 2 phones; camera ok; buttons")
    assert notifier.stopping()
    eventually(lambda: len(manager.got) == 3)
    assert manager.messages() == ["READY=1\nSTATUS=serving 0 phones; no camera; buttons",
                                  "STATUS=serving 2 phones; camera ok; buttons",
                                  "STOPPING=1\nSTATUS=stopping"]


def test_an_abstract_socket_is_reached_too() -> None:
    name = f"dicetable-test-{time.monotonic_ns()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        assert Notifier("@" + name).send("READY=1")
        assert sock.recv(100) == b"READY=1"


def test_outside_systemd_nothing_is_sent_or_started() -> None:
    notifier = Notifier.from_environment({})
    watchdog = Watchdog(notifier, watchdog_interval({}))
    watchdog.start()
    assert not notifier.enabled and not notifier.ready("up") and watchdog.interval is None
    assert not watchdog.tick()
    watchdog.stop()


def test_the_watchdog_interval_is_half_of_watchdogsec() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "90000000"}) == 45.0
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "many"}) is None


def test_a_hung_session_worker_stops_the_pings(manager: Manager,
                                               session: TableSession) -> None:
    watchdog = Watchdog(Notifier(manager.address), 1.0, status=lambda: "serving 1 phone")
    watchdog.probe("session", session.call_soon)
    assert watchdog.tick()  # the first probe is posted and runs at once
    eventually(lambda: watchdog.late() == [])
    assert watchdog.tick()
    hang = threading.Event()
    eventually(lambda: watchdog.late() == [])
    session.call_soon(hang.wait)  # a change that never ends
    assert watchdog.tick()  # the probe posted now waits behind it
    assert not watchdog.tick() and not watchdog.tick()
    assert watchdog.late() == ["session"]
    watchdog.say_status()
    eventually(lambda: "STATUS=serving 1 phone; not answering: session" in manager.messages())
    hang.set()
    eventually(lambda: watchdog.late() == [])
    assert watchdog.tick()


def test_a_hung_camera_loop_stops_the_pings_within_watchdogsec() -> None:
    """The real camera loop on a camera that answers, then hangs in its read (and every
    camera opened again hangs too); the notify protocol on a socket (see the pi bench)."""
    pings_before, last_ping_after_hang = camera_hang(watchdog_sec=1.0)
    assert pings_before >= 1
    assert last_ping_after_hang <= 1.0
