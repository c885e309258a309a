"""The dice reader on rendered scenes and on bad input."""

from __future__ import annotations

import math
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.reader as reader_module
from vision.classify import WINDOW, batch, crop
from vision.dice import DieRead
from vision.errors import ModelMissing, UnreadableImage
from vision.reader import CLASSIFIER, FLOAT_CLASSIFIER, MODELS, DiceReader, model_session
from vision.render import RenderedDie, randomised_scene, render_scene


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(threads=2)


def _match(reads: list[DieRead], dice: tuple[RenderedDie, ...]) -> tuple[int, int, int]:
    """(right, wrong or unsure, false): a read counts for the die whose top face it is in."""
    right = wrong = 0
    used: set[int] = set()
    for d in dice:
        hits = [i for i, r in enumerate(reads)
                if i not in used and math.hypot(r.x - d.x, r.y - d.y) < d.size / 2]
        if not hits:
            continue
        used.add(hits[0])
        if reads[hits[0]].value == d.value:
            right += 1
        else:
            wrong += 1
    return right, wrong, len(reads) - len(used)


def test_reads_values_and_positions_of_rendered_dice(reader: DiceReader) -> None:
    total = right = false = 0
    for seed in range(8):
        scene = render_scene(500 + seed, width=800, height=600, n_dice=8, die_px=(32, 56))
        r, _, f = _match(reader.read(scene.image), scene.dice)
        total, right, false = total + len(scene.dice), right + r, false + f
    assert total >= 50
    assert right >= 0.9 * total
    assert false <= 0.05 * total


def test_plain_dice_are_read_with_centres_on_the_top_face(reader: DiceReader) -> None:
    total = right = false = 0
    for seed in range(4):
        scene = render_scene(20 + seed, width=640, height=480, n_dice=6, die_px=(40, 50),
                             plain=True)
        reads = reader.read(scene.image)
        r, _, f = _match(reads, scene.dice)
        total, right, false = total + len(scene.dice), right + r, false + f
        for d in scene.dice:  # a read on a top face lies near its centre
            gaps = [math.hypot(r.x - d.x, r.y - d.y) / d.size for r in reads]
            assert min(gaps) < 0.25 or min(gaps) > 0.5
        assert all(0.0 < r.confidence <= 1.0 for r in reads)
    assert right >= 0.9 * total and false == 0


def _read_scenes(reader: DiceReader, scenes: list[tuple[np.ndarray, tuple[RenderedDie, ...]]]
                 ) -> tuple[int, int, int]:
    """(dice, right, false) over scenes given as (image, dice)."""
    total = right = false = 0
    for image, dice in scenes:
        r, _, f = _match(reader.read(image), dice)
        total, right, false = total + len(dice), right + r, false + f
    return total, right, false


@pytest.mark.parametrize("die_px, n_dice", [((15, 20), 16), ((120, 190), 5)])
def test_small_and_large_dice_in_a_1280x720_frame(reader: DiceReader,
                                                  die_px: tuple[float, float],
                                                  n_dice: int) -> None:
    scenes = [render_scene(2100 + seed, die_px=die_px, n_dice=n_dice, plain=True)
              for seed in range(3)]
    total, right, false = _read_scenes(reader, [(s.image, s.dice) for s in scenes])
    assert total >= 3 * n_dice - 2
    assert right >= 0.8 * total and false <= 1


