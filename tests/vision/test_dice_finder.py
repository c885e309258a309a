"""The die finder's centres of Dalek dice on a rectified sheet."""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibrate import calibrate, rectify
from vision.classify import CROP, crop
from vision.dice_finder import DieFinder
from vision.face_reader import HEAT, FaceReader
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


def test_a_larger_patch_is_shrunk_bilinearly_when_asked_not_averaged() -> None:
    """The sheet's centring crops its 67 px patches to 48 bilinearly (a fifth of the work of
    averaging): fine stripes are sampled there, averaged otherwise."""
    stripes = np.zeros((200, 200, 3), np.uint8)
    stripes[:, ::2] = 255
    averaged = crop(stripes, 100, 100, 67.2)
    bilinear = crop(stripes, 100, 100, 67.2, area=False)
    assert np.array_equal(bilinear, cv2.resize(stripes[66:133, 66:133], (CROP, CROP),
                                               interpolation=cv2.INTER_LINEAR))
    assert float(averaged.std()) < float(bilinear.std())
