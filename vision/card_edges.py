"""A card's outline fitted to the contrast of its edges against what lies around them.

The outline finder (vision.card_outline) votes with the colour steps it finds on short scan
lines; a card with a fine hatched back (an `ink` 17 back) steps everywhere, and its likeliest
outlines may all lie a few pixels off or turned a few degrees. Seen as regions, though, the
card differs from what lies around it: along each edge the mean colour of a band just inside
(the hatching averages out) against that of a band just outside (the place's print). Here an
outline is moved a pixel or a degree at a time (coarse to fine) while that makes its edges'
mean contrast stronger, so it settles on the card's edges.

>>> import numpy as np
>>> sheet = np.full((120, 100, 3), 90, np.float32)
>>> sheet[20:100, 25:85] = 200  # a card 60 × 80 px, its top-left at (25, 20)
>>> y, x = np.mgrid[20:100, 25:85]
>>> sheet[y[(x + y) % 4 == 0], x[(x + y) % 4 == 0]] = 20  # ... hatched on the diagonal
>>> off = np.array([(20, 17), (80, 17), (80, 97), (20, 97)], np.float64)  # 5 px and 3 px off
>>> centre = fitted(sheet, [off])[0].mean(axis=0)
>>> bool(np.abs(centre - (54.5, 59.5)).max() <= 0.5)  # the card's centre, to the finest step
True
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

INSIDE = (1.5, 3.5)  # pixels inside an edge its inner band is sampled at ...
OUTSIDE = (1.5, 3.0)  # ... and outside, its outer band
ALONG = 8  # samples along each edge (from a tenth to nine tenths of its length)
STEPS = (2.0, 1.0, 0.5)  # an outline is moved by this many pixels and degrees, in turn ...
ROUNDS = 4  # ... at most this many times each
NUDGES = ((1.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, -1.0, 0.0),
          (0.0, 0.0, 1.0), (0.0, 0.0, -1.0))  # an outline's moves: (dx, dy pixels, degrees)
_MOVES = np.array(((0.0, 0.0, 0.0), *NUDGES))  # staying put first

Quad = NDArray[np.float64]


def contrast(smooth: NDArray[np.float32], quads: NDArray[np.float64]) -> NDArray[np.float64]:
    """How the colour inside each edge of each outline (N × 4 × 2 pixels of a float BGR
    sheet, clockwise) differs from the colour outside it: N × 4, the length of the difference
    of the bands' mean colours."""
    ends = np.roll(quads, -1, axis=1)
    at = np.linspace(0.1, 0.9, ALONG)
    points = quads[:, :, None, :] + (ends - quads)[:, :, None, :] * at[None, None, :, None]
    direction = (ends - quads) / np.linalg.norm(ends - quads, axis=2, keepdims=True)
    inward = np.stack([-direction[..., 1], direction[..., 0]], axis=-1)
    middle = quads.mean(axis=1, keepdims=True) - (quads + ends) / 2
    inward *= np.sign((middle * inward).sum(axis=-1, keepdims=True))
    depth = np.array(INSIDE + tuple(-d for d in OUTSIDE))
    xy = (points[:, :, None, :, :] + inward[:, :, None, None, :]
          * depth[None, None, :, None, None]).reshape(-1, len(depth) * ALONG, 2).astype(np.float32)
    colour = cv2.remap(smooth, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR)
    colour = colour.reshape(len(quads), 4, len(depth), ALONG, smooth.shape[2])
    inner = colour[:, :, :len(INSIDE)].mean(axis=(2, 3))
    outer = colour[:, :, len(INSIDE):].mean(axis=(2, 3))
    return np.asarray(np.linalg.norm(inner - outer, axis=-1), np.float64)


def fitted(smooth: NDArray[np.float32], quads: Sequence[Quad]) -> list[Quad]:
    """These outlines each moved (shifted, turned about its centre) while that makes its
    edges' mean contrast stronger: by STEPS[0] pixels and degrees, then the finer steps."""
    if not quads:
        return []
    now = np.stack(quads).astype(np.float64)
    for step in STEPS:
        moving = np.arange(len(now))
        for _ in range(ROUNDS):
            tries = np.stack([moved(now[moving], *(step * m)) for m in _MOVES], axis=1)
            score = contrast(smooth, tries.reshape(-1, 4, 2)).mean(axis=1)
            best = score.reshape(len(moving), len(_MOVES)).argmax(axis=1)
            now[moving] = tries[np.arange(len(moving)), best]
            moving = moving[best > 0]
            if not len(moving):
                break
    return list(now)


def moved(quads: NDArray[np.float64], dx: float, dy: float, degrees: float
          ) -> NDArray[np.float64]:
    """Outlines (4 × 2, or N × 4 × 2) shifted and turned about their centres."""
    centre = quads.mean(axis=-2, keepdims=True)
    a = np.radians(degrees)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.asarray((quads - centre) @ turn.T + centre + (dx, dy), np.float64)
