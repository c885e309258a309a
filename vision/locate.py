"""Stage 1 of the reader: find candidate dice with a small heatmap network.

The locator sees the image shrunk `scale` times (SCALE for dice of ordinary size, 2 × SCALE
for large ones, SCALE / 2 for small ones; on a sheet where the dice's side is known, as many
times as shows them about 10 pixels wide, see vision.face_reader) and predicts, on a grid of
2 × scale image pixels, how likely each cell holds the centre of a die's top face, the
sub-cell offset of that centre, and the log of the die's side in cells. Peaks of the heatmap
are candidates.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

SCALE = 4  # the locator's input is the image shrunk this many times (its usual level)
STRIDE = 8  # one heatmap cell covers this many image pixels at SCALE (2 × SCALE)
MULTIPLE = 8  # the locator's input sides are padded to a multiple of this
SAME_DIE = 2.0  # two candidates whose sides differ less than this many times may be one die
assert SCALE & (SCALE - 1) == 0, "shrink() halves the image: SCALE must be a power of two"


@dataclass(frozen=True)
class Candidate:
    """A possible die: top-face centre and side in image pixels, heatmap score 0..1."""

    x: float
    y: float
    size: float
    score: float


def locator_input(image: NDArray[np.uint8], scale: int = SCALE) -> NDArray[np.float32]:
    """The image shrunk `scale` times, padded, as a 1×3×H×W float tensor in 0..1."""
    h, w = image.shape[:2]
    sw, sh = max(1, round(w / scale)), max(1, round(h / scale))
    small = shrink(image, (sw, sh), scale)
    ph, pw = -sh % MULTIPLE, -sw % MULTIPLE
    if ph or pw:
        small = np.asarray(cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE),
                           np.uint8)
    return np.ascontiguousarray(small.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0


def shrink(image: NDArray[np.uint8], size: tuple[int, int],
           scale: int = SCALE) -> NDArray[np.uint8]:
    """The image resized to size (w, h) by averaging blocks of pixels (INTER_AREA).

    Where the image's sides are exactly `scale` times size and `scale` is a power of two,
    repeated halvings (INTER_LINEAR at exactly half size is a 2×2 mean) give the same block
    means, to rounding, about twice as fast.

    >>> image = np.arange(8 * 8 * 3, dtype=np.uint8).reshape(8, 8, 3)
    >>> bool(np.abs(shrink(image, (2, 2)).astype(int)
    ...             - cv2.resize(image, (2, 2), interpolation=cv2.INTER_AREA)).max() <= 1)
    True
    >>> five = np.arange(10 * 10 * 3, dtype=np.uint8).reshape(10, 10, 3)
    >>> area = cv2.resize(five, (2, 2), interpolation=cv2.INTER_AREA)
    >>> bool((shrink(five, (2, 2), 5) == area).all())
    True
    """
    h, w = image.shape[:2]
    if (w, h) != (size[0] * scale, size[1] * scale) or scale & (scale - 1):
        return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    factor, out = scale, image
    while factor > 1:
        factor //= 2
        out = np.asarray(cv2.resize(out, (size[0] * factor, size[1] * factor),
                                    interpolation=cv2.INTER_LINEAR), np.uint8)
    return out


def find_peaks(out: NDArray[np.float32], *, shape: tuple[int, int], threshold: float,
               limit: int, stride: float = STRIDE) -> list[Candidate]:
    """Candidates from the locator output (1×4×h×w: heat logit, dx, dy, log size), best
    first; stride is the image pixels per heatmap cell (2 × the input's scale)."""
    logit, dx, dy, logsize = out[0]
    heat = 1.0 / (1.0 + np.exp(-logit))
    local_max = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= local_max) & (heat >= threshold))
    order = np.argsort(-heat[ys, xs], kind="stable")[:limit]
    h, w = shape
    found = []
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        cx = (x + 0.5 + float(dx[y, x])) * stride
        cy = (y + 0.5 + float(dy[y, x])) * stride
        if 0 <= cx < w and 0 <= cy < h:
            size = float(np.exp(logsize[y, x])) * stride
            found.append(Candidate(cx, cy, size, float(heat[y, x])))
    return found


def merge(levels: list[list[Candidate]], limit: int) -> list[Candidate]:
    """At most `limit` candidates from the locator's levels, best first. They are taken level
    by level in the order given (each best first), leaving out any whose centre lies within
    half a side of one already taken with a side less than SAME_DIE times larger or smaller
    (the same die seen at two scales; a pip of a large die, seen as a small die, does not
    hide it).

    >>> a, b, c = Candidate(10, 10, 20, 0.5), Candidate(14, 12, 24, 0.9), Candidate(60, 10, 20, 0.4)
    >>> merge([[a], [b, c]], 8) == [a, c]
    True
    >>> big = Candidate(14, 12, 120, 0.9)
    >>> merge([[a], [big]], 8) == [big, a]
    True
    """
    kept: list[Candidate] = []
    for level in levels:
        for c in sorted(level, key=lambda c: -c.score):
            if len(kept) == limit:
                break
            if all((k.x - c.x) ** 2 + (k.y - c.y) ** 2 >= (0.5 * max(k.size, c.size)) ** 2
                   or max(k.size, c.size) >= SAME_DIE * min(k.size, c.size) for k in kept):
                kept.append(c)
    return sorted(kept, key=lambda c: -c.score)
