"""The table session: the one owner of the game in progress.

Phones, the camera and the buttons never touch the engine: they hand their change to the
session, whose single worker thread checks it with the engine, journals it, and only then
publishes the new :class:`Snapshot`. A change names the state version it was made from; a
stale one is refused with the current state (:class:`StaleVersion`), never applied twice.

>>> import tempfile, pathlib
>>> from device.journal import Journal
>>> session = TableSession(Journal(pathlib.Path(tempfile.mkdtemp()) / "table.db"))
>>> session.start()
>>> snap = session.new_game({"game": "dalek", "players": ["Ana", "Ben"]}, base_version=0)
>>> snap = session.act({"roll": ["H4"] * 9 + ["D3"]}, base_version=snap.version, source="phone")
>>> snap.view["expects"]
['keep']
>>> session.act({"keep": ["D3"]}, base_version=1, source="phone")
Traceback (most recent call last):
...
device.session.StaleVersion: the table changed meanwhile (version 2, not 1)
>>> session.stop()
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from device.camera_answers import answer_question
from device.camera_desk import CameraDesk, Held
from device.journal import Journal, Source, StoredGame
from device.live import CameraState, CameraStatus, Seen
from device.notice import Notice
from device.recorder import Recorder
from device.table_reads import Apply, Ask, Decision, Hold, Note, reads_for, still_told
from engine import Game, IllegalAction, NameRules, RecordError
from engine.errors import Refusal
from engine.record import replay
from vision.observation import Observation
from vision.sheet_seen import DalekObservation, DicyObservation, SeventeenObservation

if TYPE_CHECKING:  # onnxruntime loads only for a table with a camera
    from device.teacher import Teacher

_log = logging.getLogger("dicetable")

T = TypeVar("T")
HINTS_SETTING = "hints"
CHANGES_KEPT = 64  # how many of the last changes the session knows the makers of
STOP_WAITS_S = 3.0
"""The longest a stop waits for the camera's read of a table that moved (the dice the player
just set aside): the rest's stillness and its reads, on a Raspberry Pi too."""
TEACH_STEPS = ("start", "photo", "undo", "next", "check", "save", "cancel")  # what `teach` takes


class SessionError(Refusal, ValueError):
    """A change that makes no sense for the table as it is (e.g. an action with no game); a
    template and its params, like the engine's refusals."""


class StaleVersion(Exception):
    """A change made from an older state than the current one; carries the current state and
    ``by``, who made every change since (a phone, the camera, a button), None when not known
    or not one of them."""

    def __init__(self, base_version: int, current: Snapshot, by: Source | None = None) -> None:
        super().__init__(f"the table changed meanwhile (version {current.version}, "
                         f"not {base_version})")
        self.current = current
        self.by = by


@dataclass(frozen=True)
class Snapshot:
    """The table as every phone sees it at one version."""

    version: int
    game_id: int | None = None
    header: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    hints: dict[str, Any] | None = None
    hints_on: bool = True
    live: int = 0
    """Grows with every snapshot, journalled or not (the camera's news is not journalled)."""
    run: str = ""
    """Which start of the table made it: ``live`` grows within one run only (a Pi's clock may
    start behind after a power cut), so a phone takes a state of another run as newer."""
    camera: dict[str, Any] | None = None
    """The camera part of the state (:meth:`device.camera_desk.CameraDesk.to_json`); None
    when the table has no camera."""
    buttons: dict[str, Any] | None = None
    """The buttons' latest news (:mod:`device.buttons`); None when there is none."""
    notices_version: int = 0
    """Grows within a run each time the host's notices change (one told, all read:
    :meth:`TableSession.notices_changed`): a phone that sees it move, or another ``run``,
    asks for them again."""

    def to_json(self) -> dict[str, Any]:
        """The snapshot as a JSON object."""
        return {"version": self.version, "live": self.live, "run": self.run,
                "game_id": self.game_id,
                "header": self.header, "view": self.view, "hints": self.hints,
                "hints_on": self.hints_on, "camera": self.camera, "buttons": self.buttons,
                "notices_version": self.notices_version}


