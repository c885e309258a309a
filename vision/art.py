"""Art for rendered components: Dalek faces, d6 faces, Dicy card sides, 17 card faces.

Nobody here has seen the real components, so this art is a stand-in in a few styles: the
default profiles are taught from the ``classic`` style, and the other styles exist so that
teach mode can be measured on art the reader has never seen (``ink``, ``pop``; for d6,
``pictures`` draws a picture instead of pips). Faces are drawn upright, BGR, at DIE_PX per die
side and CARD_PX per card.

>>> die_face("EXT", "classic").shape, card_face("dicy-card", "odd/frozen", "pop").shape
((96, 96, 3), (264, 192, 3))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.components import PLAIN_BACK

Image = NDArray[np.uint8]
BGR = tuple[int, int, int]

DIE_PX = 96
CARD_PX = (192, 264)  # width, height
PLAYER_COLOURS: tuple[BGR, ...] = ((40, 40, 200), (170, 90, 30), (60, 150, 50), (30, 170, 220))


@dataclass(frozen=True)
class Style:
    """How one edition of the components looks."""

    name: str
    die_body: BGR
    die_ink: BGR
    human: BGR
    dalek: BGR
    icons: str  # "figures", "letters" or "shapes"
    font: int
    panel: BGR  # the panel of a Dicy card's active side
    ice: BGR  # a Dicy card's frozen side
    numbers: tuple[BGR, ...]  # 17 fronts 1..5
    front: BGR
    back: BGR
    back_ink: BGR
    layout: int  # 0, 1 or 2: where titles and pictures sit on a card


STYLES = {
    "classic": Style("classic", (232, 236, 238), (30, 30, 30), (170, 110, 30), (40, 40, 190),
                     "figures", cv2.FONT_HERSHEY_DUPLEX, (245, 245, 245), (240, 215, 170),
                     ((60, 60, 200), (40, 140, 230), (50, 160, 60), (170, 100, 40),
                      (140, 50, 130)), (245, 248, 250), (120, 50, 30), (210, 170, 120), 0),
    "ink": Style("ink", (35, 35, 35), (235, 235, 235), (240, 220, 120), (90, 90, 250),
                 "letters", cv2.FONT_HERSHEY_TRIPLEX, (30, 30, 30), (120, 90, 60),
                 ((230, 230, 230), (120, 220, 250), (140, 240, 140), (250, 200, 150),
                  (230, 150, 240)), (40, 40, 40), (30, 90, 30), (120, 200, 120), 1),
    "pop": Style("pop", (60, 215, 245), (120, 30, 90), (150, 40, 20), (20, 120, 20),
                 "shapes", cv2.FONT_HERSHEY_COMPLEX, (200, 250, 255), (250, 250, 220),
                 ((0, 0, 0), (130, 0, 130), (0, 90, 160), (100, 60, 0), (0, 100, 0)),
                 (180, 235, 255), (30, 30, 150), (0, 200, 255), 2),
}
DEFAULT_STYLE = "classic"

_DICY_ART: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = {
    "two-dice": (("TWO", "DICE"), (0, 0)),
    "no-six": (("NO", "SIX"), (6,)),
    "odd": (("ODD",), (1, 3, 5)),
    "straight": (("STRAIGHT",), (1, 2, 3, 4)),
    "two-pairs": (("TWO", "PAIRS"), (2, 2, 5, 5)),
    "sixes": (("SIXES",), (6, 6, 6)),
    "pair": (("PAIR", "x2"), (4, 4)),
    "lowest-three": (("LOWEST", "THREE"), (1, 1, 2)),
    "distinct-x4": (("ALL DIFF", "x4"), (1, 3, 6)),
    "distinct-sum": (("ALL DIFF", "SUM"), (2, 4, 5, 3)),
    "forty-minus": (("40", "MINUS"), (0, 0, 0, 0, 0, 0)),
    "same-x5": (("SAME", "x5"), (3, 3, 3)),
}
_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def style(name: str) -> Style:
    if name not in STYLES and name != "pictures":
        raise ValueError(f"unknown art style {name!r} (styles: {', '.join(STYLES)}, pictures)")
    return STYLES.get(name, STYLES[DEFAULT_STYLE])


def die_face(face: str, style_name: str = DEFAULT_STYLE) -> Image:
    """A die's face, upright: a Dalek face (H4 … EXT) or a d6 value ("1" … "6")."""
    s = style(style_name)
    img = np.empty((DIE_PX, DIE_PX, 3), np.uint8)
    img[:] = s.die_body
    if face.isdigit():
        if style_name == "pictures":
            _picture(img, int(face))
        else:
            _pips(img, int(face), 0, 0, DIE_PX, s.die_ink)
        return img
    if s.icons == "letters":
        _dalek_letters(img, face, s)
    else:
        _dalek_icons(img, face, s)
    return img


