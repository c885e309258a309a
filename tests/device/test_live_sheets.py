"""Every game from the camera, end to end: films of rendered frames of each game's printed
sheet, played through the real loop, the sheet observer (calibrated from the first frame) and
the session into the real journal, which gets exactly the game's record from the camera."""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from device import calibration_store
from device.button_actions import ButtonActions
from device.button_config import ButtonConfig
from device.buttons import TableButtons
from device.camera import open_source, pictures_in
from device.demo_film import write_film as write_demo_film
from device.demo_plan import Plan, PlannedDie, PlannedRest
from device.journal import Journal
from device.live import CameraStatus, LiveLoop, Seen
from device.motion import SETTLE_S
from device.reach import REACH_MOST_S
from device.session import STOP_WAITS_S, TableSession
from dicetable.cli import main
from dicetable.live_table import camera_for
from tests.device.cheap_camera import retake
from tests.device.watching import watch
from vision.calibrate import Calibration, calibrate
from vision.render import render_scene
from vision.sheet_observer import SheetObserver
from vision.table_film import HAND_FRAMES, SheetRest, write_film
from vision.table_scene import PlacedDie, render_table

TO_ROLL = [(60.0, 140.0), (100.0, 140.0), (140.0, 140.0), (180.0, 140.0), (220.0, 140.0),
           (60.0, 182.0), (100.0, 182.0), (140.0, 182.0), (180.0, 182.0), (220.0, 182.0)]
AGAIN = [(75.0, 160.0), (125.0, 165.0), (175.0, 158.0), (225.0, 168.0), (95.0, 190.0)]
TOP = [(80.0, 28.0), (130.0, 28.0), (180.0, 28.0)]
HUMANS = [(40.0, 78.0), (75.0, 78.0), (110.0, 78.0), (40.0, 100.0), (75.0, 100.0)]
DALEKS = [(185.0, 78.0), (220.0, 78.0), (255.0, 78.0), (185.0, 100.0), (220.0, 100.0),
          (255.0, 100.0)]
T = TypeVar("T")
MOVED = {"key": "camera.moved", "params": {}}
DALEK = {"game": "dalek", "players": ["Jenna", "Peter"]}
DICY = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
JENNA = ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]
STOP_PIN = 17
DICE_AREA = [(60.0, 105.0), (95.0, 105.0), (130.0, 105.0), (165.0, 105.0), (200.0, 105.0),
             (235.0, 105.0)]


def dice(faces: list[str], spots: list[tuple[float, float]], first: int = 0
         ) -> tuple[PlacedDie, ...]:
    return tuple(PlacedDie(f, x, y, 0.35 * (first + i), first + i)
                 for i, (f, (x, y)) in enumerate(zip(faces, spots, strict=False)))


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def table(state: Path, header: dict[str, Any], *,
          stop_waits_s: float = STOP_WAITS_S) -> Iterator[TableSession]:
    """The table as serve makes it: its camera's frames recorded in the state folder."""
    session = TableSession(Journal(state / "table.db"), recording=state / "recorded",
                           stop_waits_s=stop_waits_s)
    session.start()
    session.watch_camera()
    session.new_game(header, base_version=session.snapshot().version)
    yield session
    session.stop()


def play(folder: Path, session: TableSession, state: Path) -> SheetObserver:
    """Every frame of the film through the loop, the sheet calibrated from its first frame
    and kept in the state folder."""
    observer = SheetObserver(None, threads=2,
                             on_calibrated=lambda found: calibration_store.save(state, found))
    session.on_recalibrate = observer.recalibrate
    loop = LiveLoop(lambda: open_source(str(folder), paced=False), observer, session)
    loop.start()
    assert loop.wait(timeout=300)
    return observer


def journal(session: TableSession) -> list[tuple[str, dict[str, Any]]]:
    with sqlite3.connect(session.journal.path) as db:
        rows = db.execute("SELECT source, line FROM lines ORDER BY seq").fetchall()
    return [(source, _sorted(json.loads(line))) for source, line in rows]


def _sorted(line: dict[str, Any]) -> dict[str, Any]:
    for kind in ("roll", "keep"):
        if kind in line:
            return {kind: sorted(line[kind])}
    if "reroll" in line:
        return {"reroll": {**line["reroll"], "dice": sorted(line["reroll"]["dice"])}}
    return line


def test_dalek_dice_rolled_kept_and_stopped(tmp_path: Path, state: Path) -> None:
    """The rulebook's Jenna and Peter: rolls into "to roll", keeps into the kept areas, DOC
    and EXT to the top, and Peter's stop by phone after his keep."""
    jenna = dice(["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"], TO_ROLL)
    left = (jenna[3], jenna[4], jenna[8])  # H2 H2 D2 go back to be rolled
    kept = (dice(["DOC"], TOP, 20) + dice(["H4"] * 3, HUMANS, 21)
            + dice(["D3"] * 3, DALEKS, 24))
    again = dice(["D3", "D2", "EXT"], AGAIN, 30)
    last = kept + dice(["EXT"], TOP[1:], 40) + dice(["D3", "D2"], DALEKS[3:], 41)
    peter = dice(["H4", "H2", "H2", "D3", "D3", "D3", "D3", "D2", "DOC", "DOC"], TO_ROLL, 50)
    peter_kept = (dice(["DOC"], TOP, 60) + dice(["H4", "H2"], HUMANS, 61)
                  + dice(["D3", "D3"], DALEKS, 63) + (peter[2], peter[5], peter[6], peter[7],
                                                       peter[9]))
    folder = tmp_path / "film"
    write_film(folder, [SheetRest(), SheetRest(jenna), SheetRest(kept + left),
                        SheetRest(kept + again), SheetRest(last), SheetRest(peter),
                        SheetRest(peter_kept)], game="dalek", seed=21)
    for session in table(state, {"game": "dalek", "players": ["Jenna", "Peter"]}):
        play(folder, session, state)
        session.act({"stop": {}}, base_version=session.snapshot().version, source="phone")
        assert journal(session) == [
            ("camera", {"roll": sorted(d.face for d in jenna)}),
            ("camera", {"keep": ["D3", "D3", "D3", "H4", "H4", "H4"]}),
            ("camera", {"roll": ["D2", "D3", "EXT"]}),
            ("camera", {"keep": ["D2", "D3"]}),
            ("camera", {"roll": sorted(d.face for d in peter)}),
            ("camera", {"keep": ["D3", "D3", "H2", "H4"]}),
            ("phone", {"stop": {}})]
        assert session.snapshot().view["scores"] == {"Jenna": 17, "Peter": 6}  # type: ignore
        assert calibration_store.load(state) is not None


