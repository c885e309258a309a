"""A card read from few examples checked by its look, matched where the card lies.

A card taught from a few photos is read by nearest neighbours over its cut-out (vision.
card_reader), along an outline found from colour steps; an outline a few pixels off (a card's
fine hatched back, a glossy sleeve's glare) can make its cut-out look more like another face.
Here the card is cut out again with room around it and matched with each face's mean look over
the middle of the card (its colour details; grey ones for cards whose colour is their player's,
not their face's), either way up and shifted, each face where it fits best (normalised
cross-correlation), as alike die faces are told apart (vision.alike_faces). A face that fits
well (misfit under TRUSTED) and clearly best (under CLOSER of the next face's misfit) is the
card's; one that fits well but not clearly best makes the card "not sure"; where no face fits
well, or the best one is the face read, the read stands. A card still not sure then is matched
with each example of its likeliest faces one by one (a face whose few photos look unlike each
other has a blurred mean look): the face of the one that fits clearly best is the card's.
A glossy sleeve's glare is taken off the examples and the card first (vision.card_glare),
where that makes the faces' examples look more alike.

>>> import numpy as np
>>> from vision.features import CARD_VIEW
>>> w, h = CARD_VIEW
>>> cards = np.full((2, h, w, 3), 40, np.uint8)
>>> cards[0, 19:25, 8:24] = cards[1, 14:30, 13:19] = 230  # a mark across, a mark down
>>> looks = CardLooks(("across", "down"), cards)
>>> sheet = np.full((200, 200, 3), 120, np.uint8)
>>> sheet[50:138, 60:124] = 40  # a card 64 × 88 px, twice the patch size ...
>>> sheet[88:100, 76:108] = 230  # ... its mark across
>>> found = np.array([(66, 56), (130, 56), (130, 144), (66, 144)], np.float64)  # 6 px off
>>> looks.checked(sheet, found, "down", ("across", "down"))
'across'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from vision.alike_faces import alikeness, example_looks, fitted, mean_looks
from vision.card_glare import GROUNDS, unglared
from vision.features import CARD_VIEW, colour_details, crop_cards, grey_details

INSET = 4  # the middle of a card matched: a CARD_VIEW patch less this many pixels each side
ROOM = 5  # pixels (of a patch) the card is cut out with around it: shifts of ROOM + INSET
TRUSTED = 0.25  # a face whose misfit (1 - correlation) is under this fits well ...
CLOSER = 0.9  # ... and clearly best when also under this share of the next face's misfit
HALVES = (0, 2)  # a card is matched either way up (quarter turns)
LIKELIEST = 3  # a card still not sure is matched with each example of this many faces


class CardLooks:
    """Each face's mean look (the middle of its examples' details, fitted to each other);
    labels and patches: a profile's card examples (CARD_VIEW patches); recoloured: cards
    whose colour is their player's, compared in grey."""

    def __init__(self, labels: Sequence[str], patches: NDArray[np.uint8], *,
                 recoloured: bool = False) -> None:
        w, h = CARD_VIEW
        middle = (slice(INSET, h - INSET), slice(INSET, w - INSET))
        self.details = grey_details if recoloured else colour_details
        # glare is taken off where that makes the faces' examples look more alike (a few
        # photos under a glossy sleeve; not where broad light art would be taken for it), its
        # ground measured at the size that makes them look most alike (0: glare left on)
        self.ground, seen = 0, self.details(patches)
        alike = alikeness(labels, seen, middle, HALVES)
        for ground in GROUNDS:
            clear = self.details(unglared(patches, ground))
            if (more := alikeness(labels, clear, middle, HALVES)) > alike:
                self.ground, seen, alike = ground, clear, more
        self.means = mean_looks(labels, seen, middle, HALVES)
        self.examples = example_looks(labels, seen, middle)

    def checked(self, soft: NDArray[np.uint8], quad: NDArray[np.float64],
                read: str | None, faces: Sequence[str]) -> str | None:
        """The face of the card found along quad (4×2 pixels of a slightly blurred sheet,
        clockwise from the card's top-left) as read (None: not sure), checked by its look
        among these faces (the read one among them)."""
        if len(faces) < 2:
            return read
        cut = crop_cards(soft, quad[None], ROOM)
        region = self.details(unglared(cut, self.ground) if self.ground else cut)[0]
        misfit = sorted((1.0 - fitted(region, self.means[f], HALVES)[0], f) for f in faces)
        (best, face), (second, _) = misfit[0], misfit[1]
        if face == read or best >= TRUSTED:
            seen = read
        else:
            seen = face if best <= CLOSER * second else None
        if seen is not None:
            return seen
        return self._by_example(region, [f for _, f in misfit[:LIKELIEST]])

    def _by_example(self, region: NDArray[np.float32], faces: Sequence[str]) -> str | None:
        """The face (of these) of the example that fits the card's region best, where it fits
        clearly best (under CLOSER of the next face's best example's misfit), else None: a
        face whose few examples look unlike each other has a blurred mean look, and its own
        cards may fit an alike face's sharper mean as well."""
        misfit = sorted((1.0 - max(fitted(region, e, HALVES)[0] for e in self.examples[f]), f)
                        for f in faces)
        (best, face), (second, _) = misfit[0], misfit[1]
        return face if best <= CLOSER * second else None
