"""The camera over a calibrated table: each settled frame rectified and read as its game's sheet.

A :class:`SheetObserver` keeps the table's calibration. Each frame it is handed is first
checked for the corner markers where the calibration saw them (a bumped camera, a sheet taken
away: the observation's problem is "moved" and nothing is read until the table is calibrated
again; but where a Dicy sheet was taken away, no sheet's marker left in the frame, its sheet is
"no-sheet" and its ordinary dice are read anywhere in the frame, as without a sheet);
then it is warped onto the sheet where its markers lie in it (a camera trembling by a pixel or
two); a frame that can be read (not too dark, washed out or moved: see below) has its paper's
balance kept from frame to frame (vision.paper_balance.PaperBalance: measured anew when the
light changes; a frame thrown away is not looked at for it, and leaves it as it was) and is
read by the reader of the sheet's game (vision.table_reads). The observation carries the
game's reads, the ordinary dice of Dicy Cards in frame pixels (for the dice reads every game
shares), a mark for each die and card for the phones' picture, and where the sheet lay in the
frame (the live loop looks at its margin for a hand left over it).

recalibrate() asks for the next frame to be calibrated anew (a one-tap recalibration); a
table without a calibration is calibrated from its first frames. A frame in which the sheet
cannot be found has the problem "sheet" (and why, in :attr:`SheetObserver.why`); its ordinary
dice are still read, anywhere in the frame, as on a table without a sheet. Such a frame is
looked at flipped back too (a camera that mirrors its picture) only where the picture changed
since that look last found nothing but a table (not where it was too dark or washed out to
tell). On a calibrated
table, a frame too dark (the light off, a hand over the lens) or washed out (glare) to show the
markers has the problem "dark" or "bright", not "moved": nothing is read until it sees again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibrate import (
    BRIGHT,
    DARK,
    Calibration,
    CalibrationError,
    Drift,
    calibrate,
    drift,
    sheet_in_view,
    warp,
)
from vision.components import READ_ON_SHEET
from vision.dice import DieRead
from vision.observation import Mark, Observation
from vision.paper_balance import PaperBalance
from vision.profile import Profile
from vision.reader import DiceReader, check_image
from vision.sheet_seen import DalekObservation, DicyObservation, TableSeen
from vision.table_reads import DicyTableReader, SheetReader, sheet_reader

DIE_MM = 16.0  # a die's side, for its mark
CARD_MARK_MM = 14.0  # a card's mark


SAME_GREY = 20  # a frame 8 times smaller whose grey differs from another's by no more than
#                 this anywhere shows the same (a camera's noise, σ 12, is 1.5 there)
SHEET_DARK = 80  # the rectified sheet's paper (its 90th percentile of grey) under this is too
#                  dim for its dice to be read: white paper lit half as well as a bright table
#                  reads 87-111, and the dice went unread at about 80 and under


class SheetObserver:
    """Reads the game's sheet in frames; ``profiles`` replace the shipped look of a kind
    ("dalek", "dicy-card", "17-card", "d6"); ``on_calibrated`` hears each new calibration
    (to keep it)."""

    def __init__(self, calibration: Calibration | None, *,
                 profiles: dict[str, Profile] | None = None, threads: int | None = None,
                 on_calibrated: Callable[[Calibration], None] | None = None) -> None:
        self.calibration = calibration
        self.problem: str | None = None
        """Why the last frame's sheet could not be read: None, "moved", "dark", "bright" or
        "sheet"."""
        self.why = ""
        self._profiles = profiles or {}
        self._threads = threads
        self._on_calibrated = on_calibrated
        self._again = calibration is None
        self._readers: dict[str, SheetReader] = {}
        self._readers_lock = threading.Lock()  # a profile is taught on the session's thread
        self._pips: DiceReader | None = None
        self._pips_lock = threading.Lock()  # asked for on other threads too (a teach check)
        self.looked_flipped = 0
        """How many frames were let be looked at again flipped back where they show no sheet
        (a camera that mirrors its picture): once a picture, not again while it stays the same
        (the frames of one rest)."""
        self._bare: NDArray[np.uint8] | None = None  # the last picture that look found nothing in
        self.balance = PaperBalance()
        """The paper's balance, kept from frame to frame (measured anew when the light
        changes)."""

    def ready(self, games: Iterable[str] = ()) -> None:
        """Load now the readers the first frames will need (the dice by pips, the calibrated
        sheet's game, and ``games``): loaded on the first frame, they would cost the frames
        of a second or more, the first rest of a recording played in real time among them."""
        self.pips()
        wanted = {*games, *([self.calibration.game] if self.calibration is not None else [])}
        for game in sorted(wanted):
            self.reader(game)

    def pips(self) -> DiceReader:
        """The reader of ordinary dice by their pips, loaded at its first use and then kept
        (teaching d6 checks its photos with it too: one reader in memory, not two)."""
        with self._pips_lock:
            if self._pips is None:
                self._pips = DiceReader(threads=self._threads)
            return self._pips

    def recalibrate(self) -> None:
        """Calibrate anew on the next frame."""
        self._again = True

    def use_profile(self, profile: Profile) -> None:
        """Read ``profile``'s kind with it from the next frame on (a profile just taught): the
        readers of the games that read that kind are made anew, the others kept."""
        with self._readers_lock:
            self._profiles = {**self._profiles, profile.kind: profile}
            self._readers = {game: reader for game, reader in self._readers.items()
                             if profile.kind not in READ_ON_SHEET[game]}

    def observe(self, image: NDArray[np.uint8]) -> Observation:
        """The reads of one frame (UnreadableImage when it is no picture)."""
        frame = check_image(image)
        height, width = frame.shape[:2]
        if self.calibration is not None and self.calibration.frame_size != (width, height):
            self._again = True  # another camera, or another size of picture: found anew
        if self._again:
            picture = _small_grey(frame)
            flipped = self._bare is None or not _same_picture(picture, self._bare)
            self.looked_flipped += flipped
            try:
                self.calibration = calibrate(frame, flipped=flipped)
            except CalibrationError as err:
                if flipped:  # not kept too dark or washed out: a light coming up (or down)
                    # moves little of such a picture, and may show the sheet
                    self._bare = picture if err.reason == "no-sheet" else None
                self.problem, self.why = "sheet", str(err)
                return Observation(tuple(self.pips().read(frame)), width, height,
                                   problem="sheet", sheet=err.reason)
            self._again, self._bare = False, None
            if isinstance(dicy := self._readers.get("dicy"), DicyTableReader):
                dicy.new_sheet()  # perhaps printed at another scale
            if self._on_calibrated is not None:
                self._on_calibrated(self.calibration)
        assert self.calibration is not None
        markers = drift(frame, self.calibration)
        found = self.calibration.shifted(markers.offset)  # where the sheet lies in this frame
        flat = warp(frame, found)
        problem = _seeing(frame, flat, markers)
        if problem:
            self.problem = problem
            self.why = {"moved": "the camera or the sheet moved", "dark": "the picture is too "
                        "dark", "bright": "the picture is washed out"}[self.problem]
            if problem == "moved" and _taken_away(frame, found, markers):
                return Observation(tuple(self.pips().read(frame)), width, height,
                                   problem="moved", sheet="no-sheet")
            return Observation((), width, height, problem=self.problem)
        self.problem, self.why = None, ""
        sheet = self.balance.balanced(flat, found.layout)
        seen = self.reader(found.game).read(sheet, found.layout)
        return Observation(_dice(seen, found), width, height, table=seen,
                           marks=_marks(seen, found), lies=found)

    def reader(self, game: str) -> SheetReader:
        """The reader of ``game``'s sheet, with the profiles given and taught: made at its
        first use and kept until a profile it reads with is taught (one taught while it was
        being made: it reads this time, and is made anew at the next)."""
        with self._readers_lock:
            reader, profiles = self._readers.get(game), self._profiles
        if reader is None:  # made unlocked: a Dalek reader takes 10 s on a Pi
            reader = sheet_reader(game, profiles, threads=self._threads)
            with self._readers_lock:
                if all(self._profiles.get(kind) is profiles.get(kind)
                       for kind in READ_ON_SHEET[game]):
                    self._readers[game] = reader
        return reader


def _seeing(frame: NDArray[np.uint8], sheet: NDArray[np.uint8], markers: Drift
            ) -> str | None:
    """Why the calibrated sheet cannot be read in ``frame`` (``sheet``: it warped, its colour
    as the camera gave it; ``markers``: where they were found): "dark" where the frame and the
    sheet's paper are dark (its markers may be lost in it), "bright" where the frame is washed
    out, "moved" where the markers are not where they were, "dark" where they are but the
    paper is too dim for the dice; else None. A dark cloth about a lit sheet is no problem,
    and a table where the sheet was taken away is "moved", not "dark"."""
    light, dim = _light(frame), _paper(sheet) < SHEET_DARK
    if light == "dark" and dim:
        return "dark"
    if light == "bright":
        return "bright"
    if _moved(markers):
        return "moved"
    return "dark" if dim else None


def _light(frame: NDArray[np.uint8]) -> str | None:
    """"dark" or "bright" when the frame is too dark or washed out to show a sheet, else None."""
    brightness = _grey_mean(frame)
    return "dark" if brightness < DARK else "bright" if brightness > BRIGHT else None


def _grey_mean(image: NDArray[np.uint8]) -> float:
    """The mean grey (0..255) of ``image``, measured on it shrunk 8 times."""
    return float(_small_grey(image).mean())


def _paper(sheet: NDArray[np.uint8]) -> float:
    """How light a rectified sheet's paper is: its 90th percentile of grey (its print left
    out, however much of it there is)."""
    return float(np.percentile(_small_grey(sheet), 90))


def _small_grey(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    small = cv2.resize(image, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small)


def _same_picture(a: NDArray[np.uint8], b: NDArray[np.uint8]) -> bool:
    """Whether two small grey pictures (_small_grey) show the same: no pixel differs by more
    than SAME_GREY (a camera's noise; a die moved, a sheet laid or the light changed do)."""
    return a.shape == b.shape and int(cv2.absdiff(a, b).max()) <= SAME_GREY


def _taken_away(frame: NDArray[np.uint8], found: Calibration, markers: Drift) -> bool:
    """Whether a sheet whose game reads ordinary dice (Dicy Cards) was taken away: none of
    its markers where they were, no sheet's marker anywhere in the frame. Its dice are then
    read anywhere; a bumped camera still shows the sheet, whose art would read as dice."""
    return ("d6" in READ_ON_SHEET[found.game] and markers.shift_px is None
            and not sheet_in_view(frame, found))


def _moved(seen: Drift) -> bool:
    """Whether the markers moved, or none is where it was (a marker covered alone is not)."""
    return seen.moved or (seen.shift_px is None and bool(seen.missing))


def _to_frame(found: Calibration, x: float, y: float) -> tuple[float, float]:
    point = found.to_frame(np.array([[x, y]], np.float64))[0]
    return float(point[0]), float(point[1])


def _scale(found: Calibration, x: float, y: float) -> float:
    """Frame pixels per sheet millimetre around (x, y) mm."""
    a, b = found.to_frame(np.array([[x, y], [x + 1.0, y]], np.float64))
    return float(np.linalg.norm(b - a))


def _dice(seen: TableSeen, found: Calibration) -> tuple[DieRead, ...]:
    """The ordinary dice of Dicy Cards in frame pixels (values as numbers)."""
    if not isinstance(seen, DicyObservation):
        return ()
    out = []
    for d in seen.dice:
        x, y = _to_frame(found, d.x, d.y)
        value = int(d.face) if d.face is not None and d.face.isdigit() else None
        out.append(DieRead(value, x, y, d.confidence, DIE_MM * _scale(found, d.x, d.y)))
    return tuple(out)


def _marks(seen: TableSeen, found: Calibration) -> tuple[Mark, ...]:
    """A mark for each die and card, in frame pixels."""
    spots: list[tuple[float, float, float, str | None]] = []
    if isinstance(seen, DalekObservation):
        spots = [(d.x, d.y, DIE_MM, d.face) for d in seen.dice]
    else:
        places = seen.places if isinstance(seen, DicyObservation) else seen.row + seen.stray
        layout = found.layout
        for p in places:
            if p.empty:
                continue
            x, y = layout.zone(p.place).centre
            text = None if p.face is None else (p.card or p.face).split("/")[0]
            if p.face is not None and p.side in ("frozen", "down"):
                text = f"{text} ({p.side})" if p.card else p.side
            spots.append((x, y, CARD_MARK_MM, text))
    marks = []
    for x, y, size, text in spots:
        fx, fy = _to_frame(found, x, y)
        marks.append(Mark(fx, fy, size * _scale(found, x, y), text))
    return tuple(marks)