@pytest.fixture(scope="module")
def seventeen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A film of three cards laid one by one at the row's end: the plays SEVENTEEN_PLAYS."""
    rows = [{"row-1": "3"}, {"row-1": "3", "row-2": "back"},
            {"row-1": "3", "row-2": "back", "row-3": "2d"}]
    folder = tmp_path_factory.mktemp("seventeen") / "film"
    write_film(folder, [SheetRest(), *(SheetRest(cards=r) for r in rows)], game="17", seed=5)
    return folder


SEVENTEEN_PLAYS = [("camera", {"play": {"card": "3", "face": "up"}}),
                   ("camera", {"play": {"face": "down"}}),
                   ("camera", {"play": {"card": "2d", "face": "down"}})]


def test_17_cards_laid_at_the_row_end_are_plays(seventeen: Path, state: Path) -> None:
    for session in table(state, {"game": "17", "players": ["Ana", "Ben", "Cleo"]}):
        play(seventeen, session, state)
        assert journal(session) == SEVENTEEN_PLAYS


@pytest.mark.parametrize("camera", [
    {"noise": 12.0, "quality": 35},  # a cheap camera in a dim room
    {"shake": 1}],  # on an arm that trembles: each frame a pixel or none off, either way
    ids=["noisy", "shaken"])
def test_a_cheap_camera_reads_17_as_a_good_one(seventeen: Path, tmp_path: Path, state: Path,
                                               camera: dict[str, Any]) -> None:
    taken = tmp_path / "taken"
    retake(seventeen, taken, seed=0, **camera)
    for session in table(state, {"game": "17", "players": ["Ana", "Ben", "Cleo"]}):
        play(taken, session, state)
        assert journal(session) == SEVENTEEN_PLAYS
        assert (session.snapshot().camera or {}).get("note") is None


def test_a_noisy_camera_bumped_a_few_pixels_is_told(tmp_path: Path, state: Path) -> None:
    still = tmp_path / "still"
    write_film(still, [SheetRest()], game="17", seed=5)
    taken = tmp_path / "taken"
    bumped = retake(still, taken, seed=1, noise=12.0, quality=35)  # read, and it stands …
    retake(still, taken, seed=2, noise=12.0, quality=35, offset=(5, 2), first=bumped)
    for session in table(state, {"game": "17", "players": ["Ana", "Ben"]}):
        play(taken, session, state)
        assert (session.snapshot().camera or {}).get("note") == MOVED  # … until the bump


def test_17_cards_from_a_camera_out_of_focus_are_plays_and_no_more(tmp_path: Path,
                                                                   state: Path) -> None:
    """A camera out of focus (every frame blurred by 1.5 px): the empty places of 17's row
    were read as face-down cards (a blurred place's printed edge taken for a card's)."""
    rows = [{"row-1": "3"}, {"row-1": "3", "row-2": "back"}]
    folder = tmp_path / "film"
    write_film(folder, [SheetRest(), *(SheetRest(cards=r) for r in rows)], game="17", seed=5)
    for path in folder.glob("*.jpg"):
        blurred = cv2.GaussianBlur(cv2.imread(str(path)), (0, 0), 1.5)
        path.unlink()  # the held frames are hard links of one
        cv2.imwrite(str(path), blurred)
    for session in table(state, {"game": "17", "players": ["Ana", "Ben"]}):
        play(folder, session, state)
        assert journal(session) == [("camera", {"play": {"card": "3", "face": "up"}}),
                                    ("camera", {"play": {"face": "down"}})]


def test_dicy_a_card_turned_frozen_names_the_reroll(tmp_path: Path, state: Path) -> None:
    glacial = ["two-dice", "no-six", "odd", "straight", "two-pairs"]
    cards = {f"p{p}-{i + 1}": f"{c}/active" for p in (1, 2) for i, c in enumerate(glacial)}
    rolled = dice(["6", "6", "5", "2", "1", "1"], DICE_AREA)
    rerolled = rolled[:4] + dice(["3", "4"], [(210.0, 99.0), (243.0, 113.0)], 10)
    frozen = {**cards, "p1-3": "odd/frozen"}
    folder = tmp_path / "film"
    write_film(folder, [SheetRest(cards=cards), SheetRest(rolled, cards),
                        SheetRest(rerolled, frozen)], game="dicy", seed=8)
    header = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
    for session in table(state, header):
        play(folder, session, state)
        assert journal(session) == [
            ("camera", {"roll": [1, 1, 2, 5, 6, 6]}),
            ("camera", {"reroll": {"freeze": "odd", "dice": [2, 3, 4, 5, 6, 6]}})]


def test_dicy_a_phone_left_across_the_sheets_edge_holds_one_read_10_s_at_most(
        tmp_path: Path, state: Path) -> None:
    """A phone laid across the sheet's margin as the dice are rolled, and left there: as wide
    as an arm over the table, and as still, it holds that rest's read REACH_MOST_S at most
    (the phones asked once for hands off); then it is part of the table, and
    the reroll is read once still SETTLE_S."""
    glacial = ["two-dice", "no-six", "odd", "straight", "two-pairs"]
    cards = {f"p{p}-{i + 1}": f"{c}/active" for p in (1, 2) for i, c in enumerate(glacial)}
    rolled = dice(["6", "6", "5", "2", "1", "1"], DICE_AREA)
    rerolled = rolled[:4] + dice(["3", "4"], [(210.0, 99.0), (243.0, 113.0)], 10)
    parts, folder = tmp_path / "parts", tmp_path / "film"
    write_film(parts, [SheetRest(cards=cards), SheetRest(rolled, cards),
                       SheetRest(rerolled, {**cards, "p1-3": "odd/frozen"})],
               game="dicy", seed=8, hold=1)
    empty, *shown = (cv2.imread(str(p)) for p in pictures_in(parts))
    lies = calibrate(empty)
    phoned = [phone_on(image, lies) for image in shown]  # from the roll's hand on
    roll, reroll = phoned[HAND_FRAMES], phoned[-1]
    fps = 15  # a folder's
    film_of(folder, [empty] * fps + phoned[:HAND_FRAMES] + [roll] * 11 * fps
            + phoned[HAND_FRAMES + 1:-1] + [reroll] * fps)
    for session in table(state, DICY):
        sink = MotionTold(session)
        loop = LiveLoop(lambda: open_source(str(folder), paced=False),
                        SheetObserver(None, threads=2), sink)
        loop.start()
        assert loop.wait(timeout=300)
        assert journal(session) == [
            ("camera", {"roll": [1, 1, 2, 5, 6, 6]}),
            ("camera", {"reroll": {"freeze": "odd", "dice": [2, 3, 4, 5, 6, 6]}})]
        rolled_from = fps + HAND_FRAMES  # the first frames of the two rests
        rerolled_from = rolled_from + 11 * fps + HAND_FRAMES
        assert len(sink.stood) == 3, sink.stood  # the sheet as found, the roll, the reroll
        assert sink.reaching == 1
        assert REACH_MOST_S <= (sink.stood[1] - rolled_from) / fps <= REACH_MOST_S + 2 / fps
        assert (sink.stood[2] - rerolled_from) / fps <= SETTLE_S + 2 / fps