class TableSession:
    """Owns the game in progress; its changes run one at a time on one worker thread."""

    def __init__(self, journal: Journal, *, recording: Path | None = None,
                 stop_waits_s: float = STOP_WAITS_S) -> None:
        self.journal = journal
        self._stop_waits_s = stop_waits_s
        self._worker: ThreadPoolExecutor | None = None
        self._worker_thread: threading.Thread | None = None
        self._changed = threading.Condition()
        self._game: Game | None = None
        self._game_id: int | None = None
        self._live = 0
        self._run_token = secrets.token_hex(4)
        self._snapshot = Snapshot(0, live=self._live, run=self._run_token)
        self._desk: CameraDesk | None = None
        self._stirred = False  # the camera saw the table move since its last read (gone out
        # since or not: that read is stale all the same)
        self._held_until = 0.0  # when the rest the camera holds is read at the earliest
        self._outages = 0  # how many times the camera went out (a read awaited never comes)
        self._made_by: dict[int, Source] = {}  # who made each of the last moves (by version)
        self._news: dict[str, Any] | None = None
        self._notices_version = 0
        self._wins: tuple[int, dict[str, int]] | None = None
        self.on_recalibrate: Callable[[], None] | None = None
        """Asks the camera to calibrate the table anew (set by the camera's wiring)."""
        self.look_now: Callable[[float], bool] | None = None
        """Asks a camera that looks at the table only now and then (a folder a camera saves its
        pictures into, looked at once a second) to look now, waiting up to the seconds given
        until it did and told any move (:meth:`camera_moved`); False when it could not (set
        by the camera's wiring)."""
        self.teacher: Teacher | None = None
        """Teach mode for this table's camera (set by the camera's wiring)."""
        self._recorder = None if recording is None else Recorder(
            recording, lambda game_id: self.record(game_id)[1:] if self.journal.game(
                game_id) is not None else None)
        """Keeps the frames the camera's reads became actions on (``recording``, a folder)."""
        self.notice: Notice | None = None
        """Set at start when the journalled game did not replay whole (say it to the host)."""

    def start(self) -> None:
        """Resume the game in progress from the journal and start the worker thread."""
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-session",
                                          initializer=self._mark_worker)
        self._run(self._resume)

    def _mark_worker(self) -> None:
        self._worker_thread = threading.current_thread()

    def stop(self) -> None:
        """Finish the queued changes and stop the worker thread."""
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None
        with self._changed:
            self._changed.notify_all()

    def snapshot(self) -> Snapshot:
        """The current state of the table (any thread)."""
        return self._snapshot

    # Changes: each runs on the worker thread and returns the new snapshot.

    def new_game(self, header: dict[str, Any], *, base_version: int,
                 abandon_current: bool = False) -> Snapshot:
        """Start a new game; refused while another one is still being played, unless
        ``abandon_current``: that game is then abandoned, only if the new one is taken."""
        return self._run(lambda: self._new_game(header, base_version, abandon_current))

    def act(self, line: dict[str, Any], *, base_version: int, source: Source,
            waiting: Callable[[], None] | None = None) -> Snapshot:
        """Apply one record line (an action or ``{"undo": {}}``) to the game in progress.

        A Dalek stop while the camera reads a table that just moved first waits for that read
        (``stop_waits_s`` at most once the camera looked; ``waiting`` is called as it starts
        to wait): the dice the player set aside before stopping are the keep. A stop is
        refused while the camera's last read does not show that keep surely (a die it is not
        sure of, a frame it could only note), or where the camera is out, or went out as it
        waited, before it read the table that moved (its read before is stale)."""
        if "stop" in line:
            self._await_read_of_keep(waiting)
        return self._run(lambda: self._act(line, base_version, source))

    def correct(self, index: int, line: dict[str, Any], *, base_version: int,
                source: Source = "phone") -> Snapshot:
        """Replace standing action ``index`` (0-based) and replay the rest after it."""
        return self.revise({index: line}, base_version=base_version, source=source)

    def revise(self, changes: dict[int, dict[str, Any]], *, base_version: int,
               drop_from: int | None = None, source: Source = "phone") -> Snapshot:
        """Replace several standing actions (``{index: line}``, 0-based), drop those from
        ``drop_from`` on, and replay the rest: a correction and the later actions it made
        illegal, fixed in turn or dropped."""
        return self._run(lambda: self._revise(changes, drop_from, base_version, source))

    def abandon(self, *, base_version: int) -> Snapshot:
        """Abandon the current game (its journal stays); the table is then free."""
        return self._run(lambda: self._abandon(base_version))

    def resume(self, game_id: int, *, base_version: int) -> Snapshot:
        """Take abandoned game ``game_id`` up again: its standing actions go on as a new game
        of the journal (the old one stays); refused while a game is being played."""
        return self._run(lambda: self._resume_game(game_id, base_version))

    def set_hints(self, on: bool, *, base_version: int) -> Snapshot:
        """Switch the engine's hints on or off for the whole table."""
        return self._run(lambda: self._set_hints(on, base_version))

    # The camera: news from the live loop's thread, answers from the phones.

    def watch_camera(self, *, plays_recording: bool = False) -> None:
        """The table has a camera (``plays_recording``: it plays a recording, which waits
        for a game, see :meth:`recording_waits`): its part of the state is shown from now on."""
        self._run(lambda: self._watch_camera(plays_recording))

    def camera_seen(self, seen: Seen) -> None:
        """A read of the camera that stands (from the live loop; waits until it is taken)."""
        self._run(lambda: self._camera_seen(seen))
        with self._changed:
            self._stirred, self._held_until = False, 0.0
            self._changed.notify_all()

    def camera_moved(self) -> None:
        """Something moved in the camera's view: a read follows once the table is still, and
        a rest the camera held is over (from the live loop; returns at once)."""
        with self._changed:
            self._stirred, self._held_until = True, 0.0

    def camera_holds(self, seconds: float) -> None:
        """The table is still, but the camera reads it only once what lies over the sheet's
        edge leaves, ``seconds`` at most (a hand): a stop waiting for that read waits that much
        longer (from the live loop; returns at once)."""
        with self._changed:
            self._stirred, self._held_until = True, time.monotonic() + seconds
            self._changed.notify_all()

    def camera_reaching(self) -> None:
        """What the camera's read waits to leave the sheet's edge has not left: the phones ask
        for hands off the table (from the live loop; returns at once)."""
        self.call_soon(self._camera_reaching)

    def recording_waits(self) -> bool:
        """Whether a recording the camera plays waits now, holding its picture (any thread):
        between games, so that no move of the recording is lost before the game is set up,
        unless the camera is being taught."""
        view = self._snapshot.view
        return (view is None or view["over"]) and not (
            self.teacher is not None and self.teacher.teaching)

    def camera_status(self, status: CameraStatus) -> None:
        """The camera's state changed, or a frame could not be read (from the live loop)."""
        self._run(lambda: self._camera_status(status))
        if status.state in ("out", "ended"):  # no read is coming
            with self._changed:
                self._outages += 1
                self._changed.notify_all()

    def answer(self, question: int, reply: dict[str, Any], *, base_version: int) -> Snapshot:
        """A phone's answer to the camera's question number ``question`` (see
        :meth:`device.camera_answers.CameraAnswers`)."""
        return self._run(lambda: self._answer(question, reply, base_version))

    # The buttons' news and the watchdog's probe.

    def tell_buttons(self, news: dict[str, Any] | None) -> Snapshot:
        """Show the buttons' ``news`` to the phones (a refused press and why, a shout, the
        PIN); None clears it. The game does not change."""
        return self._run(lambda: self._publish_news(news))

    def notices_changed(self) -> None:
        """The host's notices changed (one was told, or the host read them): the phones are
        told to ask for them again (the snapshot's ``notices_version`` grows), before this
        returns; told by the worker itself (a write of its own found the card full), right
        after its change. The game does not change."""
        if threading.current_thread() is self._worker_thread:
            self.call_soon(self._publish_notices)
        else:
            self._run(self._publish_notices)

    def call_soon(self, call: Callable[[], object]) -> None:
        """Queue ``call`` on the worker without waiting (the watchdog's probe: it runs only
        when the worker is not stuck)."""
        if self._worker is not None:
            self._worker.submit(call)

    def recalibrate(self, *, base_version: int) -> Snapshot:
        """Calibrate the table anew from the camera's next still frame (one tap on a phone)."""
        return self._run(lambda: self._recalibrate(base_version))

    def teach(self, do: str, kind: str | None = None, *, base_version: int,
              pictures: bool = False) -> Snapshot:
        """One step of teach mode (:class:`device.teacher.Teacher`): ``start`` teaching
        ``kind``, take a ``photo`` of the step asked for (``pictures``: of d6 dice with
        pictures, kept though their pips look like another number), ``undo`` the step's last
        photo, go on to the ``next`` step, ``check`` on a fresh photo, ``save`` or ``cancel``.
        Photos are the camera's last frame (refused where a picture it sent since could not
        be read); a refused step changes nothing (a doubted d6 photo is held for ``pictures``,
        its question published to every phone). A photo and the check are worked out on the
        calling thread, not the worker: the table's other changes go on meanwhile."""
        if do not in TEACH_STEPS:
            raise ValueError(f"no teach step {do!r}: one of {', '.join(TEACH_STEPS)}")
        if do not in ("photo", "check"):
            return self._run(lambda: self._teach(do, kind, base_version))
        teacher, seen, number, unread = self._run(lambda: self._teach_frame(base_version))
        frame = None if seen is None else seen.frame
        if do == "photo":
            try:
                teacher.photo(frame, number, pictures=pictures, unread=unread,
                              shown=b"" if seen is None else seen.picture)
            except Refusal as refused:
                from device.teacher import DoubtedPhoto  # loaded with the teacher
                if isinstance(refused, DoubtedPhoto):  # held: its question goes to every phone
                    self._publish_doubt()
                raise
        else:
            teacher.check(frame, number, unread=unread)
        return self._run(self._publish_camera)

    def _publish_doubt(self) -> None:
        """Show every phone the doubted teach photo's question; a failure is logged, the
        refusal still told to the phone that took it."""
        try:
            self._run(self._publish_camera)
        except Exception:
            _log.exception("the doubted teach photo's question was not shown to the phones")

    def teach_news(self) -> None:
        """The taught profiles changed from outside (``dicetable teach --import``): show it."""
        self._run(lambda: self._publish_camera() if self._desk is not None else None)

    def taught_profile(self, kind: str) -> Path | None:
        """The file of this table's taught profile of ``kind``, if it has one (any thread)."""
        return None if self.teacher is None else self.teacher.saved(kind)

    def teach_doubted_picture(self) -> bytes | None:
        """The JPEG of the doubted teach photo held for the players' answer (any thread)."""
        return None if self.teacher is None else self.teacher.doubted_picture()

    def camera_picture(self) -> tuple[int, bytes] | None:
        """The number and JPEG of the picture of the camera's last read (any thread)."""
        desk = self._desk
        seen = None if desk is None else desk.seen
        return None if desk is None or seen is None else (desk.pictures, seen.picture)

    # Reads (any thread).

    def history(self) -> list[dict[str, Any]]:
        """Finished games, newest first."""
        return self.journal.history()

    def player_wins(self) -> dict[str, int]:
        """Each player's wins over the finished games (counted once per version of the table,
        not for each phone's look at an ended game)."""
        version = self._snapshot.version
        counted = self._wins
        if counted is None or counted[0] != version:
            counted = self._wins = (version, self.journal.player_wins())
        return dict(counted[1])

    def standing(self) -> tuple[Snapshot, Game | None]:
        """The current snapshot and the game it shows (None: none is being played), taken
        together (a game is immutable: the pages read it without replaying the journal)."""
        with self._changed:
            return self._snapshot, self._game

    def record(self, game_id: int) -> list[dict[str, Any]]:
        """The record of game ``game_id``: header and standing actions."""
        return self.game(game_id).record()

    def taken_up(self, game_id: int, game: Game) -> bool:
        """True if abandoned game ``game_id`` (``game``, replayed) was taken up again."""
        return self.journal.taken_up(game_id, game.record())

    def game(self, game_id: int) -> Game:
        """Game ``game_id`` of the journal, replayed (SessionError if there is none;
        RecordError if it does not replay)."""
        stored = self.journal.game(game_id)
        if stored is None:
            raise SessionError("there is no game {game}", game=game_id)
        return _replay_stored(stored)

    def wait_for_change(self, seen_live: int, timeout: float) -> Snapshot | None:
        """The current snapshot once it is another than the one whose ``live`` counter is
        ``seen_live``; None if none came within ``timeout`` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot.live != seen_live, timeout)
            snapshot = self._snapshot
        return None if snapshot.live == seen_live else snapshot

    @contextmanager
    def subscribe(self) -> Iterator[Subscription]:
        """Live updates for one stream: ``get(timeout)`` returns each newer snapshot."""
        yield Subscription(self)

    # The worker side.

    def _run(self, change: Callable[[], T]) -> T:
        if self._worker is None:
            raise SessionError("the table session is not running")
        return self._worker.submit(change).result()

    def _resume(self) -> None:
        stored = self.journal.latest_game()
        if stored is None:
            self._publish(self.journal.version(), None, None)
            return
        try:
            game = _replay_stored(stored)
        except RecordError as err:
            self._resume_before(stored, err)
            return
        self._publish(self.journal.version(), game, stored.id)

    def _resume_before(self, stored: StoredGame, err: RecordError) -> None:
        """Go on from the last journalled line that replays (e.g. after an update changed a
        rule); the whole game stays in the journal, marked abandoned, and the host is told."""
        lines = (stored.header, *stored.lines)
        good = err.line - 1
        if good == 0:
            version = self.journal.abandon(stored.id)
            self.notice = Notice("notice.game_not_resumed", {"reason": err.reason})
            self._publish(version, None, None)
            return
        game = replay(enumerate(lines[:good], start=1), names=NameRules.JOURNAL)
        game_id, version = self.journal.continue_as_new(stored.id, game.record())
        # the move as the game counts them (the journal's lines hold undos and corrections too)
        self.notice = Notice("notice.game_goes_on", {"move": len(game.actions) + 1,
                                                      "reason": err.reason})
        self._publish(version, game, game_id)

    def _new_game(self, header: dict[str, Any], base_version: int,
                  abandon_current: bool) -> Snapshot:
        self._check_version(base_version)
        playing = self._game is not None and not self._game.over
        if playing and not abandon_current:
            raise SessionError("a game is being played; finish or abandon it first")
        game = Game.start(header)
        game_id, version = self.journal.start_game(
            game.record()[0], abandoning=self._game_id if playing else None)
        if self.teacher is not None:
            self.teacher.cancel()  # the camera reads the game now, not photos to teach
        return self._publish(version, game, game_id)

    def _await_read_of_keep(self, waiting: Callable[[], None] | None) -> None:
        """Before a stop: while the camera waits to journal a keep, have it look at the table
        now where it looks only now and then (:attr:`look_now`), and while the table moved
        since its last read (the player set dice aside), wait for the read of the table at
        rest; ``waiting`` is called as the stop starts to wait. The look takes up to
        ``stop_waits_s`` (a folder may play pictures saved up to 2 s before the press), and
        the read then has its own ``stop_waits_s``: the time for the player's hands to leave
        the table counts from when the camera sees it as it lay at the press, or from the
        end of a rest it holds meanwhile (a hand left over the sheet's edge). SessionError
        when that read does not come in time (the table still moving), or the camera is out,
        or goes out, before it comes. Runs on the caller's thread: the read is taken on the
        worker meanwhile."""
        state, stirred, outages = self._run(self._keep_waits)
        if state is None:
            return
        if stirred and state in ("out", "ended"):
            raise _camera_went_out()
        look = self.look_now if state == "ok" else None
        if not stirred and look is None:
            return
        if waiting is not None:
            waiting()
        if look is not None:
            look(self._stop_waits_s)  # the camera heard of any move before it returns
        self._wait_for_read(outages)

    def _wait_for_read(self, outages: int) -> None:
        """Wait until the camera read the table, within ``stop_waits_s`` from now or, where it
        holds a rest meanwhile (:meth:`camera_holds`), within ``stop_waits_s`` of the end of
        that hold (the first one: a hand that moves on is not waited for again); SessionError
        when it does not, or the camera went out since it had gone out ``outages`` times (its
        read before is stale)."""
        deadline = time.monotonic() + self._stop_waits_s
        held = False
        with self._changed:
            while self._stirred and self._outages == outages:
                if not held and self._held_until > time.monotonic():
                    deadline = max(deadline, self._held_until + self._stop_waits_s)
                    held = True
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SessionError("the camera still sees movement over the table; take "
                                       "your hands off it and stop again, or enter your keep "
                                       "on the phone")
                self._changed.wait(left)
            if self._outages != outages:
                raise _camera_went_out()

    def _keep_waits(self) -> tuple[CameraState | None, bool, int]:
        """The camera's state where it waits to journal a keep (None where it does not),
        whether it saw the table move since its last read, and how many times it went out
        so far."""
        desk, game = self._desk, self._game
        with self._changed:
            if desk is None or desk.reads is None or game is None \
                    or desk.reads.pending(game) is None:
                return None, False, self._outages
            return desk.status.state, self._stirred, self._outages

    def _act(self, line: dict[str, Any], base_version: int, source: Source) -> Snapshot:
        game = self._current_game(base_version)
        desk = self._desk
        waiting = None if desk is None or desk.reads is None else desk.reads.pending(game)
        if waiting is not None and "stop" in line and desk is not None \
                and desk.seen is not None:
            assert desk.reads is not None
            # the keep the camera's latest read shows comes first, where it is sure of the
            # kept dice (that read may be only a note: a die left to roll unsure, dice picked
            # up to roll again); the last read it took may be from before they were set aside
            shown = desk.reads.shows(desk.seen.observation, game)
            if shown is None:
                raise SessionError("the camera could not read the dice you set aside; lay "
                                   "them in the kept areas in its view and stop again, or enter "
                                   "your keep on the phone")
            self._play_seen(shown, desk.seen)
            assert self._game is not None
            game = self._game
        return self._play(game, line, source)

    def _play(self, game: Game, line: dict[str, Any], source: Source) -> Snapshot:
        after = game.play_json(line)
        journalled = line if "undo" in line else after.record()[-1]
        return self._journal(after, [journalled], source)

    def _revise(self, changes: dict[int, dict[str, Any]], drop_from: int | None,
                base_version: int, source: Source) -> Snapshot:
        game = self._current_game(base_version)
        after = game.revised({i: game.parse(line) for i, line in changes.items()}, drop_from)
        # The journal only takes record lines: undo back to the first change, then replay.
        first = min([*changes, len(game.actions) if drop_from is None else drop_from])
        undos: list[dict[str, Any]] = [{"undo": {}}] * (len(game.actions) - first)
        lines = undos + after.record()[first + 1:]
        return self._journal(after, lines, source)

    def _resume_game(self, game_id: int, base_version: int) -> Snapshot:
        self._check_version(base_version)
        if self._game is not None and not self._game.over:
            raise SessionError("a game is being played; finish or abandon it first")
        stored = self.journal.game(game_id)
        if stored is None:
            raise SessionError("there is no game {game}", game=game_id)
        if stored.status != "abandoned":
            raise SessionError("game {game} was not abandoned; only an abandoned game is "
                               "resumed", game=game_id)
        game = _replay_stored(stored)
        if self.taken_up(stored.id, game):
            raise SessionError("game {game} was taken up again already; it goes on as a later "
                               "game", game=game_id)
        new_id, version = self.journal.continue_as_new(stored.id, game.record())
        return self._publish(version, game, new_id)

    def _abandon(self, base_version: int) -> Snapshot:
        self._check_version(base_version)
        if self._game_id is None:
            raise SessionError("there is no game to abandon")
        if self._game is not None and self._game.over:
            raise SessionError("the game is over; its result is kept under Finished games")
        return self._publish(self.journal.abandon(self._game_id), None, None)

    def _watch_camera(self, plays_recording: bool) -> None:
        self._desk = CameraDesk(plays_recording)
        self._publish_camera()

    def _camera_status(self, status: CameraStatus) -> None:
        desk = self._desk
        if desk is None:
            return
        if status.unreadable_why is not None:
            desk.unreadable = status.unreadable_why
        elif status.reads_again:
            desk.unreadable = None
        else:
            desk.status = status
            desk.reaching = desk.reaching and status.state == "ok"
        self._publish_camera()

    def _camera_reaching(self) -> None:
        if self._desk is not None:
            self._desk.reaching = True
            self._publish_camera()

    def _camera_seen(self, seen: Seen) -> None:
        desk = self._desk
        if desk is None:
            return
        before = desk.seen
        desk.show(seen)
        desk.unreadable = None
        game, game_id = self._game, self._game_id
        if desk.plays_recording and self.recording_waits():
            desk.tell(Note("camera.waits"))
        elif game is None or game_id is None:
            desk.tell(Note("camera.no_game"))
        else:
            if desk.reads is None or desk.reads_game != game_id:
                desk.reads, desk.reads_game = reads_for(game), game_id
                if before is not None:  # what lay on the table as the game was set up (a
                    # phone may have played since: the camera has not seen it on the table)
                    fresh = Game.start(game.header, names=NameRules.JOURNAL)
                    desk.reads.remember(before.observation, fresh)
            decision = desk.reads.decide(seen.observation, game, as_found=seen.as_found)
            # A values question keeps the last read, and so does a frame the camera can only
            # note (bumped, a hand or a stray picture, dice missing): what the next read is
            # compared with stays the table as the players left it.
            if not isinstance(decision, Note) and not (isinstance(decision, Ask)
                                                       and decision.kind == "values"):
                desk.reads.remember(seen.observation, game)
            if self._take(decision, seen) is not None:
                return
        self._publish_camera()

    def _take(self, decision: Decision, seen: Seen) -> Snapshot | None:
        """Act on the camera's decision; the new snapshot when it was journalled."""
        desk = self._desk
        assert desk is not None and self._game is not None
        if decision is None or isinstance(decision, Apply):
            desk.passed(still_told(seen.observation, self._game))
        if isinstance(decision, Apply):
            played = self._play_seen(decision.line, seen)
            if played is not None and decision.then is not None:
                return self._play_seen(decision.then, seen) or played
            return played
        if isinstance(decision, Ask):
            desk.ask(decision, seen)
        elif isinstance(decision, Hold):
            desk.held = Held(decision, seen)
            desk.tell(Note("camera.held", {"player": decision.player}))
        elif isinstance(decision, Note):
            desk.tell(decision)
        return None

    def _play_seen(self, line: dict[str, Any], seen: Seen) -> Snapshot | None:
        """Journal ``line`` read by the camera and keep its frame; a line the rules refuse
        becomes a question instead (nothing is applied)."""
        desk = self._desk
        assert desk is not None and self._game is not None and self._game_id is not None
        try:
            snapshot = self._play(self._game, line, "camera")
        except IllegalAction as err:
            player = self._game.view()["turn"]
            desk.ask(Ask("correct", player, line, tuple(d.value for d in seen.observation.dice),
                         reason=err), seen)
            return None
        if desk.reads is not None:
            desk.reads.remember(seen.observation, self._game)
        if self._recorder is not None:
            self._recorder.keep(seen, self._game_id, len(self._game.actions) - 1,
                                self._game.record()[1:])
        return snapshot

    def _answer(self, number: int, reply: dict[str, Any], base_version: int) -> Snapshot:
        self._check_version(base_version)
        desk = self._desk
        question = None if desk is None else desk.question
        if desk is None or question is None or question.id != number \
                or self._game is None or desk.reads is None:
            raise SessionError("this question of the camera was already answered")
        decision, seen = answer_question(question, reply, self._game, desk.reads)
        desk.question = None
        desk.reads.remember(seen.observation, self._game)
        snapshot = self._take(decision, seen)
        for version in range(base_version + 1, self._snapshot.version + 1):
            self._made_by[version] = "phone"  # journalled as the camera's read, on a phone's word
        return snapshot or self._publish_camera()


    def _recalibrate(self, base_version: int) -> Snapshot:
        self._check_version(base_version)
        if self._desk is None or self.on_recalibrate is None:
            raise SessionError("this table has no camera to calibrate")
        self.on_recalibrate()
        self._desk.tell(Note("camera.recalibrating"))
        return self._publish_camera()

    def _teach(self, do: str, kind: str | None, base_version: int) -> Snapshot:
        self._check_version(base_version)
        teacher, desk = self.teacher, self._desk
        if desk is None or teacher is None:
            raise SessionError("this table has no camera to teach")
        if do == "start":
            if self._game is not None and not self._game.over:
                raise SessionError("a game is being played; finish or abandon it first")
            teacher.start(kind or "")
        elif do == "undo":
            teacher.undo()
        elif do == "next":
            teacher.next()
        elif do == "save":
            teacher.save()
        elif do == "cancel":
            teacher.cancel()
        return self._publish_camera()

    def _teach_frame(self, base_version: int) -> tuple[Teacher, Seen | None, int, bool]:
        """The teacher, the camera's last read and its picture's number, and whether a
        picture the camera sent since could not be read."""
        self._check_version(base_version)
        teacher, desk = self.teacher, self._desk
        if desk is None or teacher is None:
            raise SessionError("this table has no camera to teach")
        return teacher, desk.seen, desk.pictures, desk.unreadable is not None

    def _set_hints(self, on: bool, base_version: int) -> Snapshot:
        self._check_version(base_version)
        version = self.journal.set_setting(HINTS_SETTING, "on" if on else "off", change="hints")
        return self._publish(version, self._game, self._game_id)

    def _current_game(self, base_version: int) -> Game:
        self._check_version(base_version)
        if self._game is None:
            raise SessionError("no game is being played; set one up first")
        return self._game

    def _check_version(self, base_version: int) -> None:
        if base_version != self._snapshot.version:
            since = range(base_version + 1, self._snapshot.version + 1)
            makers = {self._made_by.get(version) for version in since} \
                if len(since) <= CHANGES_KEPT else set()
            by = makers.pop() if len(makers) == 1 else None
            raise StaleVersion(base_version, self._snapshot, by)

    def _journal(self, game: Game, lines: list[dict[str, Any]], source: Source) -> Snapshot:
        assert self._game_id is not None
        winners = list(game.view()["winners"]) if game.over else None
        version = self.journal.append(self._game_id, lines, source=source, winners=winners)
        self._made_by[version] = source
        for old in [v for v in self._made_by if v <= version - CHANGES_KEPT]:
            del self._made_by[old]
        desk = self._desk
        if desk is not None:
            desk.question = None  # the change answers the camera's question, or outdates it
            if game.over and desk.held is not None:  # a roll for a game that has ended
                desk.held, desk.note = None, None
        if self._recorder is not None and self._game_id in self._recorder.games:
            self._recorder.relabel(self._game_id, game.record()[1:])
        snapshot = self._publish(version, game, self._game_id)
        if desk is not None and desk.held is not None and "roll" in game.view()["expects"]:
            held, desk.held = desk.held, None  # the roll seen early is expected now
            desk.tell(None)
            return self._play_seen(held.hold.line, held.seen) or self._publish_camera()
        return snapshot

    def _publish(self, version: int, game: Game | None, game_id: int | None) -> Snapshot:
        hints_on = self.journal.setting(HINTS_SETTING) != "off"
        if game_id != self._game_id and self._desk is not None:
            self._desk.forget_game()
        self._live += 1
        snapshot = Snapshot(
            version=version,
            game_id=game_id,
            header=None if game is None else dict(game.header),
            view=None if game is None else game.view(),
            hints=game.hints() if game is not None and hints_on else None,
            hints_on=hints_on,
            live=self._live,
            run=self._run_token,
            camera=self._camera_json(),
            buttons=self._news,
            notices_version=self._notices_version,
        )
        with self._changed:
            self._game, self._game_id, self._snapshot = game, game_id, snapshot
            self._changed.notify_all()
        return snapshot

    def _camera_json(self) -> dict[str, Any] | None:
        """The camera part of the state, with teach mode's when the camera can be taught."""
        if self._desk is None:
            return None
        teach = None if self.teacher is None else self.teacher.to_json(self._table_game())
        return {**self._desk.to_json(), "teach": teach}

    def _table_game(self) -> str | None:
        """The game on the table: the one set up, else the one whose sheet the camera sees."""
        if self._game is not None:
            return str(self._game.header["game"])
        seen = None if self._desk is None else self._desk.seen
        return None if seen is None else seen_game(seen.observation)

    def _publish_news(self, news: dict[str, Any] | None) -> Snapshot:
        self._news = news
        return self._publish_part(buttons=news)

    def _publish_camera(self) -> Snapshot:
        """Publish news of the camera alone (the game did not change)."""
        assert self._desk is not None
        return self._publish_part(camera=self._camera_json())

    def _publish_notices(self) -> Snapshot:
        self._notices_version += 1
        return self._publish_part(notices_version=self._notices_version)

    def _publish_part(self, **part: Any) -> Snapshot:
        """Publish the current snapshot with ``part`` (a field beside the game) changed."""
        self._live += 1
        snapshot = replace(self._snapshot, live=self._live, **part)
        with self._changed:
            self._snapshot = snapshot
            self._changed.notify_all()
        return snapshot


class Subscription:
    """One live stream's view of the session: each call to ``get`` waits for news."""

    def __init__(self, session: TableSession) -> None:
        self._session = session
        self._seen = -1

    def get(self, timeout: float) -> Snapshot | None:
        """The newest snapshot not yet returned, waiting up to ``timeout`` s; None if none."""
        snapshot = self._session.wait_for_change(self._seen, timeout)
        if snapshot is not None:
            self._seen = snapshot.live
        return snapshot


def seen_game(observation: Observation) -> str | None:
    """The game whose sheet the camera read (None: no sheet)."""
    games = {DalekObservation: "dalek", DicyObservation: "dicy", SeventeenObservation: "17"}
    return games.get(type(observation.table)) if observation.table is not None else None


def _replay_stored(stored: StoredGame) -> Game:
    """The stored game replayed; RecordError at its first line that does not replay or that
    the disk garbled."""
    if stored.damage is not None and stored.damage.line == 1:
        raise stored.damage
    lines: tuple[dict[str, Any], ...] = (stored.header, *stored.lines)
    game = replay(enumerate(lines, start=1), names=NameRules.JOURNAL)
    if stored.damage is not None:
        raise stored.damage
    return game


def _camera_went_out() -> SessionError:
    """A stop refused: the camera went out after the table moved, before it read it."""
    return SessionError("the camera went out before it read the dice you set aside; enter "
                        "your keep on the phone, or stop again once the camera is back")
