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


SURFACES = ("table", "carpet", "granite", "marble", "stone", "terrazzo", "dots", "weave",
            "paper")
"""What random_surface draws: "table" is one of table_surface's kinds; the rest are drawn here."""


def random_surface(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    """Any of SURFACES with uneven light: the table surfaces, carpet, speckled granite, veined
    marble, glossy stone with reflected lamps, terrazzo chips, polka-dot cloth, fine weave or
    plain paper. Speckle, chips and dots are the size of pips: the reader must learn that they
    are not dice.

    >>> rng = np.random.default_rng(5)
    >>> {random_surface(rng, 30, 40).shape for _ in range(12)}
    {(30, 40, 3)}
    """
    kind = str(rng.choice(SURFACES))
    if kind == "table":
        return table_surface(rng, h, w)
    img = _SURFACE_MAKERS[kind](rng, h, w)
    light = 0.7 + 0.6 * noise(rng, h, w, max(h, w) // 2)
    return np.ascontiguousarray(img * light[..., None], dtype=np.float32)


def _colour_near(rng: np.random.Generator, base: NDArray[np.float32],
                 spread: float) -> NDArray[np.float32]:
    return np.clip(base + rng.normal(0, spread, 3), 0, 255).astype(np.float32)


def _speckle(rng: np.random.Generator, img: FloatImage, density: float,
             radius: tuple[float, float], colours: list[NDArray[np.float32]]) -> None:
    """Scatter round flecks (density per pixel, radius in pixels) in the given colours."""
    h, w = img.shape[:2]
    n = int(density * h * w)
    xs, ys = rng.uniform(0, w, n), rng.uniform(0, h, n)
    rs = rng.uniform(*radius, n)
    which = rng.integers(0, len(colours), n)
    for x, y, r, k in zip(xs, ys, rs, which, strict=True):
        colour = tuple(float(c) for c in colours[k])
        if r < 1.0:
            img[int(y), int(x)] = colours[k]
        else:
            cv2.circle(img, (int(x * 4), int(y * 4)), int(r * 4), colour, -1, cv2.LINE_AA,
                       shift=2)


def _carpet(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    base = random_colour(rng) * rng.uniform(0.4, 1.0)
    fibre = rng.random((h, w), dtype=np.float32)
    fibre = np.asarray(cv2.GaussianBlur(fibre, (0, 0), rng.uniform(0.5, 1.2)), np.float32)
    fibre = (fibre - fibre.mean()) / (fibre.std() + 1e-6)
    tufts = noise(rng, h, w, int(rng.integers(3, 8))) - 0.5
    shade = 1.0 + rng.uniform(0.08, 0.25) * fibre + rng.uniform(0.1, 0.4) * tufts
    img = base[None, None, :] * shade[..., None]
    if rng.random() < 0.5:  # flecks of other yarn colours
        mask = noise(rng, h, w, int(rng.integers(2, 5))) > rng.uniform(0.7, 0.85)
        img[mask] = random_colour(rng) * (0.7 + 0.3 * fibre[mask, None].clip(-1, 1))
    return np.asarray(img, np.float32)


def _granite(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    base = _colour_near(rng, np.full(3, rng.uniform(40, 200), np.float32), 25)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img *= (0.9 + 0.2 * noise(rng, h, w, 6))[..., None]
    for v in rng.uniform(0, 255, int(rng.integers(2, 5))):  # grains of each mineral
        grain = noise(rng, h, w, int(rng.integers(1, 5))) > rng.uniform(0.72, 0.9)
        img[grain] = _colour_near(rng, np.full(3, v, np.float32), 30)
    return img


def _marble(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    base = _colour_near(rng, np.full(3, rng.uniform(150, 240), np.float32), 15)
    vein = _colour_near(rng, np.full(3, rng.uniform(30, 140), np.float32), 20)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, math.pi)
    u = xx * math.cos(ang) + yy * math.sin(ang)
    turb = noise(rng, h, w, 24) * 0.3 + noise(rng, h, w, 96)
    lines = np.abs(np.sin((u / rng.uniform(60, 250) + turb * rng.uniform(0.5, 2.0)) * math.pi))
    strength = (1 - lines) ** rng.uniform(20, 80) * rng.uniform(0.4, 1.0)
    img = base * (1 - strength[..., None]) + vein * strength[..., None]
    return np.asarray(img, np.float32)


def _stone(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    """Polished stone or lacquer: a dark smooth surface reflecting one or two lamps."""
    base = random_colour(rng) * rng.uniform(0.15, 0.6)
    img = base[None, None, :] * (0.8 + 0.4 * noise(rng, h, w, max(8, min(h, w) // 8)))[..., None]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        ax, ay = rng.uniform(0.05, 0.3) * w, rng.uniform(0.03, 0.2) * h
        glow = np.exp(-(((xx - cx) / ax) ** 2 + ((yy - cy) / ay) ** 2))
        img = img + (255 - img) * (glow * rng.uniform(0.4, 0.9))[..., None]
    return np.asarray(img, np.float32)


def _terrazzo(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    img = np.empty((h, w, 3), np.float32)
    img[:] = _colour_near(rng, np.full(3, rng.uniform(120, 230), np.float32), 20)
    colours = [random_colour(rng) for _ in range(int(rng.integers(2, 6)))]
    _speckle(rng, img, rng.uniform(0.001, 0.006), (1.5, rng.uniform(4, 12)), colours)
    return img


def _dots(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    """Cloth printed with dots in a grid, as pips are."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = random_colour(rng)
    dot = tuple(float(c) for c in random_colour(rng))
    period = rng.uniform(8, 40)
    radius = period * rng.uniform(0.12, 0.3)
    stagger = rng.random() < 0.5
    for j, y in enumerate(np.arange(rng.uniform(0, period), h + period, period)):
        shift = period / 2 if stagger and j % 2 else 0.0
        for x in np.arange(rng.uniform(0, period) + shift, w + period, period):
            cv2.circle(img, (int(x * 4), int(y * 4)), int(radius * 4), dot, -1, cv2.LINE_AA,
                       shift=2)
    return img


def _weave(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    """Tablecloth or felt with a fine woven grid and perhaps a check."""
    base, other = random_colour(rng), random_colour(rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2, 6)
    grid = 0.5 + 0.25 * (np.sin(xx * 2 * math.pi / period) + np.sin(yy * 2 * math.pi / period))
    img = base[None, None, :] * (0.85 + 0.3 * grid)[..., None]
    if rng.random() < 0.5:
        check = int(rng.integers(10, 80))
        mask = ((xx // check + yy // check) % 2).astype(np.float32) * rng.uniform(0.3, 1.0)
        img = img * (1 - mask[..., None]) + other * (0.85 + 0.3 * grid)[..., None] * mask[..., None]
    return np.asarray(img, np.float32)


def _paper(rng: np.random.Generator, h: int, w: int) -> FloatImage:
    """White or grey paper, card or a light tray: nearly plain, faint grain."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = _colour_near(rng, np.full(3, rng.uniform(150, 250), np.float32), 8)
    img *= (0.96 + 0.08 * noise(rng, h, w, 2))[..., None]
    return img


_SURFACE_MAKERS = {"carpet": _carpet, "granite": _granite, "marble": _marble, "stone": _stone,
                   "terrazzo": _terrazzo, "dots": _dots, "weave": _weave, "paper": _paper}