def phone_on(image: np.ndarray, lies: Calibration) -> np.ndarray:
    """``image`` with a phone lying across the left edge of the sheet that ``lies`` there
    (140 × 70 mm, 110 of them off the sheet), beside its dice and cards."""
    corners = lies.to_frame(np.array([[-110.0, 100.0], [30.0, 100.0], [30.0, 170.0],
                                      [-110.0, 170.0]]))
    out = image.copy()
    cv2.fillConvexPoly(out, np.rint(corners).astype(np.int32), (40, 35, 30), cv2.LINE_AA)
    return out


def film_of(folder: Path, frames: list[np.ndarray]) -> None:
    """``frames`` as a folder of JPEGs; a frame given again is linked to its first."""
    folder.mkdir()
    written: dict[int, Path] = {}
    for number, frame in enumerate(frames):
        path = folder / f"{number:05d}.jpg"
        if id(frame) in written:
            path.hardlink_to(written[id(frame)])
        else:
            cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
            written[id(frame)] = path


def test_dicy_a_lamp_switched_on_mid_game_is_balanced_and_the_paper_measured_once_a_light(
        tmp_path: Path, state: Path) -> None:
    # the paper was measured on every frame read (1.6-2.1 ms of a 15 ms read); now once a
    # light: a warm lamp switched on as the reroll is made is measured at its first read, and
    # the frozen card under it is still read frozen
    glacial = ["two-dice", "no-six", "odd", "straight", "two-pairs"]
    cards = {f"p{p}-{i + 1}": f"{c}/active" for p in (1, 2) for i, c in enumerate(glacial)}
    rolled = dice(["6", "6", "5", "2", "1", "1"], DICE_AREA)
    rerolled = rolled[:4] + dice(["3", "4"], [(210.0, 99.0), (243.0, 113.0)], 10)
    folder = tmp_path / "film"
    write_film(folder, [SheetRest(cards=cards), SheetRest(rolled, cards),
                        SheetRest(rerolled, {**cards, "p1-3": "odd/frozen"})], game="dicy",
               seed=8)
    lit = pictures_in(folder)[-(HAND_FRAMES + 12):]  # the hand making the reroll, then its rest
    for picture in lit:
        frame = cv2.imread(str(picture))
        picture.unlink()  # a hard link of the rest's other frames: each written anew
        warm = np.clip(frame * np.array([0.7, 0.88, 1.1]), 0, 255).astype(np.uint8)
        cv2.imwrite(str(picture), warm, [cv2.IMWRITE_JPEG_QUALITY, 95])
    header = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
    for session in table(state, header):
        observer = SheetObserver(None, threads=2)
        loop = LiveLoop(lambda: open_source(str(folder), paced=False), observer, session)
        loop.start()
        assert loop.wait(timeout=300)
        assert journal(session) == [
            ("camera", {"roll": [1, 1, 2, 5, 6, 6]}),
            ("camera", {"reroll": {"freeze": "odd", "dice": [2, 3, 4, 5, 6, 6]}})]
        assert observer.balance.measured == 2 and loop.reads >= 6  # daylight, then the lamp


def test_a_mirroring_camera_over_a_bare_table_looks_flipped_once_a_rest(tmp_path: Path,
                                                                        state: Path) -> None:
    # every read of a table without a sheet looked at the frame flipped back too (6-7 ms of a
    # 22 ms read); now once a picture, and the sheet laid under a camera that mirrors its
    # picture is still found at the first read of its rest
    folder = tmp_path / "camera"
    folder.mkdir()
    bare = render_scene(7).image
    sheet = np.ascontiguousarray(render_table(2003, game="dalek").image[:, ::-1])
    for number, frame in enumerate([bare] * 10 + [sheet] * 10):
        cv2.imwrite(str(folder / f"{number:05d}.jpg"), frame)
    for session in table(state, DALEK):
        observer = SheetObserver(None, threads=2)
        loop = LiveLoop(lambda: open_source(str(folder), paced=False), observer, session)
        loop.start()
        assert loop.wait(timeout=300)
        assert observer.calibration is not None and observer.calibration.mirrored
        assert observer.looked_flipped == 2 and loop.reads >= 4  # the bare rest, the sheet's


def test_a_bumped_camera_is_told_and_recalibrated_with_one_tap(tmp_path: Path,
                                                               state: Path) -> None:
    still = tmp_path / "still"
    write_film(still, [SheetRest()], game="17", seed=5)
    moved = tmp_path / "moved"
    write_film(moved, [SheetRest()], game="17", seed=6)  # another camera: the sheet moved
    for session in table(state, {"game": "17", "players": ["Ana", "Ben"]}):
        observer = play(still, session, state)
        first = observer.calibration
        loop = LiveLoop(lambda: open_source(str(moved), paced=False), observer, session)
        loop.start()
        assert loop.wait(timeout=120)
        camera = session.snapshot().camera
        assert camera is not None and camera["note"]["key"] == "camera.moved"
        assert camera["seen"]["problem"] == "moved"
        session.recalibrate(base_version=session.snapshot().version)
        loop = LiveLoop(lambda: open_source(str(moved), paced=False), observer, session)
        loop.start()
        assert loop.wait(timeout=120)
        assert observer.calibration != first and observer.problem is None
        assert calibration_store.load(state) == observer.calibration


