"""Labelled table photos of every kind: ``labels.json`` extended with ``kind`` and the face or side.

The form is that of ``../shared/datasets/README.md``: ordinary dice stay in ``dice``
(``{"value", "bbox"}``, now with an optional ``"kind": "d6"``), so the d6 reader's tools read
these sets as before. The other components are in ``items``; an image of a printed sheet also
names it (``sheet``) and its card places with no card (``empty``)::

    {"file": "images/000.jpg", "width": 1280, "height": 720, "split": "test",
     "sheet": {"game": "dicy", "paper": "a4"}, "empty": ["p1-2"],
     "dice": [{"kind": "d6", "value": 5, "bbox": [x0, y0, x1, y1], "corners": [[x, y], ...],
               "zone": "dice"}],
     "items": [{"kind": "dalek", "face": "H4", "bbox": [...], "corners": [...],
                "zone": "to-roll"},
               {"kind": "dicy-card", "face": "odd/frozen", "card": "odd", "side": "frozen",
                "bbox": [...], "corners": [...], "zone": "p1-3"},
               {"kind": "17-card", "face": "3", "card": "3d", "side": "up", ...}]}

What each key holds, exactly:

- ``bbox``: two corners [x0, y0, x1, y1] (x0 < x1, y0 < y1) in pixels of the photo as a phone
  shows it (turned as its orientation tag says; labels made in the pixels as stored are read
  so when ``width`` and ``height``, or the boxes, fit only those). A read matches a die when its
  centre lies in the box, so a few pixels loose do not matter. ``width``/``height``: optional,
  checked against the photo. ``corners`` (a die's top face or a card, clockwise from its
  top-left) is optional.
- ``face``, by kind: ``dalek`` H4 H2 D3 D2 DOC EXT; ``d6`` 1..6 (``value`` in ``dice``);
  ``dicy-card`` CARD/SIDE, SIDE active or frozen; ``17-card`` what it shows: face up its
  number 1..5 (a face-up ``3d`` shows ``3``) or special, face down ``1d``..``5d`` for a
  double-sided card and ``back`` for every plain back (hidden). Instead of ``face`` a card may
  give ``card`` (RULES.md's id) and ``side`` (Dicy active/frozen; 17 up/down); given both ways,
  they must agree.
- ``zone``: optional. Card places are Dicy ``p1-1``..``p4-5`` (player, then place) and 17
  ``row-1``..``row-16``; a card without one is in the place its centre lies in, and one that
  lies on no place (a pile beside the row) is not scored (eval notes it), and taught only
  where it lies on the sheet: a card or die off the sheet is not taught (teach notes it). A
  place neither labelled nor in ``empty`` is not scored.
- ``sheet``: optional: a photo labelling Dalek dice or cards is read (and taught from) on the
  sheet it shows, whose reader scores only its own kinds (Dicy: its cards, and the d6 dice in
  its Dice box; a die elsewhere counts missed unless its box is in ``ignore``). A photo of d6
  dice alone without ``sheet`` is read for dice anywhere, and taught from as it is.
- ``split``: optional; eval scores ``test`` when any photo has it (photos without a split
  are then left out), else every photo; ``--split all`` scores every photo. ``Test``,
  ``TRAIN``, ``valid`` or ``validation`` are the splits test, train and val.
- ``ignore``: boxes where a die lies whose face is not labelled: a read there is not false.

>>> item = Labelled("dalek", "H4", (0.0, 0.0, 10.0, 10.0))
>>> item.centre
(5.0, 5.0)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.components import (
    DICY_CARDS,
    DICY_SIDES,
    KINDS,
    READ_ANYWHERE,
    SEVENTEEN_CARDS,
    SEVENTEEN_SIDES,
    dicy_face,
    faces,
    seventeen_face,
)
from vision.datasets import (
    MANIFEST,
    PHOTO_PIXELS,
    DatasetError,
    Entry,
    EntryError,
    decode_image,
    die_value,
    ignore_boxes,
    named_too,
    pixel_box,
    scaled,
    split_named,
    stated_size,
)
from vision.file_names import FileFinder
from vision.picture_file import FRAME_PIXELS
from vision.table_scene import TableScene

Box = tuple[float, float, float, float]
Quad = tuple[tuple[float, float], ...]
FACES_SPELLED = {"dicy-card": "the card and its side, as 'odd/frozen' or 'pair/active'"}


@dataclass(frozen=True)
class Labelled:
    """One labelled die or card in a photo (pixels of that photo)."""

    kind: str
    face: str
    bbox: Box
    corners: Quad | None = None
    zone: str | None = None
    card: str | None = None
    side: str | None = None

    @property
    def centre(self) -> tuple[float, float]:
        if self.corners:
            return (float(np.mean([p[0] for p in self.corners])),
                    float(np.mean([p[1] for p in self.corners])))
        return ((self.bbox[0] + self.bbox[2]) / 2, (self.bbox[1] + self.bbox[3]) / 2)

    def quad(self) -> NDArray[np.float64]:
        """The outline (4×2): the corners, else the box's."""
        if self.corners:
            return np.array(self.corners, np.float64)
        x0, y0, x1, y1 = self.bbox
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


