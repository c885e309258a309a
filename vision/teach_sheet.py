"""Teach mode on the printed sheet: the table's own dice or cards laid on the sheet, step by step.

The phones walk a table through steps (:func:`steps`): each step lays components on the
game's sheet (:data:`GAME`) and takes a photo. Dice (Dalek, d6) are taught one face a step,
as many dice as the table has showing it in the step's box (:data:`BOX`); cards (Dicy Cards,
17) up to 5 a step, one named card and side in each of the first places of a row. In each
photo the sheet is found and the frame rectified; the dice in the box are found by the die
finder, the cards in their places by their outlines, and become labelled items of a teach set
(:mod:`vision.table_dataset`), so that :func:`vision.teach.teach` learns from them as from any
labelled folder. A d6 photo whose dice are mostly read by their pips as another number than
the step's face (:func:`shown_otherwise`) is of another face, of dice as thrown, or of dice
with pictures (which the pips' reader may read as another number: the players say which). The
check reads a fresh photo with the new profile (:func:`check_plan`: dice one of each face in
a row in the box from left to right; cards each in its named place).

>>> [len(s) for s in steps("dicy-card")], [len(s) for s in steps("17-card")], len(steps("d6"))
([5, 5, 5, 5, 4], [5, 5, 5], 6)
>>> steps("dicy-card")[2][:3]
(('p1-1', 'forty-minus/active'), ('p1-2', 'same-x5/active'), ('p1-3', 'two-dice/frozen'))
>>> len(check_plan("dicy-card")), len(check_plan("17-card")), check_plan("dalek")[0]
(12, 15, ('to-roll', 'H4'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibrate import Calibration, calibrate
from vision.card_outline import outlines
from vision.card_reader import CardReader
from vision.components import DICY_CARDS, PLAIN_BACK, dicy_face, faces, is_card, sheet_game
from vision.dice_finder import DieFinder
from vision.face_reader import FaceReader
from vision.profile import Profile
from vision.reader import DiceReader
from vision.sheet import PX_PER_MM, Layout
from vision.sheet_print import SheetPrint
from vision.table_dataset import Labelled

GAME = {kind: sheet_game(kind) for kind in ("dalek", "dicy-card", "17-card", "d6")}
"""The sheet each kind is taught on (the one it is read on), in the order the pad lists them."""
BOX = {"dalek": "to-roll", "d6": "dice"}  # the box a kind of dice is laid in
KINDS = tuple(GAME)
OPTIONAL = frozenset({"d6"})  # kinds whose faces may be left untaught (read by their pips)
PHOTOS = 3  # photos at most per step
BATCH = 5  # cards laid at most per step
DIE_MM = 16.0  # a die's side on the sheet, for its label's outline
APART_MM = 0.8 * DIE_MM  # two dice's centres lie farther apart than this (a likelier one wins)
SAME_LOOK = 6.0  # a place whose mean grey difference is under this shows the same card
OTHER_FACE = 0.75  # a d6 photo whose dice this share of (or more) are read by their pips as
# another number shows another face, or dice with pictures (on the Dicy sheet's grey tray a
# picture of a 1 was read as a 6 on 3 to 5 of 6 dice): the players are asked which
Step = tuple[tuple[str, str], ...]  # (place or box, face) laid for one photo

_CARD_PLACES = {"dicy-card": tuple(f"p1-{i}" for i in range(1, BATCH + 1)),
                "17-card": tuple(f"row-{i}" for i in range(1, BATCH + 1))}
_17_STEPS = (("1", "2", "3", "4", "5"), ("reverse", "x2", "trash", "trap", PLAIN_BACK),
             ("1d", "2d", "3d", "4d", "5d"))
_17_CHECK = ("3", PLAIN_BACK, "1d", "x2", "5", "trap", "2d", "1", "reverse", "4d", "2", "trash",
             "5d", "4", "3d")
_DICY_CHECK_PLACES = (*(f"p1-{i}" for i in range(1, 6)), *(f"p2-{i}" for i in range(1, 6)),
                      "p3-1", "p3-2")


@dataclass(frozen=True)
class Checked:
    """A check photo: each (place, face) asked for and what was read there (None: not sure,
    or for dice not as many dice as faces; "empty": no card), and how many dice or cards were
    found."""

    pairs: tuple[tuple[str, str, str | None], ...]
    found: int

    @property
    def right(self) -> int:
        return sum(face == read for _, face, read in self.pairs)


def steps(kind: str) -> tuple[Step, ...]:
    """The steps of teaching ``kind``: dice one face a step, cards up to 5 a step in the first
    places of a row (no card twice in a step)."""
    if kind in BOX:
        return tuple(((BOX[kind], face),) for face in faces(kind))
    if kind == "dicy-card":
        order = [dicy_face(c, s) for s in ("active", "frozen") for c in DICY_CARDS]
        batches = [tuple(order[i:i + BATCH]) for i in range(0, len(order), BATCH)]
    else:
        batches = list(_17_STEPS)
    return tuple(tuple(zip(_CARD_PLACES[kind], batch, strict=False)) for batch in batches)


def check_plan(kind: str) -> Step:
    """What the check photo shows: dice one of each face in a row in the box, left to right;
    Dicy Cards each card once, sides alternating, in the rows of players 1 and 2 and the first
    places of player 3's; 17 every face along the row."""
    if kind in BOX:
        return tuple((BOX[kind], face) for face in faces(kind))
    if kind == "dicy-card":
        return tuple((place, dicy_face(card, "frozen" if i % 2 == 0 else "active"))
                     for i, (place, card) in enumerate(zip(_DICY_CHECK_PLACES, DICY_CARDS,
                                                           strict=True)))
    return tuple((f"row-{i + 1}", face) for i, face in enumerate(_17_CHECK))


