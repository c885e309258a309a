"""Die faces alike but for small marks told apart by their look at full size, where the die lies.

Nearest neighbours (vision.neighbours) compare faces on coarse features (gradients in cells of
8 px, details at half size), where two faces alike but for a few small marks (two dots against
three, 5 px wide on a 49 px die) differ by little, and a die cut out a few pixels off looks
more like the other face. A die whose faces are that close is cut out again with room around
it at full size and matched with each alike face's mean look over the middle of the face (its
colour details, vision.features.colour_details): turned by quarter turns and shifted by whole
pixels, each face where it fits best (normalised cross-correlation), so the die is compared
where it lies, not where it was found. The face that fits clearly best wins, else the die is
"not sure". A face's mean look is that of its taught examples, each turned and shifted to fit
the others. The fitting (mean_looks, fitted) serves cards too (vision.card_looks).

>>> import numpy as np
>>> dots = np.zeros((2, DIE_EXAMPLE, DIE_EXAMPLE, 3), np.uint8)
>>> dots[0, 27:33, 27:33] = dots[1, 27:33, 21:27] = dots[1, 27:33, 33:39] = 255  # one, two
>>> looks = FaceLooks(("1", "2"), dots)
>>> die = np.zeros((100, 100, 3), np.uint8)
>>> die[47:53, 41:47] = die[47:53, 53:59] = 255  # two dots around (50, 50) ...
>>> looks.told_apart(die, 54.0, 50.0, 48.0, 0.0, ("1", "2"))[0]  # ... found 4 px off
'2'
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.features import DIE_EXAMPLE, colour_details, crop_die

MIDDLE = 32  # the middle of a face matched, in pixels of a DIE_VIEW patch (its art, not its edge)
ROOM = 6  # pixels the die is searched for each way around where it was found
CLOSER = 0.8  # the best face's misfit (1 - correlation) must be under this share of the next's
ROUNDS = 3  # a face's examples are fitted to their mean this many times
QUARTERS = (0, 1, 2, 3)  # a die is matched turned by each of these quarter turns

Look = NDArray[np.float32]


class FaceLooks:
    """Each face's mean look (the middle of its examples' details, fitted to each other);
    labels and patches: a profile's examples (DIE_EXAMPLE patches; faces only)."""

    def __init__(self, labels: Sequence[str], patches: NDArray[np.uint8]) -> None:
        edge = (DIE_EXAMPLE - MIDDLE) // 2
        self.means = mean_looks(labels, colour_details(patches),
                                (slice(edge, edge + MIDDLE), slice(edge, edge + MIDDLE)))

    def told_apart(self, image: NDArray[np.uint8], x: float, y: float, side: float,
                   angle: float, faces: Sequence[str]) -> tuple[str | None, float]:
        """The face of the die centred near (x, y), `side` pixels wide, turned by angle (as
        vision.features.crop_die cuts it), among these faces (two or more; None: none fits
        clearly best), and how clearly (0..1: 1 - the best face's misfit over the next one's)."""
        cut = crop_die(image, x, y, side, angle, out=MIDDLE + 2 * ROOM)
        region = colour_details(cut[None])[0]
        misfit = sorted((1.0 - fitted(region, self.means[f])[0], f) for f in faces)
        (best, face), (second, _) = misfit[0], misfit[1]
        clear = 1.0 - best / max(second, 1e-6)
        return (face if best <= CLOSER * second else None), max(0.0, clear)


def mean_looks(labels: Sequence[str], looks: Sequence[Look] | NDArray[np.float32],
               middle: tuple[slice, slice], turns: Sequence[int] = QUARTERS
               ) -> dict[str, Look]:
    """Each face's mean look over the middle of its examples' looks: the first example's
    middle, then ROUNDS times the mean of every example's part that fits it best (turned by
    these quarter turns and shifted, see fitted()), each less its mean and of unit norm."""
    means: dict[str, Look] = {}
    for face in sorted(set(labels)):
        mine = [looks[i] for i, label in enumerate(labels) if label == face]
        mean = _unit(mine[0][middle])
        for _ in range(ROUNDS):
            mean = np.mean([_unit(fitted(e, mean, turns)[1]) for e in mine], axis=0,
                           dtype=np.float32)
        means[face] = mean
    return means


def example_looks(labels: Sequence[str], looks: Sequence[Look] | NDArray[np.float32],
                  middle: tuple[slice, slice]) -> dict[str, list[Look]]:
    """Each face's examples' looks over their middle, each less its mean and of unit norm
    (matched one by one with fitted(), where a face's mean look blurs examples unlike
    each other)."""
    out: dict[str, list[Look]] = {}
    for look, face in zip(looks, labels, strict=True):
        out.setdefault(face, []).append(_unit(look[middle]))
    return out


def alikeness(labels: Sequence[str], looks: Sequence[Look] | NDArray[np.float32],
              middle: tuple[slice, slice], turns: Sequence[int] = QUARTERS) -> float:
    """How alike each face's examples look: the correlation where the middle of each example's
    look fits best in each other example of its face (see fitted()), the mean over all such
    pairs (1.0 where no face has two examples)."""
    fits = [fitted(looks[i], _unit(looks[j][middle]), turns)[0]
            for i, a in enumerate(labels) for j, b in enumerate(labels) if a == b and i != j]
    return float(np.mean(fits)) if fits else 1.0


def fitted(region: Look, look: Look, turns: Sequence[int] = QUARTERS) -> tuple[float, Look]:
    """Where a look fits best in the region, turned by these quarter turns and shifted: the
    correlation there (normalised cross-correlation) and the part of the region it covers
    (turned as the look lies)."""
    best, part = -2.0, region[:0]
    h, w = look.shape[:2]
    for k in turns:
        turned = np.ascontiguousarray(np.rot90(region, k))
        fit = cv2.matchTemplate(turned, look, cv2.TM_CCOEFF_NORMED)
        _, score, _, (dx, dy) = cv2.minMaxLoc(fit)
        if score > best:
            best, part = float(score), turned[dy:dy + h, dx:dx + w]
    return best, part


def _unit(look: Look) -> Look:
    """A look less its mean, of unit norm (examples in other light weigh alike)."""
    centred = look - look.mean()
    return np.asarray(centred / (np.linalg.norm(centred) + 1e-6), np.float32)
