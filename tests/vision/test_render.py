"""The synthetic scene renderer: deterministic, labels exact."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import vision.render as render
from vision.render import PIPS, Camera, randomised_scene, render_scene


def test_same_seed_same_scene_and_sizes_as_asked() -> None:
    a = render_scene(3, width=400, height=300, n_dice=5)
    b = render_scene(3, width=400, height=300, n_dice=5)
    assert a.image.shape == (300, 400, 3) and a.image.dtype == np.uint8
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    assert not np.array_equal(a.image, render_scene(4, width=400, height=300, n_dice=5).image)


def test_dice_lie_inside_the_image_and_do_not_overlap() -> None:
    for seed in range(5):
        scene = render_scene(seed, width=640, height=480, n_dice=12, die_px=(30, 50))
        assert 6 <= len(scene.dice) <= 12
        for d in scene.dice:
            assert 30 <= d.size <= 50 and 1 <= d.value <= 6
            x0, y0, x1, y1 = d.bbox
            assert x0 >= 0 and y0 >= 0 and x1 <= 640 and y1 <= 480
        for i, a in enumerate(scene.dice):
            for b in scene.dice[i + 1:]:
                assert math.hypot(a.x - b.x, a.y - b.y) > (a.size + b.size) / 2


def _pips_at(image: np.ndarray, x: float, y: float, size: float) -> int:
    """Dark blobs of at least half a pip's area (a plain die's pips are 0.09 sides across)
    inside the top face's inscribed circle."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    disc = np.zeros_like(gray)
    cv2.circle(disc, (round(x), round(y)), round(size * 0.47), 255, -1)
    dark = ((gray < 90) & (disc > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    pip_area = math.pi * (0.09 * size) ** 2
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.5 * pip_area)


@pytest.mark.parametrize("lean", [0.0, 0.3])
def test_each_label_has_its_number_of_pips_at_its_centre(lean: float) -> None:
    for seed in range(4):
        scene = render_scene(seed, width=640, height=480, n_dice=8, die_px=(44, 60),
                             lean=lean, plain=True, distractors=0)
        for d in scene.dice:
            assert _pips_at(scene.image, d.x, d.y, d.size) == d.value == len(PIPS[d.value])


def test_randomised_scenes_are_seeded_and_label_top_faces_inside_the_image() -> None:
    a = randomised_scene(11, width=480, height=360)
    assert np.array_equal(a.image, randomised_scene(11, width=480, height=360).image)
    sizes = []
    for seed in range(8):
        scene = randomised_scene(seed, width=480, height=360)
        assert scene.image.shape == (360, 480, 3) and scene.image.dtype == np.uint8
        for d in scene.dice:
            assert 1 <= d.value <= 6
            margin = 0.19 * d.size  # a die may be cut by the border, its centre stays a fifth in
            assert margin <= d.x <= 480 - margin and margin <= d.y <= 360 - margin
            sizes.append(d.size)
    assert len(sizes) >= 16 and min(sizes) < 40 and max(sizes) > 80  # 15..200 px at the centre


def test_a_tilted_camera_sees_the_far_table_smaller() -> None:
    straight = Camera(500.0, 0.0, 0.0, 640, 480).to_image
    assert np.allclose(straight @ [10.0, -20.0, 1.0], [330.0, 220.0, 1.0])
    tilted = np.linalg.inv(Camera(500.0, math.radians(30), 0.0, 640, 480).to_image)

    def table_step(y: float) -> float:
        """Length of table one image pixel covers at (320, y), in straight-down pixels."""
        a, b = tilted @ [320.0, y, 1.0], tilted @ [320.0, y + 1.0, 1.0]
        return float(np.linalg.norm(a[:2] / a[2] - b[:2] / b[2]))

    near, far = sorted([table_step(0.0), table_step(479.0)])
    assert far > 1.5 * near


def test_a_share_of_coloured_dice_are_smoky_dark_with_red_pips() -> None:
    rng = np.random.default_rng(0)
    looks = [render._look(rng, plain=False) for _ in range(2000)]
    smoky = [look for look in looks if look.material == "marble"]
    assert abs(len(smoky) / len(looks) - render.SMOKY_SHARE) < 0.03
    for look in smoky:
        assert look.body.mean() < 100 and look.opacity == 1.0  # a dark, solid body
        assert look.pip[2] > max(look.pip[0], look.pip[1]) + 30  # red pips (BGR)


def test_whether_a_die_is_smoky_moves_no_other_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    def shapes(share: float) -> list[tuple[float, ...]]:
        monkeypatch.setattr(render, "SMOKY_SHARE", share)
        rng = np.random.default_rng(1)
        looks = [render._look(rng, plain=False) for _ in range(200)]
        return [(lk.corner, lk.bevel, lk.spread, lk.radius, lk.one, lk.engraved, lk.glare)
                for lk in looks]
    assert shapes(0.0) == shapes(1.0)
