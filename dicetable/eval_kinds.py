"""``dicetable eval`` on photos of every kind: Dalek dice, Dicy cards and dice, 17 cards, d6.

A photo of a printed sheet is read as the table reads it: the sheet is found, the frame
rectified, and the game's reader reads it (dice positions are mapped back to the photo to be
matched with the labels); Dalek dice and cards are read only there, so a photo labelling them is
read on its sheet whether or not it names it. Any other photo is read for its d6 dice only.
Each kind is scored with its confusion matrix (vision.kind_eval). ``--profile`` reads that
profile's kind with it instead of the shipped profile (or, for d6, the pip reader); ``--models``
finds and reads the dice with the networks of another models folder (a training run's output).
``--save-failures`` draws each photo not read exactly with its reads (vision.failures).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from dicetable.failure_pictures import FailurePictures, PictureError
from vision.calibrate import Calibration, CalibrationError, calibrate, rectify
from vision.components import EMPTY, READ_ON_SHEET
from vision.datasets import MANIFEST, Box, DatasetError, split_named
from vision.dice_finder import DieFinder
from vision.errors import ModelMissing, ModelUnreadable
from vision.face_reader import FaceReader
from vision.failures import KindScored, draw_kinds
from vision.kind_eval import Read, Tally
from vision.labelled_places import place_labels
from vision.profile import Profile, ProfileError, load
from vision.reader import DiceReader
from vision.table_dataset import TablePhoto, listed
from vision.table_reads import (
    DalekTableReader,
    DicyTableReader,
    SeventeenTableReader,
    sheet_reader,
)

PROG = "dicetable eval"


def wanted(args: argparse.Namespace) -> bool:
    """Whether this evaluation is one of kinds (a profile given, or labels beyond d6 dice)."""
    if getattr(args, "profile", None) is not None:
        return True
    try:
        doc = json.loads((args.dataset / MANIFEST).read_bytes())
    except (OSError, ValueError, RecursionError):
        return False  # the d6 evaluation says what is wrong with it
    images = doc.get("images") if isinstance(doc, dict) else None
    return isinstance(images, list) and any(isinstance(i, dict) and ("items" in i or "sheet" in i)
                                            for i in images)


def run(args: argparse.Namespace) -> int:
    try:
        profile = load(args.profile) if args.profile is not None else None
        everything, wrong = listed(args.dataset)
    except (ProfileError, DatasetError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    split = (split_named(args.split) if args.split else "test" if "test" in (
        {p.split for p in everything} | {w.split for w in wrong}) else "all")
    photos = [p for p in everything if split == "all" or p.split == split]
    skipped = [f"{MANIFEST}: {w.why}" for w in wrong if split == "all" or w.split in (None, split)]
    if not photos:
        for why in skipped:
            print(f"{PROG}: skipped {why}", file=sys.stderr)
        print(f"{PROG}: {args.dataset}: no photos in split {split!r}"
              + (" but those skipped (above)" if skipped else ""), file=sys.stderr)
        return 2
    try:
        failures = FailurePictures(args.save_failures) if args.save_failures else None
    except PictureError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    readers = _Readers(profile, args.threads, args.models)
    tallies: dict[str, Tally] = {}
    notes: list[str] = []
    times: list[float] = []
    drawn = 0
    for photo in photos:
        try:
            read = _score(photo, readers, tallies, notes)
        except CalibrationError as err:
            skipped.append(f"{photo.file}: {err}")
        except DatasetError as err:  # it names the photo
            skipped.append(str(err))
        except (ModelMissing, ModelUnreadable) as err:
            print(f"{PROG}: cannot start the dice reader: {err}", file=sys.stderr)
            return 1
        else:
            times.append(read.ms)
            if failures is not None and not all(k.scored.exact for k in read.kinds):
                drawn += _save(failures, photo, read)
    if args.json:
        print(json.dumps({"dataset": str(args.dataset), "split": split, "photos": len(photos),
                          "skipped": skipped, "notes": notes,
                          "read_ms_median": statistics.median(times) if times else None,
                          "kinds": [t.as_dict() for t in tallies.values()]}))
        return 0
    print(f"{args.dataset} (split {split}): {len(photos)} photos"
          + (f", read in {statistics.median(times):.1f} ms (median, calibration and "
             f"rectification included)" if times else ""))
    for tally in tallies.values():
        print("\n".join(tally.describe()))
    for line in skipped:
        print(f"  skipped {line}")
    for line in notes:
        print(f"  note {line}")
    if failures is not None:
        print(f"  {drawn} photo{'s' * (drawn != 1)} not read exactly drawn with the reads in "
              f"{failures.folder}")
    return 0


def _save(failures: FailurePictures, photo: TablePhoto, read: _Photo) -> bool:
    """Write the photo with its reads drawn on it; whether it was written (else it says why)."""
    try:
        failures.save(failures.name_for(photo.file), draw_kinds(read.image, read.ignore,
                                                                read.kinds))
    except PictureError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return False
    return True


def tally(photos: list[TablePhoto], profile: Profile | None, threads: int | None = None
          ) -> dict[str, Tally]:
    """Every photo read and scored, kind by kind (photos whose sheet is not found are left
    out)."""
    readers = _Readers(profile, threads)
    tallies: dict[str, Tally] = {}
    for photo in photos:
        try:
            _score(photo, readers, tallies, [])
        except (CalibrationError, DatasetError):
            continue
    return tallies


class _Readers:
    """The readers a dataset needs, made on first use."""

    def __init__(self, profile: Profile | None, threads: int | None,
                 models: Path | None = None) -> None:
        self.profile, self.threads, self.models = profile, threads, models
        self._made: dict[str, object] = {}

    def get(self, name: str) -> object:
        if name not in self._made:
            self._made[name] = self._make(name)
        return self._made[name]

    def _make(self, name: str) -> object:
        if name in READ_ON_SHEET:
            return sheet_reader(name, {} if self.profile is None else
                                {self.profile.kind: self.profile},
                                threads=self.threads, models=self.models)
        if self.profile is None or self.profile.kind != name:  # d6 dice read without a sheet
            return DiceReader(threads=self.threads, models=self.models)
        finder = DieFinder(threads=self.threads, models=self.models)
        return FaceReader(self.profile, finder=finder, threads=self.threads)


class _Photo(NamedTuple):
    """One photo read: the read's time (ms), the photo (shrunk as it was read) and its ignore
    boxes in its pixels, and each kind on it as scored."""

    ms: float
    image: NDArray[np.uint8]
    ignore: tuple[Box, ...]
    kinds: list[KindScored]


def _score(photo: TablePhoto, readers: _Readers, tallies: dict[str, Tally], notes: list[str]
           ) -> _Photo:
    """Read one photo and add it to the tallies (and what was left out of them to notes)."""
    image, photo = photo.read()
    if not photo.on_sheet:
        start = time.perf_counter()
        scored = []
        for kind in sorted({i.kind for i in photo.items}):
            reader = readers.get(kind)
            if isinstance(reader, DiceReader):
                reads: list[Read] = [(str(r.value) if r.value is not None else None, r.x, r.y,
                                      r.confidence) for r in reader.read(image)]
            else:
                assert isinstance(reader, FaceReader)
                reads = [(r.face, r.x, r.y, r.confidence) for r in reader.read(image)]
            scored.append(_add_dice(tallies, kind, photo, reads))
        return _Photo((time.perf_counter() - start) * 1000, image, photo.ignore, scored)
    start = time.perf_counter()
    found = calibrate(image)
    flat = rectify(image, found)
    sheet = found.layout
    _read_there(photo, found.game)
    reader = readers.get(found.game)
    if isinstance(reader, DalekTableReader):
        dalek = reader.read(flat, sheet)
        ms = (time.perf_counter() - start) * 1000
        return _Photo(ms, image, photo.ignore, [_add_dice(tallies, "dalek", photo, _in_photo(
            found, [(d.face, d.x, d.y, d.confidence) for d in dalek.dice]))])
    if isinstance(reader, DicyTableReader):
        reader.new_sheet()  # each photo its own table: its print's card size chosen on it
        dicy = reader.read(flat, sheet)
        ms = (time.perf_counter() - start) * 1000
        return _Photo(ms, image, photo.ignore, [
            _add_places(tallies, notes, "dicy-card", photo, found,
                        {p.place: p.face for p in dicy.places}),
            _add_dice(tallies, "d6", photo, _in_photo(
                found, [(d.face, d.x, d.y, d.confidence) for d in dicy.dice]))])
    assert isinstance(reader, SeventeenTableReader)
    row = reader.read(flat, sheet)
    ms = (time.perf_counter() - start) * 1000
    seen = {p.place: p.face for p in row.row + row.stray}
    return _Photo(ms, image, photo.ignore, [_add_places(
        tallies, notes, "17-card", photo, found,
        {p.name: seen.get(p.name, EMPTY) for p in sheet.places()})])


def _tally(tallies: dict[str, Tally], kind: str) -> Tally:
    return tallies.setdefault(kind, Tally(kind))


def _in_photo(found: Calibration, reads_mm: list[Read]) -> list[Read]:
    """Dice reads in sheet mm, mapped into the photo."""
    if not reads_mm:
        pts = np.zeros((0, 2))
    else:
        pts = found.to_frame(np.array([[x, y] for _, x, y, _ in reads_mm]))
    return [(face, float(p[0]), float(p[1]), conf)
            for (face, _, _, conf), p in zip(reads_mm, pts, strict=True)]


def _add_dice(tallies: dict[str, Tally], kind: str, photo: TablePhoto, reads: list[Read]
              ) -> KindScored:
    """Dice reads in the photo's pixels, scored."""
    labels = photo.of_kind(kind)
    scored = _tally(tallies, kind).add_dice(reads, [(i.face, i.bbox) for i in labels],
                                            photo.ignore)
    return KindScored(kind, tuple(i.bbox for i in labels), scored, tuple(reads))


