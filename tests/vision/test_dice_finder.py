"""The die finder's centres of Dalek dice on a rectified sheet."""

from __future__ import annotations

import numpy as np

from vision.calibrate import calibrate, rectify
from vision.dice_finder import DieFinder, one_each
from vision.face_reader import HEAT, FaceReader
from vision.locate import Candidate
from vision.profile import default
from vision.sheet import PX_PER_MM
from vision.table_scene import render_table


def test_the_sheet_centre_network_centres_dalek_dice_as_the_centre_head_does() -> None:
    finder = DieFinder(threads=1)
    reader = FaceReader(default("dalek"), finder=finder)
    side = reader.profile.side_mm * PX_PER_MM
    off: dict[bool, list[float]] = {False: [], True: []}
    for seed in (41, 42):
        scene = render_table(seed, game="dalek", dice=10)
        found = calibrate(scene.image)
        flat = rectify(scene.image, found)
        truth = found.to_sheet(np.array([item.centre for item in scene.items])) * PX_PER_MM
        candidates = finder.candidates(*reader.looked_at(flat, side), threshold=HEAT)
        for sheet in (False, True):
            centres = np.array([(c.x, c.y) for c in
                                finder.centred(flat, candidates, side, sheet=sheet)])
            off[sheet] += [float(np.hypot(*(centres - t).T).min()) for t in truth]
    assert max(off[True]) < 0.1 * side  # every die's centre found within 5 px
    assert np.mean(off[True]) < np.mean(off[False]) + 0.5  # as near as the head's, on average


def test_settling_gives_each_candidate_once_where_centred_puts_it_beside_or_not() -> None:
    """The looks step by step (the next look on a worker thread, or not) end with the same
    centres as centred(), each candidate given once; merged one per die, they are its answer."""
    finder = DieFinder(threads=1)
    reader = FaceReader(default("dalek"), finder=finder)
    side = reader.profile.side_mm * PX_PER_MM
    scene = render_table(43, game="dalek", dice=10)
    flat = rectify(scene.image, calibrate(scene.image))
    candidates = finder.candidates(*reader.looked_at(flat, side), threshold=HEAT)
    for sheet in (False, True):
        expected = finder.centred(flat, candidates, side, sheet=sheet)
        for beside in (False, True):
            steps = list(finder.settling(flat, candidates, side, sheet=sheet, beside=beside))
            given = [pair for step in steps for pair in step]
            assert sorted(i for i, _ in given) == list(range(len(candidates)))
            centred = [c for _, c in sorted(given, key=lambda pair: pair[0])]
            assert [centred[i] for i in one_each(centred)] == expected
    assert len(steps) > 1  # some candidates are given before the second look ends


def test_one_each_keeps_the_first_of_candidates_on_one_die() -> None:
    a, b = Candidate(100, 100, 40, 0.9), Candidate(110, 104, 40, 0.8)  # 11 px apart: one die
    c = Candidate(160, 100, 40, 0.7)
    assert one_each([a, b, c]) == [0, 2]
    assert one_each([b, a, c]) == [0, 2]
    assert one_each([]) == []