def card_face(kind: str, face: str, style_name: str = DEFAULT_STYLE, *,
              colour: BGR = PLAYER_COLOURS[0]) -> Image:
    """A card's visible face, upright, CARD_PX: a Dicy side ("odd/active", colour the
    player's) or a 17 face ("3", "trap", "3d" for a double-sided back, "back")."""
    s = style(style_name)
    w, h = CARD_PX
    img = np.empty((h, w, 3), np.uint8)
    if kind == "dicy-card":
        card, side = face.split("/")
        _dicy(img, card, side == "frozen", s, colour)
    else:
        _seventeen(img, face, s)
    return img


# --- dice -------------------------------------------------------------------------------------

def _pips(img: Image, value: int, x0: int, y0: int, side: int, ink: BGR) -> None:
    spread, r = side * 0.27, max(1, round(side * 0.09))
    for px, py in _PIPS[value]:
        centre = (round(x0 + side / 2 + px * spread), round(y0 + side / 2 + py * spread))
        cv2.circle(img, centre, r, ink, -1, cv2.LINE_AA)


def _picture(img: Image, value: int) -> None:
    """A d6 whose faces are pictures: sun, moon, star, heart, tree, fish."""
    c = DIE_PX // 2
    colours = [(0, 170, 240), (150, 110, 40), (40, 180, 220), (50, 40, 210), (40, 130, 40),
               (170, 80, 20)]
    col = colours[value - 1]
    if value == 1:
        cv2.circle(img, (c, c), 20, col, -1, cv2.LINE_AA)
        for k in range(8):
            a = k * math.pi / 4
            cv2.line(img, (round(c + 25 * math.cos(a)), round(c + 25 * math.sin(a))),
                     (round(c + 38 * math.cos(a)), round(c + 38 * math.sin(a))), col, 5,
                     cv2.LINE_AA)
    elif value == 2:
        cv2.circle(img, (c, c), 32, col, -1, cv2.LINE_AA)
        cv2.circle(img, (c + 16, c - 10), 28, img[2, 2].tolist(), -1, cv2.LINE_AA)
    elif value == 3:
        _star(img, c, c, 38, 15, col)
    elif value == 4:
        cv2.circle(img, (c - 15, c - 10), 18, col, -1, cv2.LINE_AA)
        cv2.circle(img, (c + 15, c - 10), 18, col, -1, cv2.LINE_AA)
        tri = np.array([[c - 32, c - 2], [c + 32, c - 2], [c, c + 34]], np.int32)
        cv2.fillPoly(img, [tri], col, cv2.LINE_AA)
    elif value == 5:
        cv2.rectangle(img, (c - 5, c + 10), (c + 5, c + 40), (30, 60, 110), -1)
        tri = np.array([[c - 30, c + 16], [c + 30, c + 16], [c, c - 40]], np.int32)
        cv2.fillPoly(img, [tri], col, cv2.LINE_AA)
    else:
        cv2.ellipse(img, (c - 6, c), (30, 17), 0, 0, 360, col, -1, cv2.LINE_AA)
        tri = np.array([[c + 18, c], [c + 40, c - 17], [c + 40, c + 17]], np.int32)
        cv2.fillPoly(img, [tri], col, cv2.LINE_AA)
        cv2.circle(img, (c - 22, c - 4), 4, (255, 255, 255), -1, cv2.LINE_AA)


def _star(img: Image, cx: float, cy: float, r_out: float, r_in: float, col: BGR,
          points: int = 5) -> None:
    pts = [(cx + (r_out if k % 2 == 0 else r_in) * math.sin(k * math.pi / points),
            cy - (r_out if k % 2 == 0 else r_in) * math.cos(k * math.pi / points))
           for k in range(2 * points)]
    cv2.fillPoly(img, [np.round(np.array(pts)).astype(np.int32)], col, cv2.LINE_AA)