@dataclass(frozen=True)
class TablePhoto:
    """One labelled photo: its items, and the sheet and empty places when it shows a sheet."""

    file: str
    path: Path
    split: str | None
    items: tuple[Labelled, ...]
    sheet: tuple[str, str] | None = None
    empty: tuple[str, ...] = ()
    size: tuple[int, int] | None = None  # (width, height) as labels.json states it
    ignore: tuple[Box, ...] = ()  # where a die lies whose face is not labelled

    def of_kind(self, kind: str) -> tuple[Labelled, ...]:
        return tuple(i for i in self.items if i.kind == kind)

    @property
    def on_sheet(self) -> bool:
        """Whether it is read on a game's sheet: it names one, or an empty card place, or labels
        what is read only on a sheet (Dalek dice, cards: vision.components.READ_ANYWHERE)."""
        return self.sheet is not None or bool(self.empty) or any(
            i.kind not in READ_ANYWHERE for i in self.items)

    def read(self) -> tuple[NDArray[np.uint8], TablePhoto]:
        """The photo as it was labelled (turned as its orientation tag says, unless its size or
        boxes fit it only as stored; shrunk to fit FRAME_PIXELS on a sheet, as the table reads
        a camera's picture, else PHOTO_PIXELS, as eval reads a photo of dice), and this photo
        with its labels in its pixels."""
        try:
            image, (width, height) = decode_image(
                Entry(self.file, self.path, self.split, (), (), self.size),
                [*(i.bbox for i in self.items), *self.ignore],
                FRAME_PIXELS if self.on_sheet else PHOTO_PIXELS)
        except EntryError as err:
            raise DatasetError(str(err)) from err
        across, down = image.shape[1] / width, image.shape[0] / height
        if (across, down) == (1.0, 1.0):
            return image, self
        return image, replace(self, items=tuple(replace(
            item, bbox=scaled(item.bbox, across, down), corners=None if item.corners is None
            else tuple((x * across, y * down) for x, y in item.corners)) for item in self.items),
            ignore=tuple(scaled(box, across, down) for box in self.ignore))


def load(root: Path, split: str | None = None) -> list[TablePhoto]:
    """The photos of a labels.json folder (of one split, if given); DatasetError where an
    entry is written wrong (naming it and why)."""
    photos, wrong = listed(root)
    if wrong:
        raise DatasetError(f"{root / MANIFEST}: {wrong[0].why}")
    return [p for p in photos if split is None or p.split == split_named(split)]


@dataclass(frozen=True)
class WrongEntry:
    """An entry of labels.json written wrong: its split (None: not known) and why, naming
    the entry (``images[1] (images/0001.jpg): ...``)."""

    split: str | None
    why: str


