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


def test_photos_without_dice_are_read_as_clutter_and_a_broken_one_stops_the_run(
        tmp_path: Path) -> None:
    folder = tmp_path / "rooms"
    folder.mkdir()
    cv2.imwrite(str(folder / "desk.png"), np.full((60, 80, 3), 200, np.uint8))
    cv2.imwrite(str(folder / "keys.JPG"), np.zeros((50, 40, 3), np.uint8))
    (folder / "notes.txt").write_text("not a photo")
    desk, keys = data.dieless_photos(folder)
    assert (desk.image.shape, keys.image.shape) == ((60, 80, 3), (50, 40, 3))
    assert {desk.source, keys.source} == {"clutter"}
    assert desk.dice.shape == keys.dice.shape == (0, 5)
    (folder / "torn.jpg").write_bytes(b"half a jpeg")
    with pytest.raises(SystemExit, match=r"torn\.jpg: not a readable image"):
        data.dieless_photos(folder)
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit, match=r"empty: no photos in it"):
        data.dieless_photos(tmp_path / "empty")


def test_clutter_photos_give_no_die_patches_only(tmp_path: Path) -> None:
    """In a pool with a die photo, the photos without dice are drawn only as negatives."""
    folder = tmp_path / "rooms"
    folder.mkdir()
    cv2.imwrite(str(folder / "wall.png"), np.full((200, 200, 3), 255, np.uint8))
    squares = (np.indices((200, 200)) // 20).sum(0) % 2 * 255  # a board of 20 px squares
    board = np.repeat(squares[..., None], 3, 2).astype(np.uint8)
    table = data.Sample(board, np.array([[4, 100, 100, 40, 1]], np.float32), "byler-d6")
    pool = [table, *data.dieless_photos(folder)]
    rng = np.random.default_rng(0)
    xs, cls, _, _ = data.classifier_batch(rng, pool, data.source_weights(pool, data.SHARE), [],
                                          400)
    wall = xs.reshape(400, -1).std(1) < 0.05  # patches of the plain wall, however recoloured
    assert wall.sum() > 10 and not cls[wall].any()
    assert set(cls[~wall].tolist()) == {0, 4}