@pytest.mark.parametrize(("shade", "problem"), [(5, "dark"), (250, "bright")])
def test_a_covered_lens_or_glare_is_told_as_such_and_passes_by_itself(
        tmp_path: Path, state: Path, shade: int, problem: str) -> None:
    still = tmp_path / "still"
    write_film(still, [SheetRest()], game="17", seed=5)
    frame = cv2.imread(str(sorted(still.glob("*.jpg"))[0]))
    blind = tmp_path / "blind"
    blind.mkdir()
    cv2.imwrite(str(blind / "00000.jpg"), np.full_like(frame, shade))  # a hand, the light off
    for session in table(state, {"game": "17", "players": ["Ana", "Ben"]}):
        observer = play(still, session, state)
        first = observer.calibration
        for folder in (blind, still):
            loop = LiveLoop(lambda f=folder: open_source(str(f), paced=False), observer, session)
            loop.start()
            assert loop.wait(timeout=120)
            camera = session.snapshot().camera
            assert camera is not None
            if folder is blind:
                assert camera["note"]["key"] == f"camera.{problem}"  # not "the camera moved"
                assert camera["seen"]["problem"] == problem
        assert observer.problem is None and observer.calibration == first  # seeing again


def test_one_tap_recalibrates_a_still_table_while_the_camera_watches(tmp_path: Path,
                                                                     state: Path) -> None:
    """As serve wires it: the camera holds its picture, nothing on the table moves after the
    tap (the note asks for hands off), and the table is calibrated anew all the same."""
    still, moved = tmp_path / "still", tmp_path / "moved"
    write_film(still, [SheetRest()], game="17", seed=5)
    write_film(moved, [SheetRest()], game="17", seed=6)  # another camera: the sheet moved
    camera_folder = tmp_path / "camera"
    camera_folder.mkdir()
    shutil.copy(sorted(still.glob("*.jpg"))[0], camera_folder / "00000.jpg")
    for session in table(state, {"game": "17", "players": ["Ana", "Ben"]}):
        camera = camera_for(session, source=str(camera_folder), fps=10, state=state)
        assert camera is not None
        camera.start()
        try:
            first = wait_for(lambda: calibration_store.load(state))
            shutil.copy(sorted(moved.glob("*.jpg"))[0], camera_folder / "00001.jpg")
            wait_for(lambda here=session: (here.snapshot().camera or {}).get("note") == MOVED)
            session.recalibrate(base_version=session.snapshot().version)
            wait_for(lambda was=first: calibration_store.load(state) not in (None, was))
        finally:
            camera.stop()


def wait_for(done: Callable[[], T | None], timeout: float = 60.0) -> T:
    """What ``done`` gives once it is something (fails after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not (found := done()):
        assert time.monotonic() < deadline, "it did not happen"
        time.sleep(0.05)
    return found


def a_dicy_roll_calibrated(tmp_path: Path) -> tuple[np.ndarray, SheetObserver]:
    """A frame of six dice rolled on the Dicy sheet, and an observer calibrated on it that
    reads them all."""
    film = tmp_path / "film"
    write_film(film, [SheetRest(dice(["6", "6", "5", "2", "1", "1"], DICE_AREA))], game="dicy",
               seed=8)
    frame = cv2.imread(str(sorted(film.glob("*.jpg"))[0]))
    observer = SheetObserver(None, threads=2)
    assert len(observer.observe(frame).dice) == 6
    return frame, observer


@pytest.mark.parametrize(("scale", "add", "problem"), [
    (0.08, 0, "dark"), (0.1, 235, "bright"),
    (0.3, 0, "dark"), (0.35, 0, "dark")])  # dim: the frame not all dark, the dice unreadable
def test_a_dim_or_washed_out_sheet_whose_markers_still_show_is_told_as_such(
        tmp_path: Path, scale: float, add: int, problem: str) -> None:
    frame, observer = a_dicy_roll_calibrated(tmp_path)
    lit = np.clip(frame * scale + add, 0, 255).astype(np.uint8)  # the light off, or glare
    assert observer.observe(lit).problem == problem  # not "the camera sees 0 of the 6 dice"


def test_a_lit_sheet_on_a_dark_cloth_is_read_not_told_as_too_dark(tmp_path: Path) -> None:
    frame, observer = a_dicy_roll_calibrated(tmp_path)
    found = observer.calibration
    assert found is not None
    width, height = found.layout.width, found.layout.height
    corners = found.to_frame(np.array([[0, 0], [width, 0], [width, height], [0, height]],
                                      np.float64)).astype(np.int32)
    sheet = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(sheet, corners, 255)
    dim = np.where(sheet[..., None] > 0, frame * 0.75, frame * 0.05).astype(np.uint8)
    assert cv2.cvtColor(dim, cv2.COLOR_BGR2GRAY).mean() < 45  # the frame as a whole: "dark"
    seen = observer.observe(dim)
    assert seen.problem is None and sorted(d.value or 0 for d in seen.dice) == [1, 1, 2, 5, 6, 6]


def test_a_table_is_ready_to_read_its_game_before_the_first_frame(tmp_path: Path) -> None:
    # Loaded on the first frame, a game's reader costs the frames of a second or more: in a
    # recording played in real time, its first rest with them.
    frame = render_table(5, game="dalek", dice=10).image
    calibration = calibrate(frame)

    def first_read_s(observer: SheetObserver) -> float:
        began = time.perf_counter()
        observer.observe(frame)
        return time.perf_counter() - began

    cold = first_read_s(SheetObserver(calibration, threads=1))
    ready = SheetObserver(calibration, threads=1)
    ready.ready()
    assert first_read_s(ready) < cold / 2


def test_a_camera_that_changes_its_picture_size_is_calibrated_again() -> None:
    # another camera, or the same one set to another resolution, or a calibration kept from
    # a recording of another size: the sheet is found anew, not told as "the camera moved"
    frame = render_table(8, game="dalek", dice=4).image
    observer = SheetObserver(calibrate(cv2.resize(frame, (1920, 1080))), threads=1)
    seen = observer.observe(frame)
    assert seen.problem is None and len(seen.marks) == 4  # the Dalek dice read
    assert observer.calibration is not None and observer.calibration.frame_size == (1280, 720)


def test_dicy_dice_on_a_bare_table_are_read_with_a_calibration_kept_from_a_sheet(
        tmp_path: Path, state: Path) -> None:
    """The demo's dice on a bare table, played with the calibration of a recording that showed
    the Dicy sheet: the sheet is told lost, the dice are read as without one."""
    kept = calibrate(render_table(5, game="dicy").image)
    bare = tmp_path / "bare"
    rolled = tuple(PlannedDie(v, x, y, 0.3 * i, i) for i, (v, (x, y)) in enumerate(zip(
        [6, 6, 5, 2, 1, 1], [(300.0, 250.0), (480.0, 230.0), (660.0, 260.0), (840.0, 240.0),
                             (400.0, 430.0), (620.0, 450.0)], strict=True)))
    write_demo_film(Plan([DICY],
                         [PlannedRest((), 1.0, None, hand=False), PlannedRest(rolled, 1.5, 0)]),
                    bare, seed=5)
    for session in table(state, DICY):
        observer = SheetObserver(kept, threads=2)
        loop = LiveLoop(lambda: open_source(str(bare), paced=False), observer, session)
        loop.start()
        assert loop.wait(timeout=120)
        assert journal(session) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]
        camera = session.snapshot().camera
        assert camera is not None and camera["note"] == {"key": "camera.moved_dice",
                                                         "params": {}}
        assert observer.calibration == kept  # the sheet's cards wait for it to be found again


@pytest.mark.parametrize("seed", [5, 7])
def test_a_bumped_camera_over_a_dicy_sheet_is_told_moved_and_reads_no_dice(
        tmp_path: Path, state: Path, seed: int) -> None:
    """The camera bumped with the Dicy sheet and its cards still in view: the phones say the
    camera moved (with the recalibrate button), and the sheet's art is read as no dice."""
    frame = render_table(seed, game="dicy").image
    shift = np.float32([[1, 0, 40], [0, 1, 25]])
    bumped = cv2.warpAffine(frame, shift, (frame.shape[1], frame.shape[0]),
                            borderMode=cv2.BORDER_REPLICATE)
    folder = tmp_path / "bumped"
    folder.mkdir()
    for number in range(24):  # the sheet as calibrated, then the camera bumped
        cv2.imwrite(str(folder / f"{number:05d}.jpg"), frame if number < 12 else bumped)
    for session in table(state, DICY):
        observer = SheetObserver(calibrate(frame), threads=2)
        loop = LiveLoop(lambda: open_source(str(folder), paced=False), observer, session)
        loop.start()
        assert loop.wait(timeout=120)
        camera = session.snapshot().camera
        assert camera is not None and camera["note"] == MOVED
        assert camera["seen"]["problem"] == "moved" and camera["seen"]["dice"] == []
        assert journal(session) == []


