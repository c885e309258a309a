"""The printed sheet: its paper, its four corner markers and each game's zones, in millimetres.

The sheet lies landscape on the table. Its four ArUco markers (OpenCV's 4×4 dictionary) sit
at the corners; their ids tell which game and paper the sheet is for, so a camera frame alone
says which layout it shows. Zones are rectangles on the sheet: the areas of Dalek Dice, the
card places of Dicy Cards and of 17 (each place a little larger than the card it holds, with
a mid-grey fill that any card stands out against), and the dice area of Dicy Cards (printed
as a grey tray, vision.sheet_art: white dice are as light as the paper).

A rectified frame (vision.calibrate) shows the sheet at PX_PER_MM pixels per millimetre, x to
the right and y down from the sheet's top-left corner.

>>> sheet = layout("dalek", "a4")
>>> [z.name for z in sheet.zones]
['top', 'kept-humans', 'kept-daleks', 'to-roll']
>>> sheet.zone_at(150.0, 160.0).name
'to-roll'
>>> identify({m.id for m in layout("17", "letter").markers})
('17', 'letter')
>>> len(layout("dicy", "a4").places()), len(layout("17", "a4").places())
(20, 16)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2

GAMES = ("dalek", "dicy", "17")
PAPERS: dict[str, tuple[float, float]] = {  # landscape width × height in mm
    "a4": (297.0, 210.0),
    "letter": (279.4, 215.9),
    "a3": (420.0, 297.0),
}
PX_PER_MM = 3.0  # scale of a rectified frame
MARKER_MM = 22.0  # side of a corner marker, its black border included
MARGIN_MM = 7.0  # from the paper's edge to a marker (and to the zones)
DICTIONARY = cv2.aruco.DICT_4X4_50
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")

# Card places: the card's size and the room around it, as fractions of the paper's height,
# so that a larger paper gives larger places (A4: cards 24 × 33 mm in 28 × 37 mm places).
CARD_W, CARD_H = 24.0 / 210.0, 33.0 / 210.0
PLACE_ROOM = 4.0 / 210.0
PLACE_GAP = 3.0 / 210.0
ROW_17 = 8  # places in each of the two strips of the 17 row


@dataclass(frozen=True)
class Zone:
    """A rectangle on the sheet (mm). kind is "area" (dice lie anywhere in it) or "place"
    (one card); turned marks places read by the player across the table (upside down)."""

    name: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    turned: bool = False

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h


@dataclass(frozen=True)
class Marker:
    """A corner marker: its ArUco id and its top-left corner and side (mm)."""

    id: int
    corner: str
    x: float
    y: float
    size: float = MARKER_MM

    def corners(self) -> tuple[tuple[float, float], ...]:
        """The marker's four corners (mm) in ArUco's order: clockwise from top-left."""
        x, y, s = self.x, self.y, self.size
        return ((x, y), (x + s, y), (x + s, y + s), (x, y + s))


@dataclass(frozen=True)
class Layout:
    """One game's sheet on one paper."""

    game: str
    paper: str
    width: float
    height: float
    markers: tuple[Marker, ...]
    zones: tuple[Zone, ...]
    card: tuple[float, float]  # the card size the places are made for (mm; 0 × 0: no cards)

    def zone(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(name)

    def zone_at(self, x: float, y: float) -> Zone | None:
        """The zone holding the point (mm), if any."""
        for zone in self.zones:
            if zone.contains(x, y):
                return zone
        return None

    def places(self) -> tuple[Zone, ...]:
        """The card places, in reading order (Dicy: row by row; 17: the row in play order)."""
        return tuple(z for z in self.zones if z.kind == "place")

    def pixel_size(self, px_per_mm: float = PX_PER_MM) -> tuple[int, int]:
        """(width, height) of a rectified frame of this sheet."""
        return (round(self.width * px_per_mm), round(self.height * px_per_mm))


def marker_id(game: str, paper: str, corner: int) -> int:
    """The ArUco id of one corner's marker on a game's sheet on a paper."""
    return 4 * (GAMES.index(game) * len(PAPERS) + list(PAPERS).index(paper)) + corner


def identify(ids: Iterable[int]) -> tuple[str, str] | None:
    """The (game, paper) whose markers these ids are, if they all belong to one sheet."""
    sheets = {divmod(i // 4, len(PAPERS)) for i in ids if 0 <= i < 4 * len(GAMES) * len(PAPERS)}
    if len(sheets) != 1:
        return None
    game, paper = sheets.pop()
    return GAMES[game], list(PAPERS)[paper]


def layout(game: str, paper: str = "a4") -> Layout:
    """The sheet of a game ("dalek", "dicy" or "17") on a paper ("a4", "letter", "a3")."""
    if game not in GAMES:
        raise ValueError(f"no sheet for game {game!r} (games: {', '.join(GAMES)})")
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (papers: {', '.join(PAPERS)})")
    w, h = PAPERS[paper]
    m, s = MARGIN_MM, MARKER_MM
    markers = tuple(Marker(marker_id(game, paper, i), CORNERS[i], x, y) for i, (x, y) in
                    enumerate([(m, m), (w - m - s, m), (w - m - s, h - m - s), (m, h - m - s)]))
    card = (CARD_W * h, CARD_H * h)
    if game == "dalek":
        zones, card = _dalek(w, h), (0.0, 0.0)
    elif game == "dicy":
        zones = _dicy(w, h)
    else:
        zones = _seventeen(w, h)
    return Layout(game, paper, w, h, markers, zones, card)


def _dalek(w: float, h: float) -> tuple[Zone, ...]:
    m, inner = MARGIN_MM, MARGIN_MM + MARKER_MM + MARGIN_MM
    gap = 6.0 * h / 210.0
    top_h = 40.0 * h / 210.0
    kept_h = 60.0 * h / 210.0
    kept_y = m + top_h + gap
    roll_y = kept_y + kept_h + gap
    return (Zone("top", "area", inner, m, w - 2 * inner, top_h),
            Zone("kept-humans", "area", m, kept_y, w / 2 - m - gap / 2, kept_h),
            Zone("kept-daleks", "area", w / 2 + gap / 2, kept_y, w / 2 - m - gap / 2, kept_h),
            Zone("to-roll", "area", inner, roll_y, w - 2 * inner, h - m - roll_y))


def _place_row(prefix: str, count: int, w: float, h: float, y: float, first: int,
               turned: bool) -> list[Zone]:
    pw, ph = (CARD_W + PLACE_ROOM) * h, (CARD_H + PLACE_ROOM) * h
    gap = PLACE_GAP * h
    x0 = (w - count * pw - (count - 1) * gap) / 2
    return [Zone(f"{prefix}{first + i}", "place", x0 + i * (pw + gap), y, pw, ph, turned)
            for i in range(count)]


def _dicy(w: float, h: float) -> tuple[Zone, ...]:
    """Players 3 and 4 across the table (their rows turned), the dice between, 1 and 2 near."""
    ph, gap, m = (CARD_H + PLACE_ROOM) * h, PLACE_GAP * h, MARGIN_MM
    ys = [h - m - 2 * ph - gap, h - m - ph, m + ph + gap, m]
    zones: list[Zone] = []
    for player, y in enumerate(ys, start=1):
        zones += _place_row(f"p{player}-", 5, w, h, y, 1, turned=player > 2)
    inner = MARGIN_MM + MARKER_MM + MARGIN_MM
    dice_y = m + 2 * ph + 2 * gap
    zones.append(Zone("dice", "area", inner, dice_y, w - 2 * inner, ys[0] - gap - dice_y))
    return tuple(zones)


def _seventeen(w: float, h: float) -> tuple[Zone, ...]:
    """The row in two strips of ROW_17 places, read left to right, then the second strip."""
    ph, gap = (CARD_H + PLACE_ROOM) * h, 4 * PLACE_GAP * h
    y0 = h / 2 - ph - gap / 2
    return tuple(_place_row("row-", ROW_17, w, h, y0, 1, False)
                 + _place_row("row-", ROW_17, w, h, y0 + ph + gap, ROW_17 + 1, False))
