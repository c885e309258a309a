"""Wiring the camera to the table: the source, the reader, the live loop, and for the demo
its film and scripted player. ``dicetable serve`` and the live benchmark build it the same
way, so the demo is no special path: the same loop, reader and session as a real camera.

The reader is a :class:`vision.sheet_observer.SheetObserver`: with the table's calibration
(kept in the state folder, made anew from the camera when there is none or on a phone's
request) it reads the game's sheet; without a sheet in view it reads the ordinary dice
anywhere, as the demo's film needs. Profiles taught for this table (``STATE/profiles``)
replace the shipped look of dice and cards.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from device import calibration_store
from device.camera import (
    CameraError,
    FrameSource,
    ShownMemory,
    open_source,
    parse_source,
)
from device.demo_film import read_plan, write_film
from device.demo_plan import Plan, plan_game
from device.live import CameraStatus, LiveLoop, Seen
from device.scripted_player import ScriptedPlayer
from device.session import TableSession
from vision.calibrate import Calibration
from vision.errors import VisionError
from vision.profile import Profile

if TYPE_CHECKING:
    from device.teacher import ProfileWatch

DEMO_SEED = 1
FOLDER_CAMERA_FILE = "camera-folder.txt"
"""In the state folder: the folders of pictures and video files the table's camera showed
it, one a line (opened again, each starts from its newest picture)."""


@dataclass
class Camera:
    """The running camera side of a table: its loop and, for the demo, its player."""

    loop: LiveLoop
    player: ScriptedPlayer | None = None
    profiles: ProfileWatch | None = None
    """Takes up profiles imported while the table serves."""

    def start(self) -> None:
        """Start watching (and playing the demo's phone)."""
        self.loop.start()
        if self.player is not None:
            self.player.start()
        if self.profiles is not None:
            self.profiles.start()

    def stop(self) -> None:
        """Stop them all."""
        if self.profiles is not None:
            self.profiles.stop()
        if self.player is not None:
            self.player.stop()
        self.loop.stop()


class HostLog:
    """Hands the loop's news to the session, and tells the host when the camera goes out
    (and why, each new reason), comes back or ends, and when it skips a picture it cannot
    read (the loop tells each reason once: the first picture of a run of it). With
    ``only_game`` (the demo's header), reads reach the session only while the table is free or
    plays that game: the demo's film never rolls into a game a person set up."""

    def __init__(self, session: TableSession, out: TextIO | None = None,
                 on_ended: Callable[[], None] | None = None,
                 only_game: dict[str, Any] | None = None) -> None:
        self._session = session
        self._out = out or sys.stderr  # (as it is now: a test's capture)
        self._on_ended = on_ended
        self._only_game = only_game
        self._was = "starting"

    def camera_seen(self, seen: Seen) -> None:
        """Hand a read on."""
        if self._reads_the_game():
            self._session.camera_seen(seen)

    def camera_moved(self) -> None:
        """Hand on that something moved in view."""
        if self._reads_the_game():
            self._session.camera_moved()

    def camera_holds(self, seconds: float) -> None:
        """Hand on that the table's read is held."""
        if self._reads_the_game():
            self._session.camera_holds(seconds)

    def camera_reaching(self) -> None:
        """Hand on that it is held still."""
        if self._reads_the_game():
            self._session.camera_reaching()

    def _reads_the_game(self) -> bool:
        """Whether the camera's news is for the game on the table (the demo's film is not,
        for a game a person set up)."""
        if self._only_game is None:
            return True
        table = self._session.snapshot()
        return table.view is None or table.header == self._only_game

    def camera_status(self, status: CameraStatus) -> None:
        """Log the news and hand it on."""
        if status.unreadable_why is not None:
            print(f"dicetable: skipping a picture from the camera: {status.unreadable_why}",
                  file=self._out, flush=True)
        else:
            if status.state == "out":
                print(f"dicetable: the camera is out ({status.why}); trying again",
                      file=self._out, flush=True)
            elif status.state == "ok" and self._was == "out":
                print("dicetable: the camera is back", file=self._out, flush=True)
            elif status.state == "ended":
                print("dicetable: the recording has ended", file=self._out, flush=True)
                if self._on_ended is not None:
                    self._on_ended()
            self._was = status.state
        self._session.camera_status(status)


def ensure_demo(folder: Path, out: TextIO | None = None) -> Plan:
    """The demo's film in ``folder``, rendered first when it is missing (seeded); said on
    ``out`` (default: the standard error as it is then)."""
    plan = read_plan(folder)
    if plan is None:
        print(f"dicetable: rendering the demo game into {folder} (once; about a minute)",
              file=out or sys.stderr, flush=True)
        plan = plan_game(DEMO_SEED)
        write_film(plan, folder, seed=DEMO_SEED)
    return plan


def camera_for(session: TableSession, *, source: str | None, fps: float | None = None,
               demo: Path | None = None, loop: bool = False, speed: float = 1.0,
               paced: bool = True, patience_s: float = 8.0, delay_s: float = 0.8,
               threads: int = 2, on_alive: Callable[[], None] | None = None,
               on_ended: Callable[[], None] | None = None,
               state: Path | None = None) -> Camera | None:
    """The camera side for ``session`` (not started): a camera or recording named by
    ``source``, or the demo's film in ``demo`` with its scripted player; None for neither.
    CameraError when ``source`` names no camera. ``fps``: a recording's frames a second
    (None: 15 for a folder, a video's own rate). ``on_alive``: the camera answered (see
    :class:`device.live.LiveLoop`); ``on_ended``: a recording played to its end; ``state``:
    the folder keeping the calibration and taught profiles (None: keep nothing)."""
    if source is None and demo is None:
        return None
    # onnxruntime loads only for a table with a camera
    from device.teacher import ProfileWatch, Teacher
    from vision.sheet_observer import SheetObserver

    player = None
    start = 0
    only_game = None
    if demo is not None:
        plan = ensure_demo(demo)
        source, fps = str(demo), plan.fps
        start = _demo_start(plan, session)
        player = ScriptedPlayer(session, plan.record, loop=loop, patience_s=patience_s / speed,
                                delay_s=delay_s / speed)
        only_game = plan.record[0]
    assert source is not None
    named = open_source(source, fps=fps, paced=paced)  # names no camera: CameraError now
    kind = parse_source(source)[0]
    if kind == "video" and not Path(source).is_file():
        raise CameraError("camera.why.no_video", path=source)  # (a camera unplugged is waited for)
    memory = None  # the demo's film and what --loop plays are played from their start
    if named.plays_recording and demo is None and not loop:
        memory = ShownMemory(Path(source), None if state is None else state / FOLDER_CAMERA_FILE)
        if memory.shown:
            newest = "its newest picture" if kind == "folder" else "its last frame"
            print(f"dicetable: {source} was shown before: playing on from {newest}; a new "
                  "recording put in its place plays from its start", file=sys.stderr,
                  flush=True)

    opens = 0

    def fresh_source() -> FrameSource:
        nonlocal opens
        at = start  # opened again (a stall): the demo's film where its game stands now, a
        if opens:  # camera from the start (a camera's folder or a video: its newest picture)
            at = _demo_start(plan, session) if demo is not None else 0
        opens += 1
        return open_source(str(source), fps=fps, paced=paced, loop=loop, start=at,
                           speed=speed, memory=memory, waits=session.recording_waits)

    def keep(found: Calibration) -> None:
        if state is None:
            return
        try:
            calibration_store.save(state, found)
        except OSError as err:  # the table reads by it all the same, until it stops
            print(f"dicetable: the calibration cannot be kept in {state}: "
                  f"{err.strerror or err}; it holds until the table stops", file=sys.stderr)

    observer = SheetObserver(None if state is None else calibration_store.load(state),
                             profiles=taught_profiles(state), threads=threads,
                             on_calibrated=keep)
    view = session.snapshot().view
    try:
        observer.ready([str(view["game"])] if view is not None else [])
    except VisionError as err:  # the live loop says so on every frame; the phones go on
        print(f"dicetable: the camera cannot read yet: {err}", file=sys.stderr)
    watch = None
    if state is not None:
        session.teacher = Teacher(state, observer.use_profile, observer.pips)
        watch = ProfileWatch(session.teacher, session.teach_news)
    session.watch_camera(plays_recording=named.plays_recording)
    live = LiveLoop(fresh_source, observer,
                    HostLog(session, on_ended=on_ended, only_game=only_game), on_alive=on_alive)

    def recalibrate() -> None:
        observer.recalibrate()
        live.look_again()

    session.on_recalibrate = recalibrate
    if memory is not None:  # a folder a camera saves into: looked at once a second
        session.look_now = live.look_now
    return Camera(live, player, watch)


def taught_profiles(state: Path | None) -> dict[str, Profile]:
    """The profiles taught for this table, kept in ``STATE/profiles`` (by kind); one that
    cannot be read is told on stderr and left out (its kind is read by its shipped look)."""
    from device.teacher import PROFILES
    from vision.profile import ProfileError, load

    folder = None if state is None else state / PROFILES
    if folder is None or not folder.is_dir():
        return {}
    found = {}
    for path in sorted(folder.glob("profile-*.npz")):
        try:
            profile = load(path)
        except ProfileError as err:
            kind = path.stem.removeprefix("profile-")
            print(f"dicetable: {err}: the camera reads {kind} by its shipped look until it "
                  "is taught again", file=sys.stderr, flush=True)
            continue
        found[profile.kind] = profile
    return found


def _demo_start(plan: Plan, session: TableSession) -> int:
    """Where the demo's film starts: where the demo game stands (after a restart), from the
    beginning for a new demo game, or on its last frame (a still table) when a person's game
    is being played, so that the film does not roll into it."""
    game = session.snapshot()
    if game.view is None or (game.view["over"] and game.header == plan.record[0]):
        return 0
    if game.header == plan.record[0]:
        return plan.resume_frame(game.view["actions"])
    return plan.still_frames()[-1]

