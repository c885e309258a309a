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
    """The print of one sheet at one scale, in every language (each kept with the running
    sums of its grey levels and their squares, so a neighbourhood's mean and spread cost
    four look-ups)."""

    def __init__(self, sheet: Layout, px_per_mm: float = PX_PER_MM) -> None:
        self._drawn = [cv2.cvtColor(draw(sheet, px_per_mm=px_per_mm, lang=lang),
                                    cv2.COLOR_BGR2GRAY).astype(np.float64)
                       for lang in LANGUAGES]
        self._sums = [tuple(np.asarray(m, np.float64) for m in cv2.integral2(d, sdepth=cv2.CV_64F))
                      for d in self._drawn]

    def shows(self, image: NDArray[np.uint8], x: float, y: float, side: float) -> bool:
        """Whether the rectified BGR image around (x, y), side pixels wide, is the sheet's
        print rather than something lying on it."""
        h, w = self._drawn[0].shape
        r = round(side / 2)
        x0, y0 = max(0, round(x) - r), max(0, round(y) - r)
        x1, y1 = min(w, round(x) + r + 1), min(h, round(y) + r + 1)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return False
        seen = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float64)
        seen -= seen.mean()
        size = (x1 - x0) * (y1 - y0)
        seen_norm = float(np.linalg.norm(seen))
        for drawn, (total, squares) in zip(self._drawn, self._sums, strict=True):
            mean = _window(total, x0, y0, x1, y1) / size
            spread = np.sqrt(max(0.0, _window(squares, x0, y0, x1, y1) / size - mean * mean))
            if spread < FLAT:
                continue
            # the seen neighbourhood is zero-mean: its product with the print's less its
            # mean is its product with the print
            like = float((seen * drawn[y0:y1, x0:x1]).sum()) / (
                seen_norm * spread * np.sqrt(size) + 1e-6)
            if like >= LIKE:
                return True
        return False


def _window(sums: NDArray[np.float64], x0: int, y0: int, x1: int, y1: int) -> float:
    """The sum over [y0, y1) × [x0, x1) of the image whose running sums (cv2.integral2)
    these are."""
    return float(sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0])