def listed(root: Path) -> tuple[list[TablePhoto], list[WrongEntry]]:
    """The photos of a labels.json folder, and each entry written wrong, passed over; a
    labels.json that cannot be read at all raises DatasetError."""
    path = root / MANIFEST
    try:
        doc = json.loads(path.read_bytes())
    except FileNotFoundError as err:
        raise DatasetError(f"{root}: no {MANIFEST} here") from err
    except (OSError, ValueError) as err:
        raise DatasetError(f"{path}: cannot read it: {err}") from err
    except RecursionError as err:
        raise DatasetError(f"{path}: nests too deeply to be a list of labels") from err
    if not isinstance(doc, dict) or not isinstance(doc.get("images"), list):
        raise DatasetError(f'{path}: expected an object with an "images" list')
    photos: dict[int, TablePhoto] = {}
    wrong = []
    finder = FileFinder(root)
    for n, entry in enumerate(doc["images"]):
        try:
            photos[n] = _photo(finder, entry)
        except (KeyError, TypeError, ValueError) as err:
            name = entry.get("file") if isinstance(entry, dict) else None
            split = entry.get("split") if isinstance(entry, dict) else None
            where = f"images[{n}]" + (f" ({name})" if isinstance(name, str) else "")
            wrong.append(WrongEntry(split_named(split) if isinstance(split, str) else None,
                                    f"{where}: {_why(err)}"))
    found = list(photos.items())
    for at, other in finder.shared([(p.file, p.path) for _, p in found]).items():
        (n, photo), (m, named) = found[at], found[other]
        del photos[n]
        wrong.append(WrongEntry(photo.split, f"images[{n}] ({photo.file}): " + named_too(
            photo.path.relative_to(root).as_posix(), m, named.file)))
    return list(photos.values()), wrong


def _why(err: Exception) -> str:
    return f'missing key "{err.args[0]}"' if isinstance(err, KeyError) else str(err)


def _photo(finder: FileFinder, entry: dict[str, object]) -> TablePhoto:
    file = str(entry["file"])
    size = stated_size(entry)
    items: list[Labelled] = []
    for n, die in enumerate(_objects(entry, "dice")):
        value = die_value(die, f"dice[{n}]")
        try:
            items.append(_item(die, "d6", str(value), size))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"dice[{n}]: {_why(err)}") from err
    for n, raw in enumerate(_objects(entry, "items")):
        try:
            kind = str(raw["kind"])
            if kind not in KINDS:
                raise ValueError(f"unknown kind {kind!r} (kinds: {', '.join(KINDS)})")
            items.append(_item(raw, kind, _face(raw, kind), size))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"items[{n}]: {_why(err)}") from err
    split = entry.get("split")
    split = split_named(split) if isinstance(split, str) else None
    return TablePhoto(file, finder.path_of(file), split,
                      tuple(items), _sheet(entry.get("sheet")), _empty(entry), size,
                      ignore_boxes(entry, size))


def _empty(entry: dict[str, object]) -> tuple[str, ...]:
    """The card places labelled empty (none when ``empty`` is absent)."""
    places = entry.get("empty", [])
    if not isinstance(places, list):
        raise ValueError(f'"empty" must be a list of card places, as ["row-15", "row-16"], '
                         f'not {json.dumps(places)}')
    for n, place in enumerate(places):
        if not isinstance(place, str):
            raise ValueError(f'empty[{n}] must be the name of a card place in quotes, as '
                             f'"row-16", not {json.dumps(place)}')
    return tuple(places)


def _objects(entry: dict[str, object], key: str) -> list[dict[str, object]]:
    """The list of objects under ``key`` (none when it is absent)."""
    found = entry.get(key, [])
    if not isinstance(found, list):
        raise ValueError(f'"{key}" must be a list, not {json.dumps(found)}')
    for n, one in enumerate(found):
        if not isinstance(one, dict):
            raise ValueError(f"{key}[{n}] must be an object, not {json.dumps(one)}")
    return found


def _face(raw: dict[str, object], kind: str) -> str:
    """The face a labelled item shows: its ``face``, else what its ``card`` shows lying with its
    ``side`` up; a face that card and side do not show is refused."""
    card, side = raw.get("card"), raw.get("side")
    shown = _shown(kind, str(card), str(side)) if card is not None and side is not None else None
    if "face" not in raw:
        if shown is None:
            raise KeyError("face")
        return shown
    face = str(raw["face"])
    if face not in faces(kind):
        spelled = FACES_SPELLED.get(kind) or ", ".join(faces(kind))
        raise ValueError(f"{face!r} is not a face of {kind} ({spelled})")
    if shown is not None and face != shown:
        raise ValueError(f"card {card!r}, side {side!r}, shows {shown!r}, not {face!r}")
    return face


