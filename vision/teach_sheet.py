"""Teach mode on the printed sheet: the table's own dice laid in a box of the sheet, by face.

The phones walk a table through steps (:data:`STEPS`): lay dice showing one face in one box,
take a photo. In each photo the sheet is found and the frame rectified; the dice in the step's
box are found by the die finder and become labelled items of a teach set
(:mod:`vision.table_dataset`), so that :func:`vision.teach.teach` learns from them as from any
labelled folder. The check reads a fresh photo with the new profile: one die of each face
laid in a row in the box, in :data:`STEPS` order from left to right.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.calibrate import Calibration, calibrate, rectify
from vision.components import DALEK_FACES
from vision.dice_finder import DieFinder
from vision.profile import Profile
from vision.sheet import PX_PER_MM
from vision.sheet_print import SheetPrint
from vision.table_dataset import Labelled
from vision.table_reads import DalekTableReader

GAME = {"dalek": "dalek"}  # the sheet each kind is taught on
BOX = {"dalek": "to-roll"}  # the box its components are laid in
STEPS = {"dalek": DALEK_FACES}  # the faces taught, one step each, in the check's order
PHOTOS = 3  # photos at most per face
DIE_MM = 16.0  # a die's side on the sheet, for its label's outline
APART_MM = 0.8 * DIE_MM  # two dice's centres lie farther apart than this (a likelier one wins)


@dataclass(frozen=True)
class Checked:
    """A check photo: each face asked for and what was read at its place (None: not sure, or
    not as many dice as faces), and how many dice were found in the box."""

    pairs: tuple[tuple[str, str | None], ...]
    found: int

    @property
    def right(self) -> int:
        return sum(face == read for face, read in self.pairs)


def sheet_of(frame: NDArray[np.uint8], kind: str) -> Calibration | None:
    """The frame's sheet when it is the one ``kind`` is taught on, else None (CalibrationError
    when no sheet can be found)."""
    found = calibrate(frame)
    return found if found.game == GAME[kind] else None


def dice_in_box(frame: NDArray[np.uint8], found: Calibration, kind: str, face: str,
                finder: DieFinder) -> list[Labelled]:
    """The dice the finder sees in ``kind``'s box, labelled ``face`` (frame pixels; what the
    sheet's own print explains, or a likelier die overlaps, is no die)."""
    flat = rectify(frame, found)
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
        corners = found.to_frame(square)
        x0, y0 = corners.min(axis=0)
        x1, y1 = corners.max(axis=0)
        dice.append(Labelled(kind, face, (float(x0), float(y0), float(x1), float(y1)),
                             tuple((float(a), float(b)) for a, b in corners), box.name))
    return dice


def check(frame: NDArray[np.uint8], found: Calibration, kind: str, profile: Profile,
          finder: DieFinder) -> Checked:
    """The check photo read with ``profile``: the dice in the box from left to right, each
    against the face of its place in :data:`STEPS` (a missing or extra die reads as None)."""
    seen = DalekTableReader(profile, finder=finder).read(rectify(frame, found), found.layout)
    row = sorted((d for d in seen.dice if d.zone == BOX[kind]), key=lambda d: d.x)
    faces = STEPS[kind]
    read = [d.face for d in row] if len(row) == len(faces) else [None] * len(faces)
    return Checked(tuple(zip(faces, read, strict=True)), len(row))
