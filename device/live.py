"""The live loop: camera frames in, settled reads out to the table session.

Two threads. The *grabber* takes frames from the source as they come and leaves only the newest
in a one-frame mailbox, behind news of a picture that cannot be read where that waits there (a
recording played unpaced waits instead, so that every frame is seen).
The *watcher* takes frames from the mailbox, watches motion on a small colour picture
(:mod:`device.motion`), reads a frame once the scene has been still for a while, and hands a
read that stands to the sink (the session) as a :class:`Seen`. A slow read therefore drops
frames and never queues them. A read of the table before anything moved in the camera's view
is marked *as found* (:attr:`Seen.as_found`): what lay there already, no move of the game.
A rest with something over the sheet's margin that was not there when the table was last read
(an arm reaching over the table, a hand held still over the dice: :mod:`device.reach`) is not
read once still 0.3 s: a hand that leaves is never read as the table. Still there after
``REACH_WAIT_S`` (3 s), the sink hears it (the phones ask for hands off the table), and the
rest is read once still ``REACH_MOST_S`` (10 s) as it lies: a cup left there is part of the
table from then on, and a hand held there that long is read with the dice it hides.
The sink hears at once when something moves in view after a read stood (a read will follow
once it is still), and when a rest's read is held so: a stop pressed meanwhile waits for that
read; the hand moving on is told as a move again (the hold is over). A stop also has the camera
look now (:meth:`LiveLoop.look_now`): a folder a camera saves into is looked at for new
pictures only once a second.

A source that fails, vanishes or stalls is closed and opened again with a growing pause (the
sink hears the camera is out, then that it is back); an unreadable frame is skipped and told.
The sink hears each piece of news once (the camera out again for the same reason, or the next
unreadable frame of a reason told since a read stood, is not told again), and its methods
are called from the watcher thread and must only hand things on.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from device.camera import (
    CameraError,
    Clock,
    FolderSource,
    Frame,
    FrameSource,
    RealClock,
    SourceEnded,
    UnreadableFrame,
    VideoSource,
)
from device.motion import Settler, StillnessWatch, Verdict, motion_picture
from device.reach import REACH_MOST_S, REACH_WAIT_S, EdgeWatch
from vision.errors import UnreadableImage
from vision.observation import Observation, Observer, doubt_disagreements

_log = logging.getLogger("dicetable")

PICTURE_WIDTH = 960  # the "what the camera saw" picture for the phones
PICTURE_QUALITY = 80
STALL_S = 5.0  # no frame for this long: the camera is out
BACKOFF_S = (0.5, 30.0)  # first and longest pause before opening a failed camera again
MAX_PATIENCE_S = 120.0  # the longest wait for a frame before a stuck camera is opened anew

CameraState = Literal["starting", "ok", "out", "ended"]


@dataclass(frozen=True)
class Seen:
    """A read that stands: the observation, the frame it was read on, a JPEG of it for the
    phones (at most PICTURE_WIDTH wide), the frame's time and number; ``as_found`` when
    nothing has moved in the camera's view since its first frame (the table as it was found:
    dice lying there then were not rolled for the camera)."""

    observation: Observation
    frame: NDArray[np.uint8]
    picture: bytes
    at: float
    number: int
    as_found: bool = False


@dataclass(frozen=True)
class CameraStatus:
    """How the camera is: its state and, when out or ended, why (its English for the host's
    log, its key and values for the host's phone); or, with ``unreadable_why``, that a picture
    could not be read and why (the camera goes on; its state is as it was); or, with
    ``reads_again``, that a new picture of the table as last read could be read since."""

    state: CameraState
    why: CameraError | None = None
    unreadable_why: UnreadableFrame | None = None
    reads_again: bool = False
    since: float | None = None
    """Out because no picture came: when the camera last sent one (its failures are none; on
    :func:`time.monotonic`), so that the host's phone counts how long it has been silent."""


class LiveSink(Protocol):
    """Where the loop hands its news (the table session)."""

    def camera_seen(self, seen: Seen) -> None:
        """A read stands."""

    def camera_status(self, status: CameraStatus) -> None:
        """The camera's state changed, or why it is out did; or frames cannot be read (told
        once until a read stands again)."""

    def camera_moved(self) -> None:
        """Something moved in view since the last read stood, or since a rest's read was
        held (:meth:`camera_holds`: that hold is over): its read follows once the table is
        still (returns at once)."""

    def camera_holds(self, seconds: float) -> None:
        """The table is still, but something left over the sheet's edge holds its read until
        it leaves, ``seconds`` at most (returns at once)."""

    def camera_reaching(self) -> None:
        """The table's read is held still: what lies over the sheet's edge has not left in
        ``REACH_WAIT_S`` (hands off the table, please; returns at once)."""


class _Busy:
    """What a :class:`_Mailbox` gives when the camera said it is busy rather than a frame."""


BUSY = _Busy()


class _Mailbox:
    """The newest frame (or, keeping every frame, one frame at a time) between the threads,
    with the number of the last look asked of the camera that the frame shows (see
    :meth:`LiveLoop.look_now`). A picture that cannot be read is news: the newest frame behind
    it (a folder's held picture, sent again at once, or its next picture) waits in a second
    slot and is taken next; news behind news takes the place of both."""

    def __init__(self, keep_every_frame: bool) -> None:
        self._keep = keep_every_frame
        self._item: Frame | CameraError | None = None
        self._look = 0
        self._behind: tuple[Frame, int] | None = None  # the newest frame behind news, its look
        self._busy = False  # the camera said it is busy (not stuck) since the last take
        self._ready = threading.Condition()
        self.dropped = 0

    def put(self, item: Frame | CameraError, stop: threading.Event, look: int = 0) -> None:
        with self._ready:
            if self._keep:
                while self._item is not None and not stop.is_set():
                    self._ready.wait(0.1)
            elif isinstance(self._item, UnreadableFrame) and isinstance(item, Frame):
                if self._behind is not None:
                    self.dropped += 1
                self._behind = (item, look)
                self._ready.notify_all()
                return
            elif isinstance(self._item, Frame) or self._behind is not None:
                self.dropped += 1
                self._behind = None
            self._item, self._look = item, look
            self._ready.notify_all()

    def busy(self) -> None:
        """The camera is working towards its next frame (a video going to its last frame):
        a :meth:`take` waiting returns BUSY."""
        with self._ready:
            self._busy = True
            self._ready.notify_all()

    def take(self, timeout: float,
             stop: threading.Event) -> tuple[Frame | CameraError | _Busy | None, int]:
        """The frame, or what went wrong, and the look it shows; BUSY when the camera said
        it is busy instead; None when none came within ``timeout`` or ``stop`` was set (and
        :meth:`wake` called)."""
        with self._ready:
            if self._item is None:
                self._ready.wait_for(lambda: self._item is not None or self._busy
                                     or stop.is_set(), timeout)
            if self._item is None and self._busy:
                self._busy = False
                return BUSY, self._look
            item, look = self._item, self._look
            self._item = None
            if self._behind is not None:
                (self._item, self._look), self._behind = self._behind, None
            self._busy = False
            self._ready.notify_all()
            return item, look

    def wake(self) -> None:
        """Have a :meth:`take` waiting look at its ``stop`` again."""
        with self._ready:
            self._ready.notify_all()


class LiveLoop:
    """Watches the table through a camera source and hands settled reads to ``sink``.

    ``open_source`` makes a fresh source each time the camera is (re)opened; ``observer``
    reads a frame; ``clock`` paces pauses (fake in tests); ``on_alive`` is called on the
    watcher's thread whenever the camera answered (a frame, or an error the loop deals with):
    the watchdog's sign of life, which stops when the camera or the watcher hangs.
    """

    def __init__(self, open_source: Callable[[], FrameSource], observer: Observer,
                 sink: LiveSink, *, clock: Clock | None = None, settle_s: float = 0.3,
                 stall_s: float = STALL_S, backoff_s: tuple[float, float] = BACKOFF_S,
                 on_alive: Callable[[], None] | None = None) -> None:
        self._open_source = open_source
        self._observer = observer
        self._sink = sink
        self._clock = clock or RealClock()
        self._settle_s = settle_s
        self._stall_s = stall_s
        self._backoff_s = backoff_s
        self._on_alive = on_alive
        self._stop = threading.Event()
        self._generation = 0
        self._mailbox = _Mailbox(keep_every_frame=False)
        self._watcher: threading.Thread | None = None
        self._grabbers: list[threading.Thread] = []  # the current one, and any left stuck
        self._state: CameraState = "starting"
        self._reason: tuple[str, object] | None = None  # the key and values of the last why told
        self._skipped: set[str] = set()  # why (its key) pictures that cannot be read were
        # told, since the last read stood or the camera went out
        self._faulty = False  # the last picture taken up failed by a fault of the table's own
        self._answered = False  # the phones were told the pictures read again since the last
        # read stood: the next that cannot be read is told, but not answered again (a camera
        # tearing every third picture would have the phones' warning flicker)
        self._read_anew = False  # a picture that cannot be read was told: whether the next
        # new one can be is told (a moved table is read anyway)
        self._look_again = threading.Event()
        self._looks = threading.Condition()
        self._looks_asked = 0
        self._looks_watched = 0
        self.reads = 0
        """How many frames were read (for the benchmark)."""

    @property
    def dropped(self) -> int:
        """Frames replaced in the mailbox before the watcher took them."""
        return self._mailbox.dropped

    def start(self) -> None:
        """Start both threads."""
        self._sink.camera_status(CameraStatus("starting"))
        self._start_grabber()
        self._watcher = threading.Thread(target=self._watch, name="camera-watcher", daemon=True)
        self._watcher.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop both threads and wait for them, up to ``timeout`` seconds all told; a
        :meth:`look_now` waiting returns. A picture being taken or decoded is waited for and
        the camera closed: a thread left inside OpenCV or a camera's driver as the process
        exits is ended by Python unwinding it, and C++ aborts the process ("terminate called
        without an active exception"). A grabber stuck in its camera longer than that is left
        to end by itself."""
        self._stop.set()
        with self._looks:
            self._looks.notify_all()
        self._mailbox.wake()
        deadline = time.monotonic() + timeout
        for thread in [self._watcher, *self._grabbers]:  # the watcher starts no more grabbers
            if thread is not None:
                thread.join(max(0.0, deadline - time.monotonic()))

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the watcher ends (a recording that ended, or :meth:`stop`); True if it
        did within ``timeout``."""
        if self._watcher is None:
            return True
        self._watcher.join(timeout)
        return not self._watcher.is_alive()

    # The grabber.

    def _start_grabber(self) -> None:
        self._generation += 1
        source = self._open_source()
        self._mailbox = _Mailbox(keep_every_frame=not source.paced)
        if isinstance(source, VideoSource):  # (going to its last frame takes long)
            source.on_skip = self._mailbox.busy
        grabber = threading.Thread(target=self._grab, args=(source, self._generation,
                                                            self._mailbox),
                                   name=f"camera-grabber-{self._generation}", daemon=True)
        grabber.start()
        self._grabbers = [*(g for g in self._grabbers if g.is_alive()), grabber]

    def _grab(self, source: FrameSource, generation: int, mailbox: _Mailbox) -> None:
        pause = self._backoff_s[0]
        opened = False
        looked = shows = 0  # the last look asked of the source; the last look a frame shows
        showing = -1  # a folder: the least number of a frame that shows the last look
        try:
            while not self._stop.is_set() and generation == self._generation:
                look = self._looks_asked
                try:
                    if not opened:
                        source.open()  # a folder a camera saves into: from its newest picture
                        opened, showing = True, -1
                    if look > looked and isinstance(source, FolderSource):
                        showing = source.look_now()  # the look shows from that frame on
                    looked = look
                    item: Frame | CameraError = source.read()
                    pause = self._backoff_s[0]
                except (UnreadableFrame, SourceEnded) as err:
                    item = err
                except CameraError as err:
                    mailbox.put(err, self._stop)
                    source.close()
                    opened = False
                    self._pause(pause)
                    pause = min(pause * 2, self._backoff_s[1])
                    continue
                if generation != self._generation:
                    return
                if isinstance(item, Frame) and item.number >= showing:
                    shows = look
                mailbox.put(item, self._stop, shows)
                if isinstance(item, SourceEnded):
                    return
        finally:
            source.close()

    def look_now(self, timeout: float) -> bool:
        """Look at the table now, and return once a frame taken since was watched for motion
        (the sink heard of a move first); a folder a camera saves into is looked at for new
        pictures at once (by itself, once a second), and, following a camera that saves into
        it, a frame counts once it shows the newest of them (the folder may still play
        pictures saved up to 2 s before); a recording played from its start or in a loop
        counts its next frame. False when no such frame came within ``timeout`` seconds, or at
        once when the loop stops."""
        with self._looks:
            self._looks_asked += 1
            asked = self._looks_asked
            self._looks.wait_for(lambda: self._looks_watched >= asked or self._stop.is_set(),
                                 timeout)
            return self._looks_watched >= asked

    def look_again(self) -> None:
        """Read the table anew once it is still, though nothing on it moved (the observer was
        asked to calibrate again, and the table waits for that with its hands off)."""
        self._look_again.set()

    def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` on the clock, in short steps so that stopping is quick."""
        end = self._clock.now() + seconds
        while not self._stop.is_set() and self._clock.now() < end:
            self._clock.sleep(min(0.1, end - self._clock.now()))

    # The watcher.

    def _watch(self) -> None:
        watch = StillnessWatch()
        settler = Settler(settle_s=self._settle_s)
        edge = EdgeWatch()
        last: Observation | None = None
        stirred = False  # something moved in view since the first frame
        told = False  # the sink was told that something moved since the last read stood
        patience = self._stall_s  # how long to wait for the next frame before calling a stall
        unopened: CameraError | None = None  # why the camera could not be opened after a stall
        heard = time.monotonic()  # when the camera last sent a picture (a failure is none)
        stall: CameraError | None = None  # told at the first stall, the same until it answers
        while not self._stop.is_set():
            item, look = self._mailbox.take(patience, self._stop)
            if self._stop.is_set():  # (no stall to tell: the grabber was stopped)
                return
            if item is None:  # stalled: leave the stuck grabber behind and open a new source
                if stall is None:
                    stall = CameraError("camera.why.stalled", seconds=f"{patience:g}")
                if unopened is None:  # (the phones count on from its last picture)
                    self._set_state("out", stall, since=heard)
                try:
                    self._start_grabber()
                    unopened = None
                except CameraError as err:  # gone meanwhile (a USB stick pulled): said, and
                    self._set_state("out", err)  # tried again at the next stall
                    unopened = err
                patience = min(patience * 2, MAX_PATIENCE_S)
                settler.forget()
                told = False
                continue
            stall = None
            if self._on_alive is not None:
                self._on_alive()
            if isinstance(item, _Busy):  # (no picture yet, but not stuck)
                continue
            failed = isinstance(item, CameraError) and not isinstance(
                item, (UnreadableFrame, SourceEnded))
            # After a failure the grabber pauses up to the longest backoff before trying again.
            patience = self._backoff_s[1] + self._stall_s if failed else self._stall_s
            if isinstance(item, SourceEnded):
                self._set_state("ended", item)
                return
            if isinstance(item, UnreadableFrame):
                self._skip(item)
                continue
            if isinstance(item, CameraError):
                if self._state != "out":
                    settler.forget()
                told = False
                self._set_state("out", item)
                continue
            heard = time.monotonic()
            if not self._faulty:
                self._set_state("ok")
            moved = watch.moved(motion_picture(item.image, item.small))
            if self._read_anew and not item.held:
                self._read_anew = False
                if not moved and settler.stood and not self._answered:  # the table as last
                    self._answered = True  # read: its pictures read again
                    self._skipped.clear()
                    self._sink.camera_status(CameraStatus(self._state, reads_again=True))
            stirred = stirred or moved
            if moved and not told:
                self._sink.camera_moved()
                told = True
            if look > self._looks_watched:
                with self._looks:
                    self._looks_watched = look
                    self._looks.notify_all()
            if self._look_again.is_set():  # as if the table had moved: read it once still
                self._look_again.clear()
                moved = True
            if not settler.frame(moved=moved, at=item.at):
                continue
            try:
                if settler.fresh and edge.reaching(item.image,  # a hand left over the table
                                                   None if last is None else last.lies):
                    settler.wait(REACH_WAIT_S)
                    self._sink.camera_holds(REACH_MOST_S)
                    told = False  # (the hand moving on ends the hold: told as a move)
                    continue
                if settler.waits_s == REACH_WAIT_S:  # … and held still there
                    settler.wait(REACH_MOST_S)
                    self._sink.camera_reaching()
                    continue
                observation = self._observer.observe(item.image)
                self.reads += 1
                verdict = settler.read(observation.key())
                if verdict is Verdict.UNSETTLED and last is not None:
                    observation = doubt_disagreements(last, observation)
                last = observation
                if verdict is not Verdict.AGAIN:
                    edge.read(item.image, reaching=settler.waits_s == REACH_MOST_S)
                    self._sink.camera_seen(Seen(observation, item.image, _jpeg(item.image),
                                                item.at, item.number, as_found=not stirred))
                    told = False
                    self._skipped.clear()
                    self._answered = False
            except UnreadableImage as err:
                self._skip(UnreadableFrame("camera.why.picture_unusable", detail=str(err)))
                continue
            except Exception:  # a fault of the table's own must not stop the camera for good
                self._fault()
                continue
            if self._faulty:
                self._faulty = False
                self._set_state("ok")

    def _fault(self) -> None:
        """A picture the table itself failed to take up: its traceback goes to the host's log
        once, the phones see the camera out, and the loop goes on with the next picture."""
        if not self._faulty:
            _log.exception("dicetable: the table failed to take up a picture from the camera; "
                           "it goes on with the next")
        self._faulty = True
        self._set_state("out", CameraError("camera.why.fault"))

    def _skip(self, why: UnreadableFrame) -> None:
        """Tell the sink of a picture that cannot be read, the first of each reason only: the
        next of a reason told once a read has stood again or the camera was out, one of a
        reason not told yet at once, however the reasons alternate (a held picture is read
        again and again, a camera saving a format OpenCV cannot read sends 15 a second; the
        phones show that pictures are skipped, the host's log and phone name the first of
        each reason). The next new picture that can be read is told too where the table
        did not move meanwhile (moved, it is read as any other), so that the phones (and a
        lesson's photos) do not wait for a move; that once until a read stands: a picture
        that cannot be read after it is told again, and stays told. A folder holding its last
        picture that could be read in place of a newer one sends no new picture
        (:attr:`Frame.held`)."""
        if why.key not in self._skipped:
            self._skipped.add(why.key)
            self._read_anew = True
            self._sink.camera_status(CameraStatus(self._state, unreadable_why=why))

    def _set_state(self, state: CameraState, why: CameraError | None = None, *,
                   since: float | None = None) -> None:
        """Tell the sink of a new state, or of a new reason for it (the camera out another
        way, or with other values: the host sees what to mend now); the same again is not
        told; ``since``: see :attr:`CameraStatus.since`. A camera out ends a run of pictures
        that cannot be read: the first once it is back is told."""
        reason = None if why is None else (why.key, why.params)
        if (state, reason) != (self._state, self._reason):
            self._state, self._reason = state, reason
            if state == "out":
                self._skipped.clear()
                self._answered = False
            self._sink.camera_status(CameraStatus(state, why, since=since))


def _jpeg(image: NDArray[np.uint8]) -> bytes:
    """The frame as a JPEG at most PICTURE_WIDTH wide."""
    height, width = image.shape[:2]
    if width > PICTURE_WIDTH:
        size = (PICTURE_WIDTH, round(height * PICTURE_WIDTH / width))
        image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, PICTURE_QUALITY])
    if not ok:
        raise UnreadableImage("the frame could not be encoded as JPEG")
    return bytes(data.tobytes())
