"""A recording ``dicetable serve --camera`` showed before: the host is told it plays on from
its end, and a new recording put in its place is played from its start."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.session import TableSession
from dicetable.live_table import FOLDER_CAMERA_FILE, camera_for

RESUMES = "was shown before: playing on from its last frame"


def record(path: Path, values: tuple[int, ...]) -> None:
    """A video of one frame each of ``values`` (grey levels), at 10 frames a second."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 48))
    for value in values:
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()


def show(session: TableSession, video: Path, state: Path) -> None:
    """Serve --camera VIDEO with a game set up until its first frame was shown (noted in the
    state: a recording held while the table waits for a game is not)."""
    if session.snapshot().view is None:
        session.new_game({"game": "dalek", "players": ["Jenna", "Peter"]},
                         base_version=session.snapshot().version)
    camera = camera_for(session, source=str(video), state=state)
    assert camera is not None
    camera.start()
    try:
        deadline = time.monotonic() + 10
        while not (state / FOLDER_CAMERA_FILE).exists() and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        camera.stop()
    assert (state / FOLDER_CAMERA_FILE).exists()


def test_a_video_shown_before_says_it_plays_on_and_a_new_one_in_its_place_does_not(
        session: TableSession, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state, video = tmp_path / "state", tmp_path / "game.avi"
    record(video, (40, 120, 200))
    show(session, video, state)
    assert RESUMES not in capsys.readouterr().err
    assert camera_for(session, source=str(video), state=state) is not None  # a restart
    assert f"dicetable: {video} {RESUMES}" in capsys.readouterr().err
    record(video, (80, 160, 240, 250))  # the next game, recorded over it
    assert camera_for(session, source=str(video), state=state) is not None
    assert RESUMES not in capsys.readouterr().err
