"""The Pi's benchmark (``dicetable bench --suite pi``): a button press to the new state parsed
by a phone's live stream, and how soon the watchdog stops pinging when the camera loop hangs.

The buttons are on gpiozero's mock pins (a Pi 5), in the process that serves the table
(waitress, the real app and session), as on the Pi; a follower reads the Server-Sent Events
stream in a thread. A press is timed from the pin's edge (the press of a shout, the release
of stop, where each counts) to the follower parsing the new version.

The watchdog: the real camera loop reads a camera that sends frames, then hangs in its read
for good; the notify protocol runs against a Unix datagram socket. The figure is the time from
the hang to the last ``WATCHDOG=1``, against ``WatchdogSec``.
"""

from __future__ import annotations

import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]
from numpy.typing import NDArray

from device.button_actions import ButtonActions
from device.button_config import ButtonConfig
from device.buttons import TableButtons
from device.camera import CameraError, Frame
from device.journal import Journal
from device.live import CameraStatus, LiveLoop, Seen
from device.notify import Notifier, Watchdog
from device.session import TableSession
from dicetable.bench import Figure, ms, percentile
from dicetable.child import free_port
from dicetable.web_bench import Followers
from vision.observation import Observation
from web.app import create_app
from web.client import Phone
from web.server import create_server, end_streams

PRESSES = 60
"""Presses of each kind (and phone taps for the reference)."""
PI5 = "d04170"
STOP, SEATS = 17, (22, 23, 24)
DALEK = {"game": "dalek", "players": ["Ana", "Ben"]}
SEVENTEEN = {"game": "17", "players": ["Ana", "Ben", "Cleo"]}
WATCHDOG_SEC = 1.0


def suite(threads: int) -> Iterator[Figure]:
    """The figures (``threads`` is for the vision suites)."""
    del threads
    config = ButtonConfig(stop=STOP, shout=None, seats=SEATS)
    with tempfile.TemporaryDirectory() as state:
        session = TableSession(Journal(Path(state) / "table.db"))
        session.start()
        app = create_app({"JOURNAL": session.journal, "TABLE_SESSION": session})
        server = create_server(app, host="127.0.0.1", port=free_port())
        serving = threading.Thread(target=server.run, daemon=True)
        serving.start()
        factory = MockFactory(revision=PI5)
        buttons = TableButtons(config, ButtonActions(session, seated=True), factory=factory)
        buttons.start()
        url = f"http://127.0.0.1:{server.effective_port}"
        followers = Followers(url, 1)
        phone = Phone(url, pin=session.journal.pin())
        try:
            stops, taps = _stops(session, factory, phone, followers)
            yield "stop button let go → state parsed by SSE client, p50", \
                ms(percentile(stops, 50)), "ms"
            yield "stop button let go → state parsed by SSE client, p95", \
                ms(percentile(stops, 95)), "ms"
            yield "reference: a phone's stop (POST) → state parsed, p50", \
                ms(percentile(taps, 50)), "ms"
            yield "stop button p50 / phone's stop p50", \
                percentile(stops, 50) / percentile(taps, 50), "×"
            shouts = _shout_presses(session, factory, followers)
            window = f"{config.together_s * 1000:.0f} ms"
            yield f"17! shout → call parsed by SSE client, p50 (+{window} window)", \
                ms(percentile(shouts, 50)), "ms"
            yield f"17! shout → call parsed by SSE client, p95 (+{window} window)", \
                ms(percentile(shouts, 95)), "ms"
            yield "presses timed", float(len(stops) + len(shouts)), "presses"
        finally:
            phone.close()
            followers.close()
            buttons.stop()
            end_streams(app)
            time.sleep(0.5)  # the stream's thread sees the end before the server closes
            server.close()
            session.stop()
    before, last = camera_hang(WATCHDOG_SEC)
    yield "watchdog pings while the camera answered", float(before), "pings"
    yield f"camera hangs → last watchdog ping after (WatchdogSec {WATCHDOG_SEC:g} s)", \
        ms(last), "ms"


def _stops(session: TableSession, factory: MockFactory, phone: Phone,
           followers: Followers) -> tuple[list[float], list[float]]:
    """Dalek Dice turns ended in turn by the stop button and by a phone's tap: the times
    from the button let go, and from the phone's POST, to the state parsed."""
    pressed: list[float] = []
    tapped: list[float] = []
    session.new_game(DALEK, base_version=session.snapshot().version)
    pin = factory.pin(STOP)
    for turn in range(2 * PRESSES):
        snap = session.snapshot()
        for line in ({"roll": ["H4"] * 9 + ["D3"]}, {"keep": ["D3"]}):
            snap = session.act(line, base_version=snap.version, source="phone")
        followers.wait_all(snap.version)
        if turn % 2:
            started = time.perf_counter()
            status, _ = phone.post("/api/action", {"line": {"stop": {}},
                                                   "base_version": snap.version})
            if status != 200:
                raise RuntimeError(f"the phone's stop answered {status}")
            tapped.append(followers.wait_all(snap.version + 1) - started)
        else:
            pin.drive_low()
            time.sleep(0.05)
            started = time.perf_counter()
            pin.drive_high()
            pressed.append(followers.wait_all(snap.version + 1) - started)
    return pressed, tapped


