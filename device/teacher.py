"""Teach mode from the phones: the camera learns a table's own dice, one face at a time.

A :class:`Teacher` walks a table through the steps of :mod:`vision.teach_sheet` (lay dice
showing a face in the sheet's box, take a photo: the camera's last settled frame), keeps the
photos as a labelled teach set in ``STATE/teach/KIND`` (``dicetable teach KIND --from`` reads
the same folder), teaches a profile from them, checks it on a fresh photo, and only on "save"
keeps it in ``STATE/profiles`` and hands it to the live reader. What it refuses is a
:class:`TeachRefusal`, a message for the players; a refused step changes nothing.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from engine import Refusal
from vision.calibrate import Calibration, CalibrationError
from vision.dice_finder import DieFinder
from vision.profile import Profile, ProfileError, load
from vision.table_dataset import Labelled, TablePhoto, write_photos
from vision.teach import teach
from vision.teach_sheet import BOX, GAME, PHOTOS, STEPS, Checked, check, dice_in_box, sheet_of

PROFILES = "profiles"  # the state folder's taught profiles
TEACH = "teach"  # the state folder's teach photos, by kind
KINDS = tuple(STEPS)
QUALITY = 95  # the photos' JPEG quality


class TeachRefusal(Refusal, ValueError):
    """A teach step that cannot be taken now, and why (the players' words)."""


def profile_path(state: Path, kind: str) -> Path:
    """Where a table's taught profile of ``kind`` is kept."""
    return state / PROFILES / f"profile-{kind}.npz"


@dataclass
class _Lesson:
    kind: str
    step: int = 0  # the face being taught; len(STEPS[kind]): the check
    photos: list[int] = field(default_factory=list)  # photos taken of each face
    taken: list[TablePhoto] = field(default_factory=list)
    checked: Checked | None = None
    profile: Profile | None = None


class Teacher:
    """One table's teach mode (one lesson at a time); ``on_saved`` hears each saved profile
    (the live reader takes it up)."""

    def __init__(self, state: Path, on_saved: Callable[[Profile], None]) -> None:
        self._state = state
        self._on_saved = on_saved
        self._finder: DieFinder | None = None
        self._lesson: _Lesson | None = None
        self._used = -1  # the camera picture of the last photo

    def start(self, kind: str) -> None:
        """Begin teaching ``kind`` from its first face (any lesson going on is dropped)."""
        if kind not in KINDS:
            raise TeachRefusal("the camera cannot be taught this kind of component")
        folder = self._state / TEACH / kind
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "images").mkdir(parents=True)
        self._lesson = _Lesson(kind, photos=[0] * len(STEPS[kind]))

    def photo(self, frame: NDArray[np.uint8] | None, number: int) -> None:
        """The camera's last frame (its picture ``number``) as a photo of the face being
        taught."""
        lesson = self._going()
        faces = STEPS[lesson.kind]
        if lesson.step >= len(faces):
            raise TeachRefusal("every face has its photos: lay out the check")
        if lesson.photos[lesson.step] >= PHOTOS:
            raise TeachRefusal("this face has {n} photos already: go on to the next",
                               n=PHOTOS)
        found = self._sheet(frame, number, lesson.kind)
        assert frame is not None
        dice = dice_in_box(frame, found, lesson.kind, faces[lesson.step], self._dice_finder())
        if not dice:
            raise TeachRefusal("no die was found in the box to roll: lay the dice there and "
                               "take the photo again")
        lesson.taken.append(self._keep(lesson, frame, found, dice))
        self._used = number
        lesson.photos[lesson.step] += 1

    def next(self) -> None:
        """On to the next face (or the check), once this face has a photo."""
        lesson = self._going()
        if lesson.step >= len(STEPS[lesson.kind]):
            raise TeachRefusal("every face has its photos: lay out the check")
        if not lesson.photos[lesson.step]:
            raise TeachRefusal("take a photo of this face first")
        lesson.step += 1

    def check(self, frame: NDArray[np.uint8] | None, number: int) -> None:
        """Teach a profile from the photos and read the check photo (the last frame, picture
        ``number``) with it."""
        lesson = self._going()
        if lesson.step < len(STEPS[lesson.kind]):
            raise TeachRefusal("take the photos of every face first")
        found = self._sheet(frame, number, lesson.kind)
        assert frame is not None
        finder = self._dice_finder()
        if lesson.profile is None:
            lesson.profile = teach(lesson.kind, lesson.taken, finder=finder,
                                   source="taught on the score pad")
        lesson.checked = check(frame, found, lesson.kind, lesson.profile, finder)
        self._used = number

    def save(self) -> Profile:
        """Keep the checked profile for this table and hand it to the reader."""
        lesson = self._going()
        if lesson.profile is None or lesson.checked is None:
            raise TeachRefusal("check the camera on a fresh photo before saving")
        path = profile_path(self._state, lesson.kind)
        path.parent.mkdir(parents=True, exist_ok=True)
        lesson.profile.save(path)
        self._lesson = None
        self._on_saved(lesson.profile)
        return lesson.profile

    def cancel(self) -> None:
        """Stop teaching; the table keeps the profile it had."""
        self._lesson = None

    def saved(self, kind: str) -> Path | None:
        """This table's saved profile of ``kind``, if there is one."""
        path = profile_path(self._state, kind)
        return path if kind in KINDS and path.is_file() else None

    def to_json(self) -> dict[str, Any]:
        """What the phones show: the kinds, those taught here, and the lesson going on."""
        out: dict[str, Any] = {"kinds": list(KINDS),
                               "saved": [k for k in KINDS if self.saved(k) is not None],
                               "lesson": None}
        lesson = self._lesson
        if lesson is None:
            return out
        faces = STEPS[lesson.kind]
        checked = lesson.checked
        out["lesson"] = {
            "kind": lesson.kind, "game": GAME[lesson.kind], "box": BOX[lesson.kind],
            "faces": list(faces), "step": lesson.step, "photos": list(lesson.photos),
            "most": PHOTOS,
            "face": faces[lesson.step] if lesson.step < len(faces) else None,
            "checked": None if checked is None else {
                "found": checked.found, "right": checked.right,
                "reads": [{"face": f, "read": r} for f, r in checked.pairs]}}
        return out

    def _going(self) -> _Lesson:
        if self._lesson is None:
            raise TeachRefusal("no teaching is going on: start it again")
        return self._lesson

    def _sheet(self, frame: NDArray[np.uint8] | None, number: int, kind: str) -> Calibration:
        """The sheet of a new frame (refused: no frame, the frame of the last photo, no
        sheet, another game's sheet)."""
        if frame is None:
            raise TeachRefusal("the camera has not seen the table yet: wait a moment")
        if number == self._used:
            raise TeachRefusal("the camera has not seen the table change since the last "
                               "photo: move the dice, wait a moment, and try again")
        try:
            found = sheet_of(frame, kind)
        except CalibrationError as err:
            raise TeachRefusal("the camera cannot see the printed sheet: lay it under the "
                               "camera with its four corner squares in view") from err
        if found is None:
            raise TeachRefusal("this is another game's sheet: lay the Dalek Dice sheet")
        return found

    def _dice_finder(self) -> DieFinder:
        if self._finder is None:
            self._finder = DieFinder(threads=2)
        return self._finder

    def _keep(self, lesson: _Lesson, frame: NDArray[np.uint8], found: Calibration,
              dice: list[Labelled]) -> TablePhoto:
        """The photo written into the lesson's teach set (labels.json kept in step)."""
        folder = self._state / TEACH / lesson.kind
        name = f"images/{len(lesson.taken):03d}.jpg"
        cv2.imwrite(str(folder / name), frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        photo = TablePhoto(name, folder / name, "train", tuple(dice), (found.game, found.paper))
        write_photos(folder, [*lesson.taken, photo])
        return photo


def imported(state: Path, source: Path, kind: str) -> Profile:
    """Keep a profile of ``kind`` made elsewhere (``dicetable teach --out``, or a table's
    download) as this table's; ProfileError when the file is no profile of that kind."""
    profile = load(source)
    if profile.kind != kind:
        raise ProfileError(f"{source} teaches {profile.kind}, not {kind}")
    path = profile_path(state, profile.kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    profile.save(path)
    return profile

