"""What the host's log says about the camera, from real frame folders through the real loop."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from device.camera import CameraError, Frame, open_source
from device.demo_film import write_film
from device.demo_plan import Plan, PlannedDie, PlannedRest
from device.journal import Journal
from device.live import LiveLoop
from device.session import TableSession
from dicetable.live_table import HostLog
from tests.device.watching import watch
from vision.observation import DiceObserver
from vision.reader import DiceReader
from vision.table_film import SheetRest
from vision.table_film import write_film as write_sheet_film
from vision.table_scene import PlacedDie

DICY = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableSession]:
    session = TableSession(Journal(tmp_path / "table.db"))
    session.start()
    session.watch_camera()
    yield session
    session.stop()


def played(folder: Path, table: TableSession) -> str:
    """Every frame of ``folder`` through the loop to its end; what the host's log said."""
    said = io.StringIO()
    loop = LiveLoop(lambda: open_source(str(folder), paced=False),
                    DiceObserver(DiceReader(threads=1)), HostLog(table, out=said))
    loop.start()
    assert loop.wait(timeout=120)
    return said.getvalue()


def test_pictures_the_camera_cannot_read_are_told_once_until_it_reads_again(
        tmp_path: Path, table: TableSession) -> None:
    folder = tmp_path / "frames"
    still = tuple(PlannedDie(v, 300.0 + 150 * i, 300.0, 0.3 * i, i)
                  for i, v in enumerate([6, 6, 5, 2, 1, 1]))
    write_film(Plan([DICY], [PlannedRest(still, 1.5, None, hand=False)]), folder, seed=5)
    first = sorted(folder.glob("*.jpg"))[0]
    for name in ("00000-a.jpg", "00000-b.jpg", "99999.jpg"):  # two before the first read, one after
        (folder / name).write_bytes(b"\xff\xd8 a damaged picture")
    assert (folder / "00000-a.jpg") < first

    said = played(folder, table)

    assert said.splitlines() == [
        "dicetable: skipping a picture from the camera: the picture 00000-a.jpg cannot be read",
        "dicetable: skipping a picture from the camera: the picture 99999.jpg cannot be read",
        "dicetable: the recording has ended",
    ], said
    assert table.snapshot().camera["unreadable_why"] is not None  # type: ignore[index]


def test_a_picture_the_camera_cannot_read_after_it_came_back_is_told_again(
        tmp_path: Path, table: TableSession) -> None:
    # the first picture that could not be read after the camera went out and came back was
    # not told: the run of skipped pictures told before it went out went on
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "00001.jpg").write_bytes(b"\xff\xd8 a damaged picture")
    said = io.StringIO()
    loop = LiveLoop(lambda: open_source(str(folder)), DiceObserver(DiceReader(threads=1)),
                    HostLog(table, out=said), backoff_s=(0.05, 0.1))
    loop.start()
    try:
        _wait_until(lambda: "cannot be read" in said.getvalue())
        folder.rename(tmp_path / "away")
        _wait_until(lambda: table.snapshot().camera["status"] == "out")  # type: ignore[index]
        (tmp_path / "away").rename(folder)
        _wait_until(lambda: said.getvalue().count("cannot be read") == 2)
    finally:
        loop.stop()


def _wait_until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)


