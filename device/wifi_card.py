"""A card to keep with the Pi: its hotspot's Wi-Fi QR code, name and password, and the
table's address on it; at a house whose Wi-Fi the Pi does not know, a phone scans it to join.

>>> from device.hotspot import Hotspot
>>> card_pdf(Hotspot("dicetable-1234", "k3mxq7wa2b"), password="Password", table="Table")[:5]
b'%PDF-'
"""

from __future__ import annotations

import io

import segno

from device.hotspot import HOTSPOT_URL, Hotspot
from device.printed_sheet import shapes_pdf
from vision.sheet_art import Box, Shape, Text

WIDTH, HEIGHT = 100.0, 55.0  # mm: a card, printed at actual size
MODULE = 1.2  # mm: each square of the QR code
QUIET = 4  # squares of blank paper around it, as phones need


def card_pdf(spot: Hotspot, *, password: str, table: str) -> bytes:
    """The card as a PDF file's bytes; ``password`` and ``table`` are the words for the
    password and the table's address, in the host's language."""
    drawn: list[Shape] = [Box(0.5, 0.5, WIDTH - 1, HEIGHT - 1, line=0.6, width=0.3)]
    matrix = segno.make(spot.join_code, micro=False, error="m").matrix
    top = (HEIGHT - len(matrix) * MODULE) / 2
    for row, squares in enumerate(matrix):
        for column, dark in enumerate(squares):
            if dark:
                drawn.append(Box(QUIET * MODULE + column * MODULE, top + row * MODULE,
                                 MODULE, MODULE, fill=0.0))
    left = 2 * QUIET * MODULE + len(matrix) * MODULE
    lines = [("Wi-Fi", spot.name)]
    if spot.password:
        lines.append((password, spot.password))
    lines.append((table, HOTSPOT_URL))
    for i, (label, value) in enumerate(lines):
        drawn.append(Text(left, 14 + i * 14, 3.0, label, grey=0.35))
        drawn.append(Text(left, 20 + i * 14, 3.6 if i < 2 else 2.6, value, grey=0.0))
    out = io.BytesIO()
    shapes_pdf(WIDTH, HEIGHT, drawn).write(out)
    return out.getvalue()
