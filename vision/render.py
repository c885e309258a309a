"""Synthetic table scenes with dice and exact labels, for tests, benchmarks and training.

Each die is drawn as its top face (a rounded square with pips, any rotation) and, when the
camera looks slightly askew, the side faces it shows, with a shadow, glare, and a body that
may be white, coloured, dark, swirled or translucent. Backgrounds imitate wood, felt, dice
trays and patterned cloth; a few non-dice objects are scattered as distractors.

>>> scene = render_scene(7, width=320, height=240, n_dice=3, die_px=(30, 40))
>>> scene.image.shape, len(scene.dice)
((240, 320, 3), 3)
>>> all(1 <= d.value <= 6 for d in scene.dice)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.surfaces import FloatImage, Image, noise, random_colour, table_surface

#: Pip centres of each face on a unit square centred at 0 (before rotation).
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-1.0, -1.0), (1.0, 1.0)),
    3: ((-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)),
    4: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)),
    5: ((-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
    6: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 0.0), (1.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
}

_TEX = 96  # side of a face texture before it is warped into the scene

_BODY = {  # BGR body colours and the pip colours that go with them
    "white": ((235, 238, 240), ((20, 20, 20), (30, 30, 200), (150, 60, 20))),
    "ivory": ((200, 225, 235), ((25, 25, 25), (30, 30, 180))),
    "red": ((40, 40, 200), ((240, 240, 240), (20, 20, 20), (60, 200, 230))),
    "blue": ((170, 80, 30), ((240, 240, 240), (60, 200, 230))),
    "green": ((70, 150, 40), ((240, 240, 240), (20, 20, 20))),
    "yellow": ((40, 210, 235), ((20, 20, 20), (40, 40, 190))),
    "purple": ((120, 40, 100), ((235, 235, 235), (60, 200, 230))),
    "black": ((30, 30, 30), ((235, 235, 235), (40, 40, 210), (60, 190, 230))),
    "brown": ((40, 90, 150), ((20, 20, 20), (230, 230, 230))),
    "teal": ((120, 120, 20), ((235, 235, 235), (20, 20, 20))),
}


@dataclass(frozen=True)
class RenderedDie:
    """Ground truth for one rendered die: value, top-face centre and side in pixels."""

    value: int
    x: float
    y: float
    size: float

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        """Axis-aligned box (x0, y0, x1, y1) that holds the top face at any rotation."""
        h = self.size * 0.72
        return (self.x - h, self.y - h, self.x + h, self.y + h)


@dataclass(frozen=True)
class Scene:
    """A rendered BGR image and the dice in it."""

    image: Image
    dice: tuple[RenderedDie, ...]


def _face_texture(rng: np.random.Generator, value: int, body: NDArray[np.float32],
                  pip: NDArray[np.float32], swirl: FloatImage | None,
                  shade: float) -> tuple[FloatImage, FloatImage]:
    """One die face (colour, alpha) drawn on a _TEX square, rounded, with pips."""
    t = _TEX
    col = np.empty((t, t, 3), np.float32)
    col[:] = body
    if swirl is not None:
        col = col * (1 - swirl[..., None]) + swirl[..., None] * (255 - body) * 0.8
    yy, xx = np.mgrid[0:t, 0:t].astype(np.float32)
    edge = np.minimum(np.minimum(xx, t - 1 - xx), np.minimum(yy, t - 1 - yy)) / t
    bevel = np.clip(edge / 0.08, 0, 1) ** 0.5
    col *= (0.7 + 0.3 * bevel)[..., None] * shade
    spread = rng.uniform(0.24, 0.31) * t
    radius = rng.uniform(0.075, 0.11) * t
    for px, py in PIPS[value]:
        cx, cy = t / 2 + px * spread, t / 2 + py * spread
        d = np.hypot(xx - cx, yy - cy)
        inside = np.clip(radius + 0.7 - d, 0, 1)
        rim = np.clip(1.0 - np.abs(d - radius) / 2.0, 0, 1) * 0.3
        col = col * (1 - inside[..., None]) + pip * shade * inside[..., None]
        col *= (1 - rim)[..., None]
    alpha = np.ones((t, t), np.float32)
    corner = rng.uniform(0.08, 0.2) * t
    for cx, cy in ((corner, corner), (t - corner, corner), (corner, t - corner),
                   (t - corner, t - corner)):
        region = (np.abs(xx - t / 2) > t / 2 - corner) & (np.abs(yy - t / 2) > t / 2 - corner)
        near = region & (np.abs(xx - cx) < corner) & (np.abs(yy - cy) < corner)
        d = np.hypot(xx - cx, yy - cy)
        alpha = np.where(near, np.clip(corner - d + 0.5, 0, 1), alpha)
    return col, alpha


def _paste(canvas: FloatImage, col: FloatImage, alpha: FloatImage,
           quad: NDArray[np.float32], opacity: float) -> None:
    """Warp a texture onto the quadrilateral quad (4×2, corners clockwise from top-left)."""
    t = col.shape[0]
    src = np.array([[0, 0], [t, 0], [t, t], [0, t]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    mm = shift @ m
    size = (int(x1 - x0), int(y1 - y0))
    c = cv2.warpPerspective(col, mm, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    a = cv2.warpPerspective(alpha, mm, size, flags=cv2.INTER_LINEAR) * opacity
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a[..., None]) + c * a[..., None]


def _square(cx: float, cy: float, size: float, angle: float) -> NDArray[np.float32]:
    c, s = math.cos(angle), math.sin(angle)
    pts = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    return np.array([(cx + size * (c * u - s * v), cy + size * (s * u + c * v)) for u, v in pts],
                    np.float32)


def draw_die(rng: np.random.Generator, canvas: FloatImage, die: RenderedDie,
              angle: float, lean: tuple[float, float], light: tuple[float, float],
              plain: bool) -> None:
    """Shadow, visible side faces, then the top face with glare (plain: white die, black
    pips, no swirl, translucency or glare)."""
    name = "white" if plain else str(rng.choice(list(_BODY)))
    body_bgr, pips = _BODY[name]
    body = np.array(body_bgr, np.float32)
    pip = np.array(pips[0], np.float32)
    swirl = None
    opacity = 1.0
    if not plain:
        body = np.clip(body * rng.uniform(0.8, 1.15) + rng.normal(0, 12, 3), 0, 255)
        body = body.astype(np.float32)
        pip = np.array(pips[int(rng.integers(len(pips)))], np.float32)
        if rng.random() < 0.2:
            swirl = (noise(rng, _TEX, _TEX, int(rng.integers(10, 30))) > 0.55).astype(np.float32)
            swirl = cv2.GaussianBlur(swirl, (0, 0), 2.0) * rng.uniform(0.3, 0.7)
        opacity = rng.uniform(0.75, 0.92) if rng.random() < 0.12 else 1.0
    top = _square(die.x, die.y, die.size, angle)
    bottom = top - np.array(lean, np.float32) * die.size
    # Shadow: a blurred dark copy of the footprint, pushed away from the light.
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.float32)
    foot = np.concatenate([top, bottom]) + np.array(light, np.float32) * die.size
    hull = cv2.convexHull(foot.astype(np.float32))
    cv2.fillConvexPoly(mask, np.round(hull).astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    soft = cv2.GaussianBlur(mask, (0, 0), die.size * 0.12 + 0.5)
    canvas *= (1 - rng.uniform(0.2, 0.5) * soft)[..., None]
    # Side faces: an edge of the top face whose outward normal points along the lean.
    others = [v for v in range(1, 7) if v not in (die.value, 7 - die.value)]
    for i in range(4):
        a, b = top[i], top[(i + 1) % 4]
        normal = np.array([b[1] - a[1], a[0] - b[0]], np.float32)
        if float(normal @ np.array(lean, np.float32)) >= 0:
            continue
        quad = np.array([a, b, b - (top[0] - bottom[0]), a - (top[0] - bottom[0])], np.float32)
        shade = rng.uniform(0.55, 0.85)
        col, alpha = _face_texture(rng, int(rng.choice(others)), body, pip, swirl, shade)
        _paste(canvas, col, alpha, quad, opacity)
    col, alpha = _face_texture(rng, die.value, body, pip, swirl, rng.uniform(0.9, 1.08))
    if not plain and rng.random() < 0.5:  # glare: a soft bright spot on the face or a pip
        yy, xx = np.mgrid[0:_TEX, 0:_TEX].astype(np.float32)
        gx, gy = rng.uniform(0.15, 0.85, 2) * _TEX
        r = rng.uniform(0.04, 0.2) * _TEX
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)) * rng.uniform(0.3, 0.9)
        col = col + (255 - col) * spot[..., None]
    _paste(canvas, col, alpha, top, opacity)


def _distractor(rng: np.random.Generator, canvas: FloatImage, scale: float) -> None:
    """A non-die object: a cable, a disc, a card-like rectangle or a blob."""
    h, w = canvas.shape[:2]
    colour = tuple(float(c) for c in random_colour(rng))
    kind = rng.integers(0, 4)
    x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
    if kind == 0:
        pts = np.cumsum(rng.normal(0, scale * 1.5, (6, 2)), 0) + np.array([x, y])
        cv2.polylines(canvas, [pts.astype(np.int32)], False, colour,
                      int(rng.integers(3, max(4, int(scale * 0.5)))), cv2.LINE_AA)
    elif kind == 1:
        cv2.circle(canvas, (x, y), int(rng.uniform(0.2, 1.2) * scale), colour, -1, cv2.LINE_AA)
    elif kind == 2:
        rect = ((float(x), float(y)), (float(rng.uniform(1, 4) * scale),
                                      float(rng.uniform(1, 6) * scale)), float(rng.uniform(0, 180)))
        pts = cv2.boxPoints(rect)
        cv2.fillConvexPoly(canvas, pts.astype(np.int32), colour, cv2.LINE_AA)
    else:
        cv2.ellipse(canvas, (x, y), (int(rng.uniform(0.2, 1) * scale),
                                     int(rng.uniform(0.1, 0.5) * scale)),
                    float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)


def _place(rng: np.random.Generator, n: int, w: int, h: int,
           sizes: NDArray[np.float64]) -> list[tuple[float, float]]:
    """Centres for n dice that do not overlap; about a third are pushed to touch another."""
    placed: list[tuple[float, float]] = []
    for i in range(n):
        s = sizes[i]
        for _ in range(200):
            if placed and rng.random() < 0.35:
                j = int(rng.integers(len(placed)))
                ang = rng.uniform(0, 2 * math.pi)
                dist = (s + sizes[j]) * 0.5 * rng.uniform(1.12, 1.3)
                x, y = placed[j][0] + dist * math.cos(ang), placed[j][1] + dist * math.sin(ang)
            else:
                x, y = rng.uniform(s, w - s), rng.uniform(s, h - s)
            if not (s <= x <= w - s and s <= y <= h - s):
                continue
            if all(math.hypot(x - px, y - py) > (s + sizes[k]) * 0.5 * 1.12
                   for k, (px, py) in enumerate(placed)):
                placed.append((x, y))
                break
    return placed


def render_scene(seed: int | np.random.Generator, *, width: int = 1280, height: int = 720,
                 n_dice: int = 10, die_px: tuple[float, float] = (30.0, 50.0),
                 lean: float = 0.25, distractors: int = 3, plain: bool = False) -> Scene:
    """Render one scene with up to n_dice dice (fewer when they do not fit).

    die_px is the range of the top face's side in pixels; lean the largest shift of the
    bottom face against the top face, as a fraction of the side (0 = straight above);
    plain draws only white dice with black pips and no glare (for exact checks).
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    canvas = table_surface(rng, height, width)
    scale = float(np.mean(die_px))
    for _ in range(int(rng.integers(0, distractors + 1))):
        _distractor(rng, canvas, scale)
    sizes = rng.uniform(die_px[0], die_px[1], n_dice)
    centres = _place(rng, n_dice, width, height, sizes)
    lean_dir = rng.uniform(0, 2 * math.pi)
    light_dir = rng.uniform(0, 2 * math.pi)
    light_len = rng.uniform(0.0, 0.3)
    dice = []
    for (x, y), s in sorted(zip(centres, sizes, strict=False), key=lambda c: c[0][1]):
        amount = rng.uniform(0, lean)
        tilt = (amount * math.cos(lean_dir), amount * math.sin(lean_dir))
        die = RenderedDie(int(rng.integers(1, 7)), float(x), float(y), float(s))
        light = (light_len * math.cos(light_dir), light_len * math.sin(light_dir))
        draw_die(rng, canvas, die, rng.uniform(0, 2 * math.pi), tilt, light, plain)
        dice.append(die)
    canvas += rng.normal(0, rng.uniform(0, 6), canvas.shape).astype(np.float32)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.0)), np.uint8)
    return Scene(image, tuple(dice))
