"""Teach mode from photos: a profile of one kind from labelled photos (vision.table_dataset).

A photo is read on its sheet as ``dicetable eval`` reads it (TablePhoto.on_sheet: it names a
sheet, or labels what is read only on one): the sheet is found and the photo rectified first,
so examples look as the dice and cards will at reading time; other photos, and those whose
sheet cannot be found, are taken as they are. On a sheet, what is labelled off it (a draw pile
beside the sheet; more than OFF_SHEET_MM beyond its edge, as labels are rough) is not in the
rectified photo: it is left out, and teach says which (:attr:`Taught.left_out`). Dice: each
labelled die gives its top face cut out upright, at its side (from its corners, else from the
die finder's die on it); the die finder's other candidates give the "none" examples (what this
table shows that is not a die: card art, patterns, the sheet's print). Cards: each labelled
card is cut out along its corners, or, in a card place of a sheet (its ``zone``, else the one
it lies in: vision.labelled_places.place_of), along the outline found there.

>>> _side_of(np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]))
10.0
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibrate import Calibration, CalibrationError, calibrate, rectify
from vision.card_outline import outlines
from vision.components import NOTHING, is_card
from vision.datasets import DatasetError
from vision.dice_finder import DieFinder
from vision.features import DIE_EXAMPLE, crop_cards, crop_die, die_angle
from vision.labelled_places import place_labels
from vision.locate import Candidate
from vision.profile import Profile
from vision.sheet import PX_PER_MM
from vision.table_dataset import Labelled, TablePhoto

NONE_PER_EXAMPLE = 3  # at most this many "none" examples per face example
BOX_PER_SIDE = 1.44  # a labelled box without corners spans this many die sides
OFF_SHEET_MM = 3.0  # a die or card labelled at most this far beyond the sheet's edge is on it


class Taught(NamedTuple):
    """A profile taught, each die or card of its kind left out with its photo (labelled off
    its photo's sheet), and each photo that could not be read with why (naming it)."""

    profile: Profile
    left_out: tuple[tuple[TablePhoto, Labelled], ...]
    unread: tuple[tuple[TablePhoto, str], ...] = ()


@dataclass(frozen=True)
class _View:
    """A photo as it is read (``photo``, its labels in the pixels of the photo as read:
    TablePhoto.read): the image (rectified when it shows a sheet), its items' outlines in that
    image, and its scale (pixels per mm) when known."""

    photo: TablePhoto
    image: NDArray[np.uint8]
    items: list[tuple[Labelled, NDArray[np.float64]]]
    px_per_mm: float | None
    calibration: Calibration | None
    off_sheet: tuple[Labelled, ...] = ()  # labelled more than OFF_SHEET_MM beyond its edges


def teach(kind: str, photos: Iterable[TablePhoto], *, finder: DieFinder | None = None,
          seed: int = 0, source: str = "") -> Taught:
    """A profile of `kind` from every labelled photo; ValueError when they hold none of it
    (saying how many lie off the sheet, and which photos could not be read), DatasetError
    (naming the photo) when a photo of a sheet labels a card place it does not have or a place
    twice (a card on the sheet labelled without a place that lies on none is taught as any
    card). Each die or card of `kind` lying off its photo's sheet is left out, and returned
    with its photo; a photo that cannot be read (a HEIC, a file cut short) is passed over, and
    returned with why."""
    left_out: list[tuple[TablePhoto, Labelled]] = []
    unread: list[tuple[TablePhoto, str]] = []
    seen = 0
    labels: list[str] = []
    patches: list[NDArray[np.uint8]] = []
    background: list[NDArray[np.uint8]] = []
    sides_mm: list[float] = []
    if not is_card(kind):
        finder = finder or DieFinder()
    for photo in photos:
        seen += 1
        try:
            view = _view(photo)
        except DatasetError as err:  # it names the photo
            unread.append((photo, str(err)))
            continue
        left_out += [(photo, item) for item in view.off_sheet if item.kind == kind]
        placed: dict[Labelled, str] = {}
        if is_card(kind) and view.calibration is not None:
            placed = place_labels(view.photo, kind, view.calibration).placed
        items = [(item, quad if item.corners else None) for item, quad in view.items
                 if item.kind == kind]
        if is_card(kind):
            for item, face in _cards(view, items, placed):
                labels.append(item.face)
                patches.append(face)
            continue
        assert finder is not None
        found = finder.centred(view.image, finder.candidates(view.image))
        grey = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
        for item, quad in items:
            x, y, side = _die_place(item, quad, found)
            labels.append(item.face)
            patches.append(crop_die(view.image, x, y, side, die_angle(grey, x, y, side),
                                   out=DIE_EXAMPLE))
            if quad is not None and view.px_per_mm:
                sides_mm.append(side / view.px_per_mm)
        dice = [q for i, q in view.items if not is_card(i.kind)]
        for c in found:
            if not any(_covers(q, c.x, c.y) for q in dice):
                background.append(crop_die(view.image, c.x, c.y, c.size,
                                           die_angle(grey, c.x, c.y, c.size), out=DIE_EXAMPLE))
    if not patches:
        why = "".join(f"\n  {reason}" for _, reason in unread)
        if unread and len(unread) == seen:
            raise ValueError(("the photo cannot be read" if seen == 1 else
                              f"none of the {seen} photos can be read") + f":{why}")
        off = f" on their sheet ({len(left_out)} lie off it)" if left_out else ""
        unread_ones = f"; {len(unread)} could not be read:{why}" if unread else ""
        raise ValueError(f"the photos hold no labelled {kind}{off}{unread_ones}")
    rng = np.random.default_rng(seed)
    keep = min(len(background), NONE_PER_EXAMPLE * len(patches))
    chosen = rng.choice(len(background), keep, replace=False) if keep else np.zeros(0, int)
    labels += [NOTHING] * len(chosen)
    patches += [background[int(i)] for i in chosen]
    side_mm = float(np.median(sides_mm)) if sides_mm else 0.0
    return Taught(Profile(kind, tuple(labels), np.stack(patches), source, side_mm),
                  tuple(left_out), tuple(unread))


def _view(photo: TablePhoto) -> _View:
    """The photo rectified when it is read on a sheet that can be found (what lies off the
    sheet set apart), else as it is."""
    image, photo = photo.read()
    found = None
    if photo.on_sheet:
        try:
            found = calibrate(image)
        except CalibrationError:
            found = None
    if found is None:
        return _View(photo, image, [(i, i.quad()) for i in photo.items], None, None)
    flat = rectify(image, found)
    height, width = flat.shape[:2]
    rough = OFF_SHEET_MM * PX_PER_MM
    on, off = [], []
    for item in photo.items:
        quad = found.to_sheet(item.quad()) * PX_PER_MM
        if quad.min() >= -rough and quad[:, 0].max() <= width + rough \
                and quad[:, 1].max() <= height + rough:
            on.append((item, quad))
        else:
            off.append(item)
    return _View(photo, flat, on, PX_PER_MM, found, tuple(off))


def _cards(view: _View, items: list[tuple[Labelled, NDArray[np.float64] | None]],
           placed: dict[Labelled, str]) -> list[tuple[Labelled, NDArray[np.uint8]]]:
    """Each labelled card cut out as the reader will cut it: in a card place of a sheet (its
    place in ``placed``) along the outline found there (the one nearest its corners, when
    they are known), elsewhere along its corners (or its box)."""
    if not items:
        return []
    soft = np.asarray(cv2.GaussianBlur(view.image, (0, 0), 0.8), np.uint8)
    quads = []
    for item, quad in items:
        found = None
        place = placed.get(item)
        if view.calibration is not None and place is not None:
            sheet = view.calibration.layout
            found = outlines(view.image, (sheet.zone(place),), sheet.card, PX_PER_MM)[0]
        if found is not None and found.quads:
            near = quad if quad is not None else found.quads[0]
            quads.append(min(found.quads, key=lambda q: _apart(q, near)))
        else:
            quads.append(item.quad() if quad is None else quad)
    cut = crop_cards(soft, np.stack(quads))
    return [(item, patch) for (item, _), patch in zip(items, cut, strict=True)]


def _apart(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """How far apart two outlines are, whichever corner each starts at."""
    return min(float(np.abs(np.roll(a, k, axis=0) - b).max()) for k in range(4))


def _die_place(item: Labelled, quad: NDArray[np.float64] | None,
               found: list[Candidate]) -> tuple[float, float, float]:
    """A labelled die's centre and side: from its corners, else the die finder's die on it
    (its side from the box)."""
    if quad is not None:
        centre = quad.mean(axis=0)
        return float(centre[0]), float(centre[1]), _side_of(quad)
    x0, y0, x1, y1 = item.bbox
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    side = max(x1 - x0, y1 - y0) / BOX_PER_SIDE
    near = [c for c in found if abs(c.x - cx) < side / 2 and abs(c.y - cy) < side / 2]
    if near:
        return float(near[0].x), float(near[0].y), side
    return cx, cy, side


def _side_of(quad: NDArray[np.float64]) -> float:
    """The mean side of a quadrilateral."""
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))


def _covers(quad: NDArray[np.float64], x: float, y: float) -> bool:
    """Whether (x, y) lies on the labelled die (or near its box)."""
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    pad = 0.3 * max(x1 - x0, y1 - y0)
    return bool(x0 - pad <= x <= x1 + pad and y0 - pad <= y <= y1 + pad)