def test_dice_on_a_bare_table_are_not_read_for_a_dalek_sheet_taken_away(
        tmp_path: Path) -> None:
    """Dalek Dice reads no ordinary dice: a table calibrated on its sheet, the sheet taken away
    and d6 dice thrown there, is told moved with no dice read (the pips reader is not run)."""
    kept = calibrate(render_table(5, game="dalek").image)
    bare = tmp_path / "bare"
    rolled = tuple(PlannedDie(v, x, y, 0.3 * i, i) for i, (v, (x, y)) in enumerate(zip(
        [6, 5, 2], [(300.0, 250.0), (480.0, 230.0), (660.0, 260.0)], strict=True)))
    write_demo_film(Plan([DICY], [PlannedRest(rolled, 1.0, None, hand=False)]), bare, seed=5)
    frame = cv2.imread(str(sorted(bare.glob("*.jpg"))[-1]))
    seen = SheetObserver(kept, threads=1).observe(frame)
    assert seen.problem == "moved" and seen.dice == ()


def test_a_sheet_taken_away_is_told_as_moved_not_as_too_dark() -> None:
    frame = render_table(5, game="dalek").image
    observer = SheetObserver(calibrate(frame), threads=1)
    bare = np.full_like(frame, 70)  # a grey table where the sheet lay: dim "paper" there
    assert observer.observe(bare).problem == "moved"


def test_dalek_dice_lying_from_the_first_frame_are_no_roll_until_rolled_again(
        tmp_path: Path, state: Path) -> None:
    """The last game's dice still in "to roll" as a game is set up before the camera's first
    read: no roll while they lie there (a hand passes over); the first roll is the next."""
    left = dice(["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"], TO_ROLL)
    rolled = dice(["H2", "H2", "H2", "H4", "D2", "D2", "D3", "D3", "EXT", "DOC"], TO_ROLL, 50)
    folder = tmp_path / "film"
    write_film(folder, [SheetRest(left), SheetRest(left), SheetRest(rolled)], game="dalek",
               seed=21)
    for session in table(state, {"game": "dalek", "players": ["Jenna", "Peter"]}):
        play(folder, session, state)
        assert journal(session) == [("camera", {"roll": sorted(d.face for d in rolled)})]


def test_dicy_dice_lying_from_the_first_frame_are_no_roll_until_rolled_again(
        tmp_path: Path, state: Path) -> None:
    glacial = ["two-dice", "no-six", "odd", "straight", "two-pairs"]
    cards = {f"p{p}-{i + 1}": f"{c}/active" for p in (1, 2) for i, c in enumerate(glacial)}
    left = dice(["6", "6", "5", "2", "1", "1"], DICE_AREA)
    rolled = dice(["3", "4", "4", "1", "2", "6"], DICE_AREA[::-1], 10)
    folder = tmp_path / "film"
    write_film(folder, [SheetRest(left, cards), SheetRest(left, cards),
                        SheetRest(rolled, cards)], game="dicy", seed=8)
    for session in table(state, {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}):
        play(folder, session, state)
        assert journal(session) == [("camera", {"roll": [1, 2, 3, 4, 4, 6]})]


def test_17_cards_lying_in_the_row_from_the_first_frame_are_no_play(tmp_path: Path,
                                                                    state: Path) -> None:
    """The last round's card still in the row: no play while it lies there; the row cleared,
    the next card laid is the first play."""
    left = {"row-1": "3"}
    folder = tmp_path / "film"
    write_film(folder, [SheetRest(cards=left), SheetRest(cards=left), SheetRest(),
                        SheetRest(cards={"row-1": "back"})], game="17", seed=5)
    for session in table(state, {"game": "17", "players": ["Ana", "Ben", "Cleo"]}):
        play(folder, session, state)
        assert journal(session) == [("camera", {"play": {"face": "down"}})]


