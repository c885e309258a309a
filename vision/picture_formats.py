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
"""An ISO media file's brand (its ``ftyp`` box): the kind of photo it holds."""
_ANY_HEIF = (b"mif1", b"msf1")
"""The brands of any HEIF picture (HEIC, AVIF): the brands that follow say which."""


def unreadable_inside(data: bytes) -> str | None:
    """The kind of photo the table cannot read that the file ``data`` holds, by its first
    bytes (its first brand, or where that is any HEIF's, the first that says which); None
    for any other (a video of the same file family among them).

    >>> unreadable_inside(b"\\x00\\x00\\x00\\x1cftypmif1\\x00\\x00\\x00\\x00mif1miafavif")
    'AVIF'
    """
    if data[4:8] != b"ftyp":
        return None
    brand = data[8:12]
    if brand in _ANY_HEIF:
        end = min(int.from_bytes(data[:4], "big"), len(data))
        brand = next((b for b in (data[at:at + 4] for at in range(16, end - 3, 4))
                      if b in _BRANDS and b not in _ANY_HEIF), brand)
    return _BRANDS.get(brand)


def unreadable_kind(path: Path) -> str | None:
    """The kind of photo the table cannot read that ``path`` is named as (None: it is named
    as none, or hidden: a Mac's ``._IMG_1.HEIC``)."""
    suffix = path.suffix.lower()
    return None if path.name.startswith(".") else next(
        (kind for kind, suffixes in UNREADABLE.items() if suffix in suffixes), None)


def unreadable(path: Path, data: bytes) -> str | None:
    """The kind of photo the table cannot read that ``path`` is named as, else the one its
    bytes ``data`` hold (an iPhone's HEIC saved as ``.jpg``); None for any other."""
    return unreadable_kind(path) or unreadable_inside(data)


NOT_READABLE = ("not a readable image: empty, cut short, or in a format whose size is not known "
                "before it is read (a PPM or JPEG 2000 saved as .jpg, say); save it as JPEG or "
                "PNG")
"""Why a photo of no kind :func:`unreadable` names is not read."""


def not_read(kind: str, path: Path) -> str:
    """Why the photo at ``path``, of a ``kind`` the table cannot read, is not read (after its
    name), saying the ending it was named with where that is not its kind's.

    >>> not_read("HEIC", Path("IMG_1.jpg"))
    'a HEIC photo named .jpg, which cannot be read here; convert it to JPEG or PNG'
    >>> not_read("AVIF", Path("IMG_1.avif"))
    'an AVIF photo, which cannot be read here; convert it to JPEG or PNG'
    """
    article = "an" if kind[0] in "AEIOU" else "a"
    named = f" named {path.suffix}" if path.suffix and unreadable_kind(path) != kind else ""
    return f"{article} {kind} photo{named}, which cannot be read here; convert it to JPEG or PNG"