def sheet_of(frame: NDArray[np.uint8], kind: str) -> Calibration | None:
    """The frame's sheet when it is the one ``kind`` is taught on, else None (CalibrationError
    when no sheet can be found)."""
    found = calibrate(frame)
    return found if found.game == GAME[kind] else None


def dice_in_box(flat: NDArray[np.uint8], found: Calibration, kind: str, face: str,
                finder: DieFinder) -> list[Labelled]:
    """The dice the finder sees in ``kind``'s box of a frame rectified (``rectify(frame,
    found)``), labelled ``face`` (frame pixels; what the sheet's own print explains, or a
    likelier die overlaps, is no die)."""
    box = found.layout.zone(BOX[kind])
    printed = SheetPrint(found.layout, PX_PER_MM)
    dice: list[Labelled] = []
    kept: list[tuple[float, float]] = []
    for c in finder.centred(flat, finder.candidates(flat)):
        x, y = c.x / PX_PER_MM, c.y / PX_PER_MM
        if not box.contains(x, y) or printed.shows(flat, c.x, c.y, c.size) \
                or any(abs(x - a) < APART_MM and abs(y - b) < APART_MM for a, b in kept):
            continue
        kept.append((x, y))
        h = DIE_MM / 2
        square = np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]])
        dice.append(Labelled(kind, face, _box(found, square),
                             tuple((float(a), float(b)) for a, b in found.to_frame(square)),
                             box.name))
    return dice


@dataclass(frozen=True)
class Otherwise:
    """d6 dice laid for a face that mostly show another number by their pips: ``looks``, the
    number half of them or more are read as (None: no one number, as dice thrown show)."""

    looks: str | None


def shown_otherwise(frame: NDArray[np.uint8], dice: Sequence[Labelled], face: str,
                    pips: DiceReader) -> Otherwise | None:
    """Whether d6 dice labelled ``face`` (dice_in_box's, frame pixels) mostly show another
    number: OTHER_FACE of them or more read surely by their pips as another value, each by
    the likeliest read whose centre lies in its box; and which number they look like."""
    reads = pips.read(frame)
    others: Counter[str] = Counter()
    for die in dice:
        x0, y0, x1, y1 = die.bbox
        seen = next((r.value for r in reads if x0 <= r.x <= x1 and y0 <= r.y <= y1), None)
        if seen is not None and str(seen) != face:
            others[str(seen)] += 1
    if not dice or others.total() < OTHER_FACE * len(dice):
        return None
    looks, n = others.most_common(1)[0]
    return Otherwise(looks if 2 * n >= len(dice) else None)