def _add_places(tallies: dict[str, Tally], notes: list[str], kind: str, photo: TablePhoto,
                found: Calibration, reads: dict[str, str | None]) -> KindScored:
    """Card places read, scored against the labelled ones; a card labelled on no place is
    noted as left out."""
    labels = place_labels(photo, kind, found)
    notes += [f"{photo.file}: the {kind} labelled {card.face!r} lies on no card place of the "
              f"sheet; it is not scored" for card in labels.off_places]
    scored = _tally(tallies, kind).add_places(reads, labels.faces)
    return KindScored(kind, tuple(_place_box(found, place) for place in labels.faces), scored)


def _place_box(found: Calibration, place: str) -> Box:
    """The box a card place of the sheet covers in the photo."""
    z = found.layout.zone(place)
    corners = found.to_frame(np.array([[z.x, z.y], [z.x + z.w, z.y], [z.x + z.w, z.y + z.h],
                                       [z.x, z.y + z.h]]))
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return (float(x0), float(y0), float(x1), float(y1))


def _read_there(photo: TablePhoto, game: str) -> None:
    """Refuse a photo labelling things its sheet's reader does not read (they would not count)."""
    other = sorted({i.kind for i in photo.items} - set(READ_ON_SHEET[game]))
    if other:
        raise DatasetError(f"{photo.file}: labels {', '.join(other)}, which the {game} sheet "
                           f"it shows is not read for (it reads "
                           f"{', '.join(READ_ON_SHEET[game])})")
