"""Synthetic table scenes with dice and exact labels, for tests, benchmarks and training.

Each die is drawn as its top face (a rounded square with bevelled edges and painted or
engraved pips, any rotation) and the side faces the camera sees, with a shadow and glare; its
body may be solid, swirled, translucent, glittering or pearly, in many colours, or smoky (a
dark body marbled a lighter shade of itself, with red pips that scarcely stand out).

render_scene draws dice on one of the classic table surfaces seen straight down.
randomised_scene is the domain randomiser for training: any surface of vision.surfaces, dice
15 to 200 pixels across, alone, scattered or in touching clusters, some cut by the image
border, a camera straight above or tilted (the label is always the top face, wherever the
camera sees it), white balance, motion and focus blur, low resolution, and objects that are
not dice (buttons, blank cubes, coins, tokens) among them.

>>> scene = render_scene(7, width=320, height=240, n_dice=3, die_px=(30, 40))
>>> scene.image.shape, len(scene.dice)
((240, 320, 3), 3)
>>> all(1 <= d.value <= 6 for d in scene.dice)
True
>>> randomised_scene(3, width=320, height=240).image.shape
(240, 320, 3)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.surfaces import (
    FloatImage,
    Image,
    noise,
    random_colour,
    random_surface,
    table_surface,
)

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
_YY, _XX = (np.mgrid[0:_TEX, 0:_TEX].astype(np.float32) + 0.5) / _TEX - 0.5  # -0.5..0.5

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
    "gold": ((60, 160, 200), ((20, 20, 20), (240, 240, 240))),
    "pink": ((160, 120, 230), ((240, 240, 240), (20, 20, 20))),
    "orange": ((30, 120, 240), ((20, 20, 20), (240, 240, 240))),
    "grey": ((140, 140, 140), ((240, 240, 240), (20, 20, 20), (40, 40, 200))),
    "navy": ((90, 40, 20), ((240, 240, 240), (40, 40, 190))),
    "smoke": ((55, 50, 50), ((230, 230, 230), (50, 50, 170))),
    "wine": ((40, 30, 110), ((235, 235, 235), (60, 190, 230))),
}
#: Pip colours any body may have (BGR): white, black, red, dark red, gold, blue, green, silver.
PIP_COLOURS = ((240, 240, 240), (20, 20, 20), (40, 40, 210), (45, 35, 140), (50, 170, 220),
               (180, 90, 30), (60, 150, 40), (190, 190, 190))
MATERIALS = ("solid", "swirl", "translucent", "glitter", "pearl")
#: Smoky dice: this share of coloured dice get a dark body marbled a lighter shade of itself and
#: red pips that scarcely stand out (as smoke or nebula dice).
SMOKY_SHARE = 0.15
_SMOKY_BODIES = ("smoke", "black", "navy", "blue", "wine", "purple")
_RED_PIPS = ((40, 40, 210), (45, 35, 140))  # BGR: red, dark red
MAX_OFF_AXIS = math.tan(math.radians(62))  # no part of a scene is seen further from straight down


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


@dataclass(frozen=True)
class DieLook:
    """How one die looks: body and pip colours, material, shape of its edges and pips."""

    body: NDArray[np.float32]
    pip: NDArray[np.float32]
    material: str
    corner: float  # radius of the face's corners, in sides
    bevel: float  # width of the rounded edge band, in sides
    spread: float  # offset of the outer pips from the centre, in sides
    radius: float  # pip radius, in sides
    one: float  # the lone pip of a 1 is this many times larger
    engraved: bool  # pips are hollows (shaded), not only paint
    opacity: float  # below 1: the table shows through (translucent dice)
    glare: float  # strength of a highlight on the top face (0: none)


def _look(rng: np.random.Generator, plain: bool) -> DieLook:
    """A die's look: any colour and material, or (plain) white with black pips."""
    if plain:
        return DieLook(np.array(_BODY["white"][0], np.float32), np.zeros(3, np.float32),
                       "solid", 0.12, 0.06, 0.27, 0.09, 1.0, False, 1.0, 0.0)
    body_bgr, pips = _BODY[str(rng.choice(list(_BODY)))]
    body = np.clip(np.array(body_bgr) * rng.uniform(0.75, 1.15) + rng.normal(0, 15, 3), 0, 255)
    if rng.random() < 0.5:  # the body's usual pips, or any colour at all
        pips = PIP_COLOURS
    pip = np.array(pips[int(rng.integers(len(pips)))], np.float64)
    if rng.random() < 0.1:  # pips in a colour close to the body's: hard to read
        pip = np.clip(body * rng.choice([0.45, 1.6]), 0, 255)
    material = str(rng.choice(MATERIALS, p=[0.45, 0.2, 0.15, 0.1, 0.1]))
    look = DieLook(
        body.astype(np.float32), _jittered(rng, pip, 10),
        material, corner=rng.uniform(0.06, 0.3), bevel=rng.uniform(0.03, 0.14),
        spread=rng.uniform(0.2, 0.3), radius=rng.uniform(0.06, 0.115),
        one=rng.uniform(1.3, 2.2) if rng.random() < 0.3 else 1.0,
        engraved=bool(rng.random() < 0.5),
        opacity=rng.uniform(0.7, 0.92) if material == "translucent" else 1.0,
        glare=rng.uniform(0.2, 0.9) if rng.random() < 0.5 else 0.0)
    smoky = rng.spawn(1)[0]  # on its own stream: whether a die is smoky moves no other draw
    return _smoky(smoky, look) if smoky.random() < SMOKY_SHARE else look


