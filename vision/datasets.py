"""Labelled dice photos for ``dicetable eval``: a ``labels.json`` folder or a YOLO folder.

``load(root)`` lists the images and their labels without decoding any pixels; ``decode(entry)``
reads one image and gives its labels in pixels (a photo past :data:`PHOTO_PIXELS` read shrunk
to fit them, its labels with it: a 48 MP photo read whole took eval to a peak of 405 MB).
Anything malformed in one image's labels becomes a :class:`Problem` (file, line when there is
one, reason) and that image is skipped; only a folder that holds nothing usable raises
:class:`DatasetError`.

Two formats:

- ``labels.json`` as in ``../shared/datasets/README.md``: ``{"images": [{"file", "dice":
  [{"value", "bbox": [x0, y0, x1, y1]}], "ignore", "split", "width", "height"}]}``, boxes in
  pixels of that image; a split written ``Test``, ``TRAIN``, ``valid`` or ``validation`` is
  the split test, train or val, as a folder's is. A photo is read turned as its orientation
  tag says (as a phone shows it), unless ``width`` and ``height`` (or, without them, the
  boxes) fit only its pixels as stored: labels made with a tool that ignores the tag. (A half
  turn, a mirror or a square photo keeps its size either way, so there the labels are taken
  to be of the photo as shown.)
- YOLO: ``cls xc yc w h`` lines, box normalised to the image size, which is read from the
  image (a segmentation line ``cls x1 y1 x2 y2 ...`` gives its polygon's box). Class 0..5 is
  value 1..6, unless the set names its classes (``data.yaml``, ``classes.txt``, ``obj.names``
  in the label's folder or one above it, up to the root): then each class is the value its
  name says (``5``, ``five``, ``dice-5``; Roboflow sorts the names, so class 0 is often
  ``five``). The label of ``.../images/.../x.jpg`` is ``.../labels/.../x.txt``
  when that labels/ folder exists (Ultralytics layout: an image without its label file holds
  no dice), else ``x.txt`` beside the image (Darknet layout: an image without one is skipped,
  so a stray photo is not scored as an empty table). The split is the first folder on the
  image's path named train (or training), val (or valid, validation) or test (or testing).

>>> Problem("labels/a.txt", "class 7 is not 0..5", line=3).describe()
'labels/a.txt:3: class 7 is not 0..5'
>>> [value_named(n) for n in ("5", "Five", "dice-5", "d6_five", "0", "dice", "1-2")]
[5, 5, 5, 5, None, None, None]
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, TypeVar

import numpy as np
import yaml
from numpy.typing import NDArray

from vision.file_names import FileFinder
from vision.image_size import TOO_LARGE, image_size
from vision.picture_file import decoded, shrink_of, too_large
from vision.picture_formats import (
    NOT_READABLE,
    PICTURE_SUFFIXES,
    not_read,
    unreadable,
    unreadable_kind,
)

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in image pixels (or in fractions of the image size before decoding a YOLO
image)."""


def inside(box: Box, x: float, y: float) -> bool:
    """Whether the point (x, y) lies in ``box`` (its edges included)."""
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


MANIFEST = "labels.json"
SPLIT_FOLDERS = {"train": "train", "training": "train", "val": "val", "valid": "val",
                 "validation": "val", "test": "test", "testing": "test"}
NAMES_FILES = ("data.yaml", "data.yml", "dataset.yaml", "classes.txt", "obj.names",
               "_darknet.labels")
_VALUE_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
ALL = "all"
"""The split name that selects every image."""


def split_named(name: str) -> str:
    """The split a name written in labels.json or given as ``--split`` stands for: the usual
    three and ``all`` whatever their case or spelling (``Test``, ``validation``, ``ALL``),
    others as written.

    >>> [split_named(n) for n in ("Train", "TEST", "valid", "Validation", "holdout", "ALL")]
    ['train', 'test', 'val', 'val', 'holdout', 'all']
    """
    folded = name.strip().lower()
    return ALL if folded == ALL else SPLIT_FOLDERS.get(folded, name)


