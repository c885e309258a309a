"""How much is drawn on a die's top face: its ink, whatever the light.

Every face a die shows carries its picture or pips, drawn sharply on it; the paper, or a die's
shadow on it, shows only slow shading and noise, however dark. A patch's ink is how far its
sharp details stand out (vision.features.colour_details: each colour softened, less its
shading; the colour that stands out most at each pixel) in the middle of the patch (a share
EDGE of each side left out, where a neighbour's outline or a shadow's edge may lie): their
90th percentile there, as a share of the patch's brightness.

>>> import numpy as np
>>> paper = np.full((1, 48, 48, 3), 200, np.uint8)
>>> drawn = paper.copy()
>>> drawn[0, 18:30, 18:30] = (40, 40, 200)  # a red square
>>> [round(float(v), 2) for v in ink(np.concatenate([paper, paper // 2, drawn]))]
[0.0, 0.0, 0.37]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.features import colour_details

EDGE = 0.15  # share of each side of a patch left out around its middle
SHARE = 90  # percentile of the middle's details that gives the patch's ink


def ink(patches: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The ink (0..1) of each of N die patches (N×H×W×3, BGR)."""
    d = np.abs(colour_details(patches))
    n = patches.shape[1]
    m = round(EDGE * n)
    # the colours compared one pair at a time (numpy's max over an axis of 3 is 30 times slower)
    details = np.maximum(np.maximum(d[:, m:n - m, m:n - m, 0], d[:, m:n - m, m:n - m, 1]),
                         d[:, m:n - m, m:n - m, 2]).reshape(len(patches), -1)
    at = (details.shape[1] - 1) * SHARE // 100
    bright = np.maximum(np.maximum(patches[..., 0], patches[..., 1]), patches[..., 2])
    return np.asarray(np.partition(details, at, axis=1)[:, at]
                      / (bright.mean(axis=(1, 2), dtype=np.float32) + 1.0), np.float32)