def _smoky(rng: np.random.Generator, look: DieLook) -> DieLook:
    """``look`` made a smoky die: a dark body, marbled, with red or dark red pips."""
    body = np.array(_BODY[str(rng.choice(_SMOKY_BODIES))][0]) * rng.uniform(0.5, 1.0)
    pip = _jittered(rng, np.array(_RED_PIPS[int(rng.integers(len(_RED_PIPS)))]), 10)
    return replace(look, body=_jittered(rng, body, 10), pip=pip, material="marble", opacity=1.0)


def _jittered(rng: np.random.Generator, colour: NDArray[Any], sigma: float
              ) -> NDArray[np.float32]:
    """``colour`` (BGR) with a little noise in each channel, kept within 0..255."""
    return np.clip(colour + rng.normal(0, sigma, 3), 0, 255).astype(np.float32)


def _face_texture(rng: np.random.Generator, value: int, look: DieLook, shade: float,
                  light: tuple[float, float]) -> tuple[FloatImage, FloatImage]:
    """One die face (colour, alpha) drawn on a _TEX square: a rounded square whose bevelled
    edges catch the light from direction `light`, with its pips."""
    x, y = _XX, _YY
    inner = 0.5 - look.corner
    qx, qy = np.maximum(np.abs(x) - inner, 0), np.maximum(np.abs(y) - inner, 0)
    outside = np.hypot(qx, qy) + np.minimum(np.maximum(np.abs(x), np.abs(y)) - inner, 0)
    dist = outside - look.corner  # signed distance to the face's outline, in sides
    alpha = np.clip(0.5 - dist * _TEX, 0, 1).astype(np.float32)
    col = np.empty((_TEX, _TEX, 3), np.float32)
    col[:] = look.body
    if look.material in ("swirl", "marble"):  # marble: veined a lighter shade of the body
        lighter = np.clip(look.body * 1.5 + 40, 0, 255)
        other = lighter if look.material == "marble" else [
            look.body * 0.45, lighter, random_colour(rng)][int(rng.integers(3))]
        mix = noise(rng, _TEX, _TEX, int(rng.integers(10, 30))) - 0.5
        mix = np.clip(mix * rng.uniform(1.5, 4) + 0.5, 0, 1) * rng.uniform(0.3, 0.8)
        col = col * (1 - mix[..., None]) + other * mix[..., None]
    elif look.material == "translucent":
        glow = np.exp(-(x ** 2 + y ** 2) / 0.08)
        col = col * (0.8 + 0.35 * glow)[..., None]
    elif look.material == "glitter":
        flecks = (rng.random((_TEX, _TEX)) < 0.02).astype(np.float32)
        flecks = np.asarray(cv2.GaussianBlur(flecks, (0, 0), 0.6), np.float32) * 3
        col = col + (255 - col) * np.clip(flecks, 0, 1)[..., None] * 0.8
    elif look.material == "pearl":
        ang = rng.uniform(0, 2 * math.pi)
        ramp = 0.5 + (x * math.cos(ang) + y * math.sin(ang))
        tint = np.clip(look.body * 1.4 + 30, 0, 255)
        col = col * (1 - 0.5 * ramp[..., None]) + tint * 0.5 * ramp[..., None]
    # Bevel: within `bevel` of the outline the surface turns away; lit on the light's side.
    band = np.clip(1 + dist / look.bevel, 0, 1)  # 0 inside the flat part, 1 at the outline
    gy, gx = np.gradient(dist)
    norm = np.hypot(gx, gy) + 1e-6
    facing = (gx * light[0] + gy * light[1]) / norm
    col *= (1.0 + band * (0.35 * facing - 0.25))[..., None]
    for px, py in PIPS[value]:
        cx, cy = px * look.spread, py * look.spread
        r = look.radius * (look.one if value == 1 else 1.0)
        d = np.hypot(x - cx, y - cy)
        inside = np.clip((r - d) * _TEX + 0.5, 0, 1)
        pip = np.broadcast_to(look.pip, col.shape).astype(np.float32)
        if look.engraved:  # a hollow: its wall away from the light is lit, the other dark
            wall = ((x - cx) * light[0] + (y - cy) * light[1]) / max(r, 1e-6)
            pip = pip * (1.0 + 0.35 * np.clip(wall, -1, 1))[..., None]
            rim = np.clip(1.0 - np.abs(d - r) * _TEX / 1.5, 0, 1) * 0.35
            col = col * (1 - rim)[..., None]
        col = col * (1 - inside[..., None]) + pip * inside[..., None]
    return col * shade, alpha


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


