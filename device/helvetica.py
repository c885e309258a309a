"""How wide a line of text is in Helvetica, the font of the printed sheets and card: to fit
words in the room they have on paper; and which letters it prints at all.

>>> round(width("Wi-Fi", 3.0), 2)
9.44
>>> printable("Café-Tisch Zoë"), printable("Łódź")
(True, False)
"""

from __future__ import annotations

import unicodedata

ENCODING = "cp1252"
"""The PDF's Helvetica is the standard one, in WinAnsi encoding (Windows' Western European
code page): the letters it prints; any other would print as "?"."""
EM_PER_SIZE = 1.35
"""A text's font size (its em) for its size (mm, about its capitals' height)."""

_ADVANCES = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)
"""Helvetica's advance widths (thousandths of an em) of the characters " " to "~", from its
Adobe font metrics."""
_WIDEST = 1015  # "@": any other character counts as wide as that


def width(text: str, size: float) -> float:
    """How wide ``text`` prints at ``size`` (mm); an accented letter as wide as its letter."""
    return sum(_advance(char) for char in text) * size * EM_PER_SIZE / 1000


def _advance(char: str) -> int:
    base = unicodedata.normalize("NFD", char)[0]
    code = ord(base) - 32
    return _ADVANCES[code] if 0 <= code < len(_ADVANCES) else _WIDEST


def printable(text: str) -> bool:
    """Whether every letter of ``text`` is one the PDF's Helvetica prints (:data:`ENCODING`)."""
    try:
        text.encode(ENCODING)
    except UnicodeEncodeError:
        return False
    return True