_T = TypeVar("_T")


class DatasetError(Exception):
    """The folder cannot be evaluated at all (missing, empty, unreadable manifest, no split)."""


@dataclass(frozen=True)
class Problem:
    """Why one image (or label file) was skipped; ``split`` is None when it is not known."""

    file: str
    reason: str
    line: int | None = None
    split: str | None = None

    def describe(self) -> str:
        """``file[:line]: reason``."""
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.reason}"


class EntryError(Exception):
    """An image that cannot be scored; carries the :class:`Problem`."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.describe())
        self.problem = problem


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: its top-face value (1..6) and its box."""

    value: int
    box: Box


@dataclass(frozen=True)
class Entry:
    """One image as the dataset lists it, before decoding. ``file`` is relative to the root;
    ``size`` is the (width, height) the manifest states, if any; ``normalised`` boxes are
    fractions of the image size (YOLO)."""

    file: str
    path: Path
    split: str | None
    dice: tuple[LabelledDie, ...]
    ignore: tuple[Box, ...] = ()
    size: tuple[int, int] | None = None
    normalised: bool = False


@dataclass(frozen=True)
class Sample:
    """A decoded image (BGR) with its labels in pixels."""

    file: str
    image: NDArray[np.uint8]
    dice: tuple[LabelledDie, ...]
    ignore: tuple[Box, ...]


@dataclass(frozen=True)
class Dataset:
    """What :func:`load` found: the usable images and the problems met on the way."""

    root: Path
    kind: str
    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...]

    @property
    def splits(self) -> tuple[str, ...]:
        """The split names present, sorted (also a split whose every image was skipped)."""
        named = [e.split for e in self.entries] + [p.split for p in self.problems]
        return tuple(sorted({name for name in named if name is not None}))

    def default_split(self) -> str:
        """``test`` when the dataset has a test split, else ``all``."""
        return "test" if "test" in self.splits else ALL

    def select(self, split: str) -> Dataset:
        """The images (and problems) of one split (:func:`split_named`); ``all`` keeps
        everything."""
        split = split_named(split)
        if split == ALL:
            return self
        if split not in self.splits:
            have = ", ".join(self.splits) or "none"
            raise DatasetError(f"{self.root}: no split {split!r} (splits here: {have}; "
                               f"use --split {ALL} for every image)")
        return Dataset(self.root, self.kind,
                       tuple(e for e in self.entries if e.split == split),
                       tuple(p for p in self.problems if p.split in (None, split)))


def load(root: Path) -> Dataset:
    """List a dataset folder: its ``labels.json`` if it has one, else its YOLO label files."""
    if not root.is_dir():
        raise DatasetError(f"{root}: no such folder" if not root.exists()
                           else f"{root}: not a folder")
    if (root / MANIFEST).is_file():
        return _load_manifest(root)
    return _load_yolo(root)


PHOTO_PIXELS = 13_000_000
"""The most pixels a dice photo is read at: a phone's 12 MP photo whole (the reader is made
for photos of 0.3 to 12 MP: shrunk to 3 MP, the renderer's 12 MP development set of 409 dice
read 286 right, not 297), a 48 MP one at 12 MP."""


def decode(entry: Entry) -> Sample:
    """Read ``entry``'s image and give its labels in pixels of it: a photo past
    :data:`PHOTO_PIXELS` is read shrunk to fit them, its labels with it; raises
    :class:`EntryError`."""
    image, full = decode_image(entry, () if entry.normalised else
                               [*(d.box for d in entry.dice), *entry.ignore], PHOTO_PIXELS)
    width, height = _size(image)
    across, down = (width, height) if entry.normalised else (width / full[0], height / full[1])
    return Sample(entry.file, image,
                  tuple(LabelledDie(d.value, scaled(d.box, across, down)) for d in entry.dice),
                  tuple(scaled(b, across, down) for b in entry.ignore))


