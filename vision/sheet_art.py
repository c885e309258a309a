"""What is printed on a sheet, as a few shapes (mm), and those shapes drawn as an image.

The same shapes become the PDF (device.printed_sheet) and the PNG, so the two always agree;
the markers are their cells as filled squares, so they print crisp at any resolution.

>>> from vision.sheet import layout
>>> image = draw(layout("dicy", "a4"), px_per_mm=2.0)
>>> image.shape, int(image[0, 0, 0])
((420, 594, 3), 255)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.sheet import DICTIONARY, MARGIN_MM, MARKER_MM, PX_PER_MM, Layout

LANGUAGES = ("en", "es", "pt", "it")
PLACE_GREY = 0.55  # fill of a card place (0 black .. 1 white)
LINE_GREY = 0.45
TEXT_GREY = 0.35
TRAY_GREY = PLACE_GREY
"""Fill of Dicy Cards' dice area, a tray as dice trays are felt: the top of a white die is as
light as the paper, and on white paper under a lamp a camera saw little else of it than its
pips (the dice reader finds dice by their bodies); on the tray dice of every colour stand out.
A black-and-white printer prints it as it prints the card places."""
TRAY_TEXT_GREY = 0.1  # the tray's label: dark, to read plainly on the grey
TRAYS = ("dice",)  # the areas printed as trays (Dalek's areas stay white: its dice are read
#                    there as they are)
CLEAR_MM = MARGIN_MM + MARKER_MM + 2.0
"""A player's label keeps this far from the paper's side: clear of the corner markers."""
HINT_MM, HINT_BASELINE_MM = 2.1, 4.3
"""The line at the foot of the sheet: at most this high, on a baseline this far above the
paper's edge, so that it lies between what a printer leaves blank (about 4 mm) and the zones
(7 mm). The line at its head (how to print it) mirrors it."""

_WORDS: dict[str, dict[str, str]] = {
    "top": {"en": "Top", "es": "Arriba", "pt": "Topo", "it": "In cima"},
    "kept-humans": {"en": "Kept humans", "es": "Humanos guardados", "pt": "Humanos guardados",
                    "it": "Umani tenuti"},
    "kept-daleks": {"en": "Kept Daleks", "es": "Daleks guardados", "pt": "Daleks guardados",
                    "it": "Dalek tenuti"},
    "to-roll": {"en": "To roll", "es": "Para tirar", "pt": "Para rolar", "it": "Da lanciare"},
    "dice": {"en": "Dice", "es": "Dados", "pt": "Dados", "it": "Dadi"},
    "player": {"en": "Player", "es": "Jugador", "pt": "Jogador", "it": "Giocatore"},
    "row": {"en": "The row: play from here", "es": "La fila: se empieza aquí",
            "pt": "A fila: começa aqui", "it": "La fila: si comincia qui"},
    "print": {"en": "Print at actual size (100 %) on {paper} paper.",
              "es": "Imprimir a tamaño real (100 %) en papel {paper}.",
              "pt": "Imprimir em tamanho real (100 %) em papel {paper}.",
              "it": "Stampare a dimensioni effettive (100 %) su carta {paper}."},
    "hint": {"en": "Keep the four corner squares in the camera's view.",
             "es": "Los cuatro cuadrados de las esquinas, siempre a la vista de la cámara.",
             "pt": "Os quatro quadrados dos cantos sempre à vista da câmera.",
             "it": "I quattro quadrati agli angoli sempre in vista della telecamera."},
}
PAPER_NAMES = {"a4": "A4", "letter": "US Letter", "a3": "A3"}
"""The papers' names as a print dialogue shows them."""


@dataclass(frozen=True)
class Box:
    """A rectangle (mm); fill and line are greys 0..1, None for none."""

    x: float
    y: float
    w: float
    h: float
    fill: float | None = None
    line: float | None = None
    width: float = 0.4


@dataclass(frozen=True)
class Text:
    """One line of text; (x, y) is its baseline's left end (mm), size its height (mm)."""

    x: float
    y: float
    size: float
    text: str
    grey: float = TEXT_GREY
    turned: bool = False


Shape = Box | Text


