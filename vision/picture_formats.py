"""Which picture files the table reads, and which it names as photos it cannot read, by the
ending of their names: one list for a camera's folder (device.camera), labelled photos
(``dicetable eval``, vision.datasets) and teach, so that each picks the same files and names
the same ones.

A GIF is read (its first picture), as OpenCV's wheels since 4.12 decode one (4.11's do not),
its header's size read before (vision.image_size) as a PNG's is. An AVIF, which OpenCV may
decode too, is not read: its size lies deep in its boxes, and unread it may decode to
gigabytes.

>>> unreadable_kind(Path("IMG_0001.HEIF")), unreadable_kind(Path("DSC_1.NEF"))
('HEIC', 'RAW')
>>> unreadable_kind(Path("._IMG_0001.HEIC")), unreadable_kind(Path("frame.png"))
(None, None)

A photo is also known by its first bytes, where a tool saved it under another name (an
iPhone's HEIC as ``.jpg``):

>>> unreadable_inside(b"\\x00\\x00\\x00\\x18ftypheic"), unreadable_inside(b"\\xff\\xd8\\xff")
('HEIC', None)
"""

from __future__ import annotations

from pathlib import Path

PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".gif")
"""The endings of the picture files the table reads."""
UNREADABLE: dict[str, tuple[str, ...]] = {
    "HEIC": (".heic", ".heif"),  # an iPhone's photos, which OpenCV cannot read
    "RAW": (".cr2", ".cr3", ".crw", ".nef", ".nrw", ".dng", ".arw", ".srf", ".sr2", ".orf",
            ".rw2", ".raf", ".pef", ".srw", ".rwl", ".3fr", ".erf", ".kdc", ".mrw", ".x3f",
            ".raw"),  # a camera's RAW photos (Canon, Nikon, Adobe, Sony, …)
    "AVIF": (".avif",),  # some phones' photos
}
"""The kinds of photo the table cannot read, and the endings of their names."""


_BRANDS = {b"heic": "HEIC", b"heix": "HEIC", b"heim": "HEIC", b"heis": "HEIC",
           b"hevc": "HEIC", b"hevx": "HEIC", b"mif1": "HEIC", b"msf1": "HEIC",
           b"avif": "AVIF", b"avis": "AVIF"}
"""An ISO media file's first brand (its ``ftyp`` box): the kind of photo it holds."""


def unreadable_inside(data: bytes) -> str | None:
    """The kind of photo the table cannot read that the file ``data`` holds, by its first
    bytes; None for any other (a video of the same file family among them)."""
    return _BRANDS.get(data[8:12]) if data[4:8] == b"ftyp" else None


def unreadable_kind(path: Path) -> str | None:
    """The kind of photo the table cannot read that ``path`` is named as (None: it is named
    as none, or hidden: a Mac's ``._IMG_1.HEIC``)."""
    suffix = path.suffix.lower()
    return None if path.name.startswith(".") else next(
        (kind for kind, suffixes in UNREADABLE.items() if suffix in suffixes), None)
