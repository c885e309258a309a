"""The live loop end to end: rendered frame folders through the real loop, reader and session
into the real journal; a camera that disappears or stalls and comes back."""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from device.camera import (
    Frame,
    FrameSource,
    ShownMemory,
    open_source,
    recording_of,
)
from device.camera_errors import CameraError, UnreadableFrame
from device.demo_film import write_film
from device.demo_plan import Plan, PlannedDie, PlannedRest
from device.journal import Journal
from device.live import CameraStatus, LiveLoop, Seen
from device.session import Snapshot, TableSession
from tests.device.cheap_camera import retake
from vision.film import MOTION_FRAMES
from vision.observation import DiceObserver
from vision.reader import DiceReader

DICY = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
PLACES = [(300.0, 250.0), (480.0, 230.0), (660.0, 260.0), (840.0, 240.0), (400.0, 430.0),
          (620.0, 450.0)]
ELSEWHERE = [(950.0, 480.0), (250.0, 520.0)]


def dice(values: list[int], places: list[tuple[float, float]] = PLACES,
         looks: int = 0) -> tuple[PlannedDie, ...]:
    return tuple(PlannedDie(v, x, y, 0.3 * i, looks + i)
                 for i, (v, (x, y)) in enumerate(zip(values, places, strict=True)))


def film(folder: Path, rests: list[PlannedRest]) -> Path:
    write_film(Plan([DICY], rests), folder, seed=5)
    return folder


@pytest.fixture(scope="module")
def reader() -> DiceObserver:
    return DiceObserver(DiceReader(threads=2))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableSession]:
    session = TableSession(Journal(tmp_path / "state" / "table.db"),
                           recording=tmp_path / "state" / "recorded")
    session.start()
    session.watch_camera()
    session.new_game(DICY, base_version=session.snapshot().version)
    yield session
    session.stop()


def play_unpaced(folder: Path, session: TableSession, observer: DiceObserver) -> None:
    """Every frame of ``folder`` through the loop, as recorded (no frame dropped), to the end."""
    loop = LiveLoop(lambda: open_source(str(folder), paced=False), observer, session)
    loop.start()
    assert loop.wait(timeout=120)


def journal_lines(session: TableSession) -> list[tuple[str, dict[str, Any]]]:
    """The journal's lines with their source, dice in order (they are multisets)."""
    with sqlite3.connect(session.journal.path) as db:
        rows = db.execute("SELECT source, line FROM lines ORDER BY seq").fetchall()
    return [(source, sorted_dice(json.loads(line))) for source, line in rows]


def sorted_dice(line: dict[str, Any]) -> dict[str, Any]:
    if "roll" in line:
        return {"roll": sorted(line["roll"])}
    if "reroll" in line:
        return {"reroll": {**line["reroll"], "dice": sorted(line["reroll"]["dice"])}}
    return line


def wait_for(session: TableSession, check: Callable[[Snapshot], bool],
             timeout: float = 10.0) -> Snapshot:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = session.snapshot()
        if check(snap):
            return snap
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s: {session.snapshot().camera}")


