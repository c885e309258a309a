"""Camera sources: folders and videos played at a frame rate, cameras named, picamera2 set up."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import traceback
import tracemalloc
from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import device.camera
from device.camera import (
    WRITING_S,
    CameraError,
    FolderSource,
    PicameraSource,
    ShownMemory,
    SourceEnded,
    UnreadableFrame,
    VideoSource,
    open_source,
    parse_source,
    pictures_in,
)
from device.jpeg_stream import JpegStream
from device.motion import Settler, Verdict, motion_picture
from vision.picture_file import PictureError, read_picture


class FakeClock:
    """Time that passes only when slept (never really sleeps)."""

    def __init__(self) -> None:
        self.t = 100.0
        self.slept: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += max(0.0, seconds)


def shown_in(marker: Path) -> list[str]:
    """The sources the state's camera-folder.txt names."""
    return [json.loads(line)["source"] for line in marker.read_text(encoding="utf-8").splitlines()]


def shade(value: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    frames = tmp_path / "frames"
    frames.mkdir()
    for number, value in enumerate((10, 20, 30)):
        cv2.imwrite(str(frames / f"{number:03d}.png"), shade(value))
    (frames / "notes.txt").write_text("not a frame")
    return frames


def test_a_folder_plays_its_pictures_in_name_order_at_its_frame_rate(folder: Path) -> None:
    clock = FakeClock()
    source = FolderSource(folder, fps=10, clock=clock)
    source.open()
    frames = [source.read() for _ in range(5)]
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30, 30, 30]  # the last is held
    assert [round(f.at - 100.0, 3) for f in frames] == [0.0, 0.1, 0.2, 0.3, 0.4]
    assert [f.number for f in frames] == [0, 1, 2, 2, 2]


def test_numbers_in_picture_names_are_played_in_counting_order(tmp_path: Path) -> None:
    # a recorder that numbers its pictures without leading zeros: frame9 comes before frame10
    for number in (1, 2, 9, 10, 11, 100):
        cv2.imwrite(str(tmp_path / f"frame{number}.png"), shade(number))
    source = FolderSource(tmp_path, fps=10, paced=False, clock=FakeClock())
    source.open()
    assert [int(source.read().image[0, 0, 0]) for _ in range(6)] == [1, 2, 9, 10, 11, 100]
    cv2.imwrite(str(tmp_path / "frame101.png"), shade(101))  # taken up after frame100
    assert 101 in [int(source.read().image[0, 0, 0]) for _ in range(12)]


def test_hidden_files_and_a_macs_dot_underscore_files_are_no_pictures(folder: Path) -> None:
    # a Mac copying pictures to a USB stick leaves ._NAME beside each (no picture: its
    # resource fork); they sort first and were played, "could not be read", no game began
    (folder / "._000.png").write_bytes(b"\x00\x05\x16\x07 Mac OS X resource fork")
    cv2.imwrite(str(folder / ".hidden.png"), shade(250))
    source = FolderSource(folder, fps=10, paced=False, clock=FakeClock())
    source.open()
    assert [int(source.read().image[0, 0, 0]) for _ in range(3)] == [10, 20, 30]
    (folder / "._003.png").write_bytes(b"\x00\x05\x16\x07")  # copied in while it plays
    cv2.imwrite(str(folder / ".004.png"), shade(250))
    cv2.imwrite(str(folder / "005.png"), shade(50))
    shown = [int(source.read().image[0, 0, 0]) for _ in range(12)]
    assert set(shown) == {30, 50} and shown[-1] == 50


def test_a_paced_folder_drops_the_frames_a_slow_reader_missed(folder: Path) -> None:
    clock = FakeClock()
    source = FolderSource(folder, fps=10, clock=clock)
    source.open()
    assert source.read().number == 0
    clock.t += 0.25  # the reader took a quarter of a second
    assert source.read().number == 2


def test_an_unpaced_folder_ends_after_holding_its_last_frame(folder: Path) -> None:
    source = FolderSource(folder, fps=10, paced=False, clock=FakeClock())
    source.open()
    numbers = []
    with pytest.raises(SourceEnded):
        while True:
            numbers.append(source.read().number)
    assert numbers == [0, 1, 2] + [2] * 20


def test_a_folder_starts_where_asked_and_loops(folder: Path) -> None:
    source = FolderSource(folder, fps=10, paced=False, loop=True, start=1, clock=FakeClock())
    source.open()
    assert [source.read().number for _ in range(5)] == [1, 2, 0, 1, 2]


def test_a_cameras_folder_opened_again_after_a_failure_starts_from_its_newest_picture(
        folder: Path) -> None:
    # the pictures before were shown already: played again, they were new movement (a roll
    # undone by phone came back)
    source = FolderSource(folder, ShownMemory(folder), fps=10, paced=False, clock=FakeClock())
    source.open()
    assert [source.read().number for _ in range(2)] == [0, 1]
    source.close()  # the live loop closes a source that failed, and opens it again
    cv2.imwrite(str(folder / "003.png"), shade(40))
    source.open()
    assert [int(source.read().image[0, 0, 0]) for _ in range(2)] == [40, 40]


def test_a_cameras_folder_opened_anew_after_a_stall_starts_from_its_newest_picture(
        folder: Path) -> None:
    # the live loop leaves a stalled source behind and makes a new one: the same memory
    memory = ShownMemory(folder)
    stalled = FolderSource(folder, memory, fps=10, paced=False, clock=FakeClock())
    stalled.open()
    assert stalled.read().number == 0
    fresh = FolderSource(folder, memory, fps=10, paced=False, clock=FakeClock())
    fresh.open()
    assert [fresh.read().number for _ in range(2)] == [2, 2]


@pytest.mark.parametrize("playing", [{"loop": True}, {}], ids=["loop", "demo"])
def test_a_recording_opened_again_after_a_failure_plays_from_its_start(
        folder: Path, playing: dict[str, Any]) -> None:
    # serve --loop, and the demo's film (no memory: a recording, not a camera's folder)
    source = FolderSource(folder, fps=10, paced=False, clock=FakeClock(), **playing)
    source.open()
    assert [source.read().number for _ in range(2)] == [0, 1]
    source.close()
    source.open()
    assert [source.read().number for _ in range(2)] == [0, 1]


def test_a_cameras_folder_is_remembered_once_its_first_picture_is_shown(
        folder: Path, tmp_path: Path) -> None:
    marker = tmp_path / "camera-folder.txt"
    source = FolderSource(folder, ShownMemory(folder, marker), fps=10, paced=False,
                          clock=FakeClock())
    source.open()
    assert not marker.exists()  # opened, nothing shown: a table that stops now plays it again
    assert source.read().number == 0
    assert shown_in(marker) == [str(folder.resolve())]
    marker.unlink()
    source.read()
    assert not marker.exists()  # written once, not for every picture (a card wears)
    assert not ShownMemory(folder, tmp_path / "elsewhere.txt").shown
    marker.write_text(str(folder.resolve()), encoding="utf-8")
    again = FolderSource(folder, ShownMemory(folder, marker), fps=10, paced=False,
                         clock=FakeClock())
    again.open()  # the table restarted: the folder's pictures were shown
    assert again.read().number == 2


def test_a_cameras_folder_and_a_video_shown_in_turn_are_both_remembered(
        folder: Path, video: Path, tmp_path: Path) -> None:
    # serve --camera DIR, then --camera film.avi, then DIR again: the folder's pictures were
    # shown (it started from its first picture again, and an undone roll came back)
    marker = tmp_path / "camera-folder.txt"
    marker.write_text(str(folder.resolve()), encoding="utf-8")  # as an older table wrote it
    film = VideoSource(video, ShownMemory(video, marker), fps=10, paced=False, clock=FakeClock())
    film.open()
    assert film.read().number == 0
    again = FolderSource(folder, ShownMemory(folder, marker), fps=10, paced=False,
                         clock=FakeClock())
    again.open()
    assert again.read().number == 2
    assert ShownMemory(video, marker).shown


def test_a_damaged_picture_is_one_unreadable_frame(folder: Path) -> None:
    (folder / "001.png").write_bytes(b"\x89PNG broken")
    source = FolderSource(folder, fps=10, paced=False, clock=FakeClock())
    source.open()
    source.read()
    with pytest.raises(UnreadableFrame, match=r"001\.png cannot be read"):
        source.read()
    assert source.read().number == 2


