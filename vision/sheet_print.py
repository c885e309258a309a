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
        print rather than something lying on it (where the print is blank paper in every
        language, as around most dice, the image is not looked at)."""
        h, w = self._drawn[0].shape
        r = round(side / 2)
        x0, y0 = max(0, round(x) - r), max(0, round(y) - r)
        x1, y1 = min(w, round(x) + r + 1), min(h, round(y) + r + 1)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return False
        size = (x1 - x0) * (y1 - y0)
        mean = _window(self._totals, x0, y0, x1, y1) / size
        spread = np.sqrt(np.maximum(0.0, _window(self._squares, x0, y0, x1, y1) / size
                                    - mean * mean))
        printed = np.flatnonzero(spread >= FLAT)
        if not len(printed):
            return False
        seen = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float64)
        seen -= seen.mean()
        seen_norm = float(np.linalg.norm(seen))
        for k in printed:
            # the seen neighbourhood is zero-mean: its product with the print's less its
            # mean is its product with the print
            like = float((seen * self._drawn[k][y0:y1, x0:x1]).sum()) / (
                seen_norm * float(spread[k]) * np.sqrt(size) + 1e-6)
            if like >= LIKE:
                return True
        return False


def _window(sums: NDArray[np.float64], x0: int, y0: int, x1: int, y1: int
            ) -> NDArray[np.float64]:
    """The sums over [y0, y1) × [x0, x1) of the images whose running sums (cv2.integral2)
    these are, stacked (one a language)."""
    return np.asarray(sums[:, y1, x1] - sums[:, y0, x1] - sums[:, y1, x0] + sums[:, y0, x0],
                      np.float64)