_SPOTS = {2: [(-0.5, 0.0), (0.5, 0.0)], 3: [(-0.6, 0.45), (0.6, 0.45), (0.0, -0.5)],
          4: [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)]}


def _dalek_icons(img: Image, face: str, s: Style) -> None:
    c = DIE_PX / 2
    if face in ("DOC", "EXT"):
        if face == "DOC":
            _doctor(img, c, c, 1.0, s)
        else:
            _exterminate(img, s)
        return
    count = int(face[1])
    human = face[0] == "H"
    scale = {2: 0.62, 3: 0.5, 4: 0.44}[count]
    for dx, dy in _SPOTS[count]:
        x, y = c + dx * DIE_PX * 0.42 * (1 if count != 3 else 0.9), c + dy * DIE_PX * 0.42
        if s.icons == "shapes":
            if human:
                cv2.circle(img, (round(x), round(y)), round(14 * scale / 0.5), s.human, -1,
                           cv2.LINE_AA)
            else:
                r = 16 * scale / 0.5
                tri = np.array([[x, y - r], [x + r, y + r * 0.8], [x - r, y + r * 0.8]])
                cv2.fillPoly(img, [np.round(tri).astype(np.int32)], s.dalek, cv2.LINE_AA)
        elif human:
            _human(img, x, y, scale, s.human)
        else:
            _dalek(img, x, y, scale, s.dalek)


def _human(img: Image, x: float, y: float, k: float, col: BGR) -> None:
    cv2.circle(img, (round(x), round(y - 22 * k)), round(10 * k), col, -1, cv2.LINE_AA)
    body = np.array([[x - 14 * k, y + 26 * k], [x + 14 * k, y + 26 * k], [x + 9 * k, y - 8 * k],
                     [x - 9 * k, y - 8 * k]])
    cv2.fillPoly(img, [np.round(body).astype(np.int32)], col, cv2.LINE_AA)


def _dalek(img: Image, x: float, y: float, k: float, col: BGR) -> None:
    skirt = np.array([[x - 20 * k, y + 26 * k], [x + 20 * k, y + 26 * k],
                      [x + 11 * k, y - 6 * k], [x - 11 * k, y - 6 * k]])
    cv2.fillPoly(img, [np.round(skirt).astype(np.int32)], col, cv2.LINE_AA)
    cv2.ellipse(img, (round(x), round(y - 8 * k)), (round(11 * k), round(13 * k)), 0, 180, 360,
                col, -1, cv2.LINE_AA)
    cv2.line(img, (round(x + 8 * k), round(y - 14 * k)), (round(x + 24 * k), round(y - 20 * k)),
             col, max(1, round(3 * k)), cv2.LINE_AA)
    for j in (-1, 0, 1):
        cv2.circle(img, (round(x + j * 8 * k), round(y + 14 * k)), max(1, round(3 * k)),
                   (235, 235, 235), -1, cv2.LINE_AA)


def _doctor(img: Image, x: float, y: float, k: float, s: Style) -> None:
    if s.icons == "shapes":
        _star(img, x, y, 40 * k, 17 * k, s.human, points=6)
        return
    blue = (140, 60, 20)
    cv2.rectangle(img, (round(x - 20 * k), round(y - 30 * k)), (round(x + 20 * k),
                  round(y + 36 * k)), blue, -1, cv2.LINE_AA)
    cv2.rectangle(img, (round(x - 3 * k), round(y - 40 * k)), (round(x + 3 * k),
                  round(y - 30 * k)), blue, -1, cv2.LINE_AA)
    for wx in (-1, 1):
        for wy in range(3):
            x0, y0 = round(x + wx * 10 * k - 6 * k), round(y - 22 * k + wy * 19 * k)
            cv2.rectangle(img, (x0, y0), (x0 + round(11 * k), y0 + round(13 * k)),
                          (235, 225, 215), -1)


