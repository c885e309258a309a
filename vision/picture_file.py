"""A picture file as a viewer shows it, for the table's camera pictures (a folder of pictures,
``dicetable calibrate --image``): decoded from its bytes, so that a picture cut short is
refused (cv2.imread fills what is missing with grey), turned as its orientation tag says, and
never past :data:`MAX_PIXELS`, a GIF :data:`MAX_GIF_PIXELS` (a small file can decode to
gigabytes).

A picture past ``fit`` pixels is read shrunk by 2, 4 or 8 until it fits: a phone's 48 MP photo
is 144 MB a frame (the table's live loop then held over 700 MB; a Pi has 1 to 4 GB and the
table's bar is 250 MB). A JPEG is shrunk by its decoder, which never holds it whole (some
25 MB at the peak for 48 MP). Any other format (PNG, WebP, TIFF, BMP, GIF) is decoded whole, then
shrunk: OpenCV's reduced reading, asked of every format, shrinks only a JPEG as it decodes, and
no cheap decoder here reads a PNG a few rows at a time. A 48 MP PNG (8000×6000) is its file's
bytes and 144 MB more at the peak as it is read (169 MB for a PNG of 22 MB, 221 MB for one of
77 MB, measured over the interpreter; read whole at full size, 297 and 349 MB); what bounds it
is :data:`MAX_PIXELS`, past which none is decoded. A GIF costs 4 times a PNG's: its file's
bytes and some 12 bytes a pixel (a 12 MP GIF 141 MB at the peak, a 49 MP one 565 MB), so none
past 10 megapixels, :data:`MAX_GIF_PIXELS`, is decoded (a 10 MP GIF is 118 to 129 MB).

A picture whose size its header does not give (vision.image_size: one neither PNG, JPEG,
WebP, TIFF, BMP nor GIF) is not decoded, whatever its name: an AVIF (its size lies deep in its
boxes), a PPM, JPEG 2000, Sun raster, HDR or PFM picture saved as ``.jpg``, which OpenCV
would decode to whatever size it holds. A phone saves JPEG (or HEIC, which is not read
anyway); these come from other tools, and are converted in a moment.

>>> shrink_of((8000, 6000), FRAME_PIXELS), shrink_of((4000, 3000), FRAME_PIXELS)
(4, 2)
>>> shrink_of((1280, 720), FRAME_PIXELS), shrink_of((40000, 30000), FRAME_PIXELS)
(1, 8)
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.image_size import TOO_LARGE, image_size, most_pixels
from vision.picture_formats import NOT_READABLE, not_read, unreadable

FRAME_PIXELS = 4_000_000
"""The most pixels a camera's picture is read at (a 12 MP photo is read at 3 MP, 2000×1500)."""

_SHRUNK = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
           8: cv2.IMREAD_REDUCED_COLOR_8}


class PictureError(Exception):
    """Why a picture file cannot be read, in plain words; ``too_large`` holds the values of
    :data:`TOO_LARGE` for one too large to read, else None; ``kind`` the kind of photo the
    table does not read it is (vision.picture_formats), else None."""

    def __init__(self, reason: str, too_large: dict[str, int] | None = None,
                 kind: str | None = None) -> None:
        super().__init__(reason)
        self.too_large = too_large
        self.kind = kind


def read_picture(path: Path, *, fit: int | None = None) -> NDArray[np.uint8]:
    """The picture at ``path`` as BGR, turned as shown, shrunk to ``fit`` pixels if given;
    raises :class:`PictureError`."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PictureError(f"cannot be read: {err.strerror or err}") from None
    size = image_size(data)
    if (large := too_large(data, size)) is not None:
        raise PictureError("is " + TOO_LARGE.format_map(large), large)
    image = decoded(data, size=size,
                    shrink=1 if fit is None or size is None else shrink_of(size, fit))
    if image is None:
        kind = unreadable(path, data)
        if kind is not None:  # (an iPhone's HEIC, under its name or saved as .jpg)
            raise PictureError("is " + not_read(kind, path), kind=kind)
        raise PictureError("is " + NOT_READABLE)
    return image


_UNMEASURED = (-1, -1)  # no picture's size: the caller has not read the header


def too_large(data: bytes, size: tuple[int, int] | None = _UNMEASURED,
              ) -> dict[str, int] | None:
    """The values of :data:`TOO_LARGE` for the picture ``data`` holds that is not decoded, as
    past :func:`~vision.image_size.most_pixels`, or None. ``size`` is :func:`image_size` of
    ``data`` where the caller has read it already (None: its header has none).

    >>> TOO_LARGE.format_map(too_large(b"GIF89a" + bytes(7), (4000, 3000)))
    'too large to read (4000×3000 pixels; at most 10 megapixels)'
    """
    size = image_size(data) if size == _UNMEASURED else size
    most = most_pixels(data)
    if size is None or size[0] * size[1] <= most:
        return None
    return {"width": size[0], "height": size[1], "most": most // 1_000_000}


def decoded(data: bytes, *, turned: bool = True, shrink: int = 1,
            size: tuple[int, int] | None = _UNMEASURED) -> NDArray[np.uint8] | None:
    """The picture ``data`` holds as BGR, shrunk by ``shrink`` (1, 2, 4 or 8) as it is
    decoded, turned as its orientation tag says if ``turned`` (a photo; a video's frame is
    played as stored); None where none can be decoded, or it is :func:`too_large` (OpenCV
    would decode a corrupt size to gigabytes, or assert), or its size is not known before it
    is decoded (see the module's note). ``size`` is :func:`image_size` of ``data`` where the
    caller has read it already (None: its header has none); the header is read here only
    when it is not given."""
    size = image_size(data) if size == _UNMEASURED else size
    if size is None or too_large(data, size) is not None:
        return None
    flags = _SHRUNK[shrink] | (0 if turned else cv2.IMREAD_IGNORE_ORIENTATION)
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flags) if data else None
    except cv2.error:
        return None
    return None if image is None else np.asarray(image, np.uint8)


def shrink_of(size: tuple[int, int], fit: int) -> int:
    """By how much (1, 2, 4 or 8) a picture of ``size`` is shrunk to fit ``fit`` pixels (8 at
    most)."""
    for shrink in (1, 2, 4):
        if (size[0] // shrink) * (size[1] // shrink) <= fit:
            return shrink
    return 8
