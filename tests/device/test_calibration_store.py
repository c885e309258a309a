"""The calibration kept in the state folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device import calibration_store
from vision.calibrate import calibrate
from vision.table_scene import render_table


def test_saved_calibration_loads_back_with_its_zones(tmp_path: Path) -> None:
    found = calibrate(render_table(5, game="dalek").image)
    path = calibration_store.save(tmp_path, found)
    assert calibration_store.load(tmp_path) == found
    zones = {z["name"] for z in json.loads(path.read_text())["zones"]}
    assert zones == {"top", "kept-humans", "kept-daleks", "to-roll"}
    assert not list(tmp_path.glob("*.tmp"))


def test_a_damaged_file_says_to_calibrate_again(tmp_path: Path) -> None:
    (tmp_path / calibration_store.CALIBRATION_FILE).write_text('{"game": "dalek"')
    with pytest.raises(calibration_store.CalibrationFileError, match="calibrate the table"):
        calibration_store.load(tmp_path)
