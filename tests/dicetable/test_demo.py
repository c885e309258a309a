"""The demo plays itself: its film through the real loop and reader, its phone's part by the
scripted player, into the real journal, exactly as planned."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from device.demo_film import read_plan, write_film
from device.demo_plan import HEADER, plan_game
from device.journal import Journal
from device.scripted_player import same_line
from device.session import SessionError, StaleVersion, TableSession
from dicetable.cli import main
from dicetable.live_table import Camera, camera_for

SHORT = {**HEADER, "target": 30}


@contextmanager
def demo_table(demo: Path, tmp_path: Path) -> Iterator[tuple[TableSession, Camera]]:
    """A table whose camera plays the demo's film at 2x, its scripted player quick to act but
    patient with the camera: 30 s at 2x is 15 s of waiting, where the demo's 8 s would be
    4 s (two test processes on two cores can hold a read back, and a roll the phone entered
    instead would fail the test). At 3x a rest of the film lasted 0.5 s, which a loaded
    clean-clone run once read too few frames of to see the roll (the phone entered it)."""
    session = TableSession(Journal(tmp_path / "table.db"))
    session.start()
    camera = camera_for(session, source=None, demo=demo, speed=2.0, delay_s=0.05,
                        patience_s=30.0)
    assert camera is not None
    camera.start()
    try:
        yield session, camera
    finally:
        camera.stop()
        session.stop()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo") / "frames"
    write_film(plan_game(seed=3, header=SHORT), folder, seed=3)
    return folder


def test_the_demo_game_fills_in_by_itself_from_the_camera(demo: Path, tmp_path: Path) -> None:
    plan = read_plan(demo)
    assert plan is not None
    with demo_table(demo, tmp_path) as (session, _):
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            view = session.snapshot().view
            if view is not None and view["over"]:
                break
            time.sleep(0.1)
        game_id = session.snapshot().game_id
        assert game_id is not None
        standing = session.record(game_id)
    assert len(standing) == len(plan.record)
    assert all(same_line(a, b) for a, b in zip(standing, plan.record, strict=True))
    with sqlite3.connect(tmp_path / "table.db") as db:
        sources = {line: source for line, source in db.execute(
            "SELECT line, source FROM lines WHERE line LIKE '{\"roll%' OR line LIKE '{\"reroll%'")}
    assert set(sources.values()) == {"camera"}  # every roll and reroll came from the camera


def test_the_demo_command_keeps_a_film_that_is_there(
        demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = sorted(p.stat().st_mtime_ns for p in demo.iterdir())
    assert main(["demo", "--out", str(demo)]) == 0
    assert "ready" in capsys.readouterr().out
    assert sorted(p.stat().st_mtime_ns for p in demo.iterdir()) == before


def test_the_demo_film_never_rolls_into_a_game_a_person_set_up(demo: Path, tmp_path: Path
                                                                 ) -> None:
    with demo_table(demo, tmp_path) as (session, camera):
        deadline = time.monotonic() + 60
        while not _actions(session) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _actions(session), "the demo game never started"
        mine = {**SHORT, "players": ["Zoe", "Yan"]}
        _take_over(session, mine)
        reads_before = camera.loop.reads
        deadline = time.monotonic() + 60
        while camera.loop.reads < reads_before + 6 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        assert camera.loop.reads >= reads_before + 6, "the film stopped being read"
        table = session.snapshot()
        assert table.header == mine
        assert table.game_id is not None
        assert session.record(table.game_id)[1:] == []
        assert (table.camera or {}).get("ask") is None


def _actions(session: TableSession) -> int:
    view = session.snapshot().view
    return 0 if view is None else int(view["actions"])


def _take_over(session: TableSession, header: dict[str, object]) -> None:
    """Abandon the demo game and set up a game of one's own, as a phone does (the demo's
    player and camera may change the table meanwhile: try again)."""
    for _ in range(50):
        try:
            if session.snapshot().header != header:
                if session.snapshot().view is not None:
                    session.abandon(base_version=session.snapshot().version)
                session.new_game(header, base_version=session.snapshot().version)
            return
        except (StaleVersion, SessionError):
            time.sleep(0.02)
    raise AssertionError("could not take the table over")


def test_the_demo_never_deletes_a_folder_that_holds_other_things(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "grandma.jpg").write_bytes(b"a photo")
    assert main(["demo", "--out", str(photos)]) == 2
    assert capsys.readouterr().err == (
        f"dicetable demo: {photos} holds other files, such as grandma.jpg: the demo's frames "
        "go in an empty folder of their own\n")
    assert [p.name for p in photos.iterdir()] == ["grandma.jpg"]


def test_serve_with_the_state_folder_as_the_demos_keeps_the_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    journal = Journal(state / "table.db")
    game_id, _ = journal.start_game(SHORT)
    journal.close()
    assert main(["serve", "--state", str(state), "--demo", str(state), "--port", "0"]) == 2
    assert "the demo's frames go in an empty folder of their own" in capsys.readouterr().err
    journal = Journal(state / "table.db")
    stored = journal.latest_game()
    journal.close()
    assert stored is not None and stored.id == game_id