def scaled(box: Box, across: float, down: float) -> Box:
    """``box`` with its x scaled by ``across`` and its y by ``down``.

    >>> scaled((1.0, 2.0, 3.0, 4.0), 2, 0.5)
    (2.0, 1.0, 6.0, 2.0)
    """
    return (box[0] * across, box[1] * down, box[2] * across, box[3] * down)


Size = tuple[int, int]
"""(width, height) in pixels."""


def decode_image(entry: Entry, boxes: Sequence[Box],
                 fit: int) -> tuple[NDArray[np.uint8], Size]:
    """``entry``'s image turned as its labels were made: as its stated size, else its pixel
    ``boxes`` (every labelled box), fit (see the module's note), shrunk to fit ``fit``
    pixels; and the size its labels are in (the image's before shrinking). Raises
    :class:`EntryError`."""
    data, stored = _read_bytes(entry)  # the header's size: the pixels as stored, not turned
    photo = _Photo(entry, data, stored, shrink_of(stored, fit))
    image, shown = photo.decoded(turned=True)
    if entry.size is not None and entry.size != shown:
        if entry.size != stored:
            said = f"{shown[0]}x{shown[1]}"
            if stored != shown:
                said += f" ({stored[0]}x{stored[1]} as stored)"
            _fail(entry, f"the image is {said} but {MANIFEST} says "
                         f"{entry.size[0]}x{entry.size[1]}")
        return photo.decoded(turned=False)
    return _as_labelled(photo, image, shown, boxes)


@dataclass(frozen=True)
class _Photo:
    """A photo's bytes, its header's size and the shrink it is read at."""

    entry: Entry
    data: bytes
    stored: Size
    shrink: int

    def decoded(self, *, turned: bool) -> tuple[NDArray[np.uint8], Size]:
        """The photo, turned as its orientation tag says or as stored, and its size before
        shrinking; fails the entry where it cannot be decoded."""
        image = decoded(self.data, turned=turned, shrink=self.shrink, size=self.stored)
        if image is None:
            _fail(self.entry, _not_readable(self.entry.path, self.data))
        size = _size(image)
        if self.shrink == 1:
            return image, size
        width, height = self.stored  # shrunk as stored or turned a quarter: the nearer
        return image, min(((width, height), (height, width)), key=lambda full: abs(
            full[0] / self.shrink - size[0]) + abs(full[1] / self.shrink - size[1]))


def _as_labelled(photo: _Photo, image: NDArray[np.uint8], size: Size,
                 boxes: Sequence[Box]) -> tuple[NDArray[np.uint8], Size]:
    """A photo whose manifest gives no size (``image``, of ``size`` before shrinking), turned
    the way its pixel boxes fit: as shown, or as stored where only that fits (a tool that
    ignores the orientation tag); a box wholly outside it, or boxes that are fractions of it,
    fail the entry."""
    if not boxes:
        return image, size
    if max(max(box) for box in boxes) <= 1.0 and min(size) > 4:
        _fail(photo.entry, "its boxes look like fractions of the image (0..1); labels.json "
                           "boxes are in pixels")
    if all(_fits(box, size) for box in boxes):
        return image, size
    stored = photo.stored
    if stored != size and all(_fits(box, stored) for box in boxes):
        return photo.decoded(turned=False)
    for box in boxes:
        if box[2] <= 0 or box[3] <= 0 or box[0] >= size[0] or box[1] >= size[1]:
            _fail(photo.entry, f"a box {list(box)} lies outside the {size[0]}x{size[1]} image")
    return image, size


def _fits(box: Box, size: tuple[int, int]) -> bool:
    """``box`` lies in an image of ``size``, give or take 2 % (a die cut by the border)."""
    slack = 0.02 * max(size) + 1
    return (box[0] >= -slack and box[1] >= -slack and box[2] <= size[0] + slack
            and box[3] <= size[1] + slack)