def test_rolls_rests_and_rerolls_become_exactly_the_camera_lines(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    rolled = dice([6, 6, 5, 2, 1, 1])
    rerolled = (*rolled[:4], *dice([3, 4], ELSEWHERE, looks=10))
    folder = film(tmp_path / "frames", [
        PlannedRest((), 1.0, None, hand=False),
        PlannedRest(rolled, 1.5, 0),
        PlannedRest(rolled, 1.0, None),  # a hand passes over
        PlannedRest(rolled, 4.0, None, hand=False),  # a long rest: held frames
        PlannedRest(rerolled, 1.5, 1),
    ])
    play_unpaced(folder, table, reader)
    question = table.snapshot().camera["ask"]  # type: ignore[index]
    assert question["kind"] == "freeze" and question["player"] == "Ana"
    table.answer(question["id"], {"card": "odd"}, base_version=table.snapshot().version)
    assert journal_lines(table) == [
        ("camera", {"roll": [1, 1, 2, 5, 6, 6]}),
        ("camera", {"reroll": {"freeze": "odd", "dice": [2, 3, 4, 5, 6, 6]}})]
    labels = json.loads((tmp_path / "state" / "recorded" / "labels.json").read_text())
    assert [sorted(d["value"] for d in image["dice"]) for image in labels["images"]] == [
        [1, 1, 2, 5, 6, 6], [2, 3, 4, 5, 6, 6]]


def test_dice_lying_still_from_the_first_frame_are_no_roll_until_rolled(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    left = dice([6, 6, 5, 2, 1, 1])  # the last game's dice, as the camera first sees them
    rolled = dice([3, 4, 4, 1, 6, 2], looks=10)
    folder = film(tmp_path / "frames", [PlannedRest(left, 1.5, None, hand=False),
                                        PlannedRest(left, 1.5, None),  # a hand passes over
                                        PlannedRest(rolled, 1.5, 0)])
    play_unpaced(folder, table, reader)
    assert journal_lines(table) == [("camera", {"roll": [1, 2, 3, 4, 4, 6]})]


def test_dice_rolled_as_the_camera_starts_are_a_roll(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # the dice were still rolling in the camera's first frames: the rest they came to is a roll
    folder = film(tmp_path / "frames", [PlannedRest((), 0.05, None, hand=False),
                                        PlannedRest(dice([6, 6, 5, 2, 1, 1]), 1.5, 0)])
    play_unpaced(folder, table, reader)
    assert journal_lines(table) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]


def test_a_nudged_die_asks_and_changes_nothing(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    rolled = dice([6, 6, 5, 2, 1, 1])
    nudged = (*rolled[:5], PlannedDie(4, PLACES[5][0] + 20, PLACES[5][1] + 8, 1.0, 5))
    folder = film(tmp_path / "frames", [PlannedRest((), 1.0, None, hand=False),
                                        PlannedRest(rolled, 1.5, 0),
                                        PlannedRest(nudged, 1.5, None)])
    play_unpaced(folder, table, reader)
    assert journal_lines(table) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]
    question = table.snapshot().camera["ask"]  # type: ignore[index]
    assert question["kind"] == "nudge" and question["circled"] == [
        [d["value"] for d in table.snapshot().camera["seen"]["dice"]].index(4)]  # type: ignore


def test_an_unreadable_frame_is_told_and_the_game_goes_on(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    folder = film(tmp_path / "frames", [PlannedRest((), 1.0, None, hand=False),
                                        PlannedRest(dice([6, 6, 5, 2, 1, 1]), 1.5, 0)])
    (folder / "99999.jpg").write_bytes(b"\xff\xd8 a damaged picture")
    play_unpaced(folder, table, reader)
    camera = table.snapshot().camera
    assert camera is not None and "unreadable" not in camera  # said once, by unreadable_why
    assert camera["unreadable_why"] == {"key": "camera.why.picture_unreadable",
                                        "params": {"name": "99999.jpg"}}  # (for the host)
    assert journal_lines(table) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]


def test_a_picture_that_cannot_be_read_amid_a_still_table_is_forgotten_once_it_reads_again(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # one picture cut short while the roll lay still: its read had stood, the table was read
    # again only when something moved, and the phones said "pictures cannot be read" (a
    # lesson refused every photo) for as long as nobody touched the table; and the table is
    # not read again for it (a question asked anew, a lesson's photo of the table unchanged)
    folder = film(tmp_path / "frames", [PlannedRest((), 1.0, None, hand=False),
                                        PlannedRest(dice([6, 6, 5, 2, 1, 1]), 3.0, 0)])
    frames = sorted(folder.iterdir())
    (folder / f"{frames[-20].stem}a.jpg").write_bytes(b"\xff\xd8 a damaged picture")
    play_unpaced(folder, table, reader)
    camera = table.snapshot().camera
    assert camera is not None and camera["unreadable_why"] is None
    assert camera["picture"] == 2  # the empty sheet and the roll, each read once
    assert journal_lines(table) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]


def test_a_second_picture_that_cannot_be_read_amid_a_still_table_is_told_and_stays_told(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # after the phones heard the pictures read again, the next picture cut short went untold
    # (its reason counted as told) until the table moved; a camera tearing picture after
    # picture is told once more and left told, not flickering, and the table is read once
    folder = film(tmp_path / "frames", [PlannedRest((), 1.0, None, hand=False),
                                        PlannedRest(dice([6, 6, 5, 2, 1, 1]), 3.0, 0)])
    frames = sorted(folder.iterdir())
    for late in (30, 15):
        (folder / f"{frames[-late].stem}a.jpg").write_bytes(b"\xff\xd8 a damaged picture")
    play_unpaced(folder, table, reader)
    camera = table.snapshot().camera
    assert camera is not None and camera["unreadable_why"] == {
        "key": "camera.why.picture_unreadable", "params": {"name": f"{frames[-15].stem}a.jpg"}}
    assert camera["picture"] == 2  # the empty sheet and the roll, each read once


def test_an_unreadable_first_picture_held_is_told_to_the_phones_once(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # a recording waiting for a game on a first picture that cannot be read: each read told
    # it again, and every phone got the same state 15 times a second
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "f0.jpg").write_bytes(b"")
    cv2.imwrite(str(folder / "f1.jpg"), np.full((72, 128, 3), 100, np.uint8))
    loop = LiveLoop(lambda: open_source(str(folder), paced=False, waits=lambda: True), reader,
                    table)
    loop.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["unreadable_why"] is not None)
        time.sleep(0.3)
        before = table.snapshot().live
        time.sleep(1.0)
        assert table.snapshot().live == before
        camera = table.snapshot().camera
        assert camera is not None and camera["unreadable_why"] is not None
    finally:
        loop.stop()


def test_a_picture_that_cannot_be_read_saved_while_the_camera_runs_is_told(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # the held picture before it, sent again at once, took its place in the loop's mailbox:
    # most times neither the phones nor the host's log heard of it
    folder = tmp_path / "photos"
    folder.mkdir()
    loop = LiveLoop(lambda: open_source(str(folder), waits=lambda: False), reader, table)
    try:
        for n in range(3):  # a picture read, then one cut short, each time
            cv2.imwrite(str(folder / f"IMG_{2 * n}.jpg"), np.full((720, 1280, 3), 60 + 40 * n,
                                                                 np.uint8))
            if n == 0:
                loop.start()
            wait_for(table, lambda s, n=n: s.camera is not None and s.camera["picture"] == n + 1
                     and s.camera["unreadable_why"] is None)
            (folder / f"IMG_{2 * n + 1}.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
            snap = wait_for(table, lambda s: s.camera is not None
                            and s.camera["unreadable_why"] is not None, timeout=5.0)
            assert snap.camera is not None and snap.camera["unreadable_why"] == {
                "key": "camera.why.picture_unreadable", "params": {"name": f"IMG_{2 * n + 1}.jpg"}}
    finally:
        loop.stop()


def test_an_unreadable_picture_of_another_reason_is_told_once_by_its_own_why(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # pictures cut short, then one too large: the phones kept "IMG_0001.jpg cannot be read"
    # (the run's first) until a read stood; each reason is told once, not each picture
    folder = tmp_path / "frames"
    folder.mkdir()
    for n in range(1, 4):
        (folder / f"IMG_000{n}.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
    (folder / "IMG_0004.png").write_bytes(  # (a header of 8000×7000 pixels: not decoded)
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sII", 13, b"IHDR", 8000, 7000) + bytes(5))
    before = table.snapshot().live
    loop = LiveLoop(lambda: open_source(str(folder), fps=30), reader, table)
    loop.start()
    try:
        snap = wait_for(table, lambda s: s.camera is not None and s.camera["unreadable_why"]
                        is not None and s.camera["unreadable_why"]["params"]["name"]
                        == "IMG_0004.png")
        assert snap.camera is not None
        assert snap.camera["unreadable_why"]["key"] == "camera.why.picture_too_large"
        time.sleep(1.0)  # (the last picture is tried again at each frame, 30 a second)
        assert table.snapshot().live == snap.live
        assert snap.live - before <= 3  # starting, the first cut short, the one too large
    finally:
        loop.stop()


def test_pictures_that_cannot_be_read_for_alternating_reasons_tell_each_reason_once(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # cut short, too large, cut short, ...: only the last reason told was remembered, so each
    # picture was told (a push, a line in the host's log, per picture: 8 for 8 pictures)
    folder = tmp_path / "frames"
    folder.mkdir()
    for n in range(1, 9, 2):
        (folder / f"IMG_000{n}.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
        (folder / f"IMG_000{n + 1}.png").write_bytes(  # (a header of 8000×7000 pixels)
            b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sII", 13, b"IHDR", 8000, 7000) + bytes(5))
    before = table.snapshot().live
    loop = LiveLoop(lambda: open_source(str(folder), fps=4), reader, table)
    loop.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["unreadable_why"]
                 is not None and s.camera["unreadable_why"]["params"]["name"] == "IMG_0002.png")
        time.sleep(2.0)  # (the 6 pictures after it are played in 1.5 s)
        snap = table.snapshot()
        assert snap.camera is not None
        assert snap.camera["unreadable_why"]["params"]["name"] == "IMG_0002.png"
        assert snap.live - before <= 3  # starting, the first cut short, the first too large
    finally:
        loop.stop()


class NewsBehindNews:
    """A camera sending a picture cut short, then (once the sink hears of it) one too large,
    then a picture that can be read, then nothing until let go (``sent``: that picture was
    handed on)."""

    paced = True
    plays_recording = False
    description = "a camera saving pictures that cannot be read"

    def __init__(self, told: threading.Event, sent: threading.Event,
                 release: threading.Event) -> None:
        self._told, self._sent, self._release = told, sent, release
        self._reads = 0

    def open(self) -> None:
        pass

    def read(self) -> Frame:
        self._reads += 1
        if self._reads == 1:
            raise UnreadableFrame("camera.why.picture_unreadable", name="IMG_0001.jpg")
        if self._reads == 2:
            self._told.wait(5.0)
            raise UnreadableFrame("camera.why.picture_too_large", name="IMG_0002.png",
                                  width=8000, height=7000, most=50)
        if self._reads > 3:
            self._sent.set()
            self._release.wait()
        return Frame(np.full((720, 1280, 3), 90, np.uint8), time.monotonic(), 3)

    def close(self) -> None:
        pass


class HeldUp:
    """The session as the loop's sink, taking long over the news of the first picture that
    cannot be read: until the camera has sent the picture behind the next news."""

    def __init__(self, session: TableSession, told: threading.Event,
                 sent: threading.Event) -> None:
        self.session, self._told, self._sent = session, told, sent

    def camera_seen(self, seen: Seen) -> None:
        self.session.camera_seen(seen)

    def camera_status(self, status: CameraStatus) -> None:
        self.session.camera_status(status)
        if status.unreadable_why is not None and not self._told.is_set():
            self._told.set()
            self._sent.wait(5.0)

    def camera_moved(self) -> None:
        self.session.camera_moved()

    def camera_holds(self, seconds: float) -> None:
        self.session.camera_holds(seconds)

    def camera_reaching(self) -> None:
        self.session.camera_reaching()


def test_the_picture_right_behind_news_of_one_that_cannot_be_read_is_taken(
        table: TableSession, reader: DiceObserver) -> None:
    # a picture put in the loop's mailbox while news of one that cannot be read waited there
    # was dropped: the newest picture lost, the table seen only at the camera's next picture
    told, sent, release = threading.Event(), threading.Event(), threading.Event()
    loop = LiveLoop(lambda: NewsBehindNews(told, sent, release), reader,
                    HeldUp(table, told, sent))
    loop.start()
    try:
        snap = wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok",
                        timeout=3.0)
        assert snap.camera is not None
        assert snap.camera["unreadable_why"]["params"]["name"] == "IMG_0002.png"
        assert loop.dropped == 0
    finally:
        release.set()
        loop.stop()


def test_a_camera_that_disappears_is_out_then_back(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    folder = film(tmp_path / "frames", [PlannedRest(dice([6, 6, 5, 2, 1, 1]), 1.0, 0,
                                                    hand=False)])
    loop = LiveLoop(lambda: open_source(str(folder), fps=30), reader, table,
                    backoff_s=(0.05, 0.2))
    loop.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok")
        folder.rename(tmp_path / "unplugged")
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "out")
        assert table.act({"roll": [1, 2, 3, 4, 5, 6]}, base_version=table.snapshot().version,
                         source="phone").view is not None  # the game goes on by phone
        (tmp_path / "unplugged").rename(folder)
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok")
    finally:
        loop.stop()


def test_a_camera_out_says_why_and_says_it_anew_when_the_reason_changes(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    folder = tmp_path / "iPhone photos"
    folder.mkdir()
    (folder / "IMG_0001.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    loop = LiveLoop(lambda: open_source(str(folder), fps=30), reader, table,
                    backoff_s=(0.05, 0.2), stall_s=1.0)
    loop.start()
    try:
        out = wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "out")
        assert out.camera is not None
        assert out.camera["why"] == {"key": "camera.why.heic", "params": {"folder": str(folder)}}
        # The host saves them as JPEG pictures, into a folder inside it: now that is why.
        (folder / "IMG_0001.HEIC").unlink()
        film(folder / "DCIM" / "100APPLE", [PlannedRest((), 0.5, None, hand=False)])
        below = wait_for(table, lambda s: s.camera is not None and s.camera["why"] is not None
                         and s.camera["why"]["key"] == "camera.why.pictures_below")
        assert below.camera is not None and below.camera["status"] == "out"
        assert below.camera["why"]["params"] == {"folder": str(folder),
                                                 "inside": "DCIM/100APPLE"}
    finally:
        loop.stop()


def test_a_roll_and_a_reroll_saved_into_the_folder_between_two_looks_are_both_read(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # A camera that saves its frames into the folder the table watches (serve --camera DIR,
    # played in real time): the empty table held a while, then the frames of a roll and of a
    # reroll arrive together, between two looks of the folder for new pictures. The roll rests
    # 2 s (a loaded machine that reads slowly drops frames, played in real time, yet reads a
    # rest that long); the reroll, the last picture, is held.
    rolled = dice([6, 6, 5, 2, 1, 1])
    rerolled = (*rolled[:4], *dice([3, 4], ELSEWHERE, looks=10))
    plan = Plan([DICY], [PlannedRest((), 0.6, None, hand=False), PlannedRest(rolled, 2.0, 0),
                         PlannedRest(rerolled, 0.5, 1)], fps=10.0)
    saved = tmp_path / "saved"
    write_film(plan, saved, seed=5)
    frames = sorted(saved.glob("*.jpg"))
    camera = tmp_path / "camera"
    camera.mkdir()
    empty = plan.hold(plan.rests[0])
    for frame in frames[:empty]:
        os.link(frame, camera / frame.name)
    loop = LiveLoop(lambda: open_source(str(camera), fps=plan.fps), reader, table)
    loop.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["picture"] == 1)
        time.sleep((len(frames) - empty) / plan.fps)  # held longer than the frames to come last
        for frame in frames[empty:]:  # the roll, a hand, the reroll: saved all at once
            os.link(frame, camera / frame.name)
        question = wait_for(table, lambda s: s.camera is not None
                            and s.camera["ask"] is not None).camera["ask"]  # type: ignore
    finally:
        loop.stop()
    assert journal_lines(table) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]
    assert question["kind"] == "freeze" and sorted(question["dice"]) == [2, 3, 4, 5, 6, 6]


def test_a_folder_fed_faster_than_it_plays_keeps_up_and_sees_every_rest(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # A camera saves 40 pictures a second into the folder the table plays at 10 (serve
    # --camera DIR --fps 10): dice tumbling for 2 s, then a roll that rests 0.8 s, then a
    # reroll. Played one by one the table fell ever further behind (4 s of pictures to each
    # 1 s), and the reroll was read some 8 s after it was saved; every few of the pictures
    # found at a look are played, so that the table stays within about 2 s of the camera and
    # the roll's rest still shows in enough still pictures in a row to be read.
    rolled = dice([6, 6, 5, 2, 1, 1])
    rerolled = (*rolled[:4], *dice([3, 4], ELSEWHERE, looks=10))
    plan = Plan([DICY], [PlannedRest((), 0.0, None, hand=False), PlannedRest(rolled, 0.8, 0),
                         PlannedRest(rerolled, 0.5, 1)], fps=40.0)
    saved = tmp_path / "saved"
    write_film(plan, saved, seed=5)
    frames = sorted(saved.glob("*.jpg"))
    tumbling = frames[1:1 + MOTION_FRAMES] * 13  # the hand and the dice flying, 2 s of them
    camera = tmp_path / "camera"
    camera.mkdir()
    os.link(frames[0], camera / "00000.jpg")
    asking = AskTimed(table)
    loop = LiveLoop(lambda: open_source(str(camera), fps=10.0), reader, asking)
    loop.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok")
        began = time.monotonic()
        for number, frame in enumerate([*tumbling, *frames[1 + MOTION_FRAMES:]], start=1):
            time.sleep(max(0.0, began + number / plan.fps - time.monotonic()))
            os.link(frame, camera / f"{number:05d}.jpg")
        saved = time.monotonic()  # the reroll's rest: its last 0.5 s
        asked = wait_for(table, lambda s: s.camera is not None and s.camera["ask"] is not None,
                         timeout=60.0)  # a loaded machine reads slowly: not what is measured
    finally:
        loop.stop()
    # how far behind the camera the table played: the picture the reroll was read on, when
    # the folder played it (by the source's clock, whatever the reads took), against when the
    # reroll's rest was saved: some 2 s here, the reads on a loaded machine add a little;
    # played one by one, 9.5 s
    assert asking.at is not None and asking.at - saved < 5.0
    assert journal_lines(table) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]
    question = asked.camera["ask"]  # type: ignore[index]
    assert question["kind"] == "freeze" and sorted(question["dice"]) == [2, 3, 4, 5, 6, 6]


class AskTimed:
    """The session as the loop's sink, noting the time of the frame (by the source's clock)
    whose read made the camera ask its first question."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.at: float | None = None

    def camera_seen(self, seen: Seen) -> None:
        self.session.camera_seen(seen)
        camera = self.session.snapshot().camera
        if self.at is None and camera is not None and camera["ask"] is not None:
            self.at = seen.at

    def camera_status(self, status: CameraStatus) -> None:
        self.session.camera_status(status)

    def camera_moved(self) -> None:
        self.session.camera_moved()

    def camera_holds(self, seconds: float) -> None:
        self.session.camera_holds(seconds)

    def camera_reaching(self) -> None:
        self.session.camera_reaching()


class HangingCamera:
    """A camera that hangs in its first read until let go (a driver that stopped answering),
    then plays a folder."""

    paced = True
    plays_recording = False
    description = "a camera that hangs"

    def __init__(self, folder: Path, hang: threading.Event, release: threading.Event,
                 reading: threading.Event | None = None) -> None:
        self._frames = open_source(str(folder), fps=30)
        self._hang, self._release, self._reading = hang, release, reading

    def open(self) -> None:
        self._frames.open()

    def read(self) -> Frame:
        if self._reading is not None:
            self._reading.set()
        if self._hang.is_set():
            self._release.wait()
        return self._frames.read()

    def close(self) -> None:
        self._frames.close()


def test_a_camera_that_stalls_is_opened_again(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    folder = film(tmp_path / "frames", [PlannedRest(dice([6, 6, 5, 2, 1, 1]), 1.0, 0,
                                                    hand=False)])
    hang, release = threading.Event(), threading.Event()
    hang.set()
    opened = []

    def camera() -> HangingCamera:
        opened.append(1)
        return HangingCamera(folder, hang, release)

    loop = LiveLoop(camera, reader, table, stall_s=0.3)
    loop.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "out")
        hang.clear()  # the next camera opened answers
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok")
        assert len(opened) >= 2  # the stuck one was left and a new one opened
    finally:
        release.set()  # (stop waits for a camera's read)
        loop.stop()



RAW_MJPEG_FRAMES = 1000  # (720p: 1.5 s to skip here unloaded, 0.04 s between two busy signs)
SKIP_STALL_S = 0.6  # far over SKIP_TOLD frames skipped, far under them all


def raw_mjpeg(path: Path) -> Path:
    """A raw .mjpeg of RAW_MJPEG_FRAMES 720p frames (its JPEGs one after another, as a
    camera streams them): it tells no frame count, nor can it seek."""
    rows = np.linspace(0, 255, 720, dtype=np.uint8)[:, None, None]
    ok, jpeg = cv2.imencode(".jpg", np.broadcast_to(rows, (720, 1280, 3)).copy())
    assert ok
    path.write_bytes(jpeg.tobytes() * RAW_MJPEG_FRAMES)
    return path


def opened_to_its_end(path: Path, marker: Path, table: TableSession,
                      reader: DiceObserver) -> tuple[int, int]:
    """How often the live loop opened the video ``path`` played to its end, and how often
    the camera answered (a frame, the end, or that it is busy)."""
    opened, alive = [0], [0]

    def camera() -> FrameSource:
        opened[0] += 1
        return open_source(str(path), paced=False, memory=ShownMemory(path, marker))

    def answered() -> None:
        alive[0] += 1

    loop = LiveLoop(camera, reader, table, stall_s=SKIP_STALL_S, on_alive=answered)
    loop.start()
    try:
        assert loop.wait(timeout=30)  # its last frame, and the end
    finally:
        loop.stop()
    return opened[0], alive[0]


# Opened again once shown, a raw .mjpeg (no frame count) went to its last frame inside open(),
# silent all along: longer than the stall, it was left and opened anew, over and over (1 minute
# of 720p with a 1 s stall: opened 4 times, up after 11.6 s). It tells the loop it is busy every
# SKIP_TOLD frames (more than the frame and the end: 40 signs, some taken as one under load).

def test_a_raw_mjpeg_shown_before_is_not_taken_for_a_stalled_camera_as_it_opens(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # its frames counted: skipped to its last frame (grab)
    path = raw_mjpeg(tmp_path / "table.mjpeg")
    marker = tmp_path / "camera-folder.txt"
    memory = ShownMemory(path, marker)
    memory.show()
    memory.count(RAW_MJPEG_FRAMES)
    opened, alive = opened_to_its_end(path, marker, table, reader)
    assert opened == 1
    assert alive >= 2 + 5


def test_a_raw_mjpeg_shown_but_stopped_before_its_end_is_not_taken_for_a_stalled_camera(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # a demo stopped with Ctrl-C: its end never read, so its frames never counted, it is
    # read from its first frame to its end
    path = raw_mjpeg(tmp_path / "table.mjpeg")
    marker = tmp_path / "camera-folder.txt"
    first = open_source(str(path), paced=False, memory=ShownMemory(path, marker))
    first.open()
    for _ in range(5):
        first.read()
    first.close()
    assert ShownMemory(path, marker).shown
    opened, alive = opened_to_its_end(path, marker, table, reader)
    assert opened == 1
    assert alive >= 2 + 5


def test_a_raw_mjpeg_on_a_line_written_before_frames_were_kept_is_not_taken_for_stalled(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # camera-folder.txt as tables wrote it before a video's frames were kept on its line
    path = raw_mjpeg(tmp_path / "table.mjpeg")
    marker = tmp_path / "camera-folder.txt"
    marker.write_text(json.dumps({"source": str(path.resolve()),
                                  "recording": recording_of(path)}) + "\n", encoding="utf-8")
    assert ShownMemory(path, marker).shown
    opened, alive = opened_to_its_end(path, marker, table, reader)
    assert opened == 1
    assert alive >= 2 + 5


def test_a_camera_whose_folder_went_while_a_read_hung_is_told_out_and_comes_back(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # a USB stick pulled while a read hung on it: the camera opened again after the stall was
    # no folder, and the watcher ended on it (the phones said "out" for good, and not why)
    folder = film(tmp_path / "frames", [PlannedRest(dice([6, 6, 5, 2, 1, 1]), 1.0, 0,
                                                    hand=False)])
    hang, release, reading = threading.Event(), threading.Event(), threading.Event()
    hang.set()

    def camera() -> HangingCamera:
        return HangingCamera(folder, hang, release, reading)  # (no folder: CameraError)

    loop = LiveLoop(camera, reader, table, stall_s=0.3)
    loop.start()
    try:
        assert reading.wait(10.0)  # the first camera opened, its first read hangs
        folder.rename(tmp_path / "away")
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "out"
                 and (s.camera.get("why") or {}).get("key") == "camera.why.no_path")
        (tmp_path / "away").rename(folder)
        hang.clear()
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok")
    finally:
        release.set()
        loop.stop()


class FailingCamera:
    """A camera that sends plain grey pictures while ``going`` is "pictures", then fails at each
    read while it is "failing", then hangs until ``release`` is set (a driver going bad)."""

    paced = True
    plays_recording = False
    description = "a camera going bad"

    def __init__(self, going: list[str], release: threading.Event) -> None:
        self._going = going
        self._release = release
        self._number = 0

    def open(self) -> None:
        """Opened (it says nothing of what is to come)."""

    def read(self) -> Frame:
        """A picture, a failure or a hang, as ``going`` says."""
        time.sleep(1 / 30)
        if self._going[-1] == "silent":
            self._release.wait()
        if self._going[-1] != "pictures":
            raise CameraError("camera.why.not_open")
        self._number += 1
        return Frame(np.full((240, 320, 3), 128, np.uint8), self._number / 30, self._number)

    def close(self) -> None:
        """Nothing to free."""


def test_a_camera_that_failed_then_went_silent_is_counted_from_its_last_picture(
        table: TableSession, reader: DiceObserver) -> None:
    # Its failures were taken for pictures: a camera failing for 10 minutes, then sending
    # nothing, was said to have sent no picture for 5 s
    going, release = ["pictures"], threading.Event()
    loop = LiveLoop(lambda: FailingCamera(going, release), reader, table,
                    backoff_s=(0.05, 0.1), stall_s=0.5)
    loop.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok")
        going.append("failing")
        last_picture = time.monotonic()
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "out")
        time.sleep(1.5)
        going.append("silent")
        stalled = wait_for(table, lambda s: s.camera is not None and s.camera["why"] is not None
                           and s.camera["why"]["key"] == "camera.why.stalled")
        assert stalled.camera is not None
        assert stalled.camera["why"]["since"] <= last_picture + 0.2, \
            stalled.camera["why"]["since"] - last_picture
    finally:
        release.set()
        loop.stop()


class SlowCamera:
    """A camera whose every picture after the first takes ``slow_s`` seconds to come (a long
    exposure in a dim room; a phone's 12 MP photo decoded on a Pi), then plays a folder."""

    paced = True
    plays_recording = False
    description = "a slow camera"

    def __init__(self, folder: Path, slow_s: float) -> None:
        self._frames = open_source(str(folder), fps=30)
        self._slow_s = slow_s
        self._reads = 0
        self.closed = False

    def open(self) -> None:
        self._frames.open()

    def read(self) -> Frame:
        self._reads += 1
        if self._reads > 1:
            time.sleep(self._slow_s)
        return self._frames.read()

    def close(self) -> None:
        self._frames.close()
        self.closed = True


def test_a_stopped_loop_has_waited_for_the_pictures_being_taken_and_closed_its_cameras(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # serve stops while the camera is taking a picture (slower than the loop waits for one,
    # so that another camera was opened meanwhile): stop returned with the pictures still
    # being taken, and a grabber left in OpenCV's imdecode as the process exited was ended by
    # Python by unwinding it: C++ aborted ("terminate called without an active exception",
    # exit status 134, a failure to systemd)
    folder = film(tmp_path / "frames", [PlannedRest((), 1.0, None, hand=False)])
    cameras: list[SlowCamera] = []

    def camera() -> SlowCamera:
        cameras.append(SlowCamera(folder, slow_s=1.0))
        return cameras[-1]

    loop = LiveLoop(camera, reader, table, stall_s=0.3)
    loop.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok")
    finally:
        loop.stop()
    assert cameras and [c.closed for c in cameras] == [True] * len(cameras)


def test_a_look_asked_of_a_stopped_camera_is_answered_at_once(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # serve shuts down: the camera stops before the buttons, and a stop still waiting has the
    # camera look; no frame will come (it waited its whole time, 3 s, for each stop queued)
    camera = film(tmp_path / "camera", [PlannedRest((), 0.0, None, hand=False)])
    loop = LiveLoop(lambda: open_source(str(camera), fps=10.0), reader, table)
    loop.start()
    assert loop.look_now(30.0)
    answered = threading.Event()
    looking = threading.Thread(target=lambda: answered.set() if not loop.look_now(30.0)
                               else None)
    loop.stop()
    looking.start()
    looking.join(10.0)
    assert answered.is_set(), "the look waited for a frame from a stopped camera"


def test_a_roll_seen_through_rolling_flicker_bands_is_read(
        tmp_path: Path, table: TableSession, reader: DiceObserver) -> None:
    # a 30 fps rolling-shutter camera under 50 Hz lamps: bands across every frame that roll
    # from one frame to the next (the still table was moving on every frame: never read)
    rolled = film(tmp_path / "film", [PlannedRest((), 1.0, None, hand=False),
                                      PlannedRest(dice([6, 6, 5, 2, 1, 1]), 2.5, 0)])
    folder = tmp_path / "frames"
    last = retake(rolled, folder, seed=5, bands=0.05)
    # the lens covered at the end: the loop holds a folder's last frame still, which a live
    # camera's banded frames never are
    cv2.imwrite(str(folder / f"{last:05d}.jpg"), np.zeros((720, 1280, 3), np.uint8))
    play_unpaced(folder, table, reader)
    assert journal_lines(table) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]


@pytest.mark.parametrize("loop", [False, True])
def test_a_look_at_a_recording_played_from_its_start_or_in_a_loop_is_answered_soon(
        tmp_path: Path, table: TableSession, reader: DiceObserver, loop: bool) -> None:
    # serve --camera DIR on 8 s of recorded pictures of a still table (not shown before), or
    # with --loop: a stop's look is answered by the next frames (it waited for the last
    # picture to play, 7 s here; a loop, its whole wait, and the stop was refused)
    camera = film(tmp_path / "camera", [PlannedRest((), 8.0, None, hand=False)])
    live = LiveLoop(lambda: open_source(str(camera), fps=10.0, loop=loop), reader, table)
    live.start()
    try:
        wait_for(table, lambda s: s.camera is not None and s.camera["status"] == "ok")
        for _ in range(2):
            began = time.monotonic()
            assert live.look_now(3.0)
            assert time.monotonic() - began < 2.0
    finally:
        live.stop()
