"""Camera sources: where the live loop's frames come from.

One interface for every source (:class:`FrameSource`): ``open()``, then ``read()`` frame after
frame, then ``close()``. A source that fails raises :class:`CameraError` with words a host
understands, in each phone's language (:mod:`device.camera_errors`); the live loop
(:mod:`device.live`) closes it and opens it again with backoff.

- ``picamera2``: the Raspberry Pi camera (Debian package ``python3-picamera2``; the venv must see
  the system's packages). One configuration for the whole run: a small stream for watching
  motion and the full one for reads; exposure, gain and white balance are fixed after warm-up.
- ``0`` or ``/dev/video0``: a V4L2 camera through OpenCV.
- a folder of image files, played in file-name order (numbers in names counted: ``frame9``
  before ``frame10``) at ``fps`` (default 15), the last frame held once it ends (demos, tests,
  recorded tables); pictures put in it later (a camera or a program that saves its pictures
  there) are played on in the same way, in order (saved faster than ``fps``: every few of
  them, see :class:`FolderSource`); a video file the same way, at its own frame rate unless
  ``fps`` is given. A camera's folder or a video file once shown starts from its newest
  picture when opened again, unless a new recording was put in its place (see
  :class:`ShownMemory`). A picture is read as a viewer shows it, one past
  FRAME_PIXELS shrunk to fit them (a phone's 48 MP photo; see vision.picture_file).

A recorded source (folder or video) is *paced* by default: it plays in real time and the live
loop drops frames it has no time for, as with a camera. Unpaced, it hands over every frame as
fast as it is taken, stamped with its recorded time (``number / fps``): the loop then sees the
same frames at the same times on every run (tests, the accelerated benchmark).

>>> parse_source("0"), parse_source("/dev/video2"), parse_source("picamera2")
(('v4l2', 0), ('v4l2', '/dev/video2'), ('picamera2', None))
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypedDict, TypeVar, Unpack

import cv2
import numpy as np
from numpy.typing import NDArray

from device.camera_config import DEFAULT_FPS
from device.camera_errors import CameraError as CameraError  # (given with the sources)
from device.camera_errors import SourceEnded as SourceEnded
from device.camera_errors import UnreadableFrame as UnreadableFrame
from device.camera_errors import Value
from device.jpeg_stream import JpegStream, is_jpeg_stream
from vision.picture_file import FRAME_PIXELS, PictureError, read_picture
from vision.picture_formats import PICTURE_SUFFIXES, UNREADABLE, unreadable_kind

Image = NDArray[np.uint8]
VIDEO_SUFFIXES = (".mp4", ".m4v", ".avi", ".mkv", ".mov", ".webm", ".mjpeg", ".mjpg", ".ts",
                  ".mts", ".m2ts", ".wmv", ".flv", ".3gp", ".mpg", ".mpeg", ".m2v",
                  ".vob")  # as OpenCV plays them (played to their end, whatever frame count
#                 they tell: an .mpg joined from two tells the first's, an .m2v none)
SKIP_TOLD = 25  # frames skipped between two signs that a video going to its last frame is alive
UNTOLD = sys.maxsize  # the frames of a video whose end was not read yet, to its player
UNREADABLE_PHOTOS = {"HEIC": "camera.why.heic", "RAW": "camera.why.raw"}
"""The reason told of a folder of photos the table cannot read (vision.picture_formats), by
their kind; any other kind's is ``camera.why.unreadable_photos``, naming it."""
DEEPER = 2  # a folder's pictures are looked for this many folders down (DCIM/100CANON)
VIDEO_RATES = (1.0, 120.0)  # the frame rates a video file's own is believed within
FULL_SIZE = (1280, 720)  # the frame the reader gets from a live camera
MOTION_SIZE = (320, 180)  # the picamera2 stream for watching motion
WARM_UP_S = 2.0  # picamera2: seconds of automatic exposure before it is fixed
MAX_WAITING_S = 2.0  # a paced folder takes up at most this long (at its fps) of new pictures
WRITING_S = 0.2  # a picture that cannot be read is looked at again after this, in case it is
MAX_WRITING_S = 2.0  # still being written, as long as it keeps changing, for at most this long
LIST_EVERY = 5  # a folder whose time of change stands is listed at every 5th look only
COARSE_TIME_NS = 2_000_000_000  # a FAT or exFAT card's times move by 2 s: a folder changed
#                                 within that of its listing may change again, its time the same
COPIED_PER_S = 100.0  # pictures a second that no camera saves into a folder (a webcam: 30 to 60)


_log = logging.getLogger("dicetable")


@dataclass(frozen=True)
class Frame:
    """One frame: the BGR image, its time in seconds (the source's clock) and its number;
    ``small`` is a small YUV picture (:func:`small_yuv`) for watching motion when the source
    makes one itself; ``held``: the last picture that could be read, sent again in place of
    a newer one that cannot be (a folder's)."""

    image: Image
    at: float
    number: int
    small: Image | None = None
    held: bool = False


class FrameSource(Protocol):
    """Where frames come from."""

    description: str
    paced: bool
    plays_recording: bool
    """A recording (a folder of pictures or a video), which waits for a game to be set up,
    holding its picture (see ``waits`` of :func:`open_source`); a camera does not wait."""

    def open(self) -> None:
        """Start the source (CameraError when it cannot)."""

    def read(self) -> Frame:
        """The next frame, waiting for it (CameraError when it cannot come)."""

    def close(self) -> None:
        """Stop the source and free it (safe to call twice)."""