def _read_bytes(entry: Entry) -> tuple[bytes, Size]:
    """``entry``'s image file and its header's size, refused past the pixels the table
    decodes, or where its header gives none (vision.picture_file)."""
    try:
        data = entry.path.read_bytes()
    except FileNotFoundError:
        _fail(entry, "image file missing")
    except OSError as err:
        _fail(entry, f"cannot read the image: {err.strerror or err}")
    size = image_size(data)
    if size is None:
        _fail(entry, _not_readable(entry.path, data))
    if (large := too_large(data, size)) is not None:
        _fail(entry, "the image is " + TOO_LARGE.format_map(large))
    return data, size


def _not_readable(path: Path, data: bytes) -> str:
    """Why the photo at ``path``, holding ``data``, is not read where it cannot be decoded."""
    kind = unreadable(path, data)
    return NOT_READABLE if kind is None else not_read(kind, path)


def _size(image: NDArray[np.uint8]) -> tuple[int, int]:
    return image.shape[1], image.shape[0]


def _fail(entry: Entry, reason: str) -> NoReturn:
    raise EntryError(Problem(entry.file, reason, split=entry.split))


# --- labels.json -----------------------------------------------------------------------------

class _Bad(ValueError):
    """A malformed part of one manifest entry."""


def _load_manifest(root: Path) -> Dataset:
    path = root / MANIFEST
    try:
        doc = json.loads(path.read_bytes())
    except OSError as err:
        raise DatasetError(f"{path}: cannot read: {err.strerror or err}") from err
    except UnicodeDecodeError as err:
        raise DatasetError(f"{path}: not UTF-8 text") from err
    except json.JSONDecodeError as err:
        raise DatasetError(f"{path}: not valid JSON: {err.msg} at line {err.lineno} "
                           f"column {err.colno}") from err
    except ValueError as err:  # an integer past Python's digit limit
        raise DatasetError(f"{path}: holds a number too long to be a label") from err
    except RecursionError as err:
        raise DatasetError(f"{path}: nests too deeply to be a list of labels") from err
    images = doc.get("images") if isinstance(doc, dict) else None
    if not isinstance(images, list):
        raise DatasetError(f'{path}: expected an object with an "images" list')
    listed: dict[int, Entry] = {}
    problems: list[Problem] = []
    photos = FileFinder(root)
    for index, item in enumerate(images):
        split = item.get("split") if isinstance(item, dict) else None
        split = split_named(split) if isinstance(split, str) else None
        try:
            listed[index] = _manifest_entry(photos, item)
        except _Bad as bad:
            name = item.get("file") if isinstance(item, dict) else None
            where = f"images[{index}]" + (f" ({name})" if isinstance(name, str) else "")
            problems.append(Problem(MANIFEST, f"{where}: {bad}", split=split))
    found = list(listed.items())
    for at, other in photos.shared([(e.file, e.path) for _, e in found]).items():
        (n, entry), (m, named) = found[at], found[other]
        del listed[n]
        problems.append(Problem(entry.file, named_too(
            entry.path.relative_to(root).as_posix(), m, named.file), split=entry.split))
    if not listed and not problems:
        raise DatasetError(f"{path}: lists no images")
    return Dataset(root, MANIFEST, tuple(listed.values()), tuple(problems))


def named_too(found: str, index: int, file: str) -> str:
    """Why an entry whose photo was found other than as written, as ``found``, is skipped
    where entry ``index`` (naming ``file``) finds that photo too (vision.file_names)."""
    return (f"not found as written, and the photo it would be, {found}, is named by "
            f"images[{index}] ({file}) too")


def _manifest_entry(photos: FileFinder, item: object) -> Entry:
    if not isinstance(item, dict):
        raise _Bad("not an object")
    file = _key(item, "file", str)
    split = item.get("split")
    if split is not None and not isinstance(split, str):
        raise _Bad('"split" is not a string')
    split = split if split is None else split_named(split)
    size = stated_size(item)
    dice_items = _key(item, "dice", list)
    dice = []
    for number, die in enumerate(dice_items):
        if not isinstance(die, dict):
            raise _Bad(f"dice[{number}] is not an object")
        dice.append(LabelledDie(die_value(die, f"dice[{number}]"),
                                pixel_box(die.get("bbox"), f"dice[{number}].bbox", size)))
    return Entry(file, photos.path_of(file), split, tuple(dice), ignore_boxes(item, size), size)


