"""What the camera sees of each game on its sheet: the readers of a rectified frame.

Each game has a reader whose read() takes one rectified BGR frame (vision.calibrate.rectify)
and returns its observation (vision.sheet_seen): what lies where, each with a confidence and
None for "not sure" (never a guess). The look of faces and cards comes from teach profiles
(vision.profile): the shipped ones were taught from rendered art; a table's own profile
replaces them. :func:`sheet_reader` makes the reader of a game's sheet, which reads the kinds
vision.components.READ_ON_SHEET names for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.card_print_scale import CardSize
from vision.card_reader import CardRead, CardReader
from vision.components import EMPTY, PLAIN_BACK, READ_ON_SHEET
from vision.dice_finder import DieFinder
from vision.face_reader import FaceRead, FaceReader
from vision.profile import Profile, default
from vision.reader import DiceReader
from vision.sheet import PX_PER_MM, Layout
from vision.sheet_print import SheetPrint
from vision.sheet_seen import (
    DalekObservation,
    DicyObservation,
    DieSeen,
    PlaceSeen,
    SeventeenObservation,
)

Image = NDArray[np.uint8]
DIE_REACH_MM = 9.0  # beyond the dice area's line: half a die, and a little
CENTRE_SLACK_MM = 2.0  # a die whose centre lies this far out of the area is still on its line


class DalekTableReader:
    """Reads Dalek dice and their zones on a rectified Dalek sheet."""

    def __init__(self, profile: Profile | None = None, *, threads: int | None = None,
                 finder: DieFinder | None = None) -> None:
        self.faces = FaceReader(profile or default("dalek"), finder=finder, threads=threads)
        self._print: dict[tuple[str, str, float], SheetPrint] = {}

    def read(self, rectified: Image, sheet: Layout, *,
             px_per_mm: float = PX_PER_MM) -> DalekObservation:
        key = (sheet.game, sheet.paper, px_per_mm)
        if key not in self._print:
            self._print[key] = SheetPrint(sheet, px_per_mm)
        printed = self._print[key]
        seen = self.faces.read(rectified, px_per_mm=px_per_mm,
                               skip=lambda places: printed.shown(rectified, places))
        on_print = printed.shown(rectified, [(r.x, r.y, r.size) for r in seen])
        reads = tuple(r for r, no in zip(seen, on_print, strict=True) if not no)
        return DalekObservation(_dice_on(reads, sheet, px_per_mm, None))


class DicyTableReader:
    """Reads every card place and the dice area of a rectified Dicy Cards sheet; dice are read
    by pips, or with a d6 profile (faces not taught fall back to pips).

    With more than one thread (threads None: as many as onnxruntime takes), the dice are read
    on a second thread while the cards are read (the dice's networks, with one thread less,
    run beside the cards' numpy work): the same reads, sooner where a core is free. A reader
    reads one frame at a time. ``models``: the folder of the dice networks (None: models/).

    The cards are read at the size they have on the table's print (vision.card_print_scale: a
    sheet printed "fit to page" shows them bigger), chosen once a frame shows a few of them;
    new_sheet() has it chosen anew (the table calibrated again)."""

    def __init__(self, profile: Profile | None = None, *, dice: Profile | None = None,
                 threads: int | None = None, models: Path | None = None) -> None:
        beside = threads is None or threads > 1
        dice_threads = None if threads is None else max(1, threads - 1)
        self.cards = CardReader(profile or default("dicy-card"))
        self.card_size = CardSize(self.cards)
        self.pips = DiceReader(threads=dice_threads, models=models)
        self.faces = (FaceReader(dice, pips=self.pips, threads=dice_threads,
                                 finder=DieFinder(threads=dice_threads, models=models))
                      if dice else None)
        self._beside = ThreadPoolExecutor(1, thread_name_prefix="dicy-dice") if beside else None

    def read(self, rectified: Image, sheet: Layout, *,
             px_per_mm: float = PX_PER_MM) -> DicyObservation:
        if self._beside is None:
            dice = self._dice(rectified, sheet, px_per_mm)
            cards = self.card_size.read(rectified, sheet, px_per_mm=px_per_mm)
        else:
            later = self._beside.submit(self._dice, rectified, sheet, px_per_mm)
            cards = self.card_size.read(rectified, sheet, px_per_mm=px_per_mm)
            dice = later.result()
        return DicyObservation(tuple(_place(r) for r in cards), dice)

    def new_sheet(self) -> None:
        """The table was calibrated anew: the cards' size on its print is chosen again."""
        self.card_size.forget()

    def _dice(self, rectified: Image, sheet: Layout, px_per_mm: float
              ) -> tuple[DieSeen, ...]:
        """The dice in the sheet's dice area: read in the area and a die's reach about it (a
        die lying across its line is read whole, not from the part inside), kept when their
        centre lies in it."""
        area = sheet.zone("dice")
        reach = DIE_REACH_MM * px_per_mm
        x0, y0 = max(0, round(area.x * px_per_mm - reach)), max(0, round(area.y * px_per_mm
                                                                          - reach))
        x1 = min(rectified.shape[1], round((area.x + area.w) * px_per_mm + reach))
        y1 = min(rectified.shape[0], round((area.y + area.h) * px_per_mm + reach))
        if self.faces is not None:
            reads = [(r.face, r.x, r.y, r.confidence)
                     for r in self.faces.read(rectified, px_per_mm=px_per_mm,
                                              area=(x0, y0, x1, y1))]
        else:
            crop = np.ascontiguousarray(rectified[y0:y1, x0:x1])
            reads = [(str(r.value) if r.value is not None else None, r.x + x0, r.y + y0,
                      r.confidence) for r in self.pips.read(crop)]
        inside = [(face, x / px_per_mm, y / px_per_mm, conf) for face, x, y, conf in reads]
        return tuple(DieSeen(face, area.name, x, y, conf) for face, x, y, conf in inside
                     if area.x - CENTRE_SLACK_MM <= x <= area.x + area.w + CENTRE_SLACK_MM
                     and area.y - CENTRE_SLACK_MM <= y <= area.y + area.h + CENTRE_SLACK_MM)