def test_an_iphones_heic_photo_saved_as_jpg_is_told_as_one_and_the_next_is_played(
        folder: Path) -> None:
    # it was "the picture 001.jpg cannot be read", as a damaged one is
    (folder / "001.png").unlink()
    (folder / "001.jpg").write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"
                                     + bytes(100))
    source = FolderSource(folder, fps=10, paced=False, clock=FakeClock())
    source.open()
    source.read()
    with pytest.raises(UnreadableFrame) as told:
        source.read()
    assert (told.value.key, told.value.params) == ("camera.why.picture_format",
                                                   {"name": "001.jpg", "kind": "HEIC"})
    assert str(told.value) == ("the picture 001.jpg is in the HEIC format, which the table "
                               "cannot read: convert it to JPEG")
    assert source.read().number == 2


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_a_picture_cut_short_is_unreadable_not_half_a_table(tmp_path: Path,
                                                            suffix: str) -> None:
    # a camera still writing the newest picture: OpenCV decodes what is there, the rest grey
    picture = np.zeros((240, 320, 3), np.uint8)
    picture[:] = np.arange(320, dtype=np.uint8)[None, :, None] // 2
    encoded, data = cv2.imencode(suffix, picture)
    assert encoded
    (tmp_path / f"000{suffix}").write_bytes(data.tobytes())
    (tmp_path / f"001{suffix}").write_bytes(data.tobytes()[:len(data) * 2 // 3])
    source = FolderSource(tmp_path, fps=10, paced=False, clock=FakeClock())
    source.open()
    source.read()
    with pytest.raises(UnreadableFrame, match=rf"001\{suffix} cannot be read"):
        source.read()


def jpeg(value: int) -> bytes:
    encoded, data = cv2.imencode(".jpg", shade(value, (320, 240)))
    assert encoded
    return bytes(data.tobytes())


@pytest.mark.parametrize("broken", [b"", jpeg(200)[:len(jpeg(200)) // 2]], ids=["empty", "half"])
def test_an_unreadable_last_picture_is_told_once_then_the_last_readable_one_is_held(
        tmp_path: Path, broken: bytes) -> None:
    # a copy that left the last picture empty or cut short: the same file was tried again and
    # again, "could not be read" all along and no picture on the table
    (tmp_path / "f0.jpg").write_bytes(jpeg(10))
    (tmp_path / "f1.jpg").write_bytes(broken)
    source = FolderSource(tmp_path, fps=10, clock=FakeClock())
    source.open()
    assert round(int(source.read().image[0, 0, 0]), -1) == 10
    with pytest.raises(UnreadableFrame, match=r"f1\.jpg cannot be read"):
        source.read()
    held = [source.read() for _ in range(5)]
    assert [round(int(f.image[0, 0, 0]), -1) for f in held] == [10] * 5
    assert [f.number for f in held] == [1] * 5
    (tmp_path / "f1.jpg").write_bytes(jpeg(200))  # written again, whole
    assert round(int(source.read().image[0, 0, 0]), -1) == 200


def test_an_unreadable_first_picture_is_told_at_each_read_but_waited_for_once(
        tmp_path: Path) -> None:
    # with no picture before it to hold, each read waited 0.2 s again for a damaged file
    (tmp_path / "f0.jpg").write_bytes(b"")
    clock = FakeClock()
    source = FolderSource(tmp_path, fps=10, clock=clock)
    source.open()
    for _ in range(3):
        with pytest.raises(UnreadableFrame, match=r"f0\.jpg cannot be read"):
            source.read()
    assert clock.slept.count(WRITING_S) == 1
    (tmp_path / "f0.jpg").write_bytes(jpeg(200))  # written again, whole
    assert round(int(source.read().image[0, 0, 0]), -1) == 200


def test_an_unreadable_first_picture_read_all_evening_keeps_no_more_memory(
        tmp_path: Path) -> None:
    # the same error was raised at each read: each raise added to its traceback, which kept
    # every read's frames (200 reads: 400 entries; some 30 MB an hour at 15 reads a second)
    (tmp_path / "f0.jpg").write_bytes(b"")
    source = FolderSource(tmp_path, fps=15, clock=FakeClock())
    source.open()
    kept = []
    for _ in range(200):
        with pytest.raises(UnreadableFrame, match=r"f0\.jpg cannot be read") as raised:
            source.read()
        kept.append(len(list(traceback.walk_tb(raised.value.__traceback__))))
    assert kept[-1] == kept[1]  # (the first also waited for the file being written)


class WritingClock(FakeClock):
    """A camera that finishes writing ``picture`` while the source waits."""

    def __init__(self, picture: Path, data: bytes) -> None:
        super().__init__()
        self.picture, self.data = picture, data

    def sleep(self, seconds: float) -> None:
        super().sleep(seconds)
        self.picture.write_bytes(self.data)


@pytest.mark.parametrize("written", [0, 2], ids=["empty", "half"])
def test_a_picture_still_being_written_is_waited_for_not_told_unreadable(
        tmp_path: Path, written: int) -> None:
    # a webcam tool rewriting latest.jpg every 0.5 s: caught while writing, it was
    # "could not be read" most of the time
    whole = jpeg(200)
    (tmp_path / "latest.jpg").write_bytes(whole[:len(whole) * written // 4])
    source = FolderSource(tmp_path, fps=10, paced=False,
                          clock=WritingClock(tmp_path / "latest.jpg", whole))
    source.open()
    assert round(int(source.read().image[0, 0, 0]), -1) == 200


def test_the_held_picture_rewritten_in_place_is_read_anew(folder: Path) -> None:
    # a camera that saves its pictures under one name, over the same file
    source = FolderSource(folder, fps=10, clock=FakeClock())
    source.open()
    assert [int(source.read().image[0, 0, 0]) for _ in range(3)] == [10, 20, 30]
    last = folder / "002.png"
    encoded, png = cv2.imencode(".png", shade(200))
    assert encoded
    inode = last.stat().st_ino
    with last.open("r+b") as file:  # the same file, not a new one put in its place
        file.write(png.tobytes())
        file.truncate()
    assert last.stat().st_ino == inode
    assert int(source.read().image[0, 0, 0]) == 200


def test_pictures_put_in_the_folder_while_it_plays_are_all_played_in_order(
        folder: Path) -> None:
    # a camera that saves each picture into the folder, named in order: each may be a rest
    source = FolderSource(folder, fps=10, clock=FakeClock())
    source.open()
    assert [int(source.read().image[0, 0, 0]) for _ in range(5)] == [10, 20, 30, 30, 30]
    cv2.imwrite(str(folder / "003.png"), shade(40))
    cv2.imwrite(str(folder / "004.png"), shade(50))
    shown = [int(source.read().image[0, 0, 0]) for _ in range(12)]  # looked for once a second
    assert shown == [30] * 8 + [40, 50, 50, 50]


def test_pictures_named_before_the_newest_shown_are_told_once_as_left_out(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # a test picture in the folder, then the camera's IMG_n.JPG: all named before it
    cv2.imwrite(str(tmp_path / "test.jpg"), shade(10))
    source = FolderSource(tmp_path, fps=10, clock=FakeClock())
    source.open()
    assert int(source.read().image[0, 0, 0]) == 10
    for number in range(1, 53):
        cv2.imwrite(str(tmp_path / f"IMG_{number}.JPG"), shade(200))
    assert {int(source.read().image[0, 0, 0]) for _ in range(12)} == {10}  # looked once a second
    cv2.imwrite(str(tmp_path / "IMG_53.JPG"), shade(200))
    cv2.imwrite(str(tmp_path / "zz.jpg"), shade(30))  # named after it: played
    assert int([source.read() for _ in range(12)][-1].image[0, 0, 0]) == 30
    told = [r.getMessage() for r in caplog.records if "named before" in r.getMessage()]
    assert told == ["dicetable: IMG_1.JPG and 51 more are named before test.jpg, the newest "
                    "picture shown: the table plays pictures in name order, so it leaves them "
                    "out; keep the camera's pictures in a folder of their own, or name them to "
                    "come after test.jpg"]


def test_a_held_recording_shows_its_picture_and_plays_on_from_the_next(folder: Path) -> None:
    # serve --camera DIR waiting for a game to be set up, then playing it
    source = FolderSource(folder, fps=10, clock=FakeClock())
    source.open()
    source.hold(True)
    assert [int(source.read().image[0, 0, 0]) for _ in range(20)] == [10] * 20
    source.hold(False)
    assert [int(source.read().image[0, 0, 0]) for _ in range(3)] == [20, 30, 30]


@pytest.mark.parametrize("paced", [True, False])
def test_a_folder_a_camera_saves_into_while_held_holds_its_newest_picture(
        folder: Path, paced: bool) -> None:
    # serve --camera DIR on a webcam tool's folder, the game set up late: the table held the
    # picture it found, then played the wait through: the pictures found in the folder one by
    # one (600 at 15 a second: 41.7 s behind), those saved while it waited as a 2 s time-lapse
    clock = FakeClock()
    source = FolderSource(folder, fps=10, paced=paced, clock=clock)
    source.open()
    source.hold(True)
    assert [int(source.read().image[0, 0, 0]) for _ in range(5)] == [10] * 5
    held = []
    for number in range(3, 63):  # 30 s of a camera saving 2 pictures a second
        cv2.imwrite(str(folder / f"{number:03d}.png"), shade(100 + number))
        held += [int(source.read().image[0, 0, 0]) for _ in range(5)]
    held += [int(source.read().image[0, 0, 0]) for _ in range(10)]  # looked once a second
    assert held[-1] == 162  # the table as it lies now
    assert all(a <= b for a, b in pairwise(held))  # never an older picture after a newer
    source.hold(False)  # the game set up
    after = [int(source.read().image[0, 0, 0]) for _ in range(3)]
    assert after == [162] * 3  # not the wait played through
    for number, value in enumerate((200, 210), start=63):  # the game's first pictures
        cv2.imwrite(str(folder / f"{number:03d}.png"), shade(value))
    shown = [int(source.read().image[0, 0, 0]) for _ in range(12)]
    assert [v for i, v in enumerate(shown) if not i or v != shown[i - 1]] == [162, 200, 210]


@pytest.mark.parametrize(("per_look", "behind_s"), [(30, 0.0), (1, 60.0), (1, 3600.0)])
@pytest.mark.parametrize("paced", [True, False])
def test_pictures_saved_into_a_held_folder_are_a_cameras_whatever_their_pace_or_times(
        folder: Path, paced: bool, per_look: int, behind_s: float) -> None:
    # a camera saving 30 pictures a second into a folder played at 10, or one a second from a
    # tethered camera whose clock is a minute behind (rsync -t, Syncthing: an hour): the table
    # took them for a recording copied in, froze on the picture it found while it waited, and
    # once the game was set up (the camera paused a moment before) played the wait through
    source = FolderSource(folder, fps=10, paced=paced, clock=FakeClock())
    source.open()
    source.hold(True)
    number = 3
    for _ in range(3):
        for _ in range(per_look):
            picture = folder / f"{number:03d}.png"
            cv2.imwrite(str(picture), shade(number))
            if behind_s:
                saved = picture.stat().st_mtime - behind_s
                os.utime(picture, (saved, saved))
            number += 1
        held = [int(source.read().image[0, 0, 0]) for _ in range(10)]  # looked once a second
        assert held[-1] == number - 1  # the newest: the table as it lies now
    for _ in range(20):  # the camera paused 2 s before the game is set up
        source.read()
    source.hold(False)  # the game set up
    assert [int(source.read().image[0, 0, 0]) for _ in range(3)] == [number - 1] * 3


@pytest.mark.parametrize("paced", [True, False])
def test_a_camera_saving_faster_than_a_held_folder_plays_shows_its_newest_once_the_game_is_set(
        folder: Path, paced: bool) -> None:
    # 30 pictures a second into a folder played at 10 while the table waits, still saving
    # when the game is set up: its newest is shown then, not the wait played through
    source = FolderSource(folder, fps=10, paced=paced, clock=FakeClock())
    source.open()
    source.hold(True)
    number = 3
    for _ in range(5):
        for _ in range(30):
            cv2.imwrite(str(folder / f"{number:03d}.png"), shade(number))
            number += 1
        for _ in range(10):  # a look a second
            source.read()
    source.hold(False)  # the game set up
    assert [int(source.read().image[0, 0, 0]) for _ in range(3)] == [152] * 3  # the newest


@pytest.mark.parametrize(("per_look", "told"), [(60, 0), (300, 1)])
def test_pictures_put_in_a_held_folder_faster_than_a_camera_saves_them_are_told_once(
        folder: Path, caplog: pytest.LogCaptureFixture, per_look: int, told: int) -> None:
    # a recording copied into the folder while the table waits for a game (300 pictures in a
    # second) is taken as a camera's, its newest held: the host is told to put it in first;
    # a camera saving 60 pictures a second is no copy
    source = FolderSource(folder, fps=10, clock=FakeClock())
    source.open()
    source.hold(True)
    number = 3
    for _ in range(2):
        for _ in range(per_look):
            cv2.imwrite(str(folder / f"{number:03d}.png"), shade(number % 256))
            number += 1
        held = [int(source.read().image[0, 0, 0]) for _ in range(10)]  # looked once a second
        assert held[-1] == (number - 1) % 256
    messages = [r.getMessage() for r in caplog.records if "faster than a camera" in r.getMessage()]
    assert messages == [
        f"dicetable: 300 pictures arrived in {folder} within 1 s while the table waited for a "
        "game, faster than a camera saves them: pictures that arrive while the table runs are "
        "taken as a camera's, its newest held and the others not played; to play a recording "
        "from its start, put it in the folder before starting the table"][:told]


@pytest.mark.parametrize("paced", [True, False])
def test_a_game_set_up_right_after_a_held_folder_took_up_its_newest_picture_plays_on(
        folder: Path, paced: bool) -> None:
    # the grabber died with an IndexError when the game was set up on the read right after
    # the once-a-second look took up the newest picture: it played on from the old held one
    source = FolderSource(folder, fps=10, paced=paced, clock=FakeClock())
    source.open()
    source.hold(True)
    assert [int(source.read().image[0, 0, 0]) for _ in range(3)] == [10] * 3
    for number in range(3, 7):
        cv2.imwrite(str(folder / f"{number:03d}.png"), shade(100 + number))
    held = [int(source.read().image[0, 0, 0])]
    while held[-1] != 106 and len(held) < 20:  # until the look takes up the newest picture
        held.append(int(source.read().image[0, 0, 0]))
    assert held[-1] == 106
    source.hold(False)  # the game set up on the very next read
    assert [int(source.read().image[0, 0, 0]) for _ in range(2)] == [106, 106]
    cv2.imwrite(str(folder / "007.png"), shade(200))
    shown = [int(source.read().image[0, 0, 0]) for _ in range(12)]
    assert 200 in shown


def test_a_held_folder_is_listed_again_only_when_it_changed_or_every_few_seconds(
        folder: Path) -> None:
    # held all the wait, a folder of thousands of pictures was listed once a second (20,000:
    # 0.2 s a look here, seconds on a Pi); a quiet folder whose time of change stood through
    # a picture saved (as none does) would still have it taken up within 5 s
    stamp = folder.stat().st_mtime_ns - 3600 * 10**9
    os.utime(folder, ns=(stamp, stamp))  # quiet for an hour
    source = FolderSource(folder, fps=10, clock=FakeClock())
    source.open()
    source.hold(True)
    assert {int(source.read().image[0, 0, 0]) for _ in range(5)} == {10}  # looked at once
    cv2.imwrite(str(folder / "003.png"), shade(40))
    os.utime(folder, ns=(stamp, stamp))  # (its time of change as it was)
    assert {int(source.read().image[0, 0, 0]) for _ in range(25)} == {10}  # 2 looks, unlisted
    held = [int(source.read().image[0, 0, 0]) for _ in range(20)]
    assert held[-1] == 40  # listed at the 5th look
    cv2.imwrite(str(folder / "004.png"), shade(50))  # its time of change moves
    assert [int(source.read().image[0, 0, 0]) for _ in range(11)][-1] == 50  # the next look


def test_a_folder_played_at_its_last_picture_is_listed_again_only_when_it_changed(
        folder: Path) -> None:
    # a recording played to its last picture in a game was listed once a second all the game
    # (20,000 pictures: 0.2 s a look here, seconds on a Pi); a quiet folder whose time of
    # change stood through a picture saved (as none does) is still listed every 5 s
    stamp = folder.stat().st_mtime_ns - 3600 * 10**9
    os.utime(folder, ns=(stamp, stamp))  # quiet for an hour
    source = FolderSource(folder, fps=10, clock=FakeClock())
    source.open()
    assert [int(source.read().image[0, 0, 0]) for _ in range(5)][-1] == 30  # the last, looked at
    cv2.imwrite(str(folder / "003.png"), shade(40))
    os.utime(folder, ns=(stamp, stamp))  # (its time of change as it was)
    assert {int(source.read().image[0, 0, 0]) for _ in range(25)} == {30}  # 2 looks, unlisted
    shown = [int(source.read().image[0, 0, 0]) for _ in range(20)]
    assert shown[-1] == 40  # listed at the 5th look
    cv2.imwrite(str(folder / "004.png"), shade(50))  # its time of change moves
    assert [int(source.read().image[0, 0, 0]) for _ in range(11)][-1] == 50  # the next look


@pytest.mark.parametrize("held", [False, True])
def test_a_picture_saved_on_a_fat_card_within_2s_of_the_last_change_is_seen_at_the_next_look(
        folder: Path, held: bool) -> None:
    # a FAT card's folder keeps its time of change through a picture saved within the same
    # 2 s: played at its last picture in a game, or held, the folder was listed only every
    # 5th look, and the picture seen up to 5 s late (the README says at most about 2 s)
    source = FolderSource(folder, fps=10, clock=FakeClock())
    source.open()
    source.hold(held)
    last = [int(source.read().image[0, 0, 0]) for _ in range(5)][-1]  # looked at
    assert last == (10 if held else 30)
    stamp = folder.stat().st_mtime_ns  # changed just now: the fixture's pictures
    cv2.imwrite(str(folder / "003.png"), shade(40))
    os.utime(folder, ns=(stamp, stamp))  # (its time of change as a FAT card keeps it)
    assert [int(source.read().image[0, 0, 0]) for _ in range(11)][-1] == 40  # the next look


@pytest.mark.parametrize(("saved", "fps"), [(45, 10), (31, 15), (45, 15)])
def test_pictures_saved_faster_than_the_folder_plays_take_as_long_to_play_as_to_save(
        folder: Path, saved: int, fps: float) -> None:
    # ``saved`` pictures saved in the 2 s between two looks at a folder played at ``fps``:
    # played one by one, the table would fall ever further behind them; as many as it plays
    # in 2 s are played, spread evenly, the newest last (31 at 15 a second played every other
    # one took 1 s, and a rest of the dice among them half as many still pictures)
    source = FolderSource(folder, fps=fps, clock=FakeClock())
    source.open()
    assert [source.read().number for _ in range(3)] == [0, 1, 2]
    for number in range(3, 3 + saved):
        cv2.imwrite(str(folder / f"{number:03d}.png"), shade(100 + number))
    frames = [source.read() for _ in range(3 * saved)]
    new = [f for f in frames if f.image[0, 0, 0] > 100]
    played = [int(f.image[0, 0, 0]) - 100 for i, f in enumerate(new)
              if not i or f.number != new[i - 1].number]
    most = round(fps * 2.0)
    assert len(played) == most and played[0] == 3 and played[-1] == 2 + saved
    assert {b - a for a, b in pairwise(played)} <= {(saved - 1) // (most - 1),
                                                   -(-(saved - 1) // (most - 1))}
    last = next(f for f in new if int(f.image[0, 0, 0]) == 102 + saved)
    assert round((last.at - new[0].at) * fps) == most - 1  # one picture after another


def test_a_folder_asked_to_look_while_it_plays_older_pictures_shows_the_newest_within_2s(
        folder: Path) -> None:
    # a stop waits for the frame that shows the picture saved as it was pressed: the folder
    # plays 2 s of pictures it found at its last look, and those saved since come after them
    clock = FakeClock()
    source = FolderSource(folder, fps=10, clock=clock)
    source.open()
    assert [source.read().number for _ in range(3)] == [0, 1, 2]
    for number in range(3, 43):
        cv2.imwrite(str(folder / f"{number:03d}.png"), shade(100 + number))
    [source.read() for _ in range(5)]  # the folder looked: 2 s of the 40 to play
    for number in range(43, 53):
        cv2.imwrite(str(folder / f"{number:03d}.png"), shade(100 + number))
    asked = clock.t
    newest = source.look_now()
    frames = [source.read() for _ in range(30)]
    showing = [f for f in frames if f.number >= newest]
    assert showing and int(showing[0].image[0, 0, 0]) == 152
    assert all(int(f.image[0, 0, 0]) < 152 for f in frames if f.number < newest)
    assert showing[0].at - asked <= 2.0


@pytest.mark.parametrize("first", range(1, 23))  # moving after the rest
def test_a_half_second_rest_saved_a_little_faster_than_the_folder_plays_is_read(
        tmp_path: Path, first: int) -> None:
    # 2 s of a camera saving 15.5 pictures a second into a folder played at 15: dice
    # moving, and at rest for 0.5 s (8 pictures) from picture ``first`` on; played every
    # other one, the rest was 4 pictures, 0.2 s, under the 0.3 s of stillness a read waits for
    cv2.imwrite(str(tmp_path / "00000.png"), shade(0))
    source = FolderSource(tmp_path, fps=15, clock=FakeClock())
    source.open()
    source.read()
    values = [20 + 3 * number for number in range(31)]
    values[first:first + 8] = [250] * 8
    for number, value in enumerate(values, start=1):
        cv2.imwrite(str(tmp_path / f"{number:05d}.png"), shade(value))
    settler, last, verdicts = Settler(settle_s=0.3, agree=1), 0, []
    for _ in range(60):
        frame = source.read()
        value = int(frame.image[0, 0, 0])
        if settler.frame(moved=value != last, at=frame.at):
            verdicts.append((value, settler.read(value)))
        last = value
    assert (250, Verdict.STANDS) in verdicts


@pytest.mark.parametrize("paced", [True, False])
def test_pictures_put_in_the_folder_after_a_long_hold_are_not_overdue(
        folder: Path, paced: bool) -> None:
    clock = FakeClock()
    source = FolderSource(folder, fps=10, paced=paced, clock=clock)
    source.open()
    held = [source.read().number for _ in range(15)]
    clock.t += 60.0  # the table waited a minute on the last picture
    for number, value in enumerate((40, 50, 60), start=3):
        cv2.imwrite(str(folder / f"{number:03d}.png"), shade(value))
    frames = [source.read() for _ in range(14)]  # looked for once a second
    numbers = [f.number for f in frames]
    assert held[-1] == 2 and numbers[-1] == 5
    assert [n for i, n in enumerate(numbers) if not i or n != numbers[i - 1]] == [2, 3, 4, 5]
    assert [int(f.image[0, 0, 0]) for f in frames if f.number in (3, 4)] == [40, 50]
    assert all(a.at < b.at for a, b in pairwise(frames))  # time goes on


def test_a_folder_a_camera_saves_into_all_evening_keeps_no_more_memory_as_pictures_go_by(
        tmp_path: Path) -> None:
    # a camera saving 15 pictures a second and deleting all but its last 30: the folder kept
    # the name of every picture it had played (480 bytes a picture, 26 MB an hour)
    def save(number: int) -> None:
        cv2.imwrite(str(tmp_path / f"{number:06d}.png"), shade(20 + number % 200, (8, 8)))
        (tmp_path / f"{number - 30:06d}.png").unlink(missing_ok=True)

    def play(seconds: int) -> int:
        """Save and play ``seconds`` of pictures; the number of the last one shown."""
        shown = 0
        for _ in range(seconds):
            for _ in range(15):
                save(saved.pop())
            for _ in range(15):
                number = source.read().number
                assert number >= shown  # in order
                shown = number
            clock.slept.clear()  # (the clock's own record of the time)
        return shown

    save(0)
    saved = list(range(15 * 200, 0, -1))
    clock = FakeClock()
    source = FolderSource(tmp_path, fps=15, clock=clock)
    source.open()
    play(20)
    tracemalloc.start(8)
    try:
        before = tracemalloc.take_snapshot()
        last = play(180)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    # what was kept on the way through the camera's code (not what threads of other tests in
    # the same process allocate meanwhile)
    own = [tracemalloc.Filter(True, device.camera.__file__, all_frames=True)]
    grown = sum(d.size_diff for d in after.filter_traces(own).compare_to(
        before.filter_traces(own), "filename"))
    assert grown < 100_000  # 2700 pictures went by
    assert last >= 15 * 200 - 15  # it played on to the newest


def test_a_folder_whose_pictures_are_in_a_folder_inside_it_says_which(tmp_path: Path) -> None:
    (tmp_path / "game1").mkdir()
    cv2.imwrite(str(tmp_path / "game1" / "000.png"), shade(10))
    with pytest.raises(CameraError, match=r"holds no pictures; they are in its folder game1: "
                                          r"give that one"):
        FolderSource(tmp_path).open()


def test_a_camera_card_whose_pictures_are_two_folders_down_says_where(tmp_path: Path) -> None:
    card = tmp_path / "card"
    (card / "DCIM" / "100CANON").mkdir(parents=True)
    cv2.imwrite(str(card / "DCIM" / "100CANON" / "IMG_0001.JPG"), shade(10))
    with pytest.raises(CameraError, match=r"holds no pictures; they are in its folder "
                                          r"DCIM/100CANON: give that one"):
        FolderSource(card).open()


def test_a_folder_of_iphone_heic_photos_says_to_save_them_as_jpeg(tmp_path: Path) -> None:
    for number in range(3):
        (tmp_path / f"IMG_{number}.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    with pytest.raises(CameraError, match=r"holds HEIC photos \(as an iPhone takes them\), "
                                          r"which the table cannot read: save them as JPEG"):
        FolderSource(tmp_path).open()


def test_an_iphones_heic_photos_two_folders_down_say_to_save_them_as_jpeg(
        tmp_path: Path) -> None:
    photos = tmp_path / "iphone" / "DCIM" / "100APPLE"
    photos.mkdir(parents=True)
    (photos / "IMG_0001.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    with pytest.raises(CameraError) as raised:
        FolderSource(tmp_path / "iphone").open()
    assert raised.value.key == "camera.why.heic"
    assert raised.value.params == {"folder": str(photos)}


@pytest.mark.parametrize("name", ["IMG_0001.CR2", "DSC_0001.NEF", "PXL_0001.dng", "DSC01.ARW"])
def test_a_folder_of_raw_photos_says_to_save_them_as_jpeg(tmp_path: Path, name: str) -> None:
    # a camera's RAW photos, which OpenCV cannot read: the folder "holds no pictures"
    (tmp_path / name).write_bytes(b"II*\x00raw")
    (tmp_path / f"._{name}").write_bytes(b"")  # (a Mac's)
    with pytest.raises(CameraError, match=r"holds RAW photos \(as a camera saves them "
                                          r"unprocessed\), which the table cannot read: save "
                                          r"them as JPEG pictures"):
        FolderSource(tmp_path).open()
    card = tmp_path / "card" / "DCIM" / "100CANON"
    card.mkdir(parents=True)
    (card / name).write_bytes(b"II*\x00raw")
    with pytest.raises(CameraError) as raised:
        FolderSource(tmp_path / "card").open()
    assert raised.value.key == "camera.why.raw"
    assert raised.value.params == {"folder": str(card)}


def test_a_folder_of_raw_photos_with_a_heic_one_says_raw(tmp_path: Path) -> None:
    # the reason was the least key by its letters: "heic" before "raw", whatever most were
    for number in range(1, 4):
        (tmp_path / f"IMG_{number}.DNG").write_bytes(b"II*\x00raw")
    (tmp_path / "IMG_9.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    with pytest.raises(CameraError) as raised:
        FolderSource(tmp_path).open()
    assert raised.value.key == "camera.why.raw"


def test_a_folder_of_gif_pictures_is_played_as_opencv_reads_them(tmp_path: Path) -> None:
    # OpenCV here reads a GIF (imread gives its picture, in the GIF's 256 colours); the
    # folder "held no pictures"
    for number, value in enumerate((40, 200)):
        assert cv2.imwrite(str(tmp_path / f"f{number}.gif"), shade(value))
    read = [cv2.imread(str(tmp_path / f"f{number}.gif")) for number in range(2)]
    assert [int(image[0, 0, 1]) for image in read] == [36, 216]  # the nearest of its palette
    source = FolderSource(tmp_path, fps=10, paced=False, clock=FakeClock())
    source.open()
    for image in read:
        assert np.array_equal(source.read().image, image)


def test_a_gif_past_10_megapixels_is_told_too_large_as_a_png_of_its_size_is_read(
        tmp_path: Path) -> None:
    # a GIF is decoded at the size of its screen, which its header gives, and OpenCV holds some
    # 12 bytes a pixel as it does: one of 4000×3000 (12 MP, under the 50 MP of other pictures)
    # cost 141 MB at the peak, one of 7000×7000 565 MB
    ok, gif = cv2.imencode(".gif", shade(90))
    assert ok
    (tmp_path / "f0.gif").write_bytes(gif.tobytes()[:6] + struct.pack("<HH", 4000, 3000)
                                      + gif.tobytes()[10:])
    assert cv2.imwrite(str(tmp_path / "f1.png"), shade(90, (4000, 3000)))
    source = FolderSource(tmp_path, fps=10, paced=False, clock=FakeClock())
    source.open()
    with pytest.raises(UnreadableFrame, match=r"the picture f0\.gif is too large to read "
                                              r"\(4000×3000 pixels; at most 10 megapixels\)"):
        source.read()
    assert source.read().image.shape == (1500, 2000, 3)  # the PNG, read shrunk by 2


def test_a_folder_of_avif_photos_says_to_save_them_as_jpeg(tmp_path: Path) -> None:
    # named by eval as photos that cannot be read; the folder "held no pictures"
    (tmp_path / "PXL_0001.avif").write_bytes(b"\x00\x00\x00\x1cftypavif")
    with pytest.raises(CameraError, match=r"holds AVIF photos, which the table cannot read: "
                                          r"save them as JPEG pictures") as raised:
        FolderSource(tmp_path).open()
    assert raised.value.key == "camera.why.unreadable_photos"
    assert raised.value.params == {"folder": str(tmp_path), "kind": "AVIF"}


@pytest.mark.parametrize(("suffix", "fourcc"), [(".m4v", "mp4v"), (".ts", "mp4v"),
                                                (".m2ts", "mp4v"), (".wmv", "WMV2"),
                                                (".flv", "FLV1"), (".3gp", "mp4v")])
def test_a_video_of_any_kind_opencv_plays_is_a_camera(tmp_path: Path, suffix: str,
                                                      fourcc: str) -> None:
    path = tmp_path / f"table{suffix}"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), 25, (160, 120))
    for value in (40, 40, 40, 200, 200, 200):
        writer.write(shade(value, (160, 120)))
    writer.release()
    source = open_source(str(path), fps=25, paced=False, clock=FakeClock())
    source.open()
    values = [round(int(source.read().image[60, 80, 0]), -1) for _ in range(6)]
    source.close()
    assert values == [40, 40, 40, 200, 200, 200]


def write_video(path: Path, fourcc: str, values: list[int]) -> Path:
    """A video at 25 frames a second of one frame of each shade in ``values``."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), 25, (160, 120))
    for value in values:
        writer.write(shade(value, (160, 120)))
    writer.release()
    return path


def played(spec: str, memory: ShownMemory | None = None) -> list[int]:
    """The shades of the frames of the video ``spec`` played unpaced until it ends, each once."""
    source = open_source(spec, paced=False, clock=FakeClock(), memory=memory)
    source.open()
    values: list[int] = []
    with pytest.raises(SourceEnded):
        while True:
            values.append(round(int(source.read().image[60, 80, 0]), -1))
    source.close()
    return [v for i, v in enumerate(values) if not i or v != values[i - 1]]


@pytest.mark.parametrize(("name", "fourcc"), [("table.mpg", "PIM1"), ("table.mpeg", "mpg2"),
                                              ("table.m2v", "mpg2"), ("table.mjpeg", "MJPG")])
def test_a_video_that_tells_no_frame_count_or_a_wrong_one_plays_to_its_end(
        tmp_path: Path, name: str, fourcc: str) -> None:
    # an .mpg was refused ("no camera"); an .m2v or .mjpeg tells OpenCV no frame count and
    # held its first frame; an .mpg joined from two recordings tells the first's and held its
    # last frame
    shades = [40] * 30 + [120] * 27 + [200] * 3
    path = write_video(tmp_path / name, fourcc, shades)
    assert played(str(path)) == [40, 120, 200]
    assert played(str(path), ShownMemory(path, tmp_path / "shown.txt")) == [40, 120, 200]
    shown = ShownMemory(path, tmp_path / "shown.txt")
    assert shown.shown  # opened again: from its last frame, counted where untold
    assert played(str(path), shown) == [200]
    if name.endswith(".mpg"):
        second = write_video(tmp_path / "second.mpg", fourcc, [80] * 30 + [160] * 30)
        joined = tmp_path / "joined.mpg"  # (cat first.mpg second.mpg > joined.mpg)
        joined.write_bytes(path.read_bytes() + second.read_bytes())
        assert played(str(joined)) == [40, 120, 200, 80, 160]


@pytest.mark.parametrize("name", ["table.mjpeg", "table.avi"])
def test_a_video_played_in_a_loop_starts_again_after_its_last_frame(
        tmp_path: Path, name: str) -> None:
    # serve --camera table.mjpeg --loop held its last frame for good: a raw .mjpeg asked to
    # go back to its first frame says it did, and reads on (at its end: nothing more)
    path = write_video(tmp_path / name, "MJPG", [40] * 5 + [120] * 5 + [200] * 5)
    source = open_source(str(path), paced=False, loop=True, clock=FakeClock())
    source.open()
    values = [round(int(source.read().image[60, 80, 0]), -1) for _ in range(40)]
    source.close()
    assert [v for i, v in enumerate(values) if not i or v != values[i - 1]][:6] == [
        40, 120, 200, 40, 120, 200]


def test_a_raw_mjpeg_shown_before_is_opened_again_at_its_last_frame_counted(
        tmp_path: Path) -> None:
    # a raw .mjpeg tells no frame count: opened again once shown, it was decoded from its
    # first frame to its end each time (a minute of 720p: 3.6 s here, ~72 s on a Pi)
    path = write_video(tmp_path / "table.mjpeg", "MJPG", [40] * 20 + [120] * 19 + [200])
    marker = tmp_path / "camera-folder.txt"
    assert played(str(path), ShownMemory(path, marker)) == [40, 120, 200]
    assert [json.loads(line).get("frames") for line in marker.read_text().splitlines()] == [40]
    again = ShownMemory(path, marker)
    assert again.frames == 40
    source = open_source(str(path), paced=False, clock=FakeClock(), memory=again)
    source.open()
    frame = source.read()
    source.close()
    assert (frame.number, round(int(frame.image[60, 80, 0]), -1)) == (39, 200)


@pytest.mark.parametrize("counted", [False, True])
def test_a_raw_mjpeg_shown_before_goes_to_its_last_frame_decoding_that_frame_alone(
        tmp_path: Path, counted: bool) -> None:
    # each open decoded its frames one by one up to its last (500 frames of 720p: 2.3 to
    # 2.8 s here, ~50 s on a Pi); its JPEGs are found by their markers, a scan of its bytes,
    # and the last alone is decoded: here every frame before it cannot be decoded (no size),
    # so a read that decodes one on the way shows no last frame
    jpeg = cv2.imencode(".jpg", shade(40, (160, 120)))[1].tobytes()
    sof = jpeg.index(b"\xff\xc0")
    no_size = jpeg[:sof] + jpeg[sof + 2 + int.from_bytes(jpeg[sof + 2:sof + 4], "big"):]
    last = cv2.imencode(".jpg", shade(120, (160, 120)))[1].tobytes()
    path = tmp_path / "table.mjpeg"
    path.write_bytes(no_size * 299 + last)
    marker = tmp_path / "camera-folder.txt"
    memory = ShownMemory(path, marker)
    memory.show()
    if counted:
        memory.count(300)
    source = VideoSource(path, ShownMemory(path, marker), paced=False, clock=FakeClock())
    source.open()
    frame = source.read()
    source.close()
    assert (frame.number, round(int(frame.image[60, 80, 0]), -1)) == (299, 120)


def test_a_raw_mjpeg_shown_before_whose_last_frame_cannot_be_decoded_shows_the_one_before(
        tmp_path: Path) -> None:
    # its last frame has no size (a broken SOF) and none was decoded before it: the count
    # kept was lowered by one, and every open read it from its first frame, one that cannot
    # be decoded either: that ended it, a video of one frame with none to show
    jpeg = cv2.imencode(".jpg", shade(40, (160, 120)))[1].tobytes()
    sof = jpeg.index(b"\xff\xc0")
    no_size = jpeg[:sof] + jpeg[sof + 2 + int.from_bytes(jpeg[sof + 2:sof + 4], "big"):]
    before = cv2.imencode(".jpg", shade(120, (160, 120)))[1].tobytes()
    path = tmp_path / "table.mjpeg"
    path.write_bytes(no_size * 59 + before + no_size)
    marker = tmp_path / "camera-folder.txt"
    memory = ShownMemory(path, marker)
    memory.show()
    memory.count(61)
    for _ in range(2):
        memory = ShownMemory(path, marker)
        source = VideoSource(path, memory, paced=False, clock=FakeClock())
        source.open()
        frame = source.read()
        source.close()
        assert (frame.number, round(int(frame.image[60, 80, 0]), -1)) == (60, 120)
        assert memory.frames == 61


def exif_jpeg(value: int) -> bytes:
    """A JPEG of shade ``value`` holding an EXIF thumbnail (a JPEG of its own, of another
    shade) in its APP1, as a camera's photos do."""
    picture = cv2.imencode(".jpg", shade(value, (160, 120)))[1].tobytes()
    thumbnail = cv2.imencode(".jpg", shade(255 - value, (16, 12)))[1].tobytes()
    exif = b"Exif\x00\x00II*\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00" + thumbnail
    return picture[:2] + b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif + picture[2:]


def test_a_raw_mjpeg_of_photos_with_thumbnails_plays_each_photo_once(tmp_path: Path) -> None:
    # its frames are found by their JPEG markers: a thumbnail's own are inside its photo's
    # APP1, and bytes between two photos (a stream's part headers) are no frames; nor is a
    # last photo cut short, in its headers or in its picture (OpenCV played the latter, what
    # it lacks filled from the frame before)
    path = tmp_path / "table.mjpeg"
    cut = exif_jpeg(200)
    path.write_bytes(exif_jpeg(40) * 5 + b"\r\n--frame\r\n" + exif_jpeg(120) * 5
                     + cut[:300] + cut[:len(cut) * 3 // 4])
    marker = tmp_path / "camera-folder.txt"
    assert played(str(path), ShownMemory(path, marker)) == [40, 120]
    again = ShownMemory(path, marker)
    assert again.frames == 10
    source = open_source(str(path), paced=False, clock=FakeClock(), memory=again)
    source.open()
    frame = source.read()
    source.close()
    assert (frame.number, round(int(frame.image[60, 80, 0]), -1)) == (9, 120)


def progressive_jpeg(value: int) -> bytes:
    """A progressive JPEG of shade ``value`` (its picture in scans, with tables between them)
    holding, in an APP2 before its second scan, a JPEG of its own of another shade."""
    picture = cv2.imencode(".jpg", shade(value, (160, 120)),
                           [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1].tobytes()
    inner = cv2.imencode(".jpg", shade(255 - value, (160, 120)))[1].tobytes()
    second = picture.index(b"\xff\xda", picture.index(b"\xff\xda") + 2)
    app2 = b"\xff\xe2" + (len(inner) + 2).to_bytes(2, "big") + inner
    return picture[:second] + app2 + picture[second:]


def test_a_raw_mjpeg_of_progressive_photos_with_a_jpeg_between_scans_plays_each_photo(
        tmp_path: Path) -> None:
    # after its first scan a frame was read for its end alone: the JPEG inside a segment
    # between two scans was taken for the next frame's start (the frame cut short), and
    # played in its place (5 of 40, then 5 of 120 played 215, 135)
    path = tmp_path / "table.mjpeg"
    path.write_bytes(progressive_jpeg(40) * 5 + progressive_jpeg(120) * 5)
    assert played(str(path)) == [40, 120]
    assert played(str(path), ShownMemory(path, tmp_path / "shown.txt")) == [40, 120]
    assert ShownMemory(path, tmp_path / "shown.txt").frames == 10


def test_a_raw_mjpeg_frame_cut_short_in_its_middle_is_passed_over(tmp_path: Path) -> None:
    # the cut frame's scan ran on to the next frame's end, which it swallowed: 40, a cut 80
    # (three quarters of it), 120, 160 played 40, 80 (its bottom grey), 160
    cut = cv2.imencode(".jpg", shade(80, (160, 120)))[1].tobytes()
    path = tmp_path / "table.mjpeg"
    path.write_bytes(b"".join(cv2.imencode(".jpg", shade(value, (160, 120)))[1].tobytes()
                              if value != 80 else cut[:len(cut) * 3 // 4]
                              for value in (40, 80, 120, 160)))
    assert played(str(path)) == [40, 120, 160]


def test_a_raw_mjpeg_a_camera_appended_to_after_a_power_cut_opens_on_its_whole_frame(
        tmp_path: Path) -> None:
    # 50 frames, three quarters of one (the power cut), then a whole one: shown before, it
    # opened on the cut frame and never showed the whole one
    frame = cv2.imencode(".jpg", shade(40, (160, 120)))[1].tobytes()
    whole = cv2.imencode(".jpg", shade(200, (160, 120)))[1].tobytes()
    path = tmp_path / "table.mjpeg"
    path.write_bytes(frame * 50 + frame[:len(frame) * 3 // 4] + whole)
    marker = tmp_path / "camera-folder.txt"
    assert played(str(path), ShownMemory(path, marker)) == [40, 200]
    again = ShownMemory(path, marker)
    assert again.frames == 51
    assert played(str(path), again) == [200]


def turned_jpeg(value: int) -> bytes:
    """A 160×120 JPEG of shade ``value`` whose Exif orientation tag (6) tells a viewer to turn
    it a quarter turn clockwise, as a phone held upright writes it."""
    jpeg = cv2.imencode(".jpg", shade(value, (160, 120)))[1].tobytes()
    tiff = (b"II*\x00" + (8).to_bytes(4, "little") + (1).to_bytes(2, "little")
            + b"\x12\x01\x03\x00\x01\x00\x00\x00\x06\x00\x00\x00" + bytes(4))
    exif = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif + jpeg[2:]


def test_a_raw_mjpeg_frame_is_played_as_stored_whatever_its_orientation_tag(
        tmp_path: Path) -> None:
    # its frames were turned as a photo's (160×120 played as 120×160), which OpenCV's video
    # reading never did; a picture in a folder is still turned as a phone shows it
    path = tmp_path / "table.mjpeg"
    path.write_bytes(turned_jpeg(40) * 3)
    source = open_source(str(path), paced=False, clock=FakeClock())
    source.open()
    assert source.read().image.shape == (120, 160, 3)
    source.close()
    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / "000.jpg").write_bytes(turned_jpeg(40))
    folder = FolderSource(frames, clock=FakeClock())
    folder.open()
    assert folder.read().image.shape == (160, 120, 3)
    folder.close()


def test_a_raw_mjpeg_plays_on_past_frames_that_cannot_be_decoded(tmp_path: Path) -> None:
    # it ended at the first such frame: one whose segments are no segments is passed over,
    # one without its size (no SOF) shows the frame before it
    jpeg = cv2.imencode(".jpg", shade(40, (160, 120)))[1].tobytes()
    sof = jpeg.index(b"\xff\xc0")
    no_size = jpeg[:sof] + jpeg[sof + 2 + int.from_bytes(jpeg[sof + 2:sof + 4], "big"):]
    bad_length = jpeg[:sof] + b"\xff\xc0\x00\x01" + jpeg[sof + 4:]
    after = cv2.imencode(".jpg", shade(120, (160, 120)))[1].tobytes()
    path = tmp_path / "table.mjpeg"
    path.write_bytes(jpeg + no_size + bad_length + after)
    assert played(str(path)) == [40, 120]


def bytes_read() -> int:
    """The bytes this process has read so far (Linux's count, /proc/self/io's rchar)."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/io").read_text().splitlines())
    return int(fields["rchar"])


@pytest.mark.skipif(not Path("/proc/self/io").exists(),
                    reason="/proc/self/io (Linux's count of the bytes read) is absent here")
def test_a_raw_mjpeg_read_on_past_frames_that_cannot_be_decoded_reads_each_once(
        tmp_path: Path) -> None:
    # with no frame decoded yet, each read walked back over every frame before it, decoding
    # each again (1000 such frames read one after another: 500,501 decodes, 3.2 to 3.6 s)
    jpeg = cv2.imencode(".jpg", shade(40, (160, 120)))[1].tobytes()
    sof = jpeg.index(b"\xff\xc0")
    no_size = jpeg[:sof] + jpeg[sof + 2 + int.from_bytes(jpeg[sof + 2:sof + 4], "big"):]
    after = cv2.imencode(".jpg", shade(120, (160, 120)))[1].tobytes()
    path = tmp_path / "table.mjpeg"
    path.write_bytes(no_size * 400 + after)
    stream = JpegStream(path)
    before = bytes_read()
    reads = [stream.read() for _ in range(401)]
    read = bytes_read() - before
    stream.release()
    assert [ok for ok, _ in reads] == [False] * 400 + [True]
    last = reads[-1][1]
    assert last is not None and round(int(last[60, 80, 0]), -1) == 120
    assert read < 3 * path.stat().st_size, f"{read} bytes read: each frame found and decoded once"


@pytest.mark.parametrize("side", [40000, 7500])
def test_a_raw_mjpeg_frame_too_large_to_read_is_played_past(tmp_path: Path, side: int) -> None:
    # a frame that says it is 40000×40000 (a corrupt SOF) raised OpenCV's assertion out of
    # the source's read, which ended the live loop's camera thread ("camera stalled" after
    # 5 s); one of 7500×7500 (56 MP) was decoded at that size, grey where its data ends
    # (30000×30000: 2.7 GB); past MAX_PIXELS it is not decoded, and the frame before it is
    # shown, as for any frame that cannot be
    jpeg = cv2.imencode(".jpg", shade(40, (160, 120)))[1].tobytes()
    sof = jpeg.index(b"\xff\xc0")
    huge = jpeg[:sof + 5] + side.to_bytes(2, "big") * 2 + jpeg[sof + 9:]
    after = cv2.imencode(".jpg", shade(120, (160, 120)))[1].tobytes()
    path = tmp_path / "table.mjpeg"
    path.write_bytes(jpeg + huge + after)
    assert played(str(path)) == [40, 120]


def test_a_raw_mjpeg_that_cannot_be_read_says_so_in_a_players_words(tmp_path: Path) -> None:
    # a read that fails (a USB stick pulled: EIO; here a folder opened as the file: EISDIR)
    # went out of the source's read as an OSError, which ended the live loop's camera thread
    stream = JpegStream(tmp_path)
    assert stream.isOpened()
    with pytest.raises(CameraError, match=f"the video {tmp_path} cannot be read: is the USB"):
        stream.read()
    stream.release()


def test_a_raw_mjpeg_s_frames_found_are_kept_in_a_few_bytes_each(tmp_path: Path) -> None:
    # each frame found was kept as a tuple of two numbers (some 120 bytes): a day's recording
    # of 2 million frames held some 270 MB (the table's bar is 250 MB)
    path = tmp_path / "table.mjpeg"
    path.write_bytes(b"\xff\xd8\xff\xd9" * 100_000)  # (frames of no picture, as small as any)
    tracemalloc.start()
    try:
        stream = JpegStream(path)
        assert stream.get(cv2.CAP_PROP_FRAME_COUNT) == 100_000
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    stream.release()
    assert held / 100_000 < 40


def test_a_video_cut_short_and_shown_before_starts_from_its_last_frame(tmp_path: Path) -> None:
    # a recording cut short by a power cut tells more frames than it holds: opened again once
    # shown, it found no frame where its count ended and said it had none, at every try
    whole = write_video(tmp_path / "whole.avi", "MJPG", [i * 10 for i in range(1, 21)])
    cut = tmp_path / "table.avi"
    cut.write_bytes(whole.read_bytes()[:whole.stat().st_size * 6 // 10])
    from_start = played(str(cut))
    assert 1 < len(from_start) < 20  # (cut short)
    memory = ShownMemory(cut, tmp_path / "shown.txt")
    memory.show()
    assert played(str(cut), memory) == from_start[-1:]
    assert played(str(cut), memory) == from_start[-1:]  # and again


def test_an_empty_or_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="holds no pictures"):
        FolderSource(tmp_path).open()
    with pytest.raises(CameraError, match="gone is not there any more: is the USB stick"):
        FolderSource(tmp_path / "gone").open()


@pytest.fixture
def video(tmp_path: Path) -> Path:
    """A video of six frames: two each of 40, 120 and 200."""
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 48))
    for value in (40, 120, 200):
        for _ in range(2):
            writer.write(shade(value))
    writer.release()
    return path


def test_a_video_file_plays_like_a_folder(video: Path) -> None:
    source = VideoSource(video, fps=10, paced=False, clock=FakeClock())
    source.open()
    values = [int(source.read().image[0, 0, 0]) for _ in range(8)]
    source.close()
    assert [round(v, -1) for v in values] == [40, 40, 120, 120, 200, 200, 200, 200]


def test_a_video_shown_then_opened_again_or_anew_starts_from_its_last_frame(
        video: Path, tmp_path: Path) -> None:
    # played again from its start, its moves came again into a game that went on
    marker = tmp_path / "camera-folder.txt"
    memory = ShownMemory(video, marker)
    source = VideoSource(video, memory, fps=10, paced=False, clock=FakeClock())
    source.open()
    assert not marker.exists()
    assert [round(int(source.read().image[0, 0, 0]), -1) for _ in range(3)] == [40, 40, 120]
    assert shown_in(marker) == [str(video.resolve())]
    source.close()  # failed: the live loop opens it again
    source.open()
    assert [source.read().number for _ in range(2)] == [5, 5]
    fresh = VideoSource(video, memory, fps=10, paced=False, clock=FakeClock())  # a stall
    fresh.open()
    assert fresh.read().number == 5
    restarted = VideoSource(video, ShownMemory(video, marker), fps=10, paced=False,
                            clock=FakeClock())
    restarted.open()
    assert round(int(restarted.read().image[0, 0, 0]), -1) == 200


def test_sources_are_named_by_what_the_host_types(folder: Path, tmp_path: Path) -> None:
    assert parse_source(str(folder)) == ("folder", str(folder))
    assert parse_source("table.mp4") == ("video", "table.mp4")
    assert isinstance(open_source(str(folder)), FolderSource)
    (tmp_path / "notes.txt").write_text("a note")
    with pytest.raises(CameraError, match="is no camera"):
        parse_source(str(tmp_path / "notes.txt"))
    with pytest.raises(CameraError, match=r"there is no folder or file “.*nothing-here”: "
                                          r"check its name"):
        parse_source(str(tmp_path / "nothing-here"))


def test_an_unplugged_camera_says_so() -> None:
    camera = open_source("/dev/video-dicetable-test")
    with pytest.raises(CameraError, match="is not there: is the camera plugged in"):
        camera.open()


def test_a_camera_number_that_does_not_open_says_so_in_words_only(
        capfd: pytest.CaptureFixture[str]) -> None:
    camera = open_source("63")  # /dev/video63: no such camera here
    with pytest.raises(CameraError, match="the camera 63 cannot be opened: is it plugged in"):
        camera.open()
    assert capfd.readouterr().err == ""  # no OpenCV warnings on the host's terminal


class StandInPicamera2:
    """The part of picamera2's Picamera2 the source uses, recording what it is told; its
    small stream's rows padded by ``pad`` bytes."""

    def __init__(self, pad: int = 0) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.pad = pad

    def create_video_configuration(self, **streams: Any) -> dict[str, Any]:
        return streams

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start", None))

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 8000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("set_controls", controls))

    def capture_request(self) -> StandInRequest:
        return StandInRequest(self.pad)

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def close(self) -> None:
        self.calls.append(("close", None))


class StandInRequest:
    """One capture of a table in colour: the main stream (BGR) and the small one as picamera2
    gives YUV420 (full-range, its sYCC): 180 rows of Y, then U and V, each 90 rows of 160, two
    to a row of the array, rows ``pad`` bytes longer than the picture."""

    def __init__(self, pad: int = 0) -> None:
        self.pad = pad
        self.main = np.full((720, 1280, 3), (150, 160, 170), np.uint8)
        self.main[200:320, 300:420] = (60, 90, 230)  # a red die
        self.main[400:520, 800:920] = (200, 120, 40)  # a blue card

    def make_array(self, name: str) -> np.ndarray:
        if name == "main":
            return self.main
        small = cv2.resize(self.main, (320, 180), interpolation=cv2.INTER_AREA)
        y, v, u = cv2.split(cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb))
        lores = np.zeros((270, 320 + self.pad), np.uint8)
        lores[:180, :320] = y
        chroma = lores.reshape(540, -1)
        chroma[360:450, :160] = cv2.resize(u, (160, 90), interpolation=cv2.INTER_AREA)
        chroma[450:540, :160] = cv2.resize(v, (160, 90), interpolation=cv2.INTER_AREA)
        return lores

    def release(self) -> None:
        pass


def test_the_pi_camera_gets_two_streams_and_fixed_exposure_after_warm_up() -> None:
    camera = StandInPicamera2()
    clock = FakeClock()
    source = PicameraSource(factory=lambda: camera, clock=clock)
    source.open()
    frame = source.read()
    source.close()
    config = camera.calls[0][1]
    assert config["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert config["lores"] == {"size": (320, 180), "format": "YUV420"}
    assert clock.slept and clock.slept[0] >= 1.0  # warm-up before the exposure is fixed
    assert camera.calls[2] == ("set_controls", {"AeEnable": False, "AwbEnable": False,
                                                "ExposureTime": 8000, "AnalogueGain": 2.5,
                                                "ColourGains": (1.8, 1.4)})
    assert frame.image.shape == (720, 1280, 3)
    assert frame.small is not None and frame.small.shape == (90, 160, 3)
    assert camera.calls[-2:] == [("stop", None), ("close", None)]


@pytest.mark.parametrize("pad", [0, 64])
def test_the_pi_cameras_small_stream_watches_motion_in_colour_as_the_frame_would(
        pad: int) -> None:
    # the small stream is YUV420: its colour, not only its Y plane, is what motion is
    # watched on (a red die as light as the grey it lies on differs only in colour)
    source = PicameraSource(factory=lambda: StandInPicamera2(pad), clock=FakeClock())
    source.open()
    frame = source.read()
    source.close()
    from_stream = motion_picture(frame.image, frame.small).astype(int)
    assert from_stream.shape == (90, 160, 3)
    assert np.abs(from_stream - motion_picture(frame.image).astype(int)).max() <= 2


def test_without_picamera2_the_host_is_told_how_to_install_it() -> None:
    with pytest.raises(CameraError, match="python3-picamera2"):
        PicameraSource().open()


def test_a_picamera2_that_cannot_be_loaded_is_said_without_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text(  # Bookworm's, built for numpy 1, beside numpy 2
        'raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    with pytest.raises(CameraError, match=r"cannot be loaded \(numpy.dtype size changed.*"
                                          r"Raspberry Pi OS 13 or later"):
        PicameraSource().open()


@pytest.mark.parametrize("loop", [False, True])
def test_a_look_at_a_recording_played_from_its_start_or_in_a_loop_shows_in_the_next_frame(
        tmp_path: Path, loop: bool) -> None:
    # serve --camera DIR on recorded pictures (not shown before), or with --loop: the table's
    # time is the recording's as it plays, no camera saves into it; a stop's look waited
    # until the last picture played (a loop, its whole wait), and the stop was refused
    frames = tmp_path / "frames"
    frames.mkdir()
    for number in range(80):
        cv2.imwrite(str(frames / f"{number:03d}.png"), shade(number))
    source = FolderSource(frames, fps=10, loop=loop, clock=FakeClock())
    source.open()
    assert [source.read().number for _ in range(5)] == [0, 1, 2, 3, 4]
    showing = source.look_now()
    assert source.read().number == 5 >= showing


@pytest.mark.parametrize("recorded", [30.0, 5.0])
def test_a_video_plays_at_its_own_frame_rate_unless_one_is_given(tmp_path: Path,
                                                                 recorded: float) -> None:
    # a 30 fps video played at 15 by default ran at half speed, a 5 fps one three times fast
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), recorded, (64, 48))
    for value in range(10, 110, 10):
        writer.write(shade(value))
    writer.release()
    clock = FakeClock()
    own = open_source(str(path), clock=clock)
    own.open()
    frames = [own.read() for _ in range(10)]
    own.close()
    assert [f.number for f in frames] == list(range(10))
    assert frames[-1].at - frames[0].at == pytest.approx(9 / recorded)
    assert clock.t - 100.0 == pytest.approx(9 / recorded)  # in real time
    given = open_source(str(path), fps=10, clock=FakeClock())  # serve --fps 10
    given.open()
    times = [given.read().at for _ in range(3)]
    given.close()
    assert times[2] - times[0] == pytest.approx(0.2)


def test_a_folder_plays_15_pictures_a_second_unless_told(folder: Path) -> None:
    source = open_source(str(folder), clock=FakeClock())
    source.open()
    frames = [source.read() for _ in range(3)]
    assert frames[2].at - frames[0].at == pytest.approx(2 / 15)


def later(pictures: list[Path], seconds: float = 60.0) -> None:
    """Date ``pictures`` ``seconds`` later (recorded later; a file system's clock is coarse)."""
    for picture in pictures:
        stat = picture.stat()
        os.utime(picture, ns=(stat.st_atime_ns, stat.st_mtime_ns + int(seconds * 1e9)))


def test_a_new_recording_in_a_folder_shown_before_plays_from_its_start(
        folder: Path, tmp_path: Path) -> None:
    # the same folder's pictures recorded anew, named as before: it started from its newest
    # picture and the whole game was lost
    marker = tmp_path / "camera-folder.txt"
    shown = FolderSource(folder, ShownMemory(folder, marker), fps=10, paced=False,
                         clock=FakeClock())
    shown.open()
    assert shown.read().number == 0
    for picture in pictures_in(folder):
        picture.unlink()
    for number, value in enumerate((60, 70, 80, 90)):
        cv2.imwrite(str(folder / f"{number:03d}.png"), shade(value))
    later(pictures_in(folder))
    again = FolderSource(folder, ShownMemory(folder, marker), fps=10, paced=False,
                         clock=FakeClock())
    again.open()  # the table restarted
    assert [int(again.read().image[0, 0, 0]) for _ in range(4)] == [60, 70, 80, 90]


def test_a_cameras_folder_that_let_its_first_pictures_go_is_the_same_recording(
        folder: Path, tmp_path: Path) -> None:
    # a camera saving on and deleting its old pictures: the table restarted plays on from the
    # newest, the pictures before it were shown
    marker = tmp_path / "camera-folder.txt"
    shown = FolderSource(folder, ShownMemory(folder, marker), fps=10, paced=False,
                         clock=FakeClock())
    shown.open()
    assert shown.read().number == 0
    (folder / "000.png").unlink()
    cv2.imwrite(str(folder / "003.png"), shade(40))
    again = FolderSource(folder, ShownMemory(folder, marker), fps=10, paced=False,
                         clock=FakeClock())
    again.open()
    assert int(again.read().image[0, 0, 0]) == 40


def test_a_video_saved_over_one_shown_before_plays_from_its_start(
        video: Path, tmp_path: Path) -> None:
    marker = tmp_path / "camera-folder.txt"
    shown = VideoSource(video, ShownMemory(video, marker), fps=10, paced=False,
                        clock=FakeClock())
    shown.open()
    assert shown.read().number == 0
    shown.close()
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 48))
    for value in (80, 160, 240):  # the next game, recorded over it
        writer.write(shade(value))
    writer.release()
    later([video])
    again = VideoSource(video, ShownMemory(video, marker), fps=10, paced=False,
                        clock=FakeClock())
    again.open()
    assert [round(int(again.read().image[0, 0, 0]), -1) for _ in range(3)] == [80, 160, 240]
    unchanged = VideoSource(video, ShownMemory(video, marker), fps=10, paced=False,
                            clock=FakeClock())
    unchanged.open()  # the same recording, shown: from its last frame
    assert unchanged.read().number == 2


# A fresh Python reads the folder's one picture as the live loop does, and prints how far its
# peak resident memory rose as it read it (VmHWM, its own: ru_maxrss would count the part of
# the parent that the fork copied), the bytes OpenCV's decoders hold included, which
# tracemalloc does not see; the frame read is saved beside the picture.
_READ_PEAK_CHILD = """
import sys
from pathlib import Path
import numpy as np
from device.camera import FolderSource

def peak() -> int:
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0]) * 1024

folder = Path(sys.argv[1])
source = FolderSource(folder, fps=10, paced=False)
source.open()
before = peak()
image = source.read().image
print(peak() - before)
np.save(folder.parent / "frame.npy", image)
"""
MB = 1_000_000


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="VmHWM is Linux's")
@pytest.mark.parametrize(("suffix", "most"), [(".jpg", 50 * MB), (".png", 200 * MB)])
def test_a_phones_48_mp_photo_is_read_at_a_cameras_size_as_it_looks(
        tmp_path: Path, suffix: str, most: int) -> None:
    # a phone saving into the camera's folder at 48 MP: each frame was decoded whole (144 MB),
    # and the live loop held over 700 MB (the table's bar: 250 MB; a Pi has 1 to 4 GB); a
    # JPEG is shrunk by its decoder (some 20 MB at the peak), a PNG is decoded whole once,
    # then shrunk (some 150 MB; decoded whole then shrunk by cv2.resize, 280 MB)
    photo = np.zeros((6000, 8000, 3), np.uint8)
    photo[:, :, 0] = np.arange(8000, dtype=np.uint32)[None, :] * 255 // 8000
    photo[:, :, 1] = np.arange(6000, dtype=np.uint32)[:, None] * 255 // 6000
    folder = tmp_path / "camera"
    folder.mkdir()
    assert cv2.imwrite(str(folder / f"IMG_0001{suffix}"), photo)
    shown = cv2.resize(photo, (2000, 1500), interpolation=cv2.INTER_AREA)
    del photo
    done = subprocess.run([sys.executable, "-c", _READ_PEAK_CHILD, str(folder)],
                          capture_output=True, text=True, check=True,
                          cwd=Path(__file__).parents[2])
    image = np.load(tmp_path / "frame.npy")
    assert image.shape == (1500, 2000, 3)
    assert np.abs(image.astype(int) - shown).mean() < 2
    assert int(done.stdout) < most


def run_length_bmp(width: int, height: int, header: int = 40, planes: int = 1) -> bytes:
    """A BMP of ``width``×``height`` black pixels in 1 KB: 8 bits a pixel, run-length coded,
    its data nothing but the code that ends it (the rest of the picture left black); its info
    header ``header`` bytes long, its planes ``planes`` (OpenCV reads neither)."""
    palette = bytes(4 * 256)
    data = b"\x00\x01"  # the end of the bitmap
    start = 14 + header + len(palette)
    info = struct.pack("<IiiHHIIiiII", header, width, height, planes, 8, 1, len(data), 2835,
                       2835, 256, 0).ljust(header, b"\x00")
    return b"BM" + struct.pack("<IHHI", start + len(data), 0, 0, start) + info + palette + data


def test_a_file_starting_with_bm_that_is_no_bmp_cannot_be_read_not_too_large(
        tmp_path: Path) -> None:
    # its bytes after "BM" were taken for a BMP's header: 943142453×1010514489 pixels, told
    # "too large to read"
    (tmp_path / "f0.bmp").write_bytes(b"BM" + bytes(range(37, 237)))
    source = FolderSource(tmp_path, fps=10, paced=False, clock=FakeClock())
    source.open()
    with pytest.raises(UnreadableFrame, match=r"f0\.bmp cannot be read") as raised:
        source.read()
    assert "too large" not in str(raised.value)


@pytest.mark.parametrize(("suffix", "bmp_header"), [(".png", None), (".tif", None),
                                                    (".bmp", (40, 1)), (".bmp", (41, 1)),
                                                    (".bmp", (40, 0))])
def test_a_picture_too_large_to_read_is_told_so_and_the_next_is_played(
        tmp_path: Path, suffix: str, bmp_header: tuple[int, int] | None) -> None:
    # a 0.2 MB PNG of 56 megapixels decodes to 168 MB (one of 20000×20000 to 1.2 GB): it was
    # decoded whole as a frame, past what a Pi holds; so were a 1.8 MB TIFF and a 1 KB BMP
    # (their sizes were not read: 360 MB at the peak for the BMP), and a BMP whose header is
    # 41 bytes or its planes 0, which OpenCV decodes as any other
    picture = tmp_path / f"f0{suffix}"
    if bmp_header is not None:
        picture.write_bytes(run_length_bmp(8000, 7000, *bmp_header))
    else:
        assert cv2.imwrite(str(picture), np.zeros((7000, 8000, 3), np.uint8))
    assert cv2.imwrite(str(tmp_path / "f1.png"), shade(90))
    source = FolderSource(tmp_path, fps=10, paced=False, clock=FakeClock())
    source.open()
    with pytest.raises(UnreadableFrame, match=rf"the picture f0\{suffix} is too large to read "
                                              r"\(8000×7000 pixels; at most 50 megapixels\)"):
        source.read()
    assert int(source.read().image[0, 0, 0]) == 90


def test_a_picture_too_large_is_told_by_the_camera_in_the_words_of_every_command(
        tmp_path: Path) -> None:
    # the camera wrote its own words for a picture too large beside vision's (read_picture's,
    # which calibrate, eval and teach say): one wording now, the camera's after the name
    picture = tmp_path / "f0.bmp"
    picture.write_bytes(run_length_bmp(9000, 6000, 40, 1))
    with pytest.raises(PictureError) as read:
        read_picture(picture)
    source = FolderSource(tmp_path, fps=10, paced=False, clock=FakeClock())
    source.open()
    with pytest.raises(UnreadableFrame) as told:
        source.read()
    assert str(told.value) == f"the picture f0.bmp {read.value}"
    assert told.value.params == {"name": "f0.bmp", "width": 9000, "height": 6000, "most": 50}