def shapes(sheet: Layout, lang: str = "en") -> list[Shape]:
    """Everything printed on the sheet, in drawing order."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    out: list[Shape] = []
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    for marker in sheet.markers:
        cells = cv2.aruco.generateImageMarker(dictionary, marker.id, 6)
        cell = marker.size / 6
        for r, c in zip(*np.nonzero(cells == 0), strict=True):
            out.append(Box(marker.x + c * cell, marker.y + r * cell, cell, cell, fill=0.0))
    size = 3.2 * sheet.height / 210
    for zone in sheet.zones:
        if zone.kind == "place":
            out.append(Box(zone.x, zone.y, zone.w, zone.h, fill=PLACE_GREY))
        else:
            tray = zone.name in TRAYS
            out.append(Box(zone.x, zone.y, zone.w, zone.h, fill=TRAY_GREY if tray else None,
                           line=LINE_GREY, width=0.5))
            out.append(Text(zone.x + 2, zone.y + size + 1.5, size, _WORDS[zone.name][lang],
                            grey=TRAY_TEXT_GREY if tray else TEXT_GREY))
    if sheet.game == "dicy":
        for player in range(1, 5):
            row = sorted((z for z in sheet.places() if z.name.startswith(f"p{player}-")),
                         key=lambda z: z.x)
            label = f"{_WORDS['player'][lang]} {player}"
            # A row read from across the table has its label on its right; turned text runs
            # leftwards from x. The label keeps clear of the corner markers' column (a
            # marker touched by ink is not found): a long word is set smaller.
            room = (sheet.width - CLEAR_MM - (row[-1].x + row[-1].w + 3) if row[0].turned
                    else row[0].x - 3 - CLEAR_MM)
            fitted = min(size, room / (len(label) * 0.8))
            width = len(label) * fitted * 0.8
            x = row[-1].x + row[-1].w + 3 + width if row[0].turned else row[0].x - 3 - width
            out.append(Text(x, row[0].y + row[0].h / 2, fitted, label, turned=row[0].turned))
    elif sheet.game == "17":
        first = sheet.zone("row-1")
        out.append(Text(first.x, first.y - 2.5, size, _WORDS["row"][lang]))
    small = min(size * 0.8, HINT_MM)
    how = _WORDS["print"][lang].format(paper=PAPER_NAMES[sheet.paper])
    hint = _WORDS["hint"][lang]
    out.append(Text((sheet.width - len(how) * small * 0.625) / 2,
                    HINT_BASELINE_MM + 1.7, small, how))
    out.append(Text((sheet.width - len(hint) * small * 0.625) / 2,
                    sheet.height - HINT_BASELINE_MM, small, hint))
    return out


def draw(sheet: Layout, *, px_per_mm: float = PX_PER_MM, lang: str = "en") -> NDArray[np.uint8]:
    """The sheet as a BGR image (white paper) at px_per_mm."""
    w, h = sheet.pixel_size(px_per_mm)
    image = np.full((h, w, 3), 255, np.uint8)
    k = px_per_mm
    for shape in shapes(sheet, lang):
        if isinstance(shape, Box):
            p0 = (round(shape.x * k), round(shape.y * k))
            p1 = (round((shape.x + shape.w) * k) - 1, round((shape.y + shape.h) * k) - 1)
            if shape.fill is not None:
                cv2.rectangle(image, p0, p1, _bgr(shape.fill), -1)
            if shape.line is not None:
                cv2.rectangle(image, p0, p1, _bgr(shape.line),
                              max(1, round(shape.width * k)), cv2.LINE_AA)
        else:
            _text(image, shape, k)
    return image


def _bgr(grey: float) -> tuple[int, int, int]:
    v = round(255 * grey)
    return (v, v, v)


_MARKS = {"\u0301": "acute", "\u0300": "grave", "\u0302": "circumflex", "\u0303": "tilde",
          "\u0327": "cedilla"}


def _text(image: NDArray[np.uint8], text: Text, k: float) -> None:
    """Draw text with OpenCV's Hershey font, letter by letter so that the accents of Spanish,
    Portuguese and Italian (which the font lacks) are drawn as small strokes."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = text.size * k / 22.0
    thick = max(1, round(scale * 1.6))
    canvas = image
    if text.turned:
        canvas = np.ascontiguousarray(image[::-1, ::-1])
        h, w = image.shape[:2]
        x, y = w - text.x * k, h - text.y * k + text.size * k
    else:
        x, y = text.x * k, text.y * k
    colour = _bgr(text.grey)
    for char in unicodedata.normalize("NFD", text.text):
        mark = _MARKS.get(char)
        if mark is not None:
            _accent(canvas, mark, x, y, text.size * k, colour, thick)
            continue
        base = char if char.isascii() else "?"
        (cw, _), _ = cv2.getTextSize(base, font, scale, thick)
        cv2.putText(canvas, base, (round(x), round(y)), font, scale, colour, thick, cv2.LINE_AA)
        x += cw
    if text.turned:
        image[:] = canvas[::-1, ::-1]


def _accent(canvas: NDArray[np.uint8], mark: str, x_after: float, baseline: float,
            size: float, colour: tuple[int, int, int], thick: int) -> None:
    """An accent over (or a cedilla under) the letter that ends at x_after."""
    cx = x_after - size * 0.42
    top = baseline - size * 1.05
    u = size * 0.18
    if mark == "acute":
        pts = [(cx - u * 0.5, top + u), (cx + u * 0.7, top - u * 0.2)]
    elif mark == "grave":
        pts = [(cx - u * 0.7, top - u * 0.2), (cx + u * 0.5, top + u)]
    elif mark == "circumflex":
        pts = [(cx - u, top + u * 0.8), (cx, top - u * 0.2), (cx + u, top + u * 0.8)]
    elif mark == "tilde":
        pts = [(cx - u, top + u * 0.6), (cx - u * 0.4, top), (cx + u * 0.4, top + u * 0.6),
               (cx + u, top)]
    else:
        pts = [(cx, baseline), (cx + u * 0.5, baseline + u), (cx - u * 0.3, baseline + u * 1.6)]
    poly = np.round(np.array(pts)).astype(np.int32)
    cv2.polylines(canvas, [poly], False, colour, thick, cv2.LINE_AA)
