"""Scoring dice reads against labels (``vision.evaluate``), with literal reads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.datasets import LabelledDie
from vision.dice import DieRead
from vision.evaluate import (
    DieOutcome,
    ReadOutcome,
    score_image,
    size_bins,
    summarise,
    wilson_interval,
)


def _read(value: int | None, x: float, y: float, confidence: float = 0.9) -> DieRead:
    return DieRead(value, x, y, confidence)


def test_right_wrong_not_sure_false_and_ignored_reads() -> None:
    dice = [LabelledDie(1, (0, 0, 10, 10)), LabelledDie(2, (20, 0, 30, 10)),
            LabelledDie(3, (40, 0, 50, 10)), LabelledDie(4, (60, 0, 70, 10))]
    reads = [_read(1, 5, 5), _read(5, 25, 5), _read(None, 45, 5), _read(6, 100, 100),
             _read(2, 200, 5), _read(None, 300, 5)]
    score = score_image(reads, dice, ignore=[(190, 0, 210, 10)])
    assert score.reads == (ReadOutcome.CORRECT, ReadOutcome.WRONG_VALUE, ReadOutcome.NOT_SURE,
                           ReadOutcome.FALSE, ReadOutcome.IGNORED, ReadOutcome.FALSE)
    assert score.dice == (DieOutcome.READ, DieOutcome.WRONG_VALUE, DieOutcome.MISSED,
                          DieOutcome.MISSED)
    assert score.match == (0, 1, 2, None, None, None)
    assert (score.correct, score.wrong_value, score.missed, score.false_dice) == (1, 1, 2, 2)
    assert score.confusion == ((1, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0, 0),
                               (0, 0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0, 1),
                               (0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0))
    assert not score.exact


def test_box_edges_count_as_inside() -> None:
    score = score_image([_read(6, 10, 0)], [LabelledDie(6, (0, 0, 10, 10))])
    assert score.exact


def test_a_second_read_of_one_die_is_a_false_die() -> None:
    score = score_image([_read(3, 4, 4, 0.6), _read(3, 5, 5, 0.9)],
                        [LabelledDie(3, (0, 0, 10, 10))])
    assert score.correct == 1
    assert score.reads == (ReadOutcome.FALSE, ReadOutcome.CORRECT)  # the surer read counts


def test_overlapping_boxes_credit_every_die_some_assignment_can() -> None:
    # The surer read lies in both boxes, nearer the first; the other read only in the first.
    # A greedy match would give the first box to the surer read and leave a die missed.
    dice = [LabelledDie(2, (0, 0, 20, 20)), LabelledDie(2, (10, 0, 30, 20))]
    reads = [_read(2, 12, 10, 0.99), _read(2, 3, 10, 0.5)]
    score = score_image(reads, dice)
    assert score.exact
    assert score.match == (1, 0)


def test_a_right_value_beats_a_nearer_box_with_another_value() -> None:
    dice = [LabelledDie(5, (0, 0, 20, 20)), LabelledDie(3, (12, 0, 32, 20))]
    score = score_image([_read(5, 15, 10)], dice)
    assert score.dice == (DieOutcome.READ, DieOutcome.MISSED)
    assert score.false_dice == 0


def test_a_not_sure_read_never_takes_a_die_from_a_sure_one() -> None:
    dice = [LabelledDie(4, (0, 0, 20, 20))]
    score = score_image([_read(None, 10, 10, 0.99), _read(4, 11, 11, 0.3)], dice)
    assert score.dice == (DieOutcome.READ,)
    assert score.reads == (ReadOutcome.FALSE, ReadOutcome.CORRECT)


def test_an_empty_image_with_no_reads_is_exact() -> None:
    score = score_image([], [])
    assert score.exact and score.confusion == ((0,) * 7,) * 6


def test_summary_adds_up_images_and_gives_latency_and_wilson() -> None:
    die = LabelledDie(6, (0, 0, 10, 10))
    scores = [score_image([_read(6, 5, 5)], [die]),
              score_image([_read(6, 5, 5), _read(1, 50, 50)], [die]),
              score_image([_read(2, 5, 5)], [die, LabelledDie(1, (20, 20, 30, 30))])]
    summary = summarise(scores, [10.0, 20.0, 30.0])
    assert (summary.dice_total, summary.dice_correct, summary.dice_wrong_value,
            summary.dice_missed, summary.false_dice) == (4, 2, 1, 1, 1)
    assert (summary.images_total, summary.images_exact) == (3, 1)
    assert summary.confusion[5] == (0, 1, 0, 0, 0, 2, 0)
    assert summary.confusion[0] == (0, 0, 0, 0, 0, 0, 1)
    assert summary.accuracy == 0.5
    assert summary.false_dice_rate == 0.25
    assert summary.accuracy_wilson95 == wilson_interval(2, 4)
    assert summary.latency_median_ms == 20.0
    assert summary.latency_p95_ms == pytest.approx(29.0)


def test_an_empty_summary_has_no_rates() -> None:
    summary = summarise([])
    assert summary.dice_total == 0
    assert summary.accuracy is None and summary.accuracy_wilson95 is None
    assert summary.latency_median_ms is None and summary.latency_p95_ms is None


@pytest.mark.parametrize("successes, total, low, high", [
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (5, 10, 0.2366, 0.7634),
])
def test_wilson_interval_matches_published_values(
        successes: int, total: int, low: float, high: float) -> None:
    assert wilson_interval(successes, total) == pytest.approx((low, high), abs=5e-5)


coords = st.floats(0, 100, allow_nan=False)
dice_st = st.lists(st.builds(
    lambda v, x, y, w, h: LabelledDie(v, (x, y, x + w, y + h)),
    st.integers(1, 6), coords, coords, st.floats(1, 40), st.floats(1, 40)), max_size=8)
reads_st = st.lists(st.builds(DieRead, st.none() | st.integers(1, 6), coords, coords,
                              st.floats(0, 1), st.just(0.0) | st.floats(1, 300)), max_size=10)


@given(dice_st, reads_st)
def test_every_die_and_read_is_accounted_for_once(
        dice: list[LabelledDie], reads: list[DieRead]) -> None:
    score = score_image(reads, dice)
    assert score.correct + score.wrong_value + score.missed == len(dice)
    bins = size_bins([score])
    assert sum(b.dice for b in bins) == len(dice)
    assert sum(b.correct for b in bins) == score.correct
    assert sum(b.false_dice for b in bins) == sum(  # reads of unknown size fall in no bin
        r.size > 0 for r, o in zip(reads, score.reads, strict=True)
        if o is ReadOutcome.FALSE)
    matched = [j for j in score.match if j is not None]
    assert len(matched) == len(set(matched))
    for read, j in zip(reads, score.match, strict=True):
        if j is not None:
            x0, y0, x1, y1 = dice[j].box
            assert x0 <= read.x <= x1 and y0 <= read.y <= y1
    assert score.false_dice == score.match.count(None)
    for value in range(1, 7):
        assert sum(score.confusion[value - 1]) == sum(d.value == value for d in dice)
    # No die that a sure read of its value lies in is left unread while that read is free.
    for read, outcome in zip(reads, score.reads, strict=True):
        if outcome is ReadOutcome.FALSE and read.value is not None:
            assert not any(die.value == read.value and outcome_j is not DieOutcome.READ
                           and die.box[0] <= read.x <= die.box[2]
                           and die.box[1] <= read.y <= die.box[3]
                           for die, outcome_j in zip(dice, score.dice, strict=True))