def test_a_calibration_the_card_cannot_keep_is_told_and_the_table_reads_on(
        tmp_path: Path, table: TableSession, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    (state / "calibration.json.tmp").mkdir(parents=True)  # where it is written: cannot be
    rolled = tuple(PlacedDie(face, 60.0 + 40 * (i % 5), 140.0 + 42 * (i // 5), 0.3 * i, i)
                   for i, face in enumerate(["H4", "H4", "H2", "D3", "D3", "D2", "DOC", "H2",
                                             "D3", "H4"]))  # in the sheet's "to roll" box
    folder = tmp_path / "film"
    write_sheet_film(folder, [SheetRest(), SheetRest(rolled)], game="dalek", seed=21)
    table.new_game({"game": "dalek", "players": ["Jenna", "Peter"]},
                   base_version=table.snapshot().version)
    watch(table, folder, state)
    assert (f"dicetable: the calibration cannot be kept in {state}: Is a directory; it holds "
            "until the table stops") in capsys.readouterr().err
    assert table.snapshot().view["expects"] == ["keep"]  # type: ignore[index]  # the roll stood


class FailsFirst:
    """The reader with a fault of the table's own in its first ``faults`` reads (a bug)."""

    def __init__(self, faults: int) -> None:
        self.observer, self.faults = DiceObserver(DiceReader(threads=1)), faults

    def observe(self, image: Any) -> Any:
        if self.faults > 0:
            self.faults -= 1
            raise ValueError("invalid literal for int() with base 10: 'H4'")
        return self.observer.observe(image)


def test_a_fault_of_the_tables_own_is_told_once_and_the_camera_reads_on(
        tmp_path: Path, table: TableSession, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "frames"
    still = tuple(PlannedDie(v, 300.0 + 150 * i, 300.0, 0.3 * i, i)
                  for i, v in enumerate([6, 6, 5, 2, 1, 1]))
    write_film(Plan([DICY], [PlannedRest((), 1.0, None, hand=False),
                             PlannedRest(still, 3.0, 0)]), folder, seed=5)
    table.new_game(DICY, base_version=table.snapshot().version)
    said = io.StringIO()
    loop = LiveLoop(lambda: open_source(str(folder), paced=False), FailsFirst(3),
                    HostLog(table, out=said))
    loop.start()
    assert loop.wait(timeout=120)
    assert said.getvalue().splitlines() == [
        "dicetable: the camera is out (the table failed to take up its last picture); trying "
        "again",
        "dicetable: the camera is back",
        "dicetable: the recording has ended"]
    assert table.snapshot().view["actions"] == 1  # type: ignore[index]  # the roll, read on
    told = [r for r in caplog.records if "failed to take up a picture" in r.getMessage()]
    assert len(told) == 1 and told[0].exc_info is not None


def test_the_camera_out_for_another_reason_is_told_again(tmp_path: Path,
                                                          table: TableSession) -> None:
    # a folder camera taken away, then put back empty: the log said only that it was gone
    folder = tmp_path / "frames"
    write_film(Plan([DICY], [PlannedRest((), 1.0, None, hand=False)]), folder, seed=5)
    said = io.StringIO()
    loop = LiveLoop(lambda: open_source(str(folder), fps=30), DiceObserver(DiceReader(threads=1)),
                    HostLog(table, out=said), backoff_s=(0.05, 0.2))

    def until(happened: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 10
        while not happened() and time.monotonic() < deadline:
            time.sleep(0.05)

    loop.start()
    try:
        until(lambda: (table.snapshot().camera or {}).get("status") == "ok")
        folder.rename(tmp_path / "taken away")
        until(lambda: "is not there any more" in said.getvalue())
        folder.mkdir()
        until(lambda: "holds no pictures" in said.getvalue())
    finally:
        loop.stop()
    outs = [line for line in said.getvalue().splitlines() if "the camera is out" in line]
    assert outs[-1] == (f"dicetable: the camera is out (the folder {folder} holds no "
                        "pictures); trying again"), said.getvalue()
    assert len(outs) == len(set(outs))  # each told once


class SilentCamera:
    """A camera whose reads hang until ``release`` is set (a driver that stopped answering)."""

    paced = True
    plays_recording = False
    description = "a camera that sends nothing"

    def __init__(self, release: threading.Event) -> None:
        self._release = release

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> Frame:
        """Never a frame: it hangs until let go, then fails."""
        self._release.wait()
        raise CameraError("camera.why.not_open")

    def close(self) -> None:
        """Nothing to close."""


def test_a_camera_that_stays_silent_is_told_to_the_host_once(
        tmp_path: Path, table: TableSession) -> None:
    """A camera that sends no picture is told to the host once, with the wait that found it
    silent, not again at each longer wait the loop tries it with (the phones count on how
    long it has been silent)."""
    said, release = io.StringIO(), threading.Event()
    loop = LiveLoop(lambda: SilentCamera(release), DiceObserver(DiceReader(threads=1)),
                    HostLog(table, out=said), stall_s=0.1)
    loop.start()
    time.sleep(2.0)  # waits of 0.1, 0.2, 0.4 and 0.8 s tried meanwhile
    release.set()
    loop.stop()
    outs = [line for line in said.getvalue().splitlines() if "no picture" in line]
    assert outs == ["dicetable: the camera is out (the camera sent no picture for 0.1 s); "
                    "trying again"], said.getvalue()