def die_value(die: dict[str, object], what: str) -> int:
    """A labelled die's value, 1..6 (``what`` names the die, as "dice[0]"); raises ValueError
    saying what is wrong with it."""
    if "value" not in die:
        raise _Bad(f'{what}: missing key "value"')
    value = _whole(die["value"])
    if value is None or not 1 <= value <= 6:
        raise _Bad(f"{what}.value must be a whole number 1..6, not {json.dumps(die['value'])}")
    return value


def _whole(value: object) -> int | None:
    """A whole number as JSON writes it, ``5`` or ``5.0`` (a table of floats wrote it); None
    for anything else (``true`` too)."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def ignore_boxes(item: dict[str, object], size: tuple[int, int] | None) -> tuple[Box, ...]:
    """A manifest entry's ``ignore`` boxes, where a die lies whose face is not labelled (none
    when it has none); raises ValueError saying what is wrong with them."""
    boxes = item.get("ignore", [])
    if not isinstance(boxes, list):
        raise _Bad(f'"ignore" must be a list of boxes [x0, y0, x1, y1], not {json.dumps(boxes)}')
    return tuple(pixel_box(b, f"ignore[{n}]", size) for n, b in enumerate(boxes))


def _key(item: dict[str, object], key: str, kind: type[_T]) -> _T:
    if key not in item:
        raise _Bad(f'missing key "{key}"')
    value = item[key]
    if not isinstance(value, kind):
        raise _Bad(f'"{key}" is not a {kind.__name__}')
    return value


def stated_size(item: dict[str, object]) -> tuple[int, int] | None:
    """The (width, height) a manifest entry states, if it does; raises ValueError when bad."""
    if "width" in item or "height" in item:
        return (_positive_int(item, "width"), _positive_int(item, "height"))
    return None


def _positive_int(item: dict[str, object], key: str) -> int:
    value = _whole(item.get(key))
    if value is None or value <= 0:
        raise _Bad(f'"{key}" must be a positive whole number, not {item.get(key)!r}')
    return value


def pixel_box(raw: object, what: str, size: tuple[int, int] | None) -> Box:
    """A labelled box [x0, y0, x1, y1] in pixels (in an image of ``size``, when stated);
    raises ValueError saying what is wrong with it."""
    if (not isinstance(raw, list) or len(raw) != 4
            or not all(type(v) in (int, float) and math.isfinite(v) for v in raw)):
        raise _Bad(f"{what} must be 4 numbers [x0, y0, x1, y1], not {raw!r}")
    x0, y0, x1, y1 = (float(v) for v in raw)
    if x1 <= x0 or y1 <= y0:
        raise _Bad(f"{what} {raw!r} is empty or reversed (need x0 < x1 and y0 < y1)")
    if size is not None and (x1 <= 0 or y1 <= 0 or x0 >= size[0] or y0 >= size[1]):
        raise _Bad(f"{what} {raw!r} lies outside the {size[0]}x{size[1]} image")
    return (x0, y0, x1, y1)


# --- YOLO ------------------------------------------------------------------------------------

def _load_yolo(root: Path) -> Dataset:
    files = list(_files(root))
    images = sorted(p for p in files if p.suffix.lower() in PICTURE_SUFFIXES)
    entries: list[Entry] = []
    problems: list[Problem] = [
        Problem(p.relative_to(root).as_posix(), not_read(kind, p),
                split=_split_of(p.relative_to(root)))
        for p in sorted(files) if (kind := unreadable_kind(p)) is not None]
    used: set[Path] = set()
    names = _ClassNames(root)
    finder = FileFinder(root)
    wanted = [_label_file(root, image.relative_to(root)) for image in images]
    written = [label.relative_to(root).as_posix() for label, _ in wanted]
    found = [finder.path_of(name) for name in written]  # IMG_1.TXT too
    passed = finder.shared(list(zip(written, found, strict=True)))
    for at, image in enumerate(images):
        rel = image.relative_to(root)
        split = _split_of(rel)
        label, in_labels_folder = found[at], wanted[at][1]
        if at in passed:
            other = images[passed[at]].relative_to(root).as_posix()
            problems.append(Problem(rel.as_posix(), f"no label file {wanted[at][0].name}, and "
                                    f"the one it would be, {label.name}, is that of {other}",
                                    split=split))
            continue
        if not label.is_file():
            if in_labels_folder:  # Ultralytics: an image without a label file holds no dice
                entries.append(Entry(rel.as_posix(), image, split, (), normalised=True))
            else:
                problems.append(Problem(rel.as_posix(), f"no label file {label.name} beside it "
                                        f"(an image with no dice needs an empty one)",
                                        split=split))
            continue
        used.add(label)
        try:
            dice = _yolo_dice(label, names.names_for(label))
        except _BadLine as bad:
            problems.append(Problem(label.relative_to(root).as_posix(), str(bad),
                                    line=bad.line, split=split))
            continue
        entries.append(Entry(rel.as_posix(), image, split, dice, normalised=True))
    orphans = [p.relative_to(root) for p in files if p.suffix.lower() == ".txt"
               and p not in used and p.name not in NAMES_FILES]
    problems.extend(Problem(rel.as_posix(), "no image for this label file",
                            split=_split_of(rel))
                    for rel in sorted(orphans) if "labels" in rel.parts[:-1])
    if not used:
        nested = ", ".join(sorted(p.parent.name for p in root.glob(f"*/{MANIFEST}")))
        hint = f" ({MANIFEST} in sub-folders: {nested}; evaluate one of those)" if nested else ""
        raise DatasetError(f"{root}: nothing to evaluate: no {MANIFEST}, and no YOLO label "
                           f"files (.txt in labels/ or beside the images){hint}")
    return Dataset(root, "yolo", tuple(entries), tuple(problems))


def _files(root: Path) -> Iterator[Path]:
    for path in root.rglob("*"):
        if path.is_file() and not any(p.startswith(".") for p in path.relative_to(root).parts):
            yield path


def _split_of(rel: Path) -> str | None:
    for folder in rel.parts[:-1]:
        split = SPLIT_FOLDERS.get(folder.lower())
        if split is not None:
            return split
    return None


def _label_file(root: Path, rel: Path) -> tuple[Path, bool]:
    """Where the image's label file belongs, and whether that is in a labels/ folder: the
    Ultralytics layout (``.../images/...`` -> ``.../labels/...``) when that folder exists,
    else beside the image."""
    folders = rel.parts[:-1]
    if "images" in folders:
        at = len(folders) - 1 - folders[::-1].index("images")
        if root.joinpath(*folders[:at], "labels").is_dir():
            return root.joinpath(*folders[:at], "labels", *rel.parts[at + 1:]).with_suffix(
                ".txt"), True
    return (root / rel).with_suffix(".txt"), False


class _BadLine(Exception):
    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(reason)
        self.line = line


Named = tuple[str, dict[int, str]]
"""A names file's name and the class names it lists by class number."""