def cards_in_places(flat: NDArray[np.uint8], found: Calibration, kind: str, step: Step
                    ) -> tuple[list[Labelled], list[str]]:
    """The step's cards in their places of a rectified frame, labelled (frame pixels: the
    place's box; the outline is found again when taught), and the places with no card."""
    sheet = found.layout
    places = tuple(sheet.zone(place) for place, _ in step)
    cards, missing = [], []
    for (place, face), seen in zip(step, outlines(flat, places, sheet.card, PX_PER_MM),
                                   strict=True):
        if seen.empty:
            missing.append(place)
            continue
        z = sheet.zone(place)
        square = np.array([[z.x, z.y], [z.x + z.w, z.y], [z.x + z.w, z.y + z.h],
                           [z.x, z.y + z.h]])
        card, side = _card_side(kind, face)
        cards.append(Labelled(kind, face, _box(found, square), None, place, card, side))
    return cards, missing


def same_card(before: NDArray[np.uint8], now: NDArray[np.uint8], sheet: Layout,
              place: str) -> bool:
    """Whether a place of two rectified frames of one sheet shows the same card, unmoved (a
    card left from the step before)."""
    z = sheet.zone(place)
    x0, y0 = round(z.x * PX_PER_MM), round(z.y * PX_PER_MM)
    x1, y1 = round((z.x + z.w) * PX_PER_MM), round((z.y + z.h) * PX_PER_MM)
    a = cv2.cvtColor(before[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    b = cv2.cvtColor(now[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    return float(np.mean(np.abs(a - b))) < SAME_LOOK


def check(flat: NDArray[np.uint8], found: Calibration, kind: str, profile: Profile,
          finder: DieFinder) -> Checked:
    """The check photo (rectified: ``rectify(frame, found)``) read with ``profile`` against
    :func:`check_plan`: dice in the box from left to right, each against the face of its
    place (a missing or extra die reads as None); cards place by place."""
    plan = check_plan(kind)
    if is_card(kind):
        sheet = found.layout
        reads = CardReader(profile).read_places(flat, tuple(sheet.zone(p) for p, _ in plan),
                                                sheet.card)
        return Checked(tuple((p, f, r.face) for (p, f), r in zip(plan, reads, strict=True)),
                       sum(not r.empty for r in reads))
    box = found.layout.zone(BOX[kind])
    area = (round(box.x * PX_PER_MM), round(box.y * PX_PER_MM),
            round((box.x + box.w) * PX_PER_MM), round((box.y + box.h) * PX_PER_MM))
    printed = SheetPrint(found.layout, PX_PER_MM)
    row = sorted((r for r in FaceReader(profile, finder=finder).read(flat, px_per_mm=PX_PER_MM,
                                                                     area=area)
                  if not printed.shows(flat, r.x, r.y, r.size)), key=lambda r: r.x)
    read = [r.face for r in row] if len(row) == len(plan) else [None] * len(plan)
    return Checked(tuple((p, f, r) for (p, f), r in zip(plan, read, strict=True)), len(row))


def _card_side(kind: str, face: str) -> tuple[str | None, str]:
    """A card face's card and side, as labels.json names them."""
    if kind == "dicy-card":
        card, side = face.split("/")
        return card, side
    if face == PLAIN_BACK:
        return None, "down"
    return face, "down" if face.endswith("d") else "up"


def _box(found: Calibration, square: NDArray[np.float64]) -> tuple[float, float, float, float]:
    """The frame box around sheet points (mm)."""
    corners = found.to_frame(square)
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    return (float(x0), float(y0), float(x1), float(y1))