def test_a_camera_a_pixel_or_two_off_reads_the_sheet_where_it_lies(seventeen: Path) -> None:
    # a camera that trembles: calibrated on a frame a pixel up and left, read on one a pixel
    # down and right (the markers' drift, 2.8 px, is within its tolerance)
    frame = cv2.imread(str(pictures_in(seventeen)[-1]))

    def off(dx: int, dy: int) -> np.ndarray:
        return np.ascontiguousarray(np.roll(frame, (dy, dx), axis=(0, 1)))

    observer = SheetObserver(calibrate(off(-1, -1)), threads=1)
    seen = observer.observe(off(1, 1))
    assert seen.problem is None
    assert seen.key() == SheetObserver(calibrate(frame), threads=1).observe(frame).key()


def jennas_keep(tmp_path: Path, hand_s: float, fps: float,
                held_s: float = 0.0) -> tuple[Path, Path]:
    """Two films of the sheet: Jenna's roll (H4 H4 H4 H2 H2 D3 D3 D3 D2 DOC) rolled in, then
    her keep of H2 H2 D3 D3 D3 (the DOC to the top): her roll lying still for a second, her
    hand moving over the sheet for ``hand_s`` seconds, held still for ``held_s`` more 60 % of
    its way (where it hides two of her Daleks), and her keep lying still (at ``fps``)."""
    rolled = dice(JENNA, TO_ROLL)
    kept = (dice(["DOC"], TOP, 20) + dice(["H2", "H2"], HUMANS, 21) + dice(["D3"] * 3, DALEKS, 23)
            + (rolled[0], rolled[1], rolled[2], rolled[8]))
    roll_film, parts, keep_film = tmp_path / "roll", tmp_path / "parts", tmp_path / "keep"
    write_film(roll_film, [SheetRest(), SheetRest(rolled)], game="dalek", seed=21)
    write_film(parts, [SheetRest(rolled), SheetRest(kept)], game="dalek", seed=21, hold=1,
               hand_frames=round(hand_s * fps))
    # no two frames of her hand alike: a busy loop that skips frames never sees it still
    still, *hands, settled = pictures_in(parts)
    over = round(0.6 * len(hands))
    frames = [still] * round(fps) + hands[:over] + [hands[over]] * round(held_s * fps) \
        + hands[over:] + [settled] * round(5 * fps)
    keep_film.mkdir()
    for number, frame in enumerate(frames):
        (keep_film / f"{number:05d}.jpg").hardlink_to(frame)
    return roll_film, keep_film


@contextmanager
def stop_button(session: TableSession) -> Iterator[Callable[[], None]]:
    """The table's stop button on gpiozero's mock pins: yields a tap of it."""
    factory = MockFactory(revision="d04170")  # a Pi 5
    buttons = TableButtons(ButtonConfig(stop=STOP_PIN, shout=None),
                           ButtonActions(session, seated=False), factory=factory)
    buttons.start()

    def tap() -> None:
        factory.pin(STOP_PIN).drive_low()
        time.sleep(0.1)
        factory.pin(STOP_PIN).drive_high()

    try:
        yield tap
    finally:
        buttons.stop()


class MotionTold:
    """The session as the live loop's sink, telling the test too when the loop saw motion,
    and the number of each frame a read stood on."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.moved = threading.Event()
        self.stood: list[int] = []
        self.reaching = 0  # how many times a rest was told held still

    def camera_seen(self, seen: Seen) -> None:
        self.stood.append(seen.number)
        self.session.camera_seen(seen)

    def camera_status(self, status: CameraStatus) -> None:
        self.session.camera_status(status)

    def camera_moved(self) -> None:
        self.session.camera_moved()
        self.moved.set()

    def camera_holds(self, seconds: float) -> None:
        self.session.camera_holds(seconds)

    def camera_reaching(self) -> None:
        self.reaching += 1
        self.session.camera_reaching()


def assert_jenna_kept_and_stopped(session: TableSession, *, by: str) -> None:
    """The camera journalled Jenna's roll and her keep (H2 H2, D3 D3 D3), then her stop
    (``by``: the button or a phone): she scored 4."""
    assert journal(session) == [("camera", {"roll": sorted(JENNA)}),
                                ("camera", {"keep": ["D3", "D3", "D3", "H2", "H2"]}),
                                (by, {"stop": {}})]
    assert session.snapshot().view["scores"] == {"Jenna": 4, "Peter": 0}  # type: ignore


def test_dalek_a_stop_pressed_as_the_keep_settles_waits_for_its_read(tmp_path: Path,
                                                                      state: Path) -> None:
    """Jenna sets H2 H2 and D3 D3 D3 aside and presses stop at once: the camera saw her hand
    but has not read the table at rest yet. The stop waits for that read and scores her keep
    (it journalled `keep []` at once and scored 0). (A stop refused: test_session_stop.)"""
    roll_film, keep_film = jennas_keep(tmp_path, hand_s=3.0, fps=10)
    for session in table(state, DALEK, stop_waits_s=60.0):
        stop_as_her_hand_comes(session, state, roll_film, keep_film)  # her hand moves 3 s
        assert_jenna_kept_and_stopped(session, by="button")


def test_dalek_a_hand_held_still_over_the_keep_is_not_read_as_the_table(tmp_path: Path,
                                                                         state: Path) -> None:
    """Jenna presses stop as she sets H2 H2 and D3 D3 D3 aside, and her hand hovers still
    over two of her Daleks for a second before it leaves: the table under her hand was read
    once still for 0.3 s and her keep journalled as D3 H2 H2, scoring 0. Her arm across the
    sheet's margin holds the read: the stop scores the keep that lies there once she left."""
    roll_film, keep_film = jennas_keep(tmp_path, hand_s=1.0, fps=10, held_s=1.0)
    for session in table(state, DALEK, stop_waits_s=60.0):
        stop_as_her_hand_comes(session, state, roll_film, keep_film)
        assert_jenna_kept_and_stopped(session, by="button")


def test_dalek_a_hand_resting_over_the_keep_past_the_hold_is_waited_for(
        tmp_path: Path, state: Path) -> None:
    """Jenna presses stop as she sets her keep aside, her hand then resting 5 s over two of
    her Daleks, her forearm across the sheet's edge: the camera read the table under her
    hand once still 3 s, and the stop journalled her keep as D3 H2 H2 (she scored 0); before
    that, the stop, waiting 3 s from its press, was refused ('the camera still sees
    movement'). The phones ask for hands off the table, and the stop waits for the read the
    camera holds, once her hand left, and scores her keep. (A forearm resting clear of the
    dice, held 6 s, took the same way: merged.)"""
    roll_film, keep_film = jennas_keep(tmp_path, hand_s=0.5, fps=10, held_s=5.0)
    for session in table(state, DALEK):  # the stop's own wait
        sink = stop_as_her_hand_comes(session, state, roll_film, keep_film)
        assert_jenna_kept_and_stopped(session, by="button")
        assert sink.reaching == 1


