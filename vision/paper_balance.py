"""A rectified sheet's colour balanced on its paper: a camera's white balance undone.

A camera whose white balance was fixed in one light (a Pi fixes it 2 s after it starts) sees
the table in another with a cast: under lamps switched on later, warm (a Dicy card's frozen
blue turns grey), under a cold light, blue. The sheet's paper is white wherever nothing is
printed, and the layout knows where that is (vision.sheet_art draws it): its colour there is
the light's. Each colour channel of the rectified sheet is scaled so that the paper comes out
grey again, its lightness kept.

The paper's colour is the median colour of the brighter half of its known white pixels,
each taken as its channels' shares of its lightness: a sheet lit unevenly, a shadow, a die
or a card lying on the paper, or the table shown where a sheet cut off at the frame's edge
was filled in with it, leave it as it is while they are darker than the paper; something
paler and coloured over a quarter of its white (a pale yellow cloth, an arm) can tip it. The
gains are clipped to [MIN_GAIN, MAX_GAIN]. A paper whose channels lie within TINT of each other
is left as it is (a tinted paper, an ordinary camera: what the readers were taught on), so a
sheet seen in a light it was made for reads exactly as it did.

balanced() measures the paper of the image it is given. A table's camera keeps a
:class:`PaperBalance`: the gains of its last measurement, measured again only when a glance at
the paper (the same median on every GLANCE-th pixel measured: a tenth of the cost) says its
colour or lightness moved since, or the sheet did (the light changes far less often than the
frames are read), or that its colour crossed TINT (the measurement moved as the glance moved
since): kept gains and fresh ones then decide alike whether there is a cast to take out, and a
light steady near TINT is measured once.

>>> from vision.sheet import layout
>>> from vision.sheet_art import draw
>>> sheet = layout("dicy", "a4")
>>> warm = (draw(sheet) * np.array([0.7, 0.88, 1.0])).astype(np.uint8)
>>> paper = balanced(warm, sheet)[20, 100]
>>> int(paper.max()) - int(paper.min()) < 16 < int(warm[20, 100].max() - warm[20, 100].min())
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.sheet import PX_PER_MM, Layout
from vision.sheet_art import draw

TINT = 1.3  # a paper whose most and least of its channels lie within this factor is left
#             as it is: a tinted paper (rendered papers reach 1.27) reads as it always did
MIN_GAIN, MAX_GAIN = 0.5, 2.0  # how far a channel is ever scaled
STEP = 4  # the paper is measured on every STEP-th pixel of every STEP-th row
EDGE_PX = 2  # paper pixels this near anything printed are left out (blur, misregistration)
DARKEST = 40.0  # a sheet whose paper is darker than this is left as it is (no light to judge)
GLANCE = 4  # the light is glanced at on every GLANCE-th pixel of those the paper is measured on
COLOUR_MOVED = 0.02  # a channel's share of the paper's lightness moved this much: measure anew
#                      (a 5 % cast moves it 0.04; dice and cards laid on the sheet, 0.0005)
LIGHT_MOVED = 0.25  # or the paper's lightness by this share of itself


class PaperBalance:
    """One camera's paper balance from frame to frame (a table's: vision.sheet_observer): the
    paper is measured as balanced() measures it, then again only when a glance at it says the
    light changed (its colour or lightness moved, or moved it across TINT, where the gains
    start or stop) or the sheet or scale did. The gains of one table never reach another's
    images."""

    def __init__(self) -> None:
        self.measured = 0
        """How many times the paper was measured."""
        self._kept: _Measured | None = None

    def balanced(self, rectified: NDArray[np.uint8], sheet: Layout, *,
                 px_per_mm: float = PX_PER_MM) -> NDArray[np.uint8]:
        """``rectified`` with its paper's cast taken out by the gains kept, measured anew
        where the light or the sheet changed."""
        glance = _paper_colour(rectified, sheet, px_per_mm, STEP * GLANCE)
        kept = self._kept
        if (kept is None or (kept.sheet, kept.px_per_mm) != (sheet, px_per_mm)
                or _moved(glance, kept.glance)
                or _across_tint(glance, kept.glance, kept.paper)):
            self.measured += 1
            kept = self._kept = _Measured(sheet, px_per_mm, glance,
                                          _paper_colour(rectified, sheet, px_per_mm, STEP))
        return _applied(rectified, _gains(kept.paper))


def balanced(rectified: NDArray[np.uint8], sheet: Layout, *,
             px_per_mm: float = PX_PER_MM) -> NDArray[np.uint8]:
    """``rectified`` (BGR, vision.calibrate.rectify) with its paper's cast taken out; the
    image itself where its paper is grey enough already."""
    return _applied(rectified, paper_gains(rectified, sheet, px_per_mm=px_per_mm))


def paper_gains(rectified: NDArray[np.uint8], sheet: Layout, *,
                px_per_mm: float = PX_PER_MM) -> NDArray[np.float32] | None:
    """The gains (B, G, R) that bring the sheet's paper to grey, or None where it lies within
    TINT of grey already (or cannot be judged: no colour, too dark, too little paper shown)."""
    return _gains(_paper_colour(rectified, sheet, px_per_mm, STEP))


def _gains(colour: _Colour | None) -> NDArray[np.float32] | None:
    """The gains that bring a paper of ``colour`` to grey (see paper_gains)."""
    if colour is None:
        return None
    shares = colour.shares
    if float(shares.max()) <= TINT * float(shares.min()):
        return None
    return np.asarray(np.clip(1.0 / np.maximum(shares, 1e-3), MIN_GAIN, MAX_GAIN), np.float32)


class _Colour(NamedTuple):
    """The paper's colour: each channel's share of its lightness (B, G, R), and the
    lightness."""

    shares: NDArray[np.float32]
    lightness: float


class _Measured(NamedTuple):
    """The paper last measured: its sheet and scale, the glance at it and the measurement."""

    sheet: Layout
    px_per_mm: float
    glance: _Colour | None
    paper: _Colour | None


def _paper_colour(rectified: NDArray[np.uint8], sheet: Layout, px_per_mm: float, step: int
                  ) -> _Colour | None:
    """The paper's colour measured on every ``step``-th pixel (a multiple of STEP): the median
    of the brighter half of its white pixels; None where it cannot be judged."""
    if rectified.ndim != 3 or rectified.shape[2] != 3:
        return None
    every = step // STEP
    mask, seen = _white(sheet, px_per_mm)[::every, ::every], rectified[::step, ::step]
    if mask.shape != seen.shape[:2]:
        return None
    pixels = seen[mask].astype(np.float32)
    lightness = pixels.mean(axis=1)
    bright = pixels[lightness >= np.median(lightness)]
    if len(bright) < 100 or float(bright.mean()) < DARKEST:
        return None
    shares = np.median(bright / np.maximum(bright.mean(axis=1, keepdims=True), 1.0), axis=0)
    return _Colour(np.asarray(shares, np.float32), float(bright.mean()))


def _moved(now: _Colour | None, then: _Colour | None) -> bool:
    """Whether the paper's colour glanced at now differs from the one glanced at when it was
    measured (either not judged: it may have)."""
    if now is None or then is None:
        return True
    return (float(np.abs(now.shares - then.shares).max()) > COLOUR_MOVED
            or abs(now.lightness - then.lightness) > LIGHT_MOVED * then.lightness)


def _across_tint(now: _Colour | None, then: _Colour | None, measured: _Colour | None
                 ) -> bool:
    """Whether the paper glanced at now may lie on the other side of TINT than the
    measurement kept (``then``: the glance at it): a light drifting past the boundary takes
    the gains from none to a full correction, though its colour moved only a little. The
    paper now is the measurement moved as the glance moved since (a glance and a measurement
    of one paper differ by up to 0.002, and by the same from frame to frame): a light steady
    near TINT is measured once, one drifting past it when it crosses."""
    if now is None or then is None:
        return True
    if measured is None:
        return False  # nothing judged to take sides with (a glance that moved measures anew)
    was = _ratio(measured)
    return (was + _ratio(now) - _ratio(then) > TINT) != (was > TINT)


def _ratio(colour: _Colour) -> float:
    """The paper's most and least channels' ratio (1: grey)."""
    return float(colour.shares.max()) / max(float(colour.shares.min()), 1e-6)


def _applied(rectified: NDArray[np.uint8], gains: NDArray[np.float32] | None
             ) -> NDArray[np.uint8]:
    """``rectified`` with each channel scaled by its gain (itself where there are none)."""
    if gains is None:
        return rectified
    table = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains[None, :] + 0.5, 0, 255)
    return np.asarray(cv2.LUT(rectified, table.astype(np.uint8).reshape(256, 1, 3)), np.uint8)


@lru_cache(maxsize=16)
def _white(sheet: Layout, px_per_mm: float) -> NDArray[np.bool_]:
    """Where the sheet's paper is printed white and nothing lies near (at every STEP-th
    pixel)."""
    grey = cv2.cvtColor(draw(sheet, px_per_mm=px_per_mm), cv2.COLOR_BGR2GRAY)
    printed = (grey < 250).astype(np.uint8)
    near = cv2.dilate(printed, np.ones((2 * EDGE_PX + 1, 2 * EDGE_PX + 1), np.uint8))
    mask: NDArray[np.bool_] = near[::STEP, ::STEP] == 0
    mask.flags.writeable = False
    return mask