class SeventeenTableReader:
    """Reads the row of a rectified 17 sheet, place by place in play order."""

    def __init__(self, profile: Profile | None = None) -> None:
        self.cards = CardReader(profile or default("17-card"))

    def read(self, rectified: Image, sheet: Layout, *,
             px_per_mm: float = PX_PER_MM) -> SeventeenObservation:
        places = [_place(r) for r in self.cards.read(rectified, sheet, px_per_mm=px_per_mm)]
        gap = next((i for i, p in enumerate(places) if p.empty), len(places))
        return SeventeenObservation(tuple(places[:gap]),
                                    tuple(p for p in places[gap:] if not p.empty))


SheetReader = DalekTableReader | DicyTableReader | SeventeenTableReader


def sheet_reader(game: str, profiles: Mapping[str, Profile] | None = None, *,
                 threads: int | None = None, models: Path | None = None) -> SheetReader:
    """The reader of ``game``'s sheet; each kind it reads (READ_ON_SHEET[game]) is read with
    its profile in ``profiles``, else the shipped one (d6 dice without one by their pips).
    ``models``: the folder of the dice networks (None: models/)."""
    if game not in READ_ON_SHEET:
        raise ValueError(f"no sheet of a game {game!r} (games: {', '.join(READ_ON_SHEET)})")
    p = profiles or {}
    if game == "dalek":
        return DalekTableReader(p.get("dalek"), threads=threads,
                                finder=DieFinder(threads=threads, models=models))
    if game == "dicy":
        return DicyTableReader(p.get("dicy-card"), dice=p.get("d6"), threads=threads,
                               models=models)
    return SeventeenTableReader(p.get("17-card"))


def _dice_on(reads: tuple[FaceRead, ...], sheet: Layout, px_per_mm: float,
             zone: str | None) -> tuple[DieSeen, ...]:
    out = []
    for r in reads:
        x, y = r.x / px_per_mm, r.y / px_per_mm
        where = sheet.zone_at(x, y)
        out.append(DieSeen(r.face, where.name if where else zone, x, y, r.confidence))
    return tuple(out)


def _place(read: CardRead) -> PlaceSeen:
    """A card read as a place: Dicy faces are CARD/SIDE; 17 faces are fronts (up), backs of
    double-sided cards (down, their id) or a plain back (down, no id)."""
    face = read.face
    if face is None or face == EMPTY:
        return PlaceSeen(read.place, None, None, face, read.confidence)
    if "/" in face:
        card, side = face.split("/")
        return PlaceSeen(read.place, card, side, face, read.confidence)
    if face == PLAIN_BACK:
        return PlaceSeen(read.place, None, "down", face, read.confidence)
    if face.endswith("d"):
        return PlaceSeen(read.place, face, "down", face, read.confidence)
    return PlaceSeen(read.place, face, "up", face, read.confidence)


