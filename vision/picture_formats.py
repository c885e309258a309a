"""Which picture files the table reads, and which it names as photos it cannot read, by the
ending of their names: one list for a camera's folder (device.camera), labelled photos
(``dicetable eval``, vision.datasets) and teach, so that each picks the same files and names
the same ones.

A GIF is read (its first picture) where this OpenCV decodes one (:data:`READS_GIF`: OpenCV
5.1 here does; 4.11 has a GIF reader built only on request), its header's size read before
(vision.image_size) as a PNG's is; else it is named as a photo the table cannot read. An
AVIF, which OpenCV may decode too, is not read: its size lies deep in its boxes, and unread
it may decode to gigabytes.

>>> unreadable_kind(Path("IMG_0001.HEIF")), unreadable_kind(Path("DSC_1.NEF"))
('HEIC', 'RAW')
>>> unreadable_kind(Path("._IMG_0001.HEIC")), unreadable_kind(Path("frame.png"))
(None, None)
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

_GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00"
        b"\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")  # one black pixel
READS_GIF = cv2.imdecode(np.frombuffer(_GIF, np.uint8), cv2.IMREAD_COLOR) is not None
"""Whether this OpenCV decodes a GIF."""
PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff",
                    *((".gif",) if READS_GIF else ()))
"""The endings of the picture files the table reads."""
UNREADABLE: dict[str, tuple[str, ...]] = {
    "HEIC": (".heic", ".heif"),  # an iPhone's photos, which OpenCV cannot read
    "RAW": (".cr2", ".cr3", ".crw", ".nef", ".nrw", ".dng", ".arw", ".srf", ".sr2", ".orf",
            ".rw2", ".raf", ".pef", ".srw", ".rwl", ".3fr", ".erf", ".kdc", ".mrw", ".x3f",
            ".raw"),  # a camera's RAW photos (Canon, Nikon, Adobe, Sony, …)
    "AVIF": (".avif",),  # some phones' photos
    **({} if READS_GIF else {"GIF": (".gif",)}),
}
"""The kinds of photo the table cannot read, and the endings of their names."""


def unreadable_kind(path: Path) -> str | None:
    """The kind of photo the table cannot read that ``path`` is named as (None: it is named
    as none, or hidden: a Mac's ``._IMG_1.HEIC``)."""
    suffix = path.suffix.lower()
    return None if path.name.startswith(".") else next(
        (kind for kind, suffixes in UNREADABLE.items() if suffix in suffixes), None)
