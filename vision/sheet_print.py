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
    """The print of one sheet at one scale, in every language."""

    def __init__(self, sheet: Layout, px_per_mm: float = PX_PER_MM) -> None:
        self._drawn = [cv2.cvtColor(draw(sheet, px_per_mm=px_per_mm, lang=lang),
                                    cv2.COLOR_BGR2GRAY).astype(np.float32)
                       for lang in LANGUAGES]

    def shows(self, image: NDArray[np.uint8], x: float, y: float, side: float) -> bool:
        """Whether the rectified BGR image around (x, y), side pixels wide, is the sheet's
        print rather than something lying on it."""
        h, w = self._drawn[0].shape
        r = round(side / 2)
        x0, y0 = max(0, round(x) - r), max(0, round(y) - r)
        x1, y1 = min(w, round(x) + r + 1), min(h, round(y) + r + 1)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return False
        seen = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
        seen -= seen.mean()
        for drawn in self._drawn:
            printed = drawn[y0:y1, x0:x1] - drawn[y0:y1, x0:x1].mean()
            spread = float(np.sqrt((printed * printed).mean()))
            if spread < FLAT:
                continue
            like = float((seen * printed).sum()) / (
                float(np.linalg.norm(seen) * np.linalg.norm(printed)) + 1e-6)
            if like >= LIKE:
                return True
        return False
