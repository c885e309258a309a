"""A glossy sleeve's glare taken off card patches before their looks are matched.

A sleeve's glare lies on a card as broad patches of white with sharp edges (a soft white
film, stronger in places); a card's details keep those edges, and a few photos' face whose
example lay under glare gets a mean look half glare (vision.card_looks). Glare lifts the
darkest colour channel of everything under it alike, where the card's art lifts it only along
its lines and marks. So the card's ground is measured as that channel opened (a minimum, then a
maximum, over a few px: lines and marks narrower than that are gone, the glare's broad patches
stay, sharp edges and all), the glare's share where the ground rises above the card's darkest
tenth, and the white it adds taken away again.

>>> import numpy as np
>>> card = np.full((1, 44, 32, 3), 60, np.uint8)
>>> card[0, 20:23, 4:28] = 220  # a light line across
>>> seen = card.astype(np.float32)
>>> seen[0, :22, 16:] += (255 - seen[0, :22, 16:]) * 0.3  # glare over the top right
>>> clear = unglared(seen.astype(np.uint8), 7)
>>> def off(image): return float(np.abs(image.astype(np.float32) - card).mean())
>>> round(off(seen)), round(off(clear), 1)  # grey levels off the card, on average
(14, 0.8)
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

GROUNDS = (3, 5, 7, 9)  # px (of a patch): lines and marks narrower than one of these are the
# art, not the ground (which one: the size that makes a few photos' faces look most alike)
SOFTEN = 0.7  # the ground measured is softened this much (pixels)
DARKEST = 10  # the card's own ground: this percentile of the ground measured
MOST = 0.6  # the glare's share taken away is at most this (white: nothing left to restore)


def unglared(patches: NDArray[np.uint8], ground: int) -> NDArray[np.uint8]:
    """Card patches (N × H × W × 3, any size) with the white a glare adds taken away, the
    card's ground measured over squares of this many pixels."""
    square = np.ones((ground, ground), np.uint8)
    out = np.empty_like(patches)
    for k, patch in enumerate(patches):
        seen = patch.astype(np.float32)
        level = np.asarray(cv2.morphologyEx(seen.min(axis=2), cv2.MORPH_OPEN, square,
                                            borderType=cv2.BORDER_REPLICATE), np.float32)
        level = np.asarray(cv2.GaussianBlur(level, (0, 0), SOFTEN), np.float32)
        darkest = float(np.percentile(level, DARKEST))
        share = np.clip((level - darkest) / max(255.0 - darkest, 1.0), 0.0, MOST)[..., None]
        out[k] = np.clip((seen - 255.0 * share) / (1.0 - share), 0, 255).astype(np.uint8)
    return out