def _shown(kind: str, card: str, side: str) -> str | None:
    """What a card of that kind shows with that side up (None for dice)."""
    if kind not in ("dicy-card", "17-card"):
        return None
    cards, sides = (DICY_CARDS, DICY_SIDES) if kind == "dicy-card" else (SEVENTEEN_CARDS,
                                                                        SEVENTEEN_SIDES)
    if card not in cards:
        raise ValueError(f"{card!r} is not a card of {kind} ({', '.join(cards)})")
    if side not in sides:
        raise ValueError(f"the side of a {kind} is {' or '.join(sides)}, not {side!r}")
    return dicy_face(card, side) if kind == "dicy-card" else seventeen_face(card, side)


def _sheet(raw: object) -> tuple[str, str] | None:
    if not raw:
        return None
    if not isinstance(raw, dict) or "game" not in raw or "paper" not in raw:
        raise ValueError(f'"sheet" must name the game and the paper it is printed on, as '
                         f'{{"game": "dalek", "paper": "a4"}}, not {json.dumps(raw)}')
    return str(raw["game"]), str(raw["paper"])


def _item(raw: dict[str, object], kind: str, face: str, size: tuple[int, int] | None
          ) -> Labelled:
    box = pixel_box(raw["bbox"], "bbox", size)
    corners = raw.get("corners")
    quad = tuple((float(p[0]), float(p[1])) for p in corners) if isinstance(corners, list) \
        else None
    zone, card, side = raw.get("zone"), raw.get("card"), raw.get("side")
    return Labelled(kind, face, box, quad, str(zone) if zone else None, str(card) if card else None,
                    str(side) if side else None)


def write_photos(root: Path, photos: Iterable[TablePhoto]) -> None:
    """Write labels.json for photos already in ``root`` (their items as labelled)."""
    entries = []
    for photo in photos:
        dice, items = _dice_and_items(
            ({"bbox": list(it.bbox), "corners": [list(p) for p in it.corners or ()] or None,
              "zone": it.zone}, it.kind, it.face, it.card, it.side) for it in photo.items)
        sheet = None if photo.sheet is None else {"game": photo.sheet[0], "paper": photo.sheet[1]}
        entries.append({"file": photo.file, "split": photo.split, "sheet": sheet,
                        "empty": list(photo.empty), "dice": dice, "items": items})
    (root / MANIFEST).write_text(json.dumps({"images": entries}, indent=1) + "\n")


def write(root: Path, scenes: Iterable[tuple[str, TableScene]], *, quality: int = 92) -> int:
    """Save rendered scenes (split, scene) as images/NNNN.jpg and labels.json; returns count."""
    (root / "images").mkdir(parents=True, exist_ok=True)
    entries = []
    for n, (split, scene) in enumerate(scenes):
        file = f"images/{n:04d}.jpg"
        cv2.imwrite(str(root / file), scene.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        h, w = scene.image.shape[:2]
        dice, items = _dice_and_items(
            ({"bbox": [round(v, 2) for v in it.bbox],
              "corners": [[round(x, 2), round(y, 2)] for x, y in it.quad], "zone": it.zone},
             it.kind, it.face, it.card, it.side) for it in scene.items)
        entries.append({"file": file, "width": w, "height": h, "split": split,
                        "sheet": {"game": scene.game, "paper": scene.paper},
                        "empty": list(scene.empty), "dice": dice, "items": items})
    (root / MANIFEST).write_text(json.dumps({"images": entries}, indent=1) + "\n")
    return len(entries)


def _dice_and_items(labelled: Iterable[tuple[dict[str, object], str, str, str | None, str | None]]
                    ) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """labels.json's "dice" and "items" of labelled things (where: bbox, corners, zone;
    kind, face, card, side)."""
    dice: list[dict[str, object]] = []
    items: list[dict[str, object]] = []
    for where, kind, face, card, side in labelled:
        raw = {"kind": kind, **where}
        if kind == "d6":
            dice.append({"value": int(face), **raw})
        else:
            items.append({**raw, "face": face, "card": card, "side": side} if card
                         else {**raw, "face": face})
    return dice, items