def test_a_12_megapixel_photo_is_read_in_its_own_pixels(reader: DiceReader) -> None:
    scene = render_scene(2400, width=1344, height=1008, n_dice=10, die_px=(40, 50), plain=True)
    big = cv2.resize(scene.image, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    dice = tuple(RenderedDie(d.value, d.x * 3, d.y * 3, d.size * 3) for d in scene.dice)
    reads = reader.read(big)
    total, right, false = _read_scenes(reader, [(big, dice)])
    assert right >= 0.8 * total and false == 0
    assert all(90 < r.size < 250 for r in reads)  # dice of 120..150 px, not 40..50


@pytest.mark.parametrize("size, die_px, first_seed", [
    ((2688, 2016), (18, 24), 2600),  # 9-11 px in the 1280 px image; the fine level sees 1920
    ((1920, 1080), (12, 16), 2800),  # 8-11 px there; the fine level sees the whole frame
])
def test_small_dice_in_a_large_photo_are_looked_for_in_more_of_its_pixels(
        reader: DiceReader, size: tuple[int, int], die_px: tuple[float, float],
        first_seed: int) -> None:
    # Dice this small in the image the locator first sees are under what its finest level
    # finds there.
    scenes = [render_scene(first_seed + seed, width=size[0], height=size[1], n_dice=12,
                           die_px=die_px, plain=True) for seed in range(3)]
    total, right, false = _read_scenes(reader, [(s.image, s.dice) for s in scenes])
    assert total == 36
    assert right >= 0.9 * total and false == 0


def test_a_crowded_table_is_read_past_the_first_candidates(reader: DiceReader) -> None:
    scene = render_scene(2500, n_dice=30, die_px=(34, 40), plain=True, distractors=0)
    total, right, _ = _read_scenes(reader, [(scene.image, scene.dice)])
    assert total >= 26 and right >= 0.9 * total


def test_a_die_misjudged_in_size_at_one_level_is_read_at_the_next(reader: DiceReader) -> None:
    # Dice of 80-130 px: the 4x level sees some of them as a smaller die beside their centre
    # and reads "no die" there; the 8x level's candidate on the same die must still be read.
    scenes = [render_scene(3020 + seed, n_dice=6, die_px=(80, 130), plain=True)
              for seed in range(10)]
    total, right, false = _read_scenes(reader, [(s.image, s.dice) for s in scenes])
    assert total == 60
    assert (right, false) == (total, 0)


def test_a_die_the_classifier_doubts_is_read_again_where_it_found_the_top_face(
        reader: DiceReader, monkeypatch: pytest.MonkeyPatch) -> None:
    # On this busy table of 17 dice the first patches of some leave the classifier in doubt
    # whether they are dice; cut again at the centre it found, two more dice read right.
    scene = randomised_scene(5120, width=1280, height=720)
    right, _, false = _match(reader.read(scene.image), scene.dice)
    monkeypatch.setattr(reader_module, "LOOK_AGAIN", (1.0, 1.0))  # no second look
    right_without, _, _ = _match(reader.read(scene.image), scene.dice)
    assert len(scene.dice) == 17
    assert (right, false) == (9, 0)
    assert right_without <= 7


def test_large_dice_are_looked_for_where_the_first_level_saw_a_large_candidate(
        reader: DiceReader, monkeypatch: pytest.MonkeyPatch) -> None:
    # Five dice of 137-153 px: the 4x level reads one die among its candidates and calls its
    # large candidates no die; the 8x level must run all the same.
    scene = render_scene(3104, n_dice=5, die_px=(120, 190))
    total, right, false = _read_scenes(reader, [(scene.image, scene.dice)])
    monkeypatch.setattr(reader_module, "LARGE_DIE", math.inf)  # 8x only where no die is read
    _, right_without, _ = _read_scenes(reader, [(scene.image, scene.dice)])
    assert total == 5
    assert right >= 3 and false == 0
    assert right_without <= 1


def test_large_dice_are_read_where_the_first_level_spent_most_of_the_candidates(
        reader: DiceReader) -> None:
    # A busy table with 12 dice of about 150 px: the 4x level reads 30 candidates (three
    # dice), leaving two of the 32 for the 8x level, which finds the larger dice: it gets a
    # chunk (with two candidates, two of the twelve dice are read right).
    scene = randomised_scene(4208, width=1280, height=960)
    total, right, false = _read_scenes(reader, [(scene.image, scene.dice)])
    assert total == 12
    assert right >= 10 and false == 0


def test_blank_table_has_no_dice(reader: DiceReader) -> None:
    assert reader.read(np.full((480, 640, 3), 128, np.uint8)) == []
    noise = np.random.default_rng(0).integers(100, 140, (480, 640, 3), dtype=np.uint8)
    assert reader.read(noise) == []


def test_says_not_sure_rather_than_guess_when_pips_cannot_be_seen(reader: DiceReader) -> None:
    scene = render_scene(12, width=640, height=480, n_dice=6, die_px=(40, 50), plain=True)
    smeared = cv2.GaussianBlur(scene.image, (0, 0), 9)
    assert all(not r.sure for r in reader.read(smeared))


def test_grey_and_alpha_images_are_accepted(reader: DiceReader) -> None:
    scene = render_scene(13, width=640, height=480, n_dice=4, die_px=(40, 50), plain=True)
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    assert _match(reader.read(grey), scene.dice)[0] >= 3
    rgba = cv2.cvtColor(scene.image, cv2.COLOR_BGR2BGRA)
    assert reader.read(rgba) == reader.read(scene.image)


@pytest.mark.parametrize("bad, why", [
    ("photo.jpg", "numpy image array"),
    (None, "numpy image array"),
    (np.zeros((100, 100, 3), np.float32), "uint8"),
    (np.zeros(100, np.uint8), "H×W×3"),
    (np.zeros((100, 100, 2), np.uint8), "H×W×3"),
    (np.zeros((8, 100, 3), np.uint8), "too small"),
])
def test_bad_input_raises_a_clear_error(reader: DiceReader, bad: object, why: str) -> None:
    with pytest.raises(UnreadableImage, match=re.escape(why)):
        reader.read(bad)  # type: ignore[arg-type]


def test_missing_model_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(ModelMissing, match=re.escape("dice_locator.onnx")):
        DiceReader(models=tmp_path)


def test_the_8bit_classifier_is_the_float_one_made_8bit() -> None:
    """models/ ships the classifier twice: 8-bit for the photo reader, in floats for the die
    finder's centres. On patches of rendered dice and of the table between them, the two read
    the same values and place the centres within a fortieth of a patch."""
    patches = []
    for seed in range(6):
        scene = randomised_scene(np.random.default_rng(seed), width=640, height=480)
        places = [(d.x, d.y, d.size) for d in scene.dice]
        places += [(x, y, 40.0) for x, y in np.random.default_rng(seed).uniform(40, 440, (8, 2))]
        patches += [crop(scene.image, x, y, WINDOW * size) for x, y, size in places]
    outputs = [model_session(MODELS / name, 1).run(None, {"patch": batch(patches)})[0]
               for name in (CLASSIFIER, FLOAT_CLASSIFIER)]
    eight_bit, floats = outputs
    assert len(patches) >= 60
    assert (eight_bit[:, :7].argmax(1) == floats[:, :7].argmax(1)).mean() >= 0.95
    assert np.abs(eight_bit[:, 7:] - floats[:, 7:]).max() < 0.025
