"""What the printed sheet itself shows, so that its print is never taken for a die.

The sheet is drawn as printed (vision.sheet_art), in each language; a read on a rectified
frame whose neighbourhood looks like the print there (a normalised cross-correlation above
LIKE) is the print, not a die. Where the sheet is blank there is nothing to compare: a die
there always stands.

>>> from vision.sheet import layout, PX_PER_MM
>>> sheet = layout("dalek")
>>> printed = SheetPrint(sheet)
>>> frame = draw(sheet, lang="it")
>>> label = sheet.zone("to-roll")
>>> printed.shows(frame, (label.x + 8) * PX_PER_MM, (label.y + 4) * PX_PER_MM, 48.0)
True
>>> printed.shows(frame, *(v * PX_PER_MM for v in label.centre), 48.0)
False
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.sheet import PX_PER_MM, Layout
from vision.sheet_art import LANGUAGES, draw

LIKE = 0.6  # a neighbourhood this much like the print is the print
FLAT = 4.0  # print with less spread than this (grey levels) is blank paper


class SheetPrint:
    """The print of one sheet at one scale, in every language (the running sums of each
    language's grey levels and their squares kept stacked, so a neighbourhood's means and
    spreads in all languages cost a few look-ups)."""

    def __init__(self, sheet: Layout, px_per_mm: float = PX_PER_MM) -> None:
        self._drawn = [cv2.cvtColor(draw(sheet, px_per_mm=px_per_mm, lang=lang),
                                    cv2.COLOR_BGR2GRAY).astype(np.float64)
                       for lang in LANGUAGES]
        sums = [cv2.integral2(d, sdepth=cv2.CV_64F) for d in self._drawn]
        self._totals = np.stack([np.asarray(t, np.float64) for t, _ in sums])
        self._squares = np.stack([np.asarray(q, np.float64) for _, q in sums])

    def shows(self, image: NDArray[np.uint8], x: float, y: float, side: float) -> bool:
        """Whether the rectified BGR image around (x, y), side pixels wide, is the sheet's
        print rather than something lying on it."""
        return self.shown(image, [(x, y, side)])[0]

    def shown(self, image: NDArray[np.uint8], places: Sequence[tuple[float, float, float]]
              ) -> list[bool]:
        """shows() of each place (x, y, side) of a frame, judged together: whether the print
        around each is blank paper in every language (as around most dice) from the running
        sums of all places at once; the image is looked at only around the others."""
        if not places:
            return []
        h, w = self._drawn[0].shape
        at = np.array(places, np.float64)
        x, y, r = np.rint(at[:, 0]), np.rint(at[:, 1]), np.rint(at[:, 2] / 2)
        x0, y0 = np.maximum(0, x - r), np.maximum(0, y - r)
        x1, y1 = np.minimum(w, x + r + 1), np.minimum(h, y + r + 1)
        room = (x1 - x0 >= 4) & (y1 - y0 >= 4)
        # windows without room (off the frame) are not judged: kept inside it for the look-ups
        x0, x1 = (np.clip(v, 0, w).astype(np.intp) for v in (x0, x1))
        y0, y1 = (np.clip(v, 0, h).astype(np.intp) for v in (y0, y1))
        size = np.maximum(1, (x1 - x0) * (y1 - y0))
        mean = _window(self._totals, x0, y0, x1, y1) / size
        spread = np.sqrt(np.maximum(0.0, _window(self._squares, x0, y0, x1, y1) / size
                                    - mean * mean))
        out = [False] * len(places)
        for i in np.flatnonzero(room & (spread >= FLAT).any(axis=0)):
            out[i] = self._like(image, int(x0[i]), int(y0[i]), int(x1[i]), int(y1[i]),
                                spread[:, i])
        return out

    def _like(self, image: NDArray[np.uint8], x0: int, y0: int, x1: int, y1: int,
              spread: NDArray[np.float64]) -> bool:
        """Whether the image over [y0, y1) × [x0, x1) is like the print there in a language
        whose print there is not blank (spread: the print's spread there, a language each)."""
        size = (x1 - x0) * (y1 - y0)
        seen = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float64)
        seen -= seen.mean()
        seen_norm = float(np.linalg.norm(seen))
        for k in np.flatnonzero(spread >= FLAT):
            # the seen neighbourhood is zero-mean: its product with the print's less its
            # mean is its product with the print
            like = float((seen * self._drawn[k][y0:y1, x0:x1]).sum()) / (
                seen_norm * float(spread[k]) * np.sqrt(size) + 1e-6)
            if like >= LIKE:
                return True
        return False


def _window(sums: NDArray[np.float64], x0: NDArray[np.intp], y0: NDArray[np.intp],
            x1: NDArray[np.intp], y1: NDArray[np.intp]) -> NDArray[np.float64]:
    """The sums over [y0, y1) × [x0, x1) of each window (arrays of their corners) of the
    images whose running sums (cv2.integral2) these are, stacked (one a language): languages
    × windows."""
    return np.asarray(sums[:, y1, x1] - sums[:, y0, x1] - sums[:, y1, x0] + sums[:, y0, x0],
                      np.float64)
