"""The size of a Dicy sheet's cards when the sheet was printed shrunk ("fit to page").

A sheet's layout says how big its cards are (Layout.card), and the card reader cuts cards out
at that size. A sheet printed "fit to page" (94 %, 90 %; A4 on Letter: 91.4 %) is rectified
to its layout's size, so the real cards, which were not shrunk with it, look 1/scale bigger
on it: cut out too small, their sides were read wrong and sure of it (sixes/active read as
sixes/frozen). Where the cards' edges line up tells the scale too little (a clean sheet of 17
would pick a wrong one); how much the cards look like cards tells it for Dicy Cards.

A CardSize reads a table's cards at the layout's size until a frame shows ENOUGH cards; that
frame it also reads as if the sheet had been printed at each of SCALES, and keeps the scale
whose reads are surest (their mean confidence over the places not empty, a card read "not
sure" counting 0) when it beats the layout's by MARGIN, else the layout's; chosen again, a
scale must beat the one chosen by MARGIN too. A few cards tell
the scale less surely than many (with 3, a sheet printed at 94 % kept the layout's size in a
third of rendered scenes): the scale is chosen again on a frame that shows more cards than the
last choice saw, until one saw SURE cards (two players' rows). The choice holds until forget()
(the table calibrated anew). 17's cards are read at the layout's size: their look tells the
scale nothing, and they read right on a shrunk print.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.card_reader import CardRead, CardReader
from vision.sheet import PX_PER_MM, Layout

SCALES = (0.97, 0.94, 0.91)  # the print scales tried beside the layout's (1.0)
ENOUGH = 3  # places with a card on a frame before the scale is chosen
SURE = 10  # ... and chosen again on frames with more, until a choice saw this many
MARGIN = 0.03  # a scale must be this much surer than the layout's to win (rendered scenes:
#                normal prints -0.07 or less, shrunk ones 94 % to 91 % +0.08 or more)


class CardSize:
    """The cards of a Dicy sheet read at the size they have on the table's print."""

    def __init__(self, cards: CardReader) -> None:
        self.cards = cards
        self.scale = 1.0
        """The print's scale chosen for this table (1.0 until chosen)."""
        self._seen = 0  # the cards shown by the frame the scale was chosen on

    def forget(self) -> None:
        """Choose the scale anew (a new calibration: another sheet, or the camera moved)."""
        self.scale, self._seen = 1.0, 0

    def read(self, rectified: NDArray[np.uint8], sheet: Layout, *,
             px_per_mm: float = PX_PER_MM) -> tuple[CardRead, ...]:
        """Every card place of the sheet, read at the chosen scale (on a frame the scale is
        chosen on, read at every scale: four times)."""
        places = sheet.places()
        now = self.cards.read_places(rectified, places, _card(sheet, self.scale),
                                     px_per_mm=px_per_mm)
        shown = sum(not r.empty for r in now)
        if shown < ENOUGH or self._seen >= SURE or shown <= self._seen:
            return now
        reads = {self.scale: now, **{s: self.cards.read_places(rectified, places,
                                                               _card(sheet, s),
                                                               px_per_mm=px_per_mm)
                                     for s in (1.0, *SCALES) if s != self.scale}}
        sure = {s: _sureness(r) for s, r in reads.items()}
        best = max(SCALES, key=lambda s: sure[s])
        if sure[best] < sure[1.0] + MARGIN:
            best = 1.0
        if sure[best] >= sure[self.scale] + MARGIN:  # chosen again: only for a clearly surer
            self.scale = best  # (cards read one way, then the other, would seem turned)
        self._seen = max(shown, sum(not r.empty for r in reads[self.scale]))
        return reads[self.scale]


def _card(sheet: Layout, scale: float) -> tuple[float, float]:
    """The real cards' size (mm on the layout) on a sheet printed at ``scale``."""
    return sheet.card[0] / scale, sheet.card[1] / scale


def _sureness(reads: tuple[CardRead, ...]) -> float:
    """How sure these reads are: their mean confidence over the places not empty, a card read
    "not sure" counting 0."""
    return float(np.mean([r.confidence if r.sure else 0.0 for r in reads if not r.empty]
                         or [0.0]))