class Capture(Protocol):
    """A video file's frames as :class:`VideoSource` reads them: a ``cv2.VideoCapture``, or
    a :class:`device.jpeg_stream.JpegStream` (a raw .mjpeg)."""

    def isOpened(self) -> bool:
        """Whether the file could be opened."""

    def get(self, prop: int, /) -> float:
        """A property (CAP_PROP_POS_FRAMES, CAP_PROP_FRAME_COUNT, CAP_PROP_FPS)."""

    def set(self, prop: int, value: float, /) -> bool:
        """Set a property (CAP_PROP_POS_FRAMES: the frame read next)."""

    def grab(self) -> bool:
        """Go past the next frame (False: none)."""

    def retrieve(self) -> tuple[bool, Any]:
        """The frame gone past last, decoded."""

    def read(self) -> tuple[bool, Any]:
        """The next frame, decoded (False: none)."""

    def release(self) -> None:
        """Close the file."""


class Clock(Protocol):
    """Time for the sources and the loop: real in a table, fake in tests."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""


class RealClock:
    """The process's monotonic clock."""

    def now(self) -> float:
        """Seconds on :func:`time.monotonic`."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """Sleep ``seconds`` (nothing when not positive)."""
        if seconds > 0:
            time.sleep(seconds)


def parse_source(spec: str) -> tuple[str, int | str | None]:
    """What kind of source ``spec`` names: ``picamera2``, a V4L2 device (number or
    ``/dev/...`` path), a ``folder`` of images or a ``video`` file."""
    if spec == "picamera2":
        return ("picamera2", None)
    if spec.isdigit():
        return ("v4l2", int(spec))
    if spec.startswith("/dev/"):
        return ("v4l2", spec)
    path = Path(spec)
    if path.is_dir():
        return ("folder", spec)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return ("video", spec)
    if not path.exists():
        raise CameraError("camera.why.no_path", path=spec)
    raise CameraError("camera.why.not_camera", path=spec)


def open_source(spec: str, *, fps: float | None = None, paced: bool = True, loop: bool = False,
                start: int = 0, speed: float = 1.0, clock: Clock | None = None,
                memory: ShownMemory | None = None,
                waits: Callable[[], bool] | None = None) -> FrameSource:
    """The source ``spec`` names (not opened yet); the other options are for recordings
    (see :class:`Player`; ``fps`` None: 15 a second for a folder, a video's own rate),
    ``memory`` for a folder or a video (see :class:`ShownMemory`), ``waits`` whether a
    recording waits now, asked at each read (the table waits for a game: it holds the picture
    it shows, and the table reads that picture as any other; None: it never waits)."""
    kind, target = parse_source(spec)
    clock = clock or RealClock()
    if kind == "picamera2":
        return PicameraSource()
    if kind == "v4l2":
        assert target is not None
        return OpenCvCamera(target)
    if kind == "folder":
        return FolderSource(Path(str(target)), memory, fps=fps, paced=paced, loop=loop,
                            start=start, speed=speed, clock=clock, waits=waits)
    return VideoSource(Path(str(target)), memory, fps=fps, paced=paced, loop=loop,
                       start=start, speed=speed, clock=clock, waits=waits)


class Player:
    """Plays numbered frames at ``fps`` from frame ``start``: paced against the clock (``speed``
    times faster than recorded), or unpaced; each frame is stamped with its recorded time, so
    the loop's timing is the recording's at any speed. After the last frame it holds that
    frame, or starts again from frame 0 when looping; an unpaced recording ends once it has
    held its last frame ``hold_s`` seconds. Frames added after the end are played on from
    :meth:`play_on`. While :attr:`holding`, it shows the frame it showed last (or its first,
    or the one :meth:`hold_at` names) at ``fps`` on the clock, paced or not, and plays on from
    the frame after it, due from then.
    """

    def __init__(self, *, fps: float, paced: bool, loop: bool, clock: Clock, start: int = 0,
                 speed: float = 1.0, hold_s: float = 2.0) -> None:
        if not fps > 0 or not speed > 0:
            raise CameraError("camera.why.rate")
        self.fps, self.paced, self.loop, self.clock = fps, paced, loop, clock
        self.first, self.speed, self.hold_s = max(0, start), speed, hold_s
        self._began = 0.0
        self._shown = 0
        self._behind = 0  # frame times spent holding the end before frames were added
        self.holding = False
        """Hold the frame shown (a recording waiting for a game to be set up)."""
        self._number = self.first  # the number of the frame shown last

    @property
    def number(self) -> int:
        """The number of the frame shown last (while holding: the frame held)."""
        return self._number

    def hold_at(self, number: int) -> None:
        """While holding, hold frame ``number`` from now on, and play on from the frame after
        it (a folder a camera saves into: its newest picture)."""
        self._number = number
        self._behind = self.first + self._shown - 1 - number  # as :meth:`next` holds it

    def start(self) -> None:
        """Start playing from frame ``start``."""
        self._began = self.clock.now()
        self._shown = 0
        self._behind = 0
        self._number = self.first

    def due(self) -> int:
        """The number of the frame due next (past the last: the last is held)."""
        return self.first + self._slot() - self._behind

    def play_on(self, number: int) -> None:
        """Show frame ``number`` next and the frames after it in order, due from now (frames
        added after the end, held meanwhile: none of them is overdue)."""
        self._behind = self.first + self._slot() - number

    def _slot(self) -> int:
        """The place in the recording's time of the next frame (paced: by the clock, a frame
        already overdue skipped, as a camera would)."""
        if not self.paced:
            return self._shown
        elapsed = self.clock.now() - self._began
        return max(self._shown, int(elapsed * self.fps * self.speed))

    def next(self, count: int) -> tuple[int, float]:
        """The index (0..count-1) of the frame to show next and its recorded time; waits for
        it when paced."""
        shown = self._slot()
        if self.paced:
            self.clock.sleep(self._began + shown / (self.fps * self.speed) - self.clock.now())
        elif self.holding:
            self.clock.sleep(1 / (self.fps * self.speed))
        self._shown = shown + 1
        if self.holding:  # the frame after the held one is due next
            self._behind = self.first + shown - self._number
        number = self.first + shown - self._behind
        at = self._began + shown / self.fps
        if number < count:
            self._number = number
        elif self.loop:
            self._number = number % count
        elif not self.paced and (number - count + 1) / self.fps > self.hold_s:
            raise SourceEnded("camera.why.ended")
        else:
            self._number = count - 1
        return self._number, at


class Playing(TypedDict, total=False):
    """How a recording is played (see :class:`Player`)."""

    fps: float | None
    paced: bool
    loop: bool
    start: int
    speed: float
    clock: Clock | None
    waits: Callable[[], bool] | None


class _Recording:
    """What a folder and a video share: a description, a :class:`Player` and the
    :class:`ShownMemory` of what was shown (None: always played from the start); ``fps``
    None: DEFAULT_FPS, or what the recording itself says (see :meth:`_play`); ``waits``
    (see :func:`open_source`)."""

    plays_recording = True

    def __init__(self, description: str, memory: ShownMemory | None = None, *,
                 fps: float | None = None, paced: bool = True, loop: bool = False,
                 start: int = 0, speed: float = 1.0, clock: Clock | None = None,
                 waits: Callable[[], bool] | None = None) -> None:
        self.description = description
        self.paced = paced
        self._waits = waits
        self._memory = memory
        self.fps = fps
        self._player = Player(fps=fps or DEFAULT_FPS, paced=paced, loop=loop, start=start,
                              speed=speed, clock=clock or RealClock())

    def _play(self, count: int, own_fps: float | None = None) -> None:
        """Start playing ``count`` frames: from the last where they were shown before; at
        ``own_fps`` (the recording's own rate) where no rate was asked for."""
        if self.fps is None and own_fps is not None:
            self._player.fps = own_fps
        if self._memory is not None and self._memory.shown:
            self._player.first = count - 1
        self._player.start()

    def hold(self, holding: bool) -> None:
        """Hold the frame shown (a recording waiting for a game to be set up), or play on
        from the frame after it (see :class:`Player`)."""
        self._player.holding = holding

    def _next(self, count: int) -> tuple[int, float]:
        """The index of the frame to show next of ``count`` and its recorded time, held while
        the recording waits (see :meth:`Player.next`)."""
        if self._waits is not None:
            self.hold(self._waits())
        return self._player.next(count)

    def _shown(self, fed: bool = False) -> None:
        """A frame is being shown (the memory notes it): not one held while the table waits
        for a game, played from it once the game is set up, unless ``fed`` (a camera saves
        into the folder: held, it shows the table as it lies now)."""
        if self._memory is not None and (fed or not self._player.holding):
            self._memory.show()


class FolderSource(_Recording):
    """A folder of image files played in file-name order (see :class:`Player`). While it holds
    its last picture, pictures put in the folder since (a camera or a program that saves its
    pictures there), named after it, are looked for once a second (the folder listed only when
    its time of change moved, or was within COARSE_TIME_NS of the last listing, and at every
    LIST_EVERY-th look) and played on from the first of them, in order: each may be a moment
    of play (a rest of the dice).
    Paced, one the loop has no time for is dropped as a camera's frame would be; and of more
    new pictures at a look than it plays in MAX_WAITING_S, as many as it plays in that time
    are played, spread evenly over them, the newest kept (saved faster than ``fps`` and played
    one by one, they put the table ever further behind): the table then sees them at most
    about MAX_WAITING_S after they were saved, in as long as they took to save, as a camera at
    ``fps`` would (a rest of the dice in as many still pictures in a row, give or take one).
    Unpaced, every picture is played. Held (waiting for a game to be set up), it looks once a
    second too, and holds the newest of the pictures put in the folder, the table as it
    lies now, letting the others go; a recording nothing is put into holds its picture (put in
    faster than a camera saves them, the host is told once: a recording is put in before the
    table starts). With a
    ``memory`` (a folder a camera saves into), it starts from its newest picture once the
    folder's pictures were shown (see :class:`ShownMemory`)."""

    def __init__(self, folder: Path, memory: ShownMemory | None = None,
                 **playing: Unpack[Playing]) -> None:
        super().__init__(f"the pictures in {folder}", memory, **playing)
        self.folder = folder
        self._files: list[Path] = []
        self._gone = 0  # pictures played and let go from the front of _files (a folder fed
        # all evening): the number of _files[0]
        self._last: tuple[Identity, Image] | None = None
        self._unreadable: tuple[Identity, str, dict[str, Value]] | None = None  # the picture
        # last found unreadable and why (its key and values: a fresh error is raised at each
        # read, as one raised again keeps every read's traceback)
        self._clock = playing.get("clock") or RealClock()
        self._looked = -math.inf  # when (recorded time) it was last looked at for new ones
        self._fed = False  # pictures put in it were taken up since it was opened
        self._listed: set[str] = set()  # the names of its pictures at the last look
        self._listed_changed_at: int | None = None  # the folder's time of change then (ns)
        self._listed_ns = 0  # when (wall time, ns) it was listed last
        self._listed_when = 0.0  # when (on its clock) it was listed last
        self._unlisted = 0  # looks since that did not list it
        self._told_left_out = False
        self._told_copied = False

    def open(self) -> None:
        """List the folder's pictures (shown before: play from the newest)."""
        self._files, self._gone = self._list(), 0
        if not self._files:
            raise no_pictures(self.folder)
        self._listed = {p.name for p in self._files}
        self._play(len(self._files))
        self._looked = -math.inf
        self._fed = False

    def read(self) -> Frame:
        """The next picture (a held or repeated file is decoded once). One that cannot be read
        is waited for while it is being written, then told (UnreadableFrame); tried again
        unchanged, the last picture that could be read is held: it is told once. The first
        picture, with none read before it to hold, is told again at each read (not waited for
        again) until it is written anew."""
        index, at = self._next(self._count())
        if ((index == self._count() - 1 or self._player.holding) and not self._player.loop
                and at - self._looked >= 1.0):
            self._looked = at
            if self._may_have_new():
                self._take_up_new()
            index = self._player.number  # (held: the newest picture, where some were put in)
        path = self._files[index - self._gone]
        identity = self._identity(path)
        if self._last is not None and self._last[0] == identity:
            return Frame(self._last[1], at, index)
        if self._unreadable is not None and identity == self._unreadable[0]:
            if self._last is not None:
                return Frame(self._last[1], at, index, held=True)
            raise UnreadableFrame(self._unreadable[1], **self._unreadable[2])
        image, identity = self._written(path, identity)
        if isinstance(image, PictureError):
            why = _unreadable(path, image)
            self._unreadable = (identity, why.key, why.params)
            raise why
        self._last = (identity, image)
        self._shown(self._fed)
        return Frame(image, at, index)

    def _identity(self, path: Path) -> Identity:
        """What tells the file at ``path`` from the same rewritten; CameraError when gone."""
        try:
            stat = path.stat()
        except OSError:
            raise CameraError("camera.why.picture_gone", name=path.name,
                              folder=self.folder) from None
        return (stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)

    def _written(self, path: Path, identity: Identity) -> tuple[Image | PictureError, Identity]:
        """The picture at ``path`` decoded (or why it cannot be), read again while it changes
        (a camera still writing it) for up to MAX_WRITING_S; and the identity of what was
        read."""
        waited = 0.0
        while True:
            image = _decoded(path)
            if not isinstance(image, PictureError) or waited >= MAX_WRITING_S:
                return image, identity
            self._clock.sleep(WRITING_S)
            waited += WRITING_S
            now = self._identity(path)
            if now == identity:  # not being written: damaged
                return image, identity
            identity = now

    def close(self) -> None:
        """Nothing to free."""
        self._last = None

    def look_now(self) -> int:
        """Look for pictures put in the folder now, though a second has not passed since the
        last look (a stop waits for the table as it lies now), and return the least index (a
        :attr:`Frame.number`) of a frame that shows the table as it lay then. Following a
        camera that saves into it (pictures were taken up since it was opened), the newest
        picture: pictures still waiting to be played from the last look are played with the
        new ones, as many as it plays in MAX_WAITING_S, so that it does not fall further
        behind. A recording played from its start or in a loop plays the table's time as it
        goes: 0, the next frame."""
        if self._player.loop:
            return 0
        self._take_up_new()
        return self._count() - 1 if self._fed else 0

    def _take_up_new(self) -> None:
        """The pictures put in the folder since its last one, named after it, are played
        after the ones still waiting (holding the last: next, due from now); held, the newest
        of them is held."""
        listed_when = self._listed_when
        listed = self._list()
        last = name_order(self._files[-1])
        newer = [p for p in listed if name_order(p) > last]
        if not self._told_left_out:  # (told once: the names no longer matter)
            self._tell_left_out([p for p in listed if p.name not in self._listed
                                 and name_order(p) <= last])
            self._listed = {p.name for p in listed}
        if not newer:
            return
        self._fed = True
        if self._player.holding:
            self._tell_copied(len(newer), self._clock.now() - listed_when)
            self._hold_newest(newer[-1])
            return
        due = self._player.due()
        if due >= self._count():
            self._player.play_on(self._count())
            due = self._count()
        waiting = self._files[due - self._gone:] + newer
        del self._files[due - self._gone:]
        most = max(1, round(self._player.fps * MAX_WAITING_S))
        self._files += every_few(waiting, most) if self.paced else waiting
        # the pictures played are let go, all but the one shown last (being read now)
        played = due - 1 - self._gone
        if played > 0:
            del self._files[:played]
            self._gone += played

    def _list(self) -> list[Path]:
        """The folder's pictures (see :func:`pictures_in`), noting when they were listed."""
        self._listed_changed_at, self._unlisted = self._changed_at(), 0
        self._listed_when, self._listed_ns = self._clock.now(), time.time_ns()
        return pictures_in(self.folder)

    def _may_have_new(self) -> bool:
        """Whether a look may find pictures put in the folder since it was listed (a folder
        of thousands takes long to list, once a second all the wait for a game, or all the
        game at its last picture): its time of change moved, or was within COARSE_TIME_NS
        of the last listing (a FAT card's: a picture saved since may not have moved it), or
        it was not listed for LIST_EVERY looks."""
        self._unlisted += 1
        changed = self._changed_at()
        return (changed is None or changed != self._listed_changed_at
                or changed > self._listed_ns - COARSE_TIME_NS or self._unlisted >= LIST_EVERY)

    def _changed_at(self) -> int | None:
        """The folder's time of change in ns (None: it cannot be seen; a listing says why)."""
        try:
            return self.folder.stat().st_mtime_ns
        except OSError:
            return None

    def _hold_newest(self, newest: Path) -> None:
        """Held (waiting for a game to be set up) while a camera saves into the folder: hold
        its ``newest`` picture, the table as it lies now, and let the others go (played once
        the game is set up, they were the wait played through)."""
        self._gone += len(self._files)
        self._files = [newest]
        self._player.hold_at(self._count() - 1)

    def _tell_left_out(self, older: list[Path]) -> None:
        """Tell the host, once, of pictures put in the folder that are never played: named
        before its newest picture shown, they come before it in name order."""
        if not older or self._told_left_out:
            return
        self._told_left_out = True
        more = f" and {len(older) - 1} more are" if len(older) > 1 else " is"
        newest = self._files[-1].name
        _log.warning("dicetable: %s%s named before %s, the newest picture shown: the table "
                     "plays pictures in name order, so it leaves them out; keep the camera's "
                     "pictures in a folder of their own, or name them to come after %s",
                     older[0].name, more, newest, newest)

    def _tell_copied(self, count: int, seconds: float) -> None:
        """Tell the host, once, of ``count`` pictures put in the folder in ``seconds`` while
        it waits for a game, faster than a camera saves them (more than COPIED_PER_S a second,
        and than 3 s of pictures at its fps): a recording copied in, whose newest is held as a
        camera's, the rest never played."""
        seconds = max(seconds, 1.0)
        if count <= max(COPIED_PER_S, 3 * self._player.fps) * seconds or self._told_copied:
            return
        self._told_copied = True
        _log.warning("dicetable: %d pictures arrived in %s within %.0f s while the table waited "
                     "for a game, faster than a camera saves them: pictures that arrive while "
                     "the table runs are taken as a camera's, its newest held and the others "
                     "not played; to play a recording from its start, put it in the folder "
                     "before starting the table", count, self.folder, seconds)

    def _count(self) -> int:
        """The number of pictures to play: those let go, and those listed."""
        return self._gone + len(self._files)


class ShownMemory:
    """Whether the table was shown the pictures of the folder a camera saves into, or of a
    video file: then the folder, opened again (after a failure, a stall or a restart), starts
    from its newest picture, and the video from its last frame, as the ones before were shown
    and played again they would be moves in a game that went on; a camera shows the table
    only as it lies now. ``marker`` (in the table's state folder) keeps it from one run to the
    next, one source a line (a video and a folder shown in turn both remembered) with what
    tells its recording (:func:`recording_of`): a new recording put at the same path (a
    folder's pictures recorded anew, a video saved over) is played from its start. Written
    once for each, when its first picture is played (not before: a table that failed to start,
    or was stopped while it held its first picture waiting for a game, plays a recording from
    its start). A video's line also keeps how many frames it holds, once its end was read
    (:attr:`frames`): opened again, it goes straight to its last frame."""

    def __init__(self, source: Path, marker: Path | None = None) -> None:
        self._source = source
        self._name = str(source.resolve())
        self._marker = marker
        same = [frames for name, recording, frames in
                (_shown_in(marker) if marker is not None else [])
                if name == self._name and same_recording(source, recording)]
        self.shown = bool(same)
        self.frames: int | None = same[0] if same else None
        """How many frames the video holds, where its end was read (None: not yet)."""

    def show(self) -> None:
        """A picture was shown: note it (the marker written the first time)."""
        if self.shown:
            return
        self.shown = True
        self._write()

    def count(self, frames: int) -> None:
        """The video's end was read: it holds ``frames`` (noted in the marker once shown)."""
        if frames == self.frames:
            return
        self.frames = frames
        if self.shown:
            self._write()

    def _write(self) -> None:
        """Write this source's line to the marker, the other sources' kept."""
        if self._marker is None:
            return
        lines = [_shown_line(name, recording, frames)
                 for name, recording, frames in _shown_in(self._marker)
                 if name and name != self._name]
        lines.append(_shown_line(self._name, recording_of(self._source), self.frames))
        with suppress(OSError):  # a card that cannot be written: a restart plays it again
            self._marker.write_text("\n".join(lines) + "\n", encoding="utf-8")


Recording = dict[str, str | int]


def recording_of(source: Path) -> Recording | None:
    """What tells the recording at ``source`` from another put there later: a video's size
    and time of change; a folder's first picture, with its own (None: it cannot be seen)."""
    try:
        if source.is_dir():
            first = pictures_in(source)[0]
            stat = first.stat()
            return {"first": first.name, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
        stat = source.stat()
    except (CameraError, IndexError, OSError):
        return None
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def same_recording(source: Path, recording: Recording | None) -> bool:
    """Whether ``source`` holds the ``recording`` shown (None: one an older table noted by
    its path alone, taken as the same). A folder's is the same while its first picture shown
    is there unchanged, or, gone, where every picture now is named after it (a camera that
    deletes its old pictures)."""
    if recording is None:
        return True
    first = recording.get("first")
    if not isinstance(first, str) or not source.is_dir():
        return recording_of(source) == recording
    try:
        pictures = pictures_in(source)
        stat = (source / first).stat()
    except CameraError:
        return False
    except OSError:  # gone
        return all(name_order(p) > name_order(Path(first)) for p in pictures)
    return (stat.st_size, stat.st_mtime_ns) == (recording.get("size"), recording.get("mtime_ns"))


def _shown_line(name: str, recording: Recording | None, frames: int | None = None) -> str:
    """One line of the marker: the source's path, its recording where it is known, and a
    video's frames where they were counted."""
    entry: dict[str, object] = {"source": name, "recording": recording}
    if frames is not None:
        entry["frames"] = frames
    return json.dumps(entry, ensure_ascii=False)


def _shown_in(marker: Path) -> list[tuple[str, Recording | None, int | None]]:
    """The sources ``marker`` says were shown, with their recordings and a video's frames
    (none where it cannot be read; a line of an older table, the path alone: no recording)."""
    try:
        lines = marker.read_text(encoding="utf-8").split("\n")  # (a path may hold other breaks)
    except (OSError, UnicodeDecodeError):
        return []
    shown: list[tuple[str, Recording | None, int | None]] = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            entry = None
        if isinstance(entry, dict) and isinstance(entry.get("source"), str):
            recording, frames = entry.get("recording"), entry.get("frames")
            shown.append((entry["source"], recording if isinstance(recording, dict) else None,
                          frames if isinstance(frames, int) and frames > 0 else None))
        elif line:
            shown.append((line, None, None))
    return shown


Identity = tuple[int, int, int, int]  # a file's device, inode, time of change and size


def _decoded(path: Path) -> Image | PictureError:
    """The picture at ``path`` as a camera's frame (see vision.picture_file: shrunk to
    FRAME_PIXELS), or why it cannot be read."""
    try:
        return read_picture(path, fit=FRAME_PIXELS)
    except PictureError as err:
        return err


def _unreadable(path: Path, why: PictureError) -> UnreadableFrame:
    """What the host and the phones are told of a picture that cannot be read."""
    if why.too_large is not None:
        return UnreadableFrame("camera.why.picture_too_large", name=path.name, **why.too_large)
    if why.kind is not None:  # (an iPhone's HEIC saved as .jpg)
        return UnreadableFrame("camera.why.picture_format", name=path.name, kind=why.kind)
    return UnreadableFrame("camera.why.picture_unreadable", name=path.name)


def every_few(pictures: list[Path], most: int) -> list[Path]:
    """``most`` of ``pictures`` spread evenly over them, the first and the last kept (all of
    them where there are no more): played at the rate that plays ``most`` in the time the
    pictures cover, they take that time, as a camera at that rate would see the table.

    >>> [p.name for p in every_few([Path(str(n)) for n in range(10)], 4)]
    ['0', '3', '6', '9']
    >>> len(every_few([Path(str(n)) for n in range(31)], 30))
    30
    """
    if len(pictures) <= most:
        return pictures
    if most == 1:
        return pictures[-1:]
    last = len(pictures) - 1
    return [pictures[round(i * last / (most - 1))] for i in range(most)]


def no_pictures(folder: Path) -> CameraError:
    """Why ``folder``, holding no pictures, is no camera: its pictures are in a folder inside
    it (up to DEEPER folders down: a camera card's DCIM/100CANON), or it holds photos the
    table cannot read (vision.picture_formats: HEIC, RAW, AVIF), in it or as far down (an
    iPhone's DCIM/100APPLE): that folder is named."""
    if (kind := _unreadable_photos(folder)) is not None:
        return _cannot_read(kind, folder)
    if (pictures := _below(folder, DEEPER, _first_picture)) is not None:
        return CameraError("camera.why.pictures_below", folder=folder,
                           inside=pictures[0].relative_to(folder).as_posix())
    if (photos := _below(folder, DEEPER, _unreadable_photos)) is not None:
        return _cannot_read(photos[1], photos[0])
    return CameraError("camera.why.no_pictures", folder=folder)


def _cannot_read(kind: str, folder: Path) -> CameraError:
    """What is told of ``folder`` holding photos of ``kind`` that the table cannot read."""
    if kind in UNREADABLE_PHOTOS:
        return CameraError(UNREADABLE_PHOTOS[kind], folder=folder)
    return CameraError("camera.why.unreadable_photos", folder=folder, kind=kind)


T = TypeVar("T")


def _below(folder: Path, depth: int, find: Callable[[Path], T | None]) -> tuple[Path, T] | None:
    """The first folder under ``folder``, ``depth`` folders down at most, of which ``find``
    finds something, with what it found."""
    if depth == 0:
        return None
    below = [d for d in sorted(_inside(folder), key=name_order)
             if d.is_dir() and not d.name.startswith(".")]
    for inner in below:
        if (found := find(inner)) is not None:
            return inner, found
    for inner in below:
        if (deeper := _below(inner, depth - 1, find)) is not None:
            return deeper
    return None


def _first_picture(folder: Path) -> Path | None:
    """A picture file in ``folder`` (None: none)."""
    return next(filter(_is_picture, _inside(folder)), None)


def _unreadable_photos(folder: Path) -> str | None:
    """The kind most of the photos in ``folder`` that the table cannot read are (a tie: the
    kind first in vision.picture_formats.UNREADABLE); None: none."""
    found = [kind for kind in map(unreadable_kind, _inside(folder)) if kind is not None]
    return max(UNREADABLE, key=found.count) if found else None


def _inside(folder: Path) -> list[Path]:
    """What ``folder`` holds (nothing where it cannot be read)."""
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _is_picture(path: Path) -> bool:
    """Whether ``path`` is a picture file; a name starting with a dot is none (a hidden file,
    or the ``._IMG_1.JPG`` a Mac leaves beside each picture it copies to a USB stick)."""
    return (not path.name.startswith(".") and path.suffix.lower() in PICTURE_SUFFIXES
            and path.is_file())


def pictures_in(folder: Path) -> list[Path]:
    """The pictures of ``folder`` in name order, numbers counted; CameraError if it cannot
    be read."""
    try:
        return sorted(filter(_is_picture, folder.iterdir()), key=name_order)
    except FileNotFoundError:
        raise CameraError("camera.why.folder_gone", folder=folder) from None
    except OSError as err:
        raise CameraError("camera.why.folder_unreadable", folder=folder,
                          detail=err.strerror or str(err)) from None


def name_order(path: Path) -> tuple[tuple[int, str], ...]:
    """A key that sorts file names as people count: ``frame9`` before ``frame10``.

    >>> sorted(["f10.png", "f9.png", "f1.png", "f1²0.png"], key=lambda n: name_order(Path(n)))
    ['f1.png', 'f1²0.png', 'f9.png', 'f10.png']
    """
    return tuple((int(part), "") if i % 2 else (-1, part)  # split's odd parts: the numbers
                 for i, part in enumerate(re.split(r"(\d+)", path.name)))


class VideoSource(_Recording):
    """A video file played at ``fps``, by default at its own frame rate (see :class:`Player`);
    decoded frame by frame, to its end, whatever frame count the file tells (none, or fewer
    or more than it holds); a raw .mjpeg's frames are found by their JPEG markers, and only
    those shown are decoded (:mod:`device.jpeg_stream`). With a ``memory``, it starts from its
    last frame once its frames were shown (see :class:`ShownMemory`). ``on_skip`` is called
    every SKIP_TOLD frames skipped or found on the way to that frame (the live loop's sign
    that the video is not stuck)."""

    def __init__(self, path: Path, memory: ShownMemory | None = None,
                 **playing: Unpack[Playing]) -> None:
        super().__init__(f"the video {path}", memory, **playing)
        self.path = path
        self.on_skip: Callable[[], None] | None = None
        self._capture: Capture | None = None
        self._frames: int | None = None  # how many it holds, once its end was read
        self._position = -1
        self._last: Image | None = None

    def open(self) -> None:
        """Open the file (shown before: play from its last frame; counted before, gone
        straight to it, else read on to it from the one the file's frame count names: an
        .mpg's is a guess; one that names a frame past the end, a recording cut short, from
        the first)."""
        if not self.path.is_file():
            raise CameraError("camera.why.no_video", path=self.path)
        self._frames, self._last = None, None
        self._rewind()
        assert self._capture is not None
        if self._memory is not None and self._memory.shown:
            self._go_to_end(self._memory.frames)
        self._play(self._frames or 1, video_rate(self._capture))

    def _go_to_end(self, counted: int | None) -> None:
        """Read the video's last frame: the frame found last reading on from frame
        ``counted`` - 1 where its frames were counted before (an .mpg's seek may land before
        it), else from the one its frame count names."""
        assert self._capture is not None
        if counted is not None:
            self._seek(counted - 1)
            if self._read_to(counted - 1, telling=True) == counted - 1 and self._last is not None:
                self._read_to(UNTOLD, telling=True)
                return
            self._rewind()
        told = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT))
        if told > 1:
            self._seek(told - 1)
        self._read_to(UNTOLD, telling=True)
        if self._last is None:  # (no frame from there: the count names more than it holds)
            self._rewind()
            self._read_to(UNTOLD, telling=True)

    def read(self) -> Frame:
        """The next frame of the video."""
        if self._capture is None:
            raise CameraError("camera.why.not_open")
        index, at = self._next(self._frames or UNTOLD)
        if index != self._position:
            if index < self._position:  # looping: back to the start
                self._rewind()
            elif self._position < 0 < index:  # starting further on: straight there
                self._seek(index)
            index = self._read_to(index)
        if self._last is None:
            raise UnreadableFrame("camera.why.video_no_frame", path=self.path)
        self._shown()
        return Frame(self._last, at, index)

    def _rewind(self) -> None:
        """Open the file anew, before its first frame (an .m2v asked to go back to its first
        frame says it did, and reads on); a raw .mjpeg as a :class:`JpegStream`."""
        capture: Capture = (JpegStream(self.path, self._tell_skipping)
                            if is_jpeg_stream(self.path) else cv2.VideoCapture(str(self.path)))
        if not capture.isOpened():
            raise CameraError("camera.why.video_unplayable", path=self.path)
        self.close()
        self._capture, self._position = capture, -1

    def _seek(self, index: int) -> None:
        """Go to frame ``index``, or the nearest before it the file can go to (an .mpg's key
        frame): the frames from there to it are read. One that cannot go there (an .m2v says
        it is at its first frame, and lands elsewhere) is opened anew and skips its frames up
        to it, each taken but not made a picture (grab: less than a read's time, the frame
        still decoded)."""
        assert self._capture is not None
        if index <= 0:
            return
        self._capture.set(cv2.CAP_PROP_POS_FRAMES, index)
        landed = int(self._capture.get(cv2.CAP_PROP_POS_FRAMES))
        if 0 < landed <= index:
            self._position = landed - 1
            return
        self._rewind()
        while self._position < index - 1 and self._capture.grab():
            self._position += 1
            self._tell_skipping(self._position)

    def _tell_skipping(self, number: int) -> None:
        """Call ``on_skip`` once every SKIP_TOLD frames gone past on the way to the last (at
        frame ``number``)."""
        if self.on_skip is not None and number % SKIP_TOLD == 0:
            self.on_skip()

    def _read_to(self, index: int, *, telling: bool = False) -> int:
        """Decode the frames up to frame ``index``, or to the end (then noted: its last frame
        is held); the number of the frame decoded last. ``telling``: on the way to the last
        frame, ``on_skip`` is told (each frame is decoded: none is known to be the last
        before the next is missing, and a frame only grabbed cannot be had after that)."""
        assert self._capture is not None
        while self._position < index:
            ok, image = self._capture.read()
            if not ok:
                self._frames = max(1, self._position + 1)
                self._position = self._frames - 1
                if self._memory is not None:
                    self._memory.count(self._frames)
                break
            self._position += 1
            self._last = np.asarray(image, np.uint8)
            if telling:
                self._tell_skipping(self._position)
        return self._position

    def close(self) -> None:
        """Release the file."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def video_rate(capture: Capture) -> float | None:
    """The frame rate a video file says it was recorded at, where it says one within
    VIDEO_RATES (None: it says none, or an absurd one such as 90000)."""
    rate = float(capture.get(cv2.CAP_PROP_FPS))
    return rate if VIDEO_RATES[0] <= rate <= VIDEO_RATES[1] else None


class OpenCvCamera:
    """A V4L2 camera (a number or a ``/dev/video`` path) through OpenCV, at 1280×720."""

    def __init__(self, device: int | str, *, clock: Clock | None = None) -> None:
        self.device = device
        self.description = f"the camera {device}"
        self.paced = True
        self.plays_recording = False
        self._clock = clock or RealClock()
        self._capture: cv2.VideoCapture | None = None
        self._number = 0

    def open(self) -> None:
        """Open the device and ask for 1280×720."""
        if isinstance(self.device, str) and not os.path.exists(self.device):
            raise CameraError("camera.why.device_missing", device=self.device)
        # OpenCV would warn on every try in its own words; CameraError says it in the host's.
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
        capture = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        if not capture.isOpened():
            capture.release()
            raise CameraError("camera.why.device_busy", device=self.device)
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, FULL_SIZE[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, FULL_SIZE[1])
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._capture = capture

    def read(self) -> Frame:
        """The camera's next frame."""
        if self._capture is None:
            raise CameraError("camera.why.not_open")
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraError("camera.why.device_stopped", device=self.device)
        self._number += 1
        return Frame(np.asarray(image, np.uint8), self._clock.now(), self._number)

    def close(self) -> None:
        """Release the device."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def small_yuv(array: Image, size: tuple[int, int]) -> Image:
    """The YUV picture (Y, U, V as its three channels) of a picamera2 YUV420 array of a stream
    of ``size`` (width, height), at half that size, the colours' own: picamera2 gives
    ``height`` rows of Y, then U and V, each ``height``/2 rows of half width, two to a row of
    the array (whose rows may be padded past ``width``); full-range, as JPEG's (picamera2's
    sYCC beside an RGB main stream), as :func:`device.motion.motion_picture` makes its own."""
    width, height = size
    half = (width // 2, height // 2)
    luma = cv2.resize(array[:height, :width], half, interpolation=cv2.INTER_AREA)
    chroma = array.reshape(array.shape[0] * 2, array.shape[1] // 2)[:, :half[0]]
    u = chroma[2 * height:2 * height + half[1]]
    v = chroma[2 * height + half[1]:2 * height + 2 * half[1]]
    return np.asarray(cv2.merge((luma, u, v)), np.uint8)


class PicameraSource:
    """The Raspberry Pi camera through picamera2: the full stream (BGR) for reads and a small
    YUV stream that watches motion; exposure, gain and white balance fixed once the
    automatic ones have settled, so that the scene does not seem to move when they drift."""

    def __init__(self, *, factory: Callable[[], Any] | None = None,
                 clock: Clock | None = None) -> None:
        self.description = "the Raspberry Pi camera"
        self.paced = True
        self.plays_recording = False
        self._factory = factory
        self._clock = clock or RealClock()
        self._camera: Any = None
        self._number = 0

    def open(self) -> None:
        """Configure both streams, warm up, then fix the exposure."""
        factory = self._factory or _picamera2_class()
        try:
            camera = factory()
            config = camera.create_video_configuration(
                main={"size": FULL_SIZE, "format": "RGB888"},  # libcamera's RGB888 is B, G, R
                lores={"size": MOTION_SIZE, "format": "YUV420"})
            camera.configure(config)
            camera.start()
            self._clock.sleep(WARM_UP_S)
            settled = camera.capture_metadata()
            camera.set_controls({"AeEnable": False, "AwbEnable": False,
                                 "ExposureTime": settled["ExposureTime"],
                                 "AnalogueGain": settled["AnalogueGain"],
                                 "ColourGains": settled["ColourGains"]})
        except (RuntimeError, OSError, KeyError, IndexError) as err:
            raise CameraError("camera.why.picamera_start", detail=str(err)) from None
        self._camera = camera

    def read(self) -> Frame:
        """Both streams of one capture."""
        if self._camera is None:
            raise CameraError("camera.why.not_open")
        try:
            request = self._camera.capture_request()
            try:
                image = np.asarray(request.make_array("main"), np.uint8)
                lores = np.asarray(request.make_array("lores"), np.uint8)
            finally:
                request.release()
        except (RuntimeError, OSError) as err:
            raise CameraError("camera.why.picamera_stopped", detail=str(err)) from None
        self._number += 1
        return Frame(np.ascontiguousarray(image[:, :, :3]), self._clock.now(), self._number,
                     small_yuv(lores, MOTION_SIZE))

    def close(self) -> None:
        """Stop and free the camera."""
        if self._camera is not None:
            camera, self._camera = self._camera, None
            try:
                camera.stop()
                camera.close()
            except (RuntimeError, OSError):
                pass  # it is going away anyway


def _picamera2_class() -> Callable[[], Any]:
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError:
        raise CameraError("camera.why.picamera_missing") from None
    except Exception as err:  # its packages built for another numpy, say
        raise CameraError("camera.why.picamera_broken", detail=str(err)) from None
    factory: Callable[[], Any] = Picamera2
    return factory
