"""Films of a table: the frames a camera over it would take while dice are rolled.

A film is a list of *rests* (what lies still on the table, :class:`Rest`); between two rests
a hand comes in and the dice that change fly to their new places for ``MOTION_FRAMES``
frames, and the hand goes; then the rest is held still. Dice that stay keep their place and
look, so a still scene is still to the pixel. Used for the demo game and the live loop's
tests and benchmark.

>>> dice = (FilmDie(5, 300.0, 200.0, 0.2, 40.0, 1), FilmDie(2, 420.0, 260.0, 1.0, 40.0, 2))
>>> frames = list(film([Rest(()), Rest(dice)], width=640, height=360, seed=3))
>>> len(frames), [still for _, still in frames][-2:]
(8, [False, True])
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render import RenderedDie, draw_die
from vision.surfaces import FloatImage, Image, table_surface

MOTION_FRAMES = 6  # frames between two rests: the hand comes, dice fly, the hand goes
LIGHT = (0.12, 0.18)  # where the shadows fall (fraction of a die side)
SKIN = ((140, 170, 225), (110, 145, 205), (80, 115, 170), (165, 190, 235))  # BGR skin tones


@dataclass(frozen=True)
class FilmDie:
    """One die at rest: its value, top-face centre and turn (radians), side in pixels, and
    a seed for its look (the same seed looks the same in every frame)."""

    value: int
    x: float
    y: float
    angle: float
    size: float
    look: int


@dataclass(frozen=True)
class Rest:
    """What lies still on the table; ``hand`` passes a hand over it first even when no die
    changes (a player reaching over)."""

    dice: tuple[FilmDie, ...]
    hand: bool = True


def film(rests: Sequence[Rest], *, width: int = 1280, height: int = 720,
         seed: int = 0) -> Iterator[tuple[Image, bool]]:
    """Every frame of the film, with True for the one still frame of each rest (hold it as
    long as the rest lasts); the first rest is shown without motion before it."""
    rng = np.random.default_rng(seed)
    table = table_surface(rng, height, width)
    hand = _draw_hand(np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32), height)
    before: tuple[FilmDie, ...] = ()
    for number, rest in enumerate(rests):
        if number:
            yield from _motion(table, before, rest, hand, rng)
        yield _frame(table, rest.dice), True
        before = rest.dice


def _motion(table: FloatImage, before: tuple[FilmDie, ...], rest: Rest,
            hand: _Hand, rng: np.random.Generator) -> Iterator[tuple[Image, bool]]:
    """The frames between two rests: the changed dice fly from below to their places."""
    height, width = table.shape[:2]
    staying = tuple(d for d in rest.dice if d in before)
    moving = [d for d in rest.dice if d not in before]
    start = (rng.uniform(0.3, 0.7) * width, height * 1.1)
    for step in range(MOTION_FRAMES):
        t = (step + 1) / (MOTION_FRAMES + 1)
        flying = tuple(FilmDie(int(rng.integers(1, 7)), start[0] + (d.x - start[0]) * t,
                               start[1] + (d.y - start[1]) * t, d.angle + 6 * (1 - t),
                               d.size, d.look) for d in moving)
        frame = _frame(table, staying + flying, blur=bool(moving))
        palm = (start[0] + (width * 0.5 - start[0]) * t * 0.5,
                height * (0.95 - 0.6 * math.sin(math.pi * t)))
        yield _hand(frame, palm, hand), False


def _frame(table: FloatImage, dice: tuple[FilmDie, ...], *, blur: bool = False) -> Image:
    """The table with ``dice`` drawn on it (each die in a crop around it, for speed)."""
    canvas = table.copy()
    height, width = canvas.shape[:2]
    for die in sorted(dice, key=lambda d: d.y):
        reach = int(die.size * 2)
        x0, y0 = max(0, int(die.x) - reach), max(0, int(die.y) - reach)
        x1, y1 = min(width, int(die.x) + reach), min(height, int(die.y) + reach)
        if x1 <= x0 or y1 <= y0:
            continue
        crop = canvas[y0:y1, x0:x1]
        draw_die(np.random.default_rng(die.look), crop,
                 RenderedDie(die.value, die.x - x0, die.y - y0, die.size), die.angle,
                 (0.04, 0.06), LIGHT, True)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    if blur:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), 1.6), np.uint8)
    return image


@dataclass(frozen=True)
class _Hand:
    """A hand drawn once: its colour, its cover (0..1) and its shadow's darkening, on a
    sprite whose palm centre is at (``x``, ``y``) and whose forearm runs off its bottom."""

    colour: FloatImage
    cover: FloatImage
    shadow: FloatImage
    x: int
    y: int


def _draw_hand(skin: np.ndarray, height: int) -> _Hand:
    """A hand (palm, thumb, fingers and forearm), softly edged and shaded, with its shadow."""
    palm = int(height * 0.075)
    w, h = 9 * palm, 4 * palm + height
    x, y = 4 * palm, 3 * palm
    mask = np.zeros((h, w), np.float32)
    cv2.line(mask, (x, y + palm), (x + palm, h), 1.0, int(palm * 1.5), cv2.LINE_AA)
    cv2.ellipse(mask, (x, y), (palm, int(palm * 1.15)), 0, 0, 360, 1.0, -1, cv2.LINE_AA)
    cv2.ellipse(mask, (x - palm, y + palm // 3), (palm // 4, palm // 2 + 4), -35, 0, 360, 1.0,
                -1, cv2.LINE_AA)
    for finger, length in enumerate((0.55, 0.68, 0.64, 0.5)):
        fx = x - int(palm * 0.7) + finger * int(palm * 0.47)
        reach = int(palm * (0.9 + length))
        cv2.line(mask, (fx, y - palm // 2), (fx + (finger - 1) * 3, y - reach), 1.0,
                 max(3, int(palm * 0.36)), cv2.LINE_AA)
    cover: FloatImage = np.asarray(cv2.GaussianBlur(mask, (0, 0), 1.5), np.float32)
    offset = np.zeros_like(cover)
    offset[palm // 3:, palm // 2:] = cover[:-(palm // 3), :-(palm // 2)]
    shadow = 0.35 * np.asarray(cv2.GaussianBlur(offset, (0, 0), palm / 4), np.float32)
    shade = 0.85 + 0.15 * np.asarray(cv2.GaussianBlur(cover, (0, 0), palm / 4), np.float32)
    return _Hand(skin * shade[..., None], cover, shadow, x, y)


def _hand(frame: Image, at: tuple[float, float], hand: _Hand) -> Image:
    """``hand`` laid on ``frame`` with its palm at ``at``, reaching in from the bottom."""
    height, width = frame.shape[:2]
    left, top = int(at[0]) - hand.x, int(at[1]) - hand.y
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(width, left + hand.cover.shape[1]), min(height, top + hand.cover.shape[0])
    if x1 <= x0 or y1 <= y0:
        return frame
    sprite = (slice(y0 - top, y1 - top), slice(x0 - left, x1 - left))
    cover, shadow = hand.cover[sprite][..., None], hand.shadow[sprite][..., None]
    out = frame.copy()
    region = out[y0:y1, x0:x1].astype(np.float32) * (1 - shadow)
    region = region * (1 - cover) + hand.colour[sprite] * cover
    out[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)
    return out