def _exterminate(img: Image, s: Style) -> None:
    c = DIE_PX / 2
    if s.icons == "shapes":
        cv2.line(img, (18, 18), (78, 78), s.dalek, 12, cv2.LINE_AA)
        cv2.line(img, (78, 18), (18, 78), s.dalek, 12, cv2.LINE_AA)
        return
    pts = [(c + (42 if k % 2 == 0 else 22) * math.cos(k * math.pi / 8 + 0.2),
            c + (42 if k % 2 == 0 else 22) * math.sin(k * math.pi / 8 + 0.2)) for k in range(16)]
    cv2.fillPoly(img, [np.round(np.array(pts)).astype(np.int32)], (30, 150, 240), cv2.LINE_AA)
    cv2.putText(img, "!", (round(c - 9), round(c + 15)), s.font, 1.4, s.dalek, 4, cv2.LINE_AA)


def _dalek_letters(img: Image, face: str, s: Style) -> None:
    text = {"DOC": "Dr", "EXT": "EX"}.get(face, face[0])
    ink = s.human if face[0] == "H" else s.dalek if face[0] in "DE" and face != "DOC" else s.die_ink
    _centred(img, text, DIE_PX / 2, DIE_PX * 0.48, 1.5, ink, 3, s.font)
    if face[1].isdigit():
        for j in range(int(face[1])):
            x = DIE_PX / 2 + (j - (int(face[1]) - 1) / 2) * 16
            cv2.circle(img, (round(x), round(DIE_PX * 0.78)), 5, ink, -1, cv2.LINE_AA)
    else:
        cv2.line(img, (22, round(DIE_PX * 0.78)), (74, round(DIE_PX * 0.78)), ink, 4, cv2.LINE_AA)


def _centred(img: Image, text: str, x: float, y: float, scale: float, col: BGR, thick: int,
             font: int) -> None:
    """Text centred on (x, y)."""
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(img, text, (round(x - tw / 2), round(y + th / 2)), font, scale, col, thick,
                cv2.LINE_AA)


def _fit(text: str, width: float, font: int, scale: float, thick: int) -> float:
    """The largest scale up to `scale` at which text fits in width pixels."""
    (tw, _), _ = cv2.getTextSize(text, font, scale, thick)
    return scale if tw <= width else scale * width / tw


# --- Dicy Cards -------------------------------------------------------------------------------

