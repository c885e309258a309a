"""Die cut-outs: the turn of a die's top face is read from its outline, whatever it shows."""

from __future__ import annotations

import math
import tracemalloc

import cv2
import numpy as np
import pytest

from vision.calibrate import calibrate, rectify
from vision.features import (
    DIE_VIEW,
    EMBED_CHUNK,
    die_angle,
    die_angle_in,
    die_angles_in,
    embed_dice,
    hog,
)
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
        turn = die_angle(grey, x, y, side)
        off = (turn - labelled + math.pi / 4) % (math.pi / 2) - math.pi / 4
        assert abs(math.degrees(off)) < 5, (item.face, math.degrees(off))
        assert die_angle_in(flat, x, y, side) == pytest.approx(turn, abs=1e-4)


def test_a_dies_turn_read_from_the_part_around_it_is_the_whole_frames() -> None:
    """The turn read from the grey levels around a die is the one read from the whole
    frame's, also where its ring's window leaves the frame (edges repeated alike)."""
    scene = render_table(240000, game="dalek", dice=8)
    flat = rectify(scene.image, calibrate(scene.image))
    grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = grey.shape
    for x, y in [(0.0, 0.0), (w - 1.0, h - 1.0), (5.3, h / 2), (w / 2, 3.7), (w / 3, h / 3)]:
        assert die_angle_in(flat, x, y, 48.0) == pytest.approx(die_angle(grey, x, y, 48.0),
                                                               abs=1e-4)


def test_dice_turns_read_together_are_each_dies_turn_read_alone() -> None:
    """Dice of two sizes, one at the frame's corner, read in one call: each turn is exactly
    the one read for that die alone (the votes of a ring's size are counted together)."""
    scene = render_table(240000, game="dalek", dice=8)
    flat = rectify(scene.image, calibrate(scene.image))
    h, w = flat.shape[:2]
    dice = [(w / 3 + 0.4, h / 3, 48.0), (0.0, 0.0, 48.0), (w / 2, h / 2 - 0.3, 30.5),
            (w - 1.0, h / 4, 30.5), (w / 5, h - 2.5, 48.0)]
    assert die_angles_in(flat, dice) == [die_angle_in(flat, *d) for d in dice[::-1]][::-1]


@pytest.mark.parametrize(("degrees", "bins"), [(0.0, (8, 0)), (10.0, (0,)), (90.0, (4,)),
                                               (170.0, (8,)), (100.0, (4, 5))])
def test_hog_shares_an_edge_between_the_two_nearest_orientation_bins(degrees: float,
                                                                     bins: tuple[int, ...]
                                                                     ) -> None:
    """Bins 20° wide are centred on 10°, 30°, ... 170°: a gradient at 0° (a ramp across) lies
    between the last bin and the first, which share it (orientations wrap at 180°); one at a
    bin's centre lies in that bin (the patch's edge pixels, differences taken one way only,
    turn a little)."""
    t = math.radians(degrees)
    yy, xx = np.mgrid[:16, :16].astype(np.float64)
    ramp = np.asarray((xx * math.cos(t) + yy * math.sin(t)) * 4, np.float32)
    cells = hog(ramp[None])[0].reshape(-1, 4, 9)  # blocks × their four cells × bins
    most = cells.max(axis=(0, 1))
    assert np.flatnonzero(most > most.max() / 4).tolist() == sorted(bins)
    if len(bins) == 2:
        assert cells[..., bins[0]] == pytest.approx(cells[..., bins[1]], abs=0.02)


def test_many_die_patches_embed_as_each_would_alone() -> None:
    # a profile's thousands of views are embedded a chunk at a time (its memory bounded):
    # each embedding is the one the patch gets by itself
    patches = np.random.default_rng(3).integers(0, 256, (EMBED_CHUNK + 5, DIE_VIEW, DIE_VIEW, 3),
                                                dtype=np.uint8)
    together = embed_dice(patches)
    some = [0, EMBED_CHUNK, len(patches) - 1]
    alone = np.concatenate([embed_dice(patches[i:i + 1]) for i in some])
    assert together.shape[0] == len(patches)
    np.testing.assert_allclose(together[some], alone, atol=1e-5)


def test_a_profiles_thousands_of_die_views_embed_in_little_memory() -> None:
    # the Dalek profile's views, turned four ways, took 340 MB at once on a table with 1 GB
    patches = np.random.default_rng(4).integers(0, 256, (2048, DIE_VIEW, DIE_VIEW, 3),
                                                dtype=np.uint8)
    tracemalloc.start()
    try:
        embed_dice(patches)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 80e6, f"{peak / 1e6:.0f} MB"