def stop_as_her_hand_comes(session: TableSession, state: Path, roll_film: Path,
                           keep_film: Path) -> MotionTold:
    """Jenna's roll read from ``roll_film``; then ``keep_film`` played at 10 a second, and
    the stop button pressed as the camera sees her hand come: until her turn ends (the
    loop's sink, which heard all)."""
    observer = play(roll_film, session, state)
    sink = MotionTold(session)
    with stop_button(session) as tap:
        loop = LiveLoop(lambda: open_source(str(keep_film), fps=10), observer, sink)
        loop.start()
        try:
            assert sink.moved.wait(60), "the loop saw her hand"
            assert journal(session) == [("camera", {"roll": sorted(JENNA)})]
            tap()
            wait_for(lambda here=session: here.snapshot().view["turn"] == "Peter")
        finally:
            loop.stop()
    return sink


def test_dalek_a_roll_entered_by_phone_is_the_roll_the_camera_then_sees(
        tmp_path: Path, state: Path) -> None:
    """Jenna's roll entered by phone before the camera read it: the dice the camera then sees
    are that roll (it told 'sees 10 of the 9 dice'), and the three dice left lying after her
    keep are no roll (they were journalled as one): her reroll is read as the rulebook's."""
    rolled = dice(JENNA, TO_ROLL)
    kept = (dice(["DOC"], TOP, 20) + dice(["H4"] * 3, HUMANS, 21)
            + dice(["D3"] * 3, DALEKS, 24))
    left = (rolled[3], rolled[4], rolled[8])  # H2 H2 D2 lie where they were rolled
    again = dice(["D3", "D2", "EXT"], AGAIN, 30)
    empty, film = tmp_path / "empty", tmp_path / "film"
    write_film(empty, [SheetRest()], game="dalek", seed=21)
    write_film(film, [SheetRest(), SheetRest(rolled), SheetRest(kept + left),
                      SheetRest(kept + again)], game="dalek", seed=21)
    for session in table(state, DALEK):
        observer = play(empty, session, state)
        session.act({"roll": JENNA}, base_version=session.snapshot().version, source="phone")
        loop = LiveLoop(lambda: open_source(str(film), paced=False), observer, session)
        loop.start()
        assert loop.wait(timeout=300)
        assert journal(session) == [("phone", {"roll": sorted(JENNA)}),
                                    ("camera", {"keep": ["D3", "D3", "D3", "H4", "H4", "H4"]}),
                                    ("camera", {"roll": ["D2", "D3", "EXT"]})]
        camera = session.snapshot().camera
        assert camera is not None and camera["ask"] is None and camera["note"] is None


def test_dicy_a_first_roll_entered_by_phone_before_the_cameras_first_read_asks_nothing(
        tmp_path: Path, state: Path) -> None:
    """The camera watches the sheet before the game is set up; the game's first roll is
    entered by phone, then the camera reads the same dice: that is the roll, no reroll (it
    asked which card was frozen for a reroll nobody made)."""
    glacial = ["two-dice", "no-six", "odd", "straight", "two-pairs"]
    cards = {f"p{p}-{i + 1}": f"{c}/active" for p in (1, 2) for i, c in enumerate(glacial)}
    rolled = dice(["6", "6", "5", "2", "1", "1"], DICE_AREA)
    empty, film = tmp_path / "empty", tmp_path / "film"
    write_film(empty, [SheetRest(cards=cards)], game="dicy", seed=8)
    write_film(film, [SheetRest(cards=cards), SheetRest(rolled, cards)], game="dicy", seed=8)
    session = TableSession(Journal(state / "table.db"))
    session.start()
    try:
        session.watch_camera()
        observer = play(empty, session, state)  # no game yet: the camera sees the sheet
        header = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
        snap = session.new_game(header, base_version=session.snapshot().version)
        session.act({"roll": [6, 6, 5, 2, 1, 1]}, base_version=snap.version, source="phone")
        loop = LiveLoop(lambda: open_source(str(film), paced=False), observer, session)
        loop.start()
        assert loop.wait(timeout=300)
        camera = session.snapshot().camera
        assert camera is not None and camera["ask"] is None, camera["ask"]
        assert journal(session) == [("phone", {"roll": [1, 1, 2, 5, 6, 6]})]
    finally:
        session.stop()


DICY_HEADER = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}


def dicy_roll_film(folder: Path) -> Path:
    """A camera's folder: Dicy's sheet, then a roll of 6 6 5 2 1 1 on it."""
    glacial = ["two-dice", "no-six", "odd", "straight", "two-pairs"]
    cards = {f"p{p}-{i + 1}": f"{c}/active" for p in (1, 2) for i, c in enumerate(glacial)}
    write_film(folder, [SheetRest(cards=cards),
                        SheetRest(dice(["6", "6", "5", "2", "1", "1"], DICE_AREA), cards)],
               game="dicy", seed=8)
    return folder


def as_video(folder: Path, path: Path) -> Path:
    """The pictures of ``folder`` as a video file (Motion JPEG)."""
    pictures = pictures_in(folder)
    height, width = cv2.imread(str(pictures[0])).shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (width, height))
    for picture in pictures:
        writer.write(cv2.imread(str(picture)))
    writer.release()
    return path


@pytest.mark.parametrize("kind", ["folder", "video"])
def test_a_folder_camera_at_a_restart_shows_the_table_as_it_lies_not_its_history(
        tmp_path: Path, state: Path, kind: str) -> None:
    """serve --camera DIR (or a video file) restarted: its pictures are what the table saw
    before; a roll the camera read and a phone undid stays undone (it was read again from
    the first picture). A recording played the first time plays from its first picture."""
    camera = dicy_roll_film(tmp_path / "camera")
    if kind == "video":
        camera = as_video(camera, tmp_path / "table.avi")
    for session in table(state, DICY_HEADER):
        watch(session, camera, state)
        assert journal(session) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]
        session.act({"undo": {}}, base_version=session.snapshot().version, source="phone")
    restarted = TableSession(Journal(state / "table.db"))
    restarted.start()
    try:
        watch(restarted, camera, state)
        assert journal(restarted) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]}),
                                      ("phone", {"undo": {}})]
    finally:
        restarted.stop()


