"""systemd's notify protocol against a real Unix datagram socket: ready, status, stopping,
and the watchdog, which stops pinging when the session worker or the camera loop hangs."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from device.camera import CameraError, Frame
from device.live import CameraStatus, LiveLoop, Seen
from device.notify import Notifier, Watchdog, watchdog_interval
from device.session import TableSession
from vision.observation import Observation


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
    watchdog = Watchdog(Notifier(manager.address), 1.0)
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
    hang.set()
    eventually(lambda: watchdog.late() == [])
    assert watchdog.tick()


class WedgedCamera:
    """A camera that sends ``frames`` frames at 30 fps, then blocks forever in ``read`` (a
    driver that stopped answering); every camera opened after it blocks at once."""

    paced = True
    description = "a wedged camera"
    opened = 0

    def __init__(self, frames: int, forever: threading.Event) -> None:
        WedgedCamera.opened += 1
        self._left = frames if WedgedCamera.opened == 1 else 0
        self._forever = forever
        self.hung_at: float | None = None
        self._number = 0

    def open(self) -> None:
        pass

    def read(self) -> Frame:
        if self._left == 0:
            self.hung_at = time.monotonic()
            self._forever.wait()  # set only when the test ends
            raise CameraError("let go at the end of the test")
        self._left -= 1
        self._number += 1
        time.sleep(1 / 30)
        image = np.full((48, 64, 3), 40 * (self._number % 2), np.uint8)  # always moving
        return Frame(image, time.monotonic(), self._number)

    def close(self) -> None:
        pass


class Blind:
    """An observer that sees no dice (the frames here always move: it is never asked)."""

    def observe(self, image: np.ndarray) -> Observation:
        return Observation((), image.shape[1], image.shape[0])


class Quiet:
    """A sink that keeps nothing."""

    def camera_seen(self, seen: Seen) -> None:
        pass

    def camera_status(self, status: CameraStatus) -> None:
        pass


def test_a_hung_camera_loop_stops_the_pings_within_watchdogsec(manager: Manager) -> None:
    watchdog_sec = 1.0
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": manager.address})
    interval = watchdog_interval({"WATCHDOG_USEC": str(int(watchdog_sec * 1e6))})
    watchdog = Watchdog(notifier, interval)
    forever = threading.Event()
    cameras: list[WedgedCamera] = []

    def camera() -> WedgedCamera:
        cameras.append(WedgedCamera(15, forever))
        return cameras[-1]

    WedgedCamera.opened = 0
    loop = LiveLoop(camera, Blind(), Quiet(), stall_s=0.3, on_alive=watchdog.loop("camera"))
    loop.start()
    watchdog.start()
    try:
        eventually(lambda: cameras[0].hung_at is not None)
        hung_at = cameras[0].hung_at
        assert hung_at is not None
        time.sleep(2 * watchdog_sec)  # the loop opens new cameras meanwhile; they hang too
    finally:
        watchdog.stop()
        loop.stop()
        forever.set()
    pings = manager.pings()
    assert [at for at in pings if at < hung_at], "it pinged while the camera answered"
    assert pings[-1] - hung_at <= watchdog_sec, "the pings stopped within WatchdogSec"
    assert len(cameras) >= 2 and watchdog.late() == ["camera"]
