"""The real-photo bar: the shipped reader on the test splits of ../shared/datasets."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.datasets import LabelledDie, decode, load
from vision.evaluate import Summary, score_image, summarise
from vision.reader import DiceReader

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
SETS = ("byler-d6", "matteop65-dice")
# What the shipped models reach (models/README.md): a floor that catches regressions.
FLOOR = {"byler-d6": (0.98, 0.01), "matteop65-dice": (0.99, 0.01)}


@pytest.fixture(scope="module")
def summaries() -> dict[str, Summary]:
    reader = DiceReader(threads=2)
    out = {}
    for name in SETS:
        root = SHARED / name
        if not root.is_dir():
            pytest.skip(f"{root} is absent: the real-photo tests need ../shared/datasets")
        data = load(root).select("test")
        assert not data.problems
        scores = []
        for entry in data.entries:
            sample = decode(entry)
            scores.append(score_image(reader.read(sample.image), sample.dice, sample.ignore))
        out[name] = summarise(scores)
    return out


def _describe(name: str, s: Summary) -> str:
    return (f"{name}: {s.dice_correct}/{s.dice_total} read right, {s.dice_wrong_value} wrong, "
            f"{s.dice_missed} missed, {s.false_dice} false dice")


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
def test_shipped_models_keep_their_figures(summaries: dict[str, Summary], name: str) -> None:
    s = summaries[name]
    right, false = FLOOR[name]
    assert s.dice_total > 200
    assert s.dice_correct >= right * s.dice_total, _describe(name, s)
    assert s.false_dice <= false * s.dice_total, _describe(name, s)


@pytest.mark.slow
@pytest.mark.parametrize("name", [
    pytest.param("byler-d6", marks=pytest.mark.xfail(
        strict=True, reason="byler-d6 falls short: 306/309 (99.03 %) read right with its "
        "corrected labels, two dice under 99.5 %; the three misses are swirled or smoky dice "
        "(issue 10). See models/README.md")),
    pytest.param("matteop65-dice", marks=pytest.mark.xfail(
        strict=True, reason="matteop65-dice reads 254/255 right but 2 false dice (0.78 %), "
        "over 0.5 %: both are real dice its labels leave out (valid_9.jpg, valid_23.jpg; "
        "issue 10). See models/README.md")),
])
def test_real_photo_bar_on_each_test_split(summaries: dict[str, Summary], name: str) -> None:
    s = summaries[name]
    assert s.dice_correct >= 0.995 * s.dice_total, _describe(name, s)
    assert s.false_dice <= 0.005 * s.dice_total, _describe(name, s)


def test_a_photo_of_12_megapixels_whose_dice_are_small_is_read() -> None:
    # A wide view: the dice are 30-50 px of 4000 (10-16 px once shrunk for the locator), and
    # the largest things the locator half sees there are the tray's edges, not dice.
    root = SHARED / "byler-d6"
    if not root.is_dir():
        pytest.skip(f"{root} is absent: this test puts one of its train photos in a wide view")
    [entry] = [e for e in load(root).select("train").entries
               if e.file == "images/IMG_20191208_111316.jpg"]
    sample = decode(entry)
    h, w = sample.image.shape[:2]  # in the middle, the table round it the colour of its edges
    wide = np.empty((3000, 4000, 3), np.uint8)
    image = sample.image
    wide[:] = np.median(np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]), axis=0)
    x0, y0 = (4000 - w) // 2, (3000 - h) // 2
    wide[y0:y0 + h, x0:x0 + w] = image
    dice = tuple(LabelledDie(d.value, (d.box[0] + x0, d.box[1] + y0, d.box[2] + x0,
                                       d.box[3] + y0)) for d in sample.dice)
    score = summarise([score_image(DiceReader(threads=2).read(wide), dice, ())])
    assert len(dice) == 22
    assert score.dice_correct >= 20 and score.false_dice == 0, _describe("wide", score)