def _dicy(img: Image, card: str, frozen: bool, s: Style, colour: BGR) -> None:
    w, h = CARD_PX
    title, dice = _DICY_ART[card]
    if frozen:
        img[:] = s.ice
        for k in range(6):  # frost: a few straight cracks
            a = k * math.pi / 3 + 0.3
            cv2.line(img, (w // 2, h // 2), (round(w / 2 + 140 * math.cos(a)),
                     round(h / 2 + 140 * math.sin(a))), (255, 250, 240), 3, cv2.LINE_AA)
        ink: BGR = (120, 80, 40) if s.layout != 1 else (230, 220, 200)
    else:
        img[:] = colour
        ink = (30, 30, 30) if s.layout != 1 else (240, 240, 240)
    panel = s.panel if not frozen else tuple(min(255, round(v * 0.5 + 127)) for v in s.ice)
    if s.layout == 0:
        cv2.rectangle(img, (14, 14), (w - 15, h - 15), panel, -1, cv2.LINE_AA)
        ty, dy = 60, 190
    elif s.layout == 1:
        cv2.rectangle(img, (10, 10), (w - 11, h - 11), ink, 3, cv2.LINE_AA)
        ty, dy = 200, 80
    else:
        cv2.circle(img, (w // 2, h // 2), 86, panel, -1, cv2.LINE_AA)
        ty, dy = 120, 220
    for i, line in enumerate(title):
        scale = _fit(line, w - 40, s.font, 1.2, 2)
        _centred(img, line, w / 2, ty + i * 40 - (len(title) - 1) * 20, scale, ink, 2, s.font)
    side = 36 if len(dice) <= 4 else 24
    n = len(dice)
    for i, value in enumerate(dice):
        x0 = round(w / 2 + (i - n / 2) * (side + 6) + 3)
        y0 = dy - side // 2
        cv2.rectangle(img, (x0, y0), (x0 + side, y0 + side), ink, 2, cv2.LINE_AA)
        if value:
            _pips(img, value, x0, y0, side, ink)
        else:
            _centred(img, "?", x0 + side / 2, y0 + side / 2, side / 40, ink, 2, s.font)
    if card == "no-six":
        cv2.line(img, (w // 2 - 30, dy + 28), (w // 2 + 30, dy - 28), (30, 30, 200), 5,
                 cv2.LINE_AA)
    corner = "A" if not frozen else "*"
    for x, y in ((8, 30), (w - 28, h - 10)):
        cv2.putText(img, corner, (x, y), s.font, 0.8, ink, 2, cv2.LINE_AA)


# --- 17 -------------------------------------------------------------------------------------------

def _seventeen(img: Image, face: str, s: Style) -> None:
    w, h = CARD_PX
    if face == PLAIN_BACK or face.endswith("d"):
        _back(img, s)
        if face != PLAIN_BACK:
            cv2.circle(img, (w // 2, h // 2), 52, s.front, -1, cv2.LINE_AA)
            _centred(img, face[0], w / 2, h / 2, 2.6, s.numbers[int(face[0]) - 1], 6, s.font)
        return
    img[:] = s.front
    cv2.rectangle(img, (8, 8), (w - 9, h - 9), s.back, 3, cv2.LINE_AA)
    if face.isdigit():
        col = s.numbers[int(face) - 1]
        big = {0: 5.0, 1: 4.2, 2: 4.6}[s.layout]
        _centred(img, face, w / 2, h / 2, big, col, 10, s.font)
        for x, y in ((16, 44), (w - 40, h - 18)):
            cv2.putText(img, face, (x, y), s.font, 1.0, col, 2, cv2.LINE_AA)
        return
    ink = s.back
    if face == "x2":
        _centred(img, "x2", w / 2, h / 2, 2.8, ink, 8, s.font)
    elif face == "reverse":
        for sign in (-1, 1):
            start = 90 + sign * 80
            cv2.ellipse(img, (w // 2, h // 2), (60, 60), 0, start - 60, start + 60, ink, 9,
                        cv2.LINE_AA)
        tri1 = np.array([[w // 2 - 20, h // 2 - 78], [w // 2 + 14, h // 2 - 60],
                         [w // 2 - 20, h // 2 - 42]], np.int32)
        tri2 = np.array([[w // 2 + 20, h // 2 + 78], [w // 2 - 14, h // 2 + 60],
                         [w // 2 + 20, h // 2 + 42]], np.int32)
        cv2.fillPoly(img, [tri1, tri2], ink, cv2.LINE_AA)
    elif face == "trash":
        body = np.array([[w // 2 - 46, h // 2 - 40], [w // 2 + 46, h // 2 - 40],
                         [w // 2 + 36, h // 2 + 70], [w // 2 - 36, h // 2 + 70]], np.int32)
        cv2.fillPoly(img, [body], ink, cv2.LINE_AA)
        cv2.rectangle(img, (w // 2 - 56, h // 2 - 58), (w // 2 + 56, h // 2 - 46), ink, -1)
        for dx in (-18, 0, 18):
            cv2.line(img, (w // 2 + dx, h // 2 - 25), (w // 2 + dx, h // 2 + 55), s.front, 5)
    else:  # trap: a pair of toothed jaws
        for sign in (-1, 1):
            teeth = [(w // 2 - 70 + 20 * k, h // 2 + sign * (10 if k % 2 else 45))
                     for k in range(8)]
            pts = np.array([(w // 2 - 70, h // 2 + sign * 60), *teeth,
                            (w // 2 + 70, h // 2 + sign * 60)], np.int32)
            cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
    for x, y, t in ((14, 36, face[0].upper()), (w - 34, h - 16, face[0].upper())):
        cv2.putText(img, t, (x, y), s.font, 0.8, ink, 2, cv2.LINE_AA)


def _back(img: Image, s: Style) -> None:
    w, h = CARD_PX
    img[:] = s.back
    step = 24
    for k in range(-h, w + h, step):
        cv2.line(img, (k, 0), (k + h, h), s.back_ink, 2, cv2.LINE_AA)
        cv2.line(img, (k, 0), (k - h, h), s.back_ink, 2, cv2.LINE_AA)
    cv2.rectangle(img, (8, 8), (w - 9, h - 9), s.front, 4, cv2.LINE_AA)