class _ClassNames:
    """The names file nearest each label file (each read once); None where the set names no
    classes (class 0..5 is value 1..6)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._read: dict[Path, dict[int, str] | None] = {}

    def names_for(self, label: Path) -> Named | None:
        """The names file that speaks for ``label``, and its names."""
        folder = label.parent
        while True:
            for name in NAMES_FILES:
                if (folder / name).is_file():
                    names = self._names(folder / name)
                    return None if names is None else (name, names)
            if folder == self.root or self.root not in folder.parents:
                return None
            folder = folder.parent

    def _names(self, path: Path) -> dict[int, str] | None:
        if path not in self._read:
            names = _class_names(path)
            if names is not None and {i: n.strip() for i, n in names.items()} == {
                    i: str(i) for i in range(6)}:
                names = None  # six classes named by their numbers, 0 to 5: values 1 to 6
            if names is not None and not any(map(value_named, names.values())):
                listed = ", ".join(names.values()) or "nothing"
                raise DatasetError(f"{path}: {path.name} names no die value ({listed}): its "
                                   f"labels do not say which face is up")
            self._read[path] = names
        return self._read[path]


def _class_names(path: Path) -> dict[int, str] | None:
    """The class names a names file lists by class number; None when it lists none (a
    data.yaml without ``names``)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise DatasetError(f"{path}: cannot read the class names") from err
    if path.suffix not in (".yaml", ".yml"):
        return dict(enumerate(line.strip() for line in text.splitlines() if line.strip()))
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise DatasetError(f"{path}: not YAML the class names can be read from") from err
    names = doc.get("names") if isinstance(doc, dict) else None
    if isinstance(names, list):
        return {i: str(n) for i, n in enumerate(names)}
    if isinstance(names, dict) and all(isinstance(k, int) for k in names):
        return {int(k): str(n) for k, n in names.items()}
    if names is None:
        return None
    raise DatasetError(f"{path}: its names are neither a list nor numbered")


