"""The training loader reads a labels.json set as `dicetable eval` does, and stops at a photo
or label it cannot use instead of training on less.

training/data.py needs no torch, so these run wherever the tests do."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))
import data

from vision.datasets import LabelledDie


def write_set(root: Path, images: list[dict[str, object]]) -> Path:
    """A labels.json set in root, each image a grey 120×90 photo."""
    root.mkdir()
    for im in images:
        cv2.imwrite(str(root / str(im["file"])), np.full((90, 120, 3), 128, np.uint8))
    (root / "labels.json").write_text(json.dumps({"images": images}))
    return root


def die(value: int, box: list[float]) -> dict[str, object]:
    return {"value": value, "bbox": box}


def test_train_and_validation_parts_split_the_train_photos_and_keep_their_labels(
        tmp_path: Path) -> None:
    names = [f"p{i}.png" for i in range(12)]
    root = write_set(tmp_path / "table", [
        *({"file": n, "split": "train", "dice": [die(3, [10, 20, 40, 50])]} for n in names),
        {"file": "t.png", "split": "test", "dice": [die(5, [0, 0, 30, 30])],
         "ignore": [[60, 0, 90, 30]]},
    ])
    train = data.load_set(root, "train", val_fraction=0.5)
    val = data.load_set(root, "train", val_fraction=0.5, part="val")
    test = data.load_set(root, "test")
    assert len(train) + len(val) == 12 and train and val
    assert len(test) == 1 and test[0].labels == (LabelledDie(5, (0.0, 0.0, 30.0, 30.0)),)
    assert test[0].ignore == ((60.0, 0.0, 90.0, 30.0),)  # scored as `dicetable eval` scores
    first = train[0]
    assert first.source == "table" and first.image.shape == (90, 120, 3)
    assert first.labels == (LabelledDie(3, (10.0, 20.0, 40.0, 50.0)),)
    # value, centre x and y, side (the box's mean side), side known
    assert first.dice.tolist() == [[3.0, 25.0, 35.0, 30.0, 1.0]]


def test_pip_pattern_boxes_give_a_larger_die(tmp_path: Path) -> None:
    """matteop65-dice boxes hold the pips: a die's side is 1.33 of its pattern, and a 1 (a
    lone pip) takes the other dice's side."""
    root = write_set(tmp_path / "matteop65-dice", [{"file": "a.png", "split": "test", "dice": [
        die(4, [0, 0, 30, 30]), die(1, [50, 50, 56, 56])]}])
    (sample,) = data.load_set(root, "test")
    assert sample.dice[:, 3] == pytest.approx([39.9, 39.9])
    assert sample.dice[:, 4].tolist() == [1.0, 1.0]


def test_an_unreadable_photo_stops_the_run_naming_it(tmp_path: Path) -> None:
    root = tmp_path / "table"
    root.mkdir()
    (root / "broken.jpg").write_bytes(b"not a jpeg at all")
    (root / "labels.json").write_text(json.dumps({"images": [
        {"file": "broken.jpg", "split": "test", "dice": []}]}))
    with pytest.raises(SystemExit, match=r"broken\.jpg: not a readable image"):
        data.load_set(root, "test")


def test_a_malformed_label_stops_the_run_naming_it(tmp_path: Path) -> None:
    root = write_set(tmp_path / "table", [
        {"file": "a.png", "split": "train", "dice": [die(7, [0, 0, 10, 10])]}])
    with pytest.raises(SystemExit, match=r"a\.png.*value must be a whole number 1\.\.6"):
        data.load_set(root, "train")