@pytest.mark.parametrize("kind", ["folder", "video"])
def test_a_recording_waits_on_its_first_picture_until_a_game_is_set_up(
        tmp_path: Path, state: Path, kind: str) -> None:
    """serve --camera DIR (or a video file) with no game yet: the recording holds its first
    picture, read for the phones with a note that it waits, and plays once the host has set
    up the game, which gets the recording's roll (it was played before the game and lost)."""
    camera = dicy_roll_film(tmp_path / "camera")
    if kind == "video":
        camera = as_video(camera, tmp_path / "table.avi")
    session = TableSession(Journal(state / "table.db"))
    session.start()
    ended = threading.Event()
    live = camera_for(session, source=str(camera), paced=False, state=state,
                      on_ended=ended.set)
    assert live is not None
    live.start()
    try:
        note = wait_for(lambda: (session.snapshot().camera or {}).get("note"), timeout=20)
        assert note == {"key": "camera.waits", "params": {}}
        assert not ended.wait(1.0)  # held, not played to its end
        session.new_game(DICY_HEADER, base_version=session.snapshot().version)
        assert ended.wait(timeout=60)
        assert journal(session) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]
    finally:
        live.stop()
        session.stop()


@pytest.mark.parametrize("kind", ["folder", "video"])
def test_a_recording_that_waited_for_a_game_through_a_restart_is_played_from_its_start(
        tmp_path: Path, state: Path, kind: str) -> None:
    """serve --camera DIR (or a video file) waiting for a game, restarted before one was set
    up (Ctrl-C, a power cut): nothing was played, so the next serve plays the recording from
    its first picture once the game is set up (it started from its newest, the roll lost)."""
    camera = dicy_roll_film(tmp_path / "camera")
    if kind == "video":
        camera = as_video(camera, tmp_path / "table.avi")
    for run in ("first", "restarted"):
        session = TableSession(Journal(state / "table.db"))
        session.start()
        ended = threading.Event()
        live = camera_for(session, source=str(camera), paced=False, state=state,
                          on_ended=ended.set)
        assert live is not None
        live.start()
        try:
            note = wait_for(lambda table=session: (table.snapshot().camera or {}).get("note"),
                            timeout=20)
            assert note == {"key": "camera.waits", "params": {}}
            if run == "restarted":
                session.new_game(DICY_HEADER, base_version=session.snapshot().version)
                assert ended.wait(timeout=60)
                assert journal(session) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]
        finally:
            live.stop()
            session.stop()


def test_a_recording_is_played_from_its_start_after_a_serve_that_failed_to_start(
        tmp_path: Path, state: Path) -> None:
    """serve --camera DIR that stopped before its camera showed a picture (its port busy)
    has not played the recording: the next serve plays it from its first picture."""
    folder = dicy_roll_film(tmp_path / "recording")
    for _ in table(state, DICY_HEADER):
        pass
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert main(["serve", "--state", str(state), "--camera", str(folder), "--host",
                     "127.0.0.1", "--port", str(busy.getsockname()[1])]) == 2
    session = TableSession(Journal(state / "table.db"))
    session.start()
    try:
        watch(session, folder, state)
        assert journal(session) == [("camera", {"roll": [1, 1, 2, 5, 6, 6]})]
    finally:
        session.stop()


def jennas_roll_in_a_cameras_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A camera's folder showing the sheet, then Jenna's roll; and the picture of her keep
    (H2 H2 and D3 D3 D3 set aside), not yet saved in it."""
    rolled = dice(JENNA, TO_ROLL)
    kept = (dice(["DOC"], TOP, 20) + dice(["H2", "H2"], HUMANS, 21) + dice(["D3"] * 3, DALEKS, 23)
            + (rolled[0], rolled[1], rolled[2], rolled[8]))
    folder, parts = tmp_path / "camera", tmp_path / "parts"
    write_film(folder, [SheetRest(), SheetRest(rolled)], game="dalek", seed=21, hold=1)
    write_film(parts, [SheetRest(kept)], game="dalek", seed=21, hold=1)
    return folder, pictures_in(parts)[0]


def test_dalek_a_stop_pressed_before_a_folder_camera_looks_again_waits_for_its_look(
        tmp_path: Path, state: Path) -> None:
    """serve --camera DIR, a folder a camera saves into: the picture of Jenna's keep is saved
    and she stops at once, before the folder's next look (once a second). The stop has the
    camera look now and waits for its read of her keep (it journalled `keep []` from the read
    of her roll, and she scored 0)."""
    folder, keep = jennas_roll_in_a_cameras_folder(tmp_path)
    for session in table(state, DALEK):
        camera = camera_for(session, source=str(folder), state=state)
        assert camera is not None
        camera.start()
        try:
            wait_for(lambda here=session: journal(here))  # her roll, the folder's last picture
            shutil.copyfile(keep, folder / "00099.jpg")
            session.act({"stop": {}}, base_version=session.snapshot().version, source="phone")
        finally:
            camera.stop()
        assert_jenna_kept_and_stopped(session, by="phone")


def test_dalek_a_stop_pressed_while_a_folder_camera_plays_older_pictures_waits_for_the_newest(
        tmp_path: Path, state: Path) -> None:
    """serve --camera DIR, a camera saving its pictures faster than --fps: the folder plays
    the pictures of a second ago (up to 2 s behind, by design) when the picture of Jenna's
    keep is saved and she stops. The stop waits until the camera watched that picture and
    read her keep (it returned after two of the older pictures and journalled `keep []` from
    the read of her roll: she scored 0)."""
    folder, keep = jennas_roll_in_a_cameras_folder(tmp_path)
    for session in table(state, DALEK, stop_waits_s=60.0):
        camera = camera_for(session, source=str(folder), state=state)  # 15 pictures a second
        assert camera is not None
        camera.start()
        try:
            wait_for(lambda here=session: journal(here))  # her roll, the folder's last picture
            roll = pictures_in(folder)[-1]
            for number in range(100, 145):  # 45 pictures of her roll lying still, in a second
                (folder / f"{number:05d}.jpg").hardlink_to(roll)
            time.sleep(1.2)  # the folder looked (once a second): 2 s of them to play
            shutil.copyfile(keep, folder / "00145.jpg")
            session.act({"stop": {}}, base_version=session.snapshot().version, source="phone")
        finally:
            camera.stop()
        assert_jenna_kept_and_stopped(session, by="phone")