def value_named(name: str) -> int | None:
    """The die value a class name says (a digit or an English word, one of them), else None."""
    words = re.findall(r"[a-z]+|\d+", re.sub(r"(?<![a-z0-9])d6(?![0-9])", " ", name.lower()))
    said = {int(w) if w.isdigit() else _VALUE_WORDS[w] for w in words
            if w.isdigit() or w in _VALUE_WORDS}
    return said.pop() if len(said) == 1 and 1 <= min(said) <= 6 else None


def _yolo_dice(label: Path, names: Named | None) -> tuple[LabelledDie, ...]:
    try:
        text = label.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise _BadLine(None, "not UTF-8 text") from err
    except OSError as err:
        raise _BadLine(None, f"cannot read: {err.strerror or err}") from err
    dice = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            dice.append(_yolo_line(line, number, names))
    return tuple(dice)


def _yolo_line(line: str, number: int, names: Named | None) -> LabelledDie:
    fields = line.split()
    if len(fields) != 5 and (len(fields) < 7 or len(fields) % 2 == 0):
        raise _BadLine(number, f"expected 'class xc yc w h', got {line.strip()!r}")
    try:
        cls_f, *numbers = (float(f) for f in fields)
    except ValueError:
        raise _BadLine(number, f"not numbers: {line.strip()!r}") from None
    if len(numbers) > 4:  # a segmentation polygon: its box
        xs, ys = numbers[0::2], numbers[1::2]
        numbers = [(min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs),
                   max(ys) - min(ys)]
    xc, yc, w, h = numbers
    value = _class_value(cls_f, fields[0], number, names)
    if not all(math.isfinite(v) and -0.01 <= v <= 1.01 for v in (xc, yc, w, h)) or w <= 0 \
            or h <= 0:
        raise _BadLine(number, f"box {' '.join(fields[1:])} is not a normalised 'xc yc w h' "
                               f"(0..1, w and h > 0)")
    return LabelledDie(value, (xc - w / 2, yc - h / 2, xc + w / 2, yc + h / 2))


def _class_value(cls_f: float, written: str, number: int, names: Named | None) -> int:
    """The value of class ``cls_f`` (written ``written`` on line ``number``)."""
    if names is None:
        if not cls_f.is_integer() or not 0 <= cls_f <= 5:
            raise _BadLine(number, f"class {written} is not 0..5 (values 1..6)")
        return int(cls_f) + 1
    file, named = names
    if not cls_f.is_integer() or int(cls_f) not in named:
        raise _BadLine(number, f"class {written} is not one {file} names")
    value = value_named(named[int(cls_f)])
    if value is None:
        raise _BadLine(number, f"class {written} is named {named[int(cls_f)]!r} in {file}, "
                               f"not a value 1..6")
    return value
