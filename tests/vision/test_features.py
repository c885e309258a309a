"""Die cut-outs: the turn of a die's top face is read from its outline, whatever it shows."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.calibrate import calibrate, rectify
from vision.features import die_angle
from vision.sheet import PX_PER_MM
from vision.table_scene import render_table


@pytest.mark.parametrize(("game", "style", "seed"), [("dicy", "pictures", 240013),
                                                     ("dalek", "pop", 240000),
                                                     ("dalek", "classic", 240000),
                                                     ("dalek", "ink", 240000)])
def test_a_dies_turn_is_read_from_its_outline_not_its_picture(game: str, style: str,
                                                             seed: int) -> None:
    """Pale dice with bold pictures on a pale sheet (a picture's edges turned the old reading
    by up to 45°): each die's turn is read within a few degrees of its labelled corners', at
    its labelled centre on the rectified sheet."""
    scene = render_table(seed, game=game, style=style, dice=8 if game == "dalek" else None)
    found = calibrate(scene.image)
    flat = rectify(scene.image, found)
    grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    dice = [i for i in scene.items if i.kind in ("d6", "dalek")]
    assert len(dice) >= 5
    for item in dice:
        quad = found.to_sheet(np.array(item.quad, np.float64)) * PX_PER_MM
        x, y = quad.mean(axis=0)
        side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
        labelled = math.atan2(quad[1, 1] - quad[0, 1], quad[1, 0] - quad[0, 0])
        off = (die_angle(grey, x, y, side) - labelled + math.pi / 4) % (math.pi / 2) - math.pi / 4
        assert abs(math.degrees(off)) < 5, (item.face, math.degrees(off))