def _draw_body(rng: np.random.Generator, canvas: FloatImage, die: RenderedDie, look: DieLook,
               angle: float, lean: tuple[float, float], light: tuple[float, float]) -> None:
    """A die's shadow and the side faces its lean shows. lean is the shift of the top face
    against the bottom one, in sides; light the direction light comes from (its length sets
    how far the shadow falls). Top faces are drawn after every body (_draw_top): nothing on
    the table hides a top face."""
    top = _square(die.x, die.y, die.size, angle)
    bottom = top - np.array(lean, np.float32) * die.size
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.float32)
    foot = np.concatenate([top, bottom]) - np.array(light, np.float32) * die.size
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
        col, alpha = _face_texture(rng, int(rng.choice(others)), look, rng.uniform(0.45, 0.85),
                                   _unit(light))
        _paste(canvas, col, alpha, quad, look.opacity)


def _draw_top(rng: np.random.Generator, canvas: FloatImage, die: RenderedDie, look: DieLook,
              angle: float, light: tuple[float, float]) -> None:
    """A die's top face, with glare."""
    col, alpha = _face_texture(rng, die.value, look, rng.uniform(0.9, 1.1), _unit(light))
    if look.glare:  # a soft bright spot on the face or a pip
        gx, gy = rng.uniform(0.15, 0.85, 2) * _TEX
        r = rng.uniform(0.04, 0.2) * _TEX
        yy, xx = (_YY + 0.5) * _TEX, (_XX + 0.5) * _TEX
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)) * look.glare
        col = col + (255 - col) * spot[..., None]
    _paste(canvas, col, alpha, _square(die.x, die.y, die.size, angle), look.opacity)


def _unit(v: tuple[float, float]) -> tuple[float, float]:
    norm = math.hypot(*v) or 1.0
    return (v[0] / norm, v[1] / norm)


def draw_die(rng: np.random.Generator, canvas: FloatImage, die: RenderedDie, angle: float,
             lean: tuple[float, float], light: tuple[float, float], plain: bool) -> None:
    """One die of any look (plain: white with black pips, no glare), body then top face; lean
    and light as for _draw_body."""
    look = _look(rng, plain)
    _draw_body(rng, canvas, die, look, angle, lean, light)
    _draw_top(rng, canvas, die, look, angle, light)