def _shout_presses(session: TableSession, factory: MockFactory,
                   followers: Followers) -> list[float]:
    latencies: list[float] = []
    snap = session.snapshot()
    while len(latencies) < PRESSES:
        if snap.view is None or snap.view["game"] != "17" or snap.view["over"]:
            snap = session.abandon(base_version=snap.version) if snap.view and \
                not snap.view["over"] else snap
            snap = session.new_game(SEVENTEEN, base_version=snap.version)
        assert snap.view is not None
        snap = session.act({"play": {"card": "1", "face": "up"}}, base_version=snap.version,
                           source="phone")
        assert snap.view is not None
        followers.wait_all(snap.version)
        caller = snap.view["may_call"][0]
        pin = factory.pin(SEATS[snap.view["players"].index(caller)])
        pressed = time.perf_counter()
        pin.drive_low()
        latencies.append(followers.wait_all(snap.version + 1) - pressed)
        pin.drive_high()
        time.sleep(0.05)
        snap = session.snapshot()
    return latencies


class WedgedCamera:
    """A camera that sends ``frames`` frames at 30 fps, then hangs in ``read`` until
    ``release`` is set (a driver that stopped answering); when ``wedged`` is set, one opened
    again hangs at once."""

    paced = True
    plays_recording = False
    description = "a camera that hangs"

    def __init__(self, frames: int, release: threading.Event, wedged: threading.Event) -> None:
        self._left = 0 if wedged.is_set() else frames
        self._release = release
        self._wedged = wedged
        self.hung_at: float | None = None

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> Frame:
        """A frame (each differs from the last: the scene moves), or a hang."""
        if self._left == 0:
            self.hung_at = time.monotonic()
            self._wedged.set()
            self._release.wait()
            raise CameraError("camera.why.stalled", seconds=round(time.monotonic() - self.hung_at))
        self._left -= 1
        time.sleep(1 / 30)
        image = np.full((48, 64, 3), 80 * (self._left % 2), np.uint8)
        return Frame(image, time.monotonic(), self._left)

    def close(self) -> None:
        """Nothing to close."""


class _Blind:
    """Sees no dice (the frames always move, so it is never asked)."""

    def observe(self, image: NDArray[np.uint8]) -> Observation:
        return Observation((), image.shape[1], image.shape[0])


class _Quiet:
    """Keeps nothing of the loop's news."""

    def camera_seen(self, seen: Seen) -> None:
        """Nothing."""

    def camera_status(self, status: CameraStatus) -> None:
        """Nothing."""

    def camera_moved(self) -> None:
        """Nothing."""

    def camera_holds(self, seconds: float) -> None:
        """Nothing."""

    def camera_reaching(self) -> None:
        """Nothing."""


def camera_hang(watchdog_sec: float) -> tuple[int, float]:
    """Run the camera loop on a camera that answers, then hangs, with the watchdog on a
    notify socket: the pings before the hang, and the seconds from the hang to the last ping
    (the loop's last sign of life may come a moment after the hang began: the frame read
    just before it)."""
    with tempfile.TemporaryDirectory() as folder, \
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as manager:
        address = str(Path(folder) / "notify")
        manager.bind(address)
        manager.settimeout(0.05)
        watchdog = Watchdog(Notifier(address), watchdog_sec / 2)
        release, wedged = threading.Event(), threading.Event()
        cameras: list[WedgedCamera] = []

        def camera() -> WedgedCamera:
            cameras.append(WedgedCamera(15, release, wedged))
            return cameras[-1]

        loop = LiveLoop(camera, _Blind(), _Quiet(), stall_s=0.3,
                        on_alive=watchdog.loop("camera"))
        loop.start()
        watchdog.start()
        pings = []
        try:
            give_up, end = time.monotonic() + 10, None
            while time.monotonic() < (give_up if end is None else end):
                if end is None and wedged.is_set():
                    end = time.monotonic() + 3 * watchdog_sec
                try:
                    if manager.recv(100) == b"WATCHDOG=1":
                        pings.append(time.monotonic())
                except TimeoutError:
                    continue
        finally:
            watchdog.stop()
            loop.stop()
            release.set()
    hung_at = cameras[0].hung_at
    if hung_at is None or not pings or pings[0] > hung_at:
        raise RuntimeError("the camera did not answer, then hang, as planned")
    return len([at for at in pings if at < hung_at]), pings[-1] - hung_at
