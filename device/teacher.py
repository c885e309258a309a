"""Teach mode from the phones: the camera learns a table's own dice and cards, step by step.

A :class:`Teacher` walks a table through the steps of :mod:`vision.teach_sheet` (lay dice
showing a face in the sheet's box, or up to 5 named cards in their places; take a photo: the
camera's last settled frame), keeps the photos as a labelled teach set in ``STATE/teach/KIND``
(``dicetable teach KIND --from`` reads the same folder), teaches a profile from them, checks it
on a fresh photo, and only on "save" keeps it in ``STATE/profiles`` and hands it to the live
reader. What it refuses is a :class:`TeachRefusal`, a message for the players; a refused step
changes nothing, but for a d6 photo whose dice look like another number by their pips
(:class:`DoubtedPhoto`): it is held, its question is in the lesson's state for every phone
(``doubt``), and it is kept as labelled when the players say their dice have pictures
(``photo(..., pictures=True)``); the lesson moving on drops it. A photo kept by mistake is
taken back with :meth:`Teacher.undo` while its step is being taken.

Photos and the check take a while (finding dice, teaching, reading): they are worked out on
the caller's thread, outside the teacher's lock, and kept only if the lesson is still where
it was when they began (another phone may have gone on or stopped meanwhile).

A profile put in ``STATE/profiles`` from outside (``dicetable teach --import``) is taken up by
:meth:`Teacher.refresh`, which a :class:`ProfileWatch` calls every few seconds.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from device.camera_desk import refusal_json
from engine import Refusal
from vision.calibrate import Calibration, CalibrationError, rectify
from vision.components import is_card
from vision.dice_finder import DieFinder
from vision.profile import Profile, ProfileError, load
from vision.reader import DiceReader
from vision.table_dataset import Labelled, TablePhoto, write_photos
from vision.teach import teach
from vision.teach_sheet import (
    BOX,
    GAME,
    KINDS,
    OPTIONAL,
    PHOTOS,
    Checked,
    Step,
    cards_in_places,
    check,
    check_plan,
    dice_in_box,
    same_card,
    sheet_of,
    shown_otherwise,
    steps,
)

PROFILES = "profiles"  # the state folder's taught profiles
TEACH = "teach"  # the state folder's teach photos, by kind
QUALITY = 95  # the photos' JPEG quality
ALL_TAKEN = ("every face has its photos: lay out the check",
             "every card has its photos: lay out the check")
MEANWHILE = ("another phone changed the teaching meanwhile: look at the score pad and go on "
             "from there")
TITLES = {"dalek": "Dalek Dice", "dicy": "Dicy Cards", "17": "17"}  # the games' names
Image = NDArray[np.uint8]


class TeachRefusal(Refusal, ValueError):
    """A teach step that cannot be taken now, and why (the players' words)."""


class DoubtedPhoto(TeachRefusal):
    """A d6 photo refused because most of its dice look like another number by their pips
    (``looks``; None: no one number): dice laid showing another face, or dice with pictures,
    which the players may keep as ``face`` (the lesson holds the photo meanwhile)."""

    def __init__(self, face: str, looks: str | None) -> None:
        if looks is None:
            super().__init__("most dice in the dice box do not show {face}: lay them all "
                             "showing {face} and take the photo again", face=face)
        else:
            super().__init__("most of these dice look like {looks}, not {face}: lay them all "
                             "showing {face} and take the photo again", looks=looks, face=face)
        self.face, self.looks = face, looks


def profile_path(state: Path, kind: str) -> Path:
    """Where a table's taught profile of ``kind`` is kept."""
    return state / PROFILES / f"profile-{kind}.npz"


@dataclass(frozen=True)
class _Photo:
    """A photo of a step worked out: its picture, what it shows, and for cards the sheet
    rectified (the next step is told from it; None for dice)."""

    number: int
    frame: Image
    found: Calibration
    flat: Image | None
    items: list[Labelled]


@dataclass(frozen=True)
class _Held:
    """A doubted photo held for the players' answer: the photo, the step's face and what its
    dice look like by their pips (the question), and the JPEG the phones were shown of it."""

    photo: _Photo
    face: str
    looks: str | None
    shown: bytes

    def question(self) -> DoubtedPhoto:
        """The question the phones are asked about it, in the players' words (made anew, not
        the refusal raised: that keeps the frames it went through)."""
        return DoubtedPhoto(self.face, self.looks)


@dataclass
class _Lesson:
    kind: str
    plan: tuple[Step, ...]
    step: int = 0  # the step being taken; len(plan): the check
    photos: list[int] = field(default_factory=list)  # photos taken of each step
    taken: list[TablePhoto] = field(default_factory=list)
    flats: list[Image] = field(default_factory=list)  # this step's photos rectified (cards)
    before: Image | None = None  # the last photo of the step before, rectified (cards: a card
    # left unchanged)
    checked: Checked | None = None
    profile: Profile | None = None
    held: _Held | None = None  # the last photo doubted where the lesson stands

    @property
    def at(self) -> tuple[int, int]:
        """Where the lesson stands: the step and its photos."""
        return self.step, self.photos[self.step] if self.step < len(self.plan) else 0

    def move(self, *, photos: int = 0, steps: int = 0) -> None:
        """Count this step's photos up or down, or go on ``steps``: the doubted photo held,
        asked about where the lesson stood, is dropped."""
        self.photos[self.step] += photos
        self.step += steps
        self.held = None


class Teacher:
    """One table's teach mode (one lesson at a time); ``on_saved`` hears each saved or
    imported profile (the live reader takes it up); ``pips`` gives the camera's reader of
    dice by their pips, which checks that a d6 photo's dice show the step's number (the live
    reader's own: a second one would hold as much memory again). Safe to call from any
    thread."""

    def __init__(self, state: Path, on_saved: Callable[[Profile], None],
                 pips: Callable[[], DiceReader]) -> None:
        self._state = state
        self._on_saved = on_saved
        self._pips = pips
        self._lock = threading.Lock()
        self._finder_lock = threading.Lock()
        self._finder: DieFinder | None = None
        self._lesson: _Lesson | None = None
        self._used = -1  # the camera picture of the last photo
        self._files = self._signatures()  # the saved profiles the reader has

    def start(self, kind: str) -> None:
        """Begin teaching ``kind`` from its first step (any lesson going on is dropped)."""
        if kind not in KINDS:
            raise TeachRefusal("the camera cannot be taught this kind of component")
        folder = self._state / TEACH / kind
        plan = steps(kind)
        with self._lock:  # a photo of the lesson dropped is no longer written meanwhile
            shutil.rmtree(folder, ignore_errors=True)
            (folder / "images").mkdir(parents=True)
            self._lesson = _Lesson(kind, plan, photos=[0] * len(plan))
            self._used = -1

    def photo(self, frame: Image | None, number: int, *, pictures: bool = False,
              shown: bytes = b"", unread: bool = False) -> None:
        """The camera's last frame (its picture ``number``, ``shown`` to the phones as that
        JPEG) as a photo of the step; refused where the camera sent a picture since that could
        not be read (``unread``: the photo would show the table as it was before). With
        ``pictures`` (the players' dice have pictures, which their pips' reader may read as
        another number) the photo doubted at this step is kept as labelled; none held (another
        phone's photo, undo or next came first), it is refused: the lesson moved on meanwhile.
        A photo doubted while the lesson moved on is refused so too (its question is asked on
        no phone)."""
        with self._lock:
            lesson = self._going()
            at = lesson.at
            if lesson.step >= len(lesson.plan):
                raise TeachRefusal(_words(lesson.kind, *ALL_TAKEN))
            if lesson.photos[lesson.step] >= PHOTOS:
                raise TeachRefusal(_words(lesson.kind, "this face has {n} photos already: go "
                                          "on to the next", "these cards have {n} photos "
                                          "already: go on to the next"), n=PHOTOS)
            step, before = lesson.plan[lesson.step], lesson.before
            doubted = lesson.held
            if pictures and doubted is None:
                raise TeachRefusal(MEANWHILE)
        if pictures:
            assert doubted is not None
            photo = doubted.photo
        else:
            found, flat = self._sheet(frame, number, lesson.kind, unread)
            assert frame is not None
            items = self._items(lesson.kind, found, flat, step, before)
            # dice are told from their step before by no picture
            photo = _Photo(number, frame, found, flat if is_card(lesson.kind) else None, items)
            held = self._doubted(lesson.kind, photo, step, shown)
            if held is not None:
                with self._lock:
                    if self._lesson is not lesson or lesson.at != at:  # no question to ask
                        raise TeachRefusal(MEANWHILE)
                    lesson.held = held
                raise held.question()
        with self._lock:
            self._same(lesson, at, photo.number)
            lesson.taken.append(self._keep(lesson, photo.frame, photo.found, photo.items))
            if photo.flat is not None:
                lesson.flats.append(photo.flat)
            self._used = photo.number
            lesson.move(photos=1)

    def undo(self) -> None:
        """Take back the last photo of the step being taken (one kept by mistake)."""
        with self._lock:
            lesson = self._going()
            if lesson.step >= len(lesson.plan) or not lesson.photos[lesson.step]:
                raise TeachRefusal("this step has no photo to take back")
            folder = self._state / TEACH / lesson.kind
            write_photos(folder, lesson.taken[:-1])  # a failed write leaves the photo kept
            photo = lesson.taken.pop()
            photo.path.unlink(missing_ok=True)
            if is_card(lesson.kind):
                lesson.flats.pop()
            lesson.move(photos=-1)

    def next(self) -> None:
        """On to the next step (or the check), once this one has a photo (d6: a face may be
        left to its pips)."""
        with self._lock:
            lesson = self._going()
            if lesson.step >= len(lesson.plan):
                raise TeachRefusal(_words(lesson.kind, *ALL_TAKEN))
            if not lesson.photos[lesson.step] and lesson.kind not in OPTIONAL:
                raise TeachRefusal(_words(lesson.kind, "take a photo of this face first",
                                          "take a photo of these cards first"))
            if lesson.step == len(lesson.plan) - 1 and not lesson.taken:
                raise TeachRefusal("take a photo of at least one face first")
            if lesson.flats:
                lesson.before = lesson.flats[-1]
            lesson.flats = []
            lesson.move(steps=1)

    def check(self, frame: Image | None, number: int, *, unread: bool = False) -> None:
        """Teach a profile from the photos and read the check photo (the last frame, picture
        ``number``; ``unread``: as for :meth:`photo`) with it."""
        with self._lock:
            lesson = self._going()
            if lesson.step < len(lesson.plan):
                raise TeachRefusal(_words(lesson.kind, "take the photos of every face first",
                                          "take the photos of every card first"))
            profile, taken = lesson.profile, list(lesson.taken)
        found, flat = self._sheet(frame, number, lesson.kind, unread)
        finder = self._dice_finder()
        if profile is None:
            profile = teach(lesson.kind, taken, finder=finder,
                            source="taught on the score pad").profile
        checked = check(flat, found, lesson.kind, profile, finder)
        with self._lock:
            if self._lesson is not lesson:
                raise TeachRefusal(MEANWHILE)
            lesson.profile, lesson.checked = profile, checked
            self._used = number

    def save(self) -> Profile:
        """Keep the checked profile for this table and hand it to the reader."""
        with self._lock:
            lesson = self._going()
            if lesson.profile is None or lesson.checked is None:
                raise TeachRefusal("check the camera on a fresh photo before saving")
            path = profile_path(self._state, lesson.kind)
            path.parent.mkdir(parents=True, exist_ok=True)
            lesson.profile.save(path)
            self._files = self._signatures()
            self._lesson = None
        self._on_saved(lesson.profile)
        return lesson.profile

    def cancel(self) -> None:
        """Stop teaching; the table keeps the profile it had."""
        with self._lock:
            self._lesson = None

    def doubted_picture(self) -> bytes | None:
        """The JPEG of the doubted photo held for the players' answer, if one is."""
        with self._lock:
            held = None if self._lesson is None else self._lesson.held
        return None if held is None else held.shown or None

    @property
    def teaching(self) -> bool:
        """Whether a lesson is going on (the camera's pictures are photos to teach)."""
        with self._lock:
            return self._lesson is not None

    def saved(self, kind: str) -> Path | None:
        """This table's saved profile of ``kind``, if there is one."""
        path = profile_path(self._state, kind)
        return path if kind in KINDS and path.is_file() else None

    def refresh(self) -> bool:
        """Take up the profiles put in (or taken from) ``STATE/profiles`` since last seen,
        e.g. by ``dicetable teach --import``: each new one goes to the reader. Whether any
        changed (a file that is no profile of its kind is left alone)."""
        with self._lock:
            now, known = self._signatures(), self._files
        news = False
        for kind in set(now) | set(known):
            if now.get(kind) == known.get(kind):
                continue
            if kind in now:
                try:
                    profile = load(profile_path(self._state, kind))
                except ProfileError:
                    now.pop(kind)  # being written, or no profile: looked at again later
                    continue
                if profile.kind == kind:
                    self._on_saved(profile)
            news = True
        with self._lock:
            self._files = now
        return news

    def to_json(self, game: str | None = None) -> dict[str, Any]:
        """What the phones show: the kinds (those of ``game``, the game on the table, first),
        the games they belong to, those taught here, and the lesson going on."""
        kinds = sorted(KINDS, key=lambda k: GAME[k] != game)
        out: dict[str, Any] = {"kinds": kinds, "games": dict(GAME), "game": game,
                               "saved": [k for k in KINDS if self.saved(k) is not None],
                               "lesson": None}
        with self._lock:
            lesson = self._lesson
            if lesson is None:
                return out
            checked, held = lesson.checked, lesson.held
            out["lesson"] = {
                "kind": lesson.kind, "game": GAME[lesson.kind], "cards": is_card(lesson.kind),
                "optional": lesson.kind in OPTIONAL,
                "steps": [[{"place": p, "face": f} for p, f in s] for s in lesson.plan],
                "step": lesson.step, "photos": list(lesson.photos), "most": PHOTOS,
                "check": [{"place": p, "face": f} for p, f in check_plan(lesson.kind)],
                "doubt": None if held is None else {
                    "face": held.face, "looks": held.looks,
                    "picture": held.photo.number if held.shown else None,
                    "reason": refusal_json(held.question())},
                "checked": None if checked is None else {
                    "found": checked.found, "right": checked.right,
                    "reads": [{"place": p, "face": f, "read": r} for p, f, r in checked.pairs]}}
        return out

    def _going(self) -> _Lesson:
        if self._lesson is None:
            raise TeachRefusal("no teaching is going on: start it again")
        return self._lesson

    def _same(self, lesson: _Lesson, at: tuple[int, int], number: int) -> None:
        """Refuse a photo when the lesson was stopped or moved on while it was being looked
        at, or another phone took a photo of the same picture meanwhile."""
        if self._lesson is not lesson or lesson.at != at or number == self._used:
            raise TeachRefusal(MEANWHILE)

    def _sheet(self, frame: Image | None, number: int, kind: str,
               unread: bool) -> tuple[Calibration, Image]:
        """The sheet of a new frame and the frame rectified (refused: a picture since that
        could not be read, no frame, the frame of the last photo, no sheet, another game's
        sheet)."""
        if unread:
            raise TeachRefusal(_words(
                kind, "the camera's last picture could not be read: move the dice a little, "
                "wait a moment, and try again", "the camera's last picture could not be read: "
                "move the cards a little, wait a moment, and try again"))
        if frame is None:
            raise TeachRefusal("the camera has not seen the table yet: wait a moment")
        if number == self._used:
            raise TeachRefusal(_words(
                kind, "the camera has not seen the table change since the last photo: move "
                "the dice, wait a moment, and try again", "the camera has not seen the table "
                "change since the last photo: move the cards a little, wait a moment, and try "
                "again"))
        try:
            found = sheet_of(frame, kind)
        except CalibrationError as err:
            raise TeachRefusal("the camera cannot see the printed sheet: lay it under the "
                               "camera with its four corner squares in view") from err
        if found is None:
            raise TeachRefusal("this is another game's sheet: lay the {game} sheet",
                               game=TITLES[GAME[kind]])
        return found, rectify(frame, found)

    def _items(self, kind: str, found: Calibration, flat: Image, step: Step,
               before: Image | None) -> list[Labelled]:
        """The labelled dice or cards of a photo of ``step`` (refused: none, a place with no
        card, a card left from the step before)."""
        if not is_card(kind):
            (_, face), = step
            dice = dice_in_box(flat, found, kind, face, self._dice_finder())
            if not dice:
                raise TeachRefusal("no die was found in the box to roll: lay the dice there "
                                   "and take the photo again" if BOX[kind] == "to-roll" else
                                   "no die was found in the dice box: lay the dice there and "
                                   "take the photo again")
            return dice
        cards, missing = cards_in_places(flat, found, kind, step)
        if missing:
            raise TeachRefusal("no card was found in {place}: lay the card the score pad "
                               "names there and take the photo again", place=where(missing[0]))
        if before is not None:
            for place, _ in step:
                if same_card(before, flat, found.layout, place):
                    raise TeachRefusal("the card in {place} has not changed since the last "
                                       "step: lay the card the score pad names there",
                                       place=where(place))
        return cards

    def _doubted(self, kind: str, photo: _Photo, step: Step, shown: bytes) -> _Held | None:
        """A d6 photo whose dice mostly show another number than the step's by their pips,
        to hold with its question (None: they show it, or no d6)."""
        if kind != "d6":
            return None
        (_, face), = step
        otherwise = shown_otherwise(photo.frame, photo.items, face, self._pips())
        return None if otherwise is None else _Held(photo, face, otherwise.looks, shown)

    def _dice_finder(self) -> DieFinder:
        with self._finder_lock:
            if self._finder is None:
                self._finder = DieFinder(threads=2)
            return self._finder

    def _keep(self, lesson: _Lesson, frame: Image, found: Calibration,
              items: list[Labelled]) -> TablePhoto:
        """The photo written into the lesson's teach set (labels.json kept in step)."""
        folder = self._state / TEACH / lesson.kind
        name = f"images/{len(lesson.taken):03d}.jpg"
        cv2.imwrite(str(folder / name), frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        photo = TablePhoto(name, folder / name, "train", tuple(items), (found.game, found.paper))
        write_photos(folder, [*lesson.taken, photo])
        return photo

    def _signatures(self) -> dict[str, tuple[int, int]]:
        """Each saved profile's file: its change time and size."""
        out = {}
        for kind in KINDS:
            try:
                stat = profile_path(self._state, kind).stat()
            except OSError:
                continue
            out[kind] = (stat.st_mtime_ns, stat.st_size)
        return out


def where(place: str) -> Refusal:
    """A card place of a sheet in the players' words."""
    row, _, n = place.partition("-")
    if row == "row":
        return Refusal("place {n} of the row", n=int(n))
    return Refusal("place {n} of player {player}'s row", n=int(n), player=int(row[1:]))


def _words(kind: str, dice: str, cards: str) -> str:
    """The words for this kind: those about dice or those about cards."""
    return cards if is_card(kind) else dice


class ProfileWatch:
    """Looks at ``STATE/profiles`` every ``every_s`` seconds on its own thread, and calls
    ``on_change`` when a profile was put there from outside (the reader has it already)."""

    def __init__(self, teacher: Teacher, on_change: Callable[[], None], *,
                 every_s: float = 2.0) -> None:
        self._teacher = teacher
        self._on_change = on_change
        self._every_s = every_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._watch, name="profile-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _watch(self) -> None:
        while not self._stop.wait(self._every_s):
            if self._teacher.refresh():
                self._on_change()


def imported(state: Path, source: Path, kind: str) -> Profile:
    """Keep a profile of ``kind`` made elsewhere (``dicetable teach --out``, or a table's
    download) as this table's; ProfileError when the file is no profile of that kind. A table
    serving from ``state`` takes it up within seconds (:class:`ProfileWatch`)."""
    profile = load(source)
    if profile.kind != kind:
        raise ProfileError(f"{source} teaches {profile.kind}, not {kind}")
    path = profile_path(state, profile.kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    profile.save(part)
    part.replace(path)  # a serving table never reads half a file
    return profile