def _draw_dice(rng: np.random.Generator, canvas: FloatImage,
               dice: list[tuple[RenderedDie, DieLook, float, tuple[float, float]]],
               light: tuple[float, float]) -> None:
    """Dice given as (die, look, angle, lean): every body, then every top face."""
    for die, look, angle, lean in dice:
        _draw_body(rng, canvas, die, look, angle, lean, light)
    for die, look, angle, _ in dice:
        _draw_top(rng, canvas, die, look, angle, light)


def _distractor(rng: np.random.Generator, canvas: FloatImage, scale: float,
                kinds: int = 7) -> None:
    """A non-die object: a cable, a disc, a card-like rectangle, a blob, and (kinds = 7) a
    button with holes, a coin, or a blank cube the size of a die."""
    h, w = canvas.shape[:2]
    colour = tuple(float(c) for c in random_colour(rng))
    kind = rng.integers(0, kinds)
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
    elif kind == 3:
        cv2.ellipse(canvas, (x, y), (int(rng.uniform(0.2, 1) * scale),
                                     int(rng.uniform(0.1, 0.5) * scale)),
                    float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
    elif kind == 4:  # a button: two or four holes, like pips
        r = rng.uniform(0.3, 0.6) * scale
        cv2.circle(canvas, (x, y), int(r), colour, -1, cv2.LINE_AA)
        hole = tuple(c * 0.3 for c in colour)
        ang, holes = rng.uniform(0, math.pi), int(rng.choice([2, 4]))
        for k in range(holes):
            a = ang + k * 2 * math.pi / holes
            hx, hy = x + 0.35 * r * math.cos(a), y + 0.35 * r * math.sin(a)
            cv2.circle(canvas, (int(hx), int(hy)), max(1, int(0.12 * r)), hole, -1, cv2.LINE_AA)
    elif kind == 5:  # a coin: a disc with a rim
        r = rng.uniform(0.3, 0.7) * scale
        cv2.circle(canvas, (x, y), int(r), colour, -1, cv2.LINE_AA)
        rim = tuple(c * 0.7 for c in colour)
        cv2.circle(canvas, (x, y), int(r * 0.85), rim, max(1, int(r * 0.06)), cv2.LINE_AA)
    else:  # a blank cube: a die's body without pips
        look = _look(rng, plain=False)
        face, alpha = _face_texture(rng, 1, look, 1.0, (0.7, 0.7))
        plain = np.empty_like(face)
        plain[:] = face[2:10, 2:10].reshape(-1, 3).mean(0)
        _paste(canvas, plain * (0.85 + 0.3 * alpha[..., None]), alpha,
               _square(x, y, scale * rng.uniform(0.8, 1.2), rng.uniform(0, 2 * math.pi)), 1.0)


def _place(rng: np.random.Generator, sizes: NDArray[np.float64],
           sample: Callable[[float], tuple[float, float]],
           fits: Callable[[float, float, float], bool],
           touch: float = 0.35) -> list[tuple[float, float]]:
    """Centres for dice of the given sides that do not overlap: each drawn by sample(side)
    until fits(x, y, side), or, for a fraction `touch` of them, pushed to touch another."""
    placed: list[tuple[float, float]] = []
    for s in sizes:
        for _ in range(200):
            if placed and rng.random() < touch:
                j = int(rng.integers(len(placed)))
                ang = rng.uniform(0, 2 * math.pi)
                dist = (s + sizes[j]) * 0.5 * rng.uniform(1.12, 1.3)
                x, y = placed[j][0] + dist * math.cos(ang), placed[j][1] + dist * math.sin(ang)
            else:
                x, y = sample(s)
            if not fits(x, y, s):
                continue
            if all(math.hypot(x - px, y - py) > (s + sizes[k]) * 0.5 * 1.12
                   for k, (px, py) in enumerate(placed)):
                placed.append((x, y))
                break
        else:
            placed.append((math.nan, math.nan))  # no room: this die is left out
    return placed


def render_scene(seed: int | np.random.Generator, *, width: int = 1280, height: int = 720,
                 n_dice: int = 10, die_px: tuple[float, float] = (30.0, 50.0),
                 lean: float = 0.25, distractors: int = 3, plain: bool = False) -> Scene:
    """Render one scene with up to n_dice dice (fewer when they do not fit) on a classic table
    surface, seen straight down.

    die_px is the range of the top face's side in pixels; lean the largest shift of the
    bottom face against the top face, as a fraction of the side (0 = straight above);
    plain draws only white dice with black pips and no glare (for exact checks).
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    canvas = table_surface(rng, height, width)
    scale = float(np.mean(die_px))
    for _ in range(int(rng.integers(0, distractors + 1))):
        _distractor(rng, canvas, scale, kinds=4)
    sizes = rng.uniform(die_px[0], die_px[1], n_dice)
    centres = _place(rng, sizes, lambda s: (rng.uniform(s, width - s), rng.uniform(s, height - s)),
                     lambda x, y, s: s <= x <= width - s and s <= y <= height - s)
    lean_dir = rng.uniform(0, 2 * math.pi)
    light_dir = rng.uniform(0, 2 * math.pi)
    light_len = rng.uniform(0.0, 0.3)
    light = (light_len * math.cos(light_dir), light_len * math.sin(light_dir))
    drawn = []
    for (x, y), s in sorted(zip(centres, sizes, strict=True), key=lambda c: c[0][1]):
        if math.isnan(x):
            continue
        amount = rng.uniform(0, lean)
        tilt = (amount * math.cos(lean_dir), amount * math.sin(lean_dir))
        die = RenderedDie(int(rng.integers(1, 7)), float(x), float(y), float(s))
        drawn.append((die, _look(rng, plain), rng.uniform(0, 2 * math.pi), tilt))
    _draw_dice(rng, canvas, drawn, light)
    dice = [d for d, *_ in drawn]
    canvas += rng.normal(0, rng.uniform(0, 6), canvas.shape).astype(np.float32)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.0)), np.uint8)
    return Scene(image, tuple(dice))


@dataclass(frozen=True)
class Camera:
    """A pinhole camera at the origin looking down at the table, then turned by `tilt` radians
    about a horizontal axis at angle `azimuth`: `to_image` maps the straight-down view
    (principal point at 0, focal length `focal` pixels) to the output image."""

    focal: float
    tilt: float
    azimuth: float
    width: int
    height: int

    @property
    def to_image(self) -> NDArray[np.float64]:
        f, cx, cy = self.focal, self.width / 2, self.height / 2
        k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]], np.float64)
        axis = np.array([math.cos(self.azimuth), math.sin(self.azimuth), 0.0]) * self.tilt
        rot, _ = cv2.Rodrigues(axis)
        down = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1]], np.float64)  # principal point at 0
        return k @ rot @ np.linalg.inv(down)


def _to(m: NDArray[np.floating[Any]], pts: NDArray[np.floating[Any]]) -> NDArray[np.float64]:
    p = np.c_[pts, np.ones(len(pts))] @ m.T
    out: NDArray[np.float64] = p[:, :2] / p[:, 2:3]
    return out


def _finish(rng: np.random.Generator, canvas: FloatImage) -> Image:
    """White balance, motion or focus blur, sensor noise and, sometimes, a low-resolution
    camera."""
    h, w = canvas.shape[:2]
    image = np.asarray(canvas, np.float32)
    if rng.random() < 0.7:
        warm = rng.normal(0, 0.12)
        image = image * np.exp(np.array([-warm, 0.0, warm]) + rng.normal(0, 0.05, 3))
    image = image * rng.uniform(0.6, 1.25)
    if rng.random() < 0.1:
        n = int(rng.integers(3, 10))
        kernel = np.zeros((n, n), np.float32)
        kernel[n // 2] = 1.0 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, rot, (n, n)), np.float32)
        image = np.asarray(cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6)),
                           np.float32)
    elif rng.random() < 0.3:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.2)), np.float32)
    image = image + rng.normal(0, rng.uniform(0, 7), image.shape).astype(np.float32)
    out = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.15:
        k = rng.uniform(1.3, 2.2)
        small = cv2.resize(out, (max(8, round(w / k)), max(8, round(h / k))),
                           interpolation=cv2.INTER_AREA)
        out = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)
    return out


def randomised_scene(seed: int | np.random.Generator, *, width: int = 640,
                     height: int = 480) -> Scene:
    """One scene drawn from the whole range of tables, cameras, dice and clutter (see the
    module doc). Dice lie on the table (the straight-down view), are the same size there up
    to a few per cent, and are labelled where the camera sees their top face: its centre and
    the square root of its area. No die's centre lies nearer the border than a fifth of its
    side."""
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    tilt = 0.0 if rng.random() < 0.45 else math.radians(rng.uniform(5, 40))
    focal, azimuth = width * rng.uniform(0.7, 1.6), rng.uniform(0, 2 * math.pi)
    while True:  # less tilt where a corner of the image would see the table at a grazing angle
        to_image = Camera(focal, tilt, azimuth, width, height).to_image
        to_plane = np.linalg.inv(to_image)
        corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
        seen = _to(to_plane, corners)  # the part of the straight-down view the image shows
        if np.hypot(*seen.T).max() <= MAX_OFF_AXIS * focal:
            break
        tilt *= 0.8
    x0, y0 = np.floor(seen.min(0)).astype(int)
    x1, y1 = np.ceil(seen.max(0)).astype(int)
    canvas = random_surface(rng, int(y1 - y0), int(x1 - x0))
    centre = _to(to_plane, np.array([[width / 2, height / 2]], np.float64))[0]
    side = math.exp(rng.uniform(math.log(15), math.log(200)))  # in image px, at the centre
    plane_side = side / _local_scale(to_image, *centre)
    n = int(rng.integers(1, int(np.clip(width * height / (side * side * 4), 2, 26))))
    sizes = plane_side * (rng.uniform(0.95, 1.05, n) if rng.random() < 0.7
                          else rng.uniform(0.7, 1.3, n))
    for _ in range(int(rng.integers(0, 5))):
        _distractor(rng, canvas, plane_side)
    margin = 0.2 if rng.random() < 0.5 else 0.7

    def sample(s: float) -> tuple[float, float]:
        point = np.array([[rng.uniform(0, width), rng.uniform(0, height)]], np.float64)
        x, y = _to(to_plane, point)[0]
        return float(x), float(y)

    def fits(x: float, y: float, s: float) -> bool:
        u, v = _to(to_image, np.array([[x, y]], np.float64))[0]
        m = margin * s * _local_scale(to_image, x, y)  # the die's side in the image
        return bool(m <= u <= width - m and m <= v <= height - m)

    centres = _place(rng, sizes, sample, fits, touch=0.85 if rng.random() < 0.3 else 0.35)
    light_dir, light_len = rng.uniform(0, 2 * math.pi), rng.uniform(0.0, 0.35)
    light = (light_len * math.cos(light_dir), light_len * math.sin(light_dir))
    one_look = _look(rng, plain=False) if rng.random() < 0.3 else None  # a set of like dice
    drawn, dice = [], []
    for (x, y), s in zip(centres, sizes, strict=True):
        if math.isnan(x):
            continue
        angle = rng.uniform(0, 2 * math.pi)
        die = RenderedDie(int(rng.integers(1, 7)), x - x0, y - y0, s)
        # Seen from straight above, a top face lies further out than the die's foot.
        drawn.append((die, one_look or _look(rng, plain=False), angle, (x / focal, y / focal)))
        quad = _to(to_image, _square(x, y, s, angle).astype(np.float64))
        cx, cy = _to(to_image, np.array([[x, y]], np.float64))[0]
        area = 0.5 * abs(_cross(quad[2] - quad[0], quad[3] - quad[1]))
        dice.append(RenderedDie(die.value, float(cx), float(cy), math.sqrt(area)))
    _draw_dice(rng, canvas, drawn, light)
    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    seen_image = cv2.warpPerspective(canvas, to_image @ shift, (width, height),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return Scene(_finish(rng, np.asarray(seen_image, np.float32)), tuple(dice))


def _local_scale(m: NDArray[np.float64], x: float, y: float) -> float:
    """How many times the map m enlarges lengths near (x, y)."""
    pts = _to(m, np.array([[x, y], [x + 1, y], [x, y + 1]], np.float64))
    return math.sqrt(abs(_cross(pts[1] - pts[0], pts[2] - pts[0])))


def _cross(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    return float(a[0] * b[1] - a[1] * b[0])
