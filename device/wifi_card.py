"""A card to keep with the Pi: its hotspot's Wi-Fi QR code, name and password, and the
table's address on it; at a house whose Wi-Fi the Pi does not know, a phone scans it to join.

Any name and password comitup takes fit on it: the QR code's squares shrink for a long
password (never below what a phone's camera reads from a hand's length), and a word too long
for its line at its size is printed smaller, then over more lines. The QR code carries the
exact name and password, whatever their letters; one with letters the card's font cannot
print ("Łódź", "桌") is not printed: a note says to scan the code instead.

>>> from device.hotspot import Hotspot
>>> card_pdf(Hotspot("dicetable-1234", "k3mxq7wa2b"), password="Password", table="Table",
...          unprintable="Scan the code", address="http://10.41.0.1:8017/")[:5]
b'%PDF-'
"""

from __future__ import annotations

import re

import segno

from device.helvetica import printable, width
from device.hotspot import Hotspot
from device.printed_sheet import shapes_pdf
from vision.sheet_art import Box, Shape, Text

WIDTH, HEIGHT = 100.0, 55.0  # mm: a card, printed at actual size
EDGE = 1.0  # mm: the card's printed edge, left clear
MARGIN = 3.0  # mm: between the words and the card's edge
MODULE = 1.2  # mm: each square of the QR code, where it has the room
QUIET = 4  # squares of blank paper around it, as phones need
LABEL, VALUE, ADDRESS = 3.0, 3.6, 2.6  # mm: the sizes of the words, where they have the room
SMALLEST = 2.2  # mm: the smallest a value is printed before it goes over more lines
PITCH = 1.45  # a line's height for its text's size
GAP = 2.5  # mm: between one label and value and the next


def card_pdf(spot: Hotspot, *, password: str, table: str, unprintable: str,
             address: str) -> bytes:
    """The card as a PDF file's bytes; ``password`` and ``table`` are the words for the
    password and the table's address, in the host's language, ``unprintable`` the note in
    place of a name or password the card cannot print; ``address`` the table's address on the
    hotspot."""
    return shapes_pdf(WIDTH, HEIGHT, card_shapes(spot, password=password, table=table,
                                                 unprintable=unprintable, address=address))


def card_shapes(spot: Hotspot, *, password: str, table: str, unprintable: str,
                address: str) -> list[Shape]:
    """What is printed on the card (mm, y down): its edge, the QR code's squares, and the
    words; the hotspot's password only where it has one (comitup's is open otherwise)."""
    drawn: list[Shape] = [Box(0.5, 0.5, WIDTH - 1, HEIGHT - 1, line=0.6, width=0.3)]
    # UTF-8, the name's own bytes: left to choose, segno writes a Greek or Cyrillic name in
    # Shift JIS, which a phone reads as other letters (boosted to a better error level where
    # the squares leave room)
    matrix = segno.make(spot.join_code, micro=False, error="l", encoding="utf-8").matrix
    module = min(MODULE, (HEIGHT - 2 * EDGE) / (len(matrix) + 2 * QUIET))
    side = (len(matrix) + 2 * QUIET) * module
    top = (HEIGHT - side) / 2 + QUIET * module
    for row, squares in enumerate(matrix):
        for column, dark in enumerate(squares):
            if dark:
                drawn.append(Box(EDGE + (QUIET + column) * module, top + row * module,
                                 module, module, fill=0.0))
    left = EDGE + side
    entries = [("Wi-Fi", spot.name, VALUE)]
    if spot.password:
        entries.append((password, spot.password, VALUE))
    entries.append((table, address, ADDRESS))
    drawn.extend(_words(entries, left, WIDTH - MARGIN - left, unprintable))
    return drawn


def _words(entries: list[tuple[str, str, float]], left: float, room: float,
           unprintable: str) -> list[Text]:
    """Each label over its value (or ``unprintable``, where the font lacks a letter of it), in
    a column ``room`` mm wide from ``left``, the column centred from top to bottom (all made
    smaller where even so it is too tall)."""
    lines: list[tuple[str, float, float]] = []  # (text, size, grey)
    for i, (label, value, size) in enumerate(entries):
        lines += [(part, fitted, 0.35) for part, fitted in _fitted(label, LABEL, SMALLEST, room)]
        said = (_fitted(value, size, SMALLEST, room) if printable(value)
                else _fitted(unprintable, size, SMALLEST, room, by_words=True))
        lines += [(part, fitted, 0.0) for part, fitted in said]
        if i < len(entries) - 1:
            lines.append(("", GAP / PITCH, 1.0))
    tall = sum(size * PITCH for _, size, _ in lines)
    scale = min(1.0, (HEIGHT - 2 * MARGIN) / tall)
    y = (HEIGHT - tall * scale) / 2
    texts = []
    for text, size, grey in lines:
        y += size * scale * PITCH
        if text:
            texts.append(Text(left, y - size * scale * (PITCH - 1) / 2, size * scale, text,
                              grey=grey))
    return texts


def _fitted(text: str, size: float, smallest: float, room: float, *,
            by_words: bool = False) -> list[tuple[str, float]]:
    """``text`` as lines no wider than ``room`` mm with their size: one line at ``size`` or
    smaller down to ``smallest``, else as many lines at ``smallest`` as it needs (broken
    between any two characters, as a password has no words; ``by_words``: between words)."""
    size = max(smallest, min(size, room / width(text, 1.0))) if text else size
    lines = [""]
    for piece in re.findall(r"\S+\s*", text) if by_words else text:
        if lines[-1] and width((lines[-1] + piece).rstrip(), size) > room:
            lines.append("")
        lines[-1] += piece
    return [(line.rstrip() if by_words else line, size) for line in lines]
