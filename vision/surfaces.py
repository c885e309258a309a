"""Table surfaces and the small texture helpers the scene renderers share.

>>> rng = np.random.default_rng(3)
>>> table_surface(rng, 24, 32).shape
(24, 32, 3)
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
FloatImage = NDArray[np.float32]


def noise(rng: np.random.Generator, h: int, w: int, cell: int) -> FloatImage:
    """Smooth value noise in 0..1 (random grid upsampled with cubic interpolation)."""
    gh, gw = max(2, h // cell + 2), max(2, w // cell + 2)
    grid = rng.random((gh, gw), dtype=np.float32)
    big = cv2.resize(grid, (gw * cell, gh * cell), interpolation=cv2.INTER_CUBIC)
    return np.clip(big[:h, :w], 0.0, 1.0).astype(np.float32)


def random_colour(rng: np.random.Generator) -> NDArray[np.float32]:
    return rng.uniform(0, 255, 3).astype(np.float32)


def table_surface(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    """A table surface: wood, felt, tray, cloth pattern or plain desk, with uneven light."""
    kind = rng.choice(["wood", "felt", "tray", "cloth", "plain"])
    base = random_colour(rng)
    if kind == "wood":
        base = np.array([rng.uniform(60, 170), rng.uniform(110, 200), rng.uniform(150, 235)],
                        np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, math.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        warp = noise(rng, h, w, int(rng.integers(40, 160))) * rng.uniform(10, 60)
        grain = 0.5 + 0.5 * np.sin((u + warp) / rng.uniform(3, 12))
        shade = 1.0 - rng.uniform(0.05, 0.3) * grain
        img = base[None, None, :] * shade[..., None]
    elif kind == "felt":
        img = np.broadcast_to(base, (h, w, 3)) * (0.9 + 0.2 * noise(rng, h, w, 3)[..., None])
    elif kind == "tray":
        img = np.empty((h, w, 3), np.float32)
        img[:] = rng.uniform(120, 240) * np.array([1.0, 1.0, rng.uniform(0.9, 1.1)], np.float32)
        m = int(rng.integers(0, max(1, min(h, w) // 6)))
        if m > 4:
            wall = random_colour(rng) * 0.6
            img[:m] = wall
            img[-m:] = wall
            img[:, :m] = wall
            img[:, -m:] = wall
        img *= (0.95 + 0.1 * noise(rng, h, w, 2))[..., None]
    elif kind == "cloth":
        other = random_colour(rng)
        period = int(rng.integers(8, 60))
        yy, xx = np.mgrid[0:h, 0:w]
        pat = rng.integers(0, 3)
        if pat == 0:
            mask = ((xx // period + yy // period) % 2).astype(np.float32)
        elif pat == 1:
            mask = ((xx // period) % 2).astype(np.float32)
        else:
            mask = (noise(rng, h, w, period) > 0.5).astype(np.float32)
        img = base * (1 - mask[..., None]) + other * mask[..., None]
        img *= (0.92 + 0.16 * noise(rng, h, w, 2))[..., None]
    else:
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32)
    light = 0.75 + 0.5 * noise(rng, h, w, max(h, w) // 2)
    return np.ascontiguousarray(img * light[..., None], dtype=np.float32)
