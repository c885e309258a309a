"""Stage 2 of the reader: read each candidate from a crop of the full-resolution image.

The classifier sees a CROP×CROP patch that spans WINDOW die sides around a candidate and
gives 7 logits (0 = no die centred here, 1..6 = the top face's value) and the offset of the
top face's centre from the patch centre, in patch widths.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

CROP = 48  # side of the classifier's input patch
WINDOW = 1.4  # the patch spans this many die sides


def crop(image: NDArray[np.uint8], x: float, y: float, side: float, *,
         area: bool = True) -> NDArray[np.uint8]:
    """A CROP×CROP patch of about `side` image pixels centred on (x, y), which lies in the
    image; where the patch leaves the image, the border pixels are repeated. A larger patch
    is shrunk by averaging (INTER_AREA), or with area False bilinearly (a fifth of the work)."""
    h, w = image.shape[:2]
    n = max(2, round(side))
    x0, y0 = round(x - n / 2), round(y - n / 2)
    x1, y1 = x0 + n, y0 + n
    roi = image[max(y0, 0):min(y1, h), max(x0, 0):min(x1, w)]
    if roi.shape[0] != n or roi.shape[1] != n:
        roi = np.asarray(cv2.copyMakeBorder(roi, max(0, -y0), max(0, y1 - h), max(0, -x0),
                                            max(0, x1 - w), cv2.BORDER_REPLICATE), np.uint8)
    interpolation = cv2.INTER_AREA if n > CROP and area else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(roi, (CROP, CROP), interpolation=interpolation), np.uint8)


def batch(patches: list[NDArray[np.uint8]]) -> NDArray[np.float32]:
    """Stack patches into an N×3×CROP×CROP float tensor in 0..1."""
    arr = np.stack(patches).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(arr, dtype=np.float32) / 255.0
