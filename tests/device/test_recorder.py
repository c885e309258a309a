"""The recorder keeps the frames of d6 rolls as a labelled set, whatever the game: a Dalek
roll, whose faces are no d6 values, is left out and never stops the camera."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import numpy as np

from device.live import Seen
from device.recorder import Recorder
from vision.dice import DieRead
from vision.observation import Observation

DALEK_ROLL = {"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]}


def seen(values: list[int | None], number: int) -> Seen:
    dice = tuple(DieRead(v, 100.0 * (i + 1), 100.0, 0.9, 40.0) for i, v in enumerate(values))
    frame = np.full((600, 800, 3), 90, np.uint8)
    return Seen(Observation(dice, 800, 600), frame, b"\xff\xd8picture", float(number), number)


def labelled(folder: Path) -> list[list[int]]:
    images = json.loads((folder / "labels.json").read_text())["images"]
    return [sorted(d["value"] for d in image["dice"]) for image in images]


def test_a_dalek_roll_is_not_kept_and_a_d6_roll_after_it_is(tmp_path: Path) -> None:
    folder = tmp_path / "recorded"
    recorder = Recorder(folder, records=lambda game_id: None)
    recorder.keep(seen([], 1), 1, 0, [DALEK_ROLL])  # the sheet's faces, no d6 values
    assert not folder.exists()
    recorder.keep(seen([6, 6, 5, 2, 1, 1], 2), 2, 0, [{"roll": [6, 6, 5, 2, 1, 1]}])
    assert labelled(folder) == [[1, 1, 2, 5, 6, 6]]


def test_a_dalek_frame_kept_by_an_earlier_version_is_left_out_of_the_labels(
        tmp_path: Path) -> None:
    folder = tmp_path / "recorded"
    (folder / "images").mkdir(parents=True)
    (folder / "images" / "game1-action1-frame1.jpg").write_bytes(b"\xff\xd8picture")
    (folder / "frames.jsonl").write_text(json.dumps(
        {"file": "images/game1-action1-frame1.jpg", "width": 800, "height": 600, "game_id": 1,
         "index": 0, "dice": []}) + "\n")
    recorder = Recorder(folder, records=lambda game_id: [DALEK_ROLL] if game_id == 1 else None)
    recorder.keep(seen([6, 6, 5, 2, 1, 1], 2), 2, 0, [{"roll": [6, 6, 5, 2, 1, 1]}])
    assert labelled(folder) == [[1, 1, 2, 5, 6, 6]]


def test_a_table_that_plays_all_evening_forgets_the_games_whose_frames_went(
        tmp_path: Path) -> None:
    # the recorder kept every game's actions it had labelled, long after their frames went
    # (12 kB a game of Dicy Cards)
    recorder = Recorder(tmp_path / "recorded", records=lambda game_id: None, max_frames=10)

    def play(games: range) -> None:
        for game in games:
            actions = [{"roll": [6, 6, 5, 2, 1, number % 6 + 1]} for number in range(80)]
            for index in (0, 40):
                recorder.keep(seen([6, 6, 5, 2, 1, index % 6 + 1], game * 100 + index), game,
                              index, actions[:index + 1])
                recorder.relabel(game, actions[:index + 2])

    play(range(1, 6))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        play(range(6, 56))
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 400_000  # 50 games went by
    assert len(labelled(tmp_path / "recorded")) == 10
