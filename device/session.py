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

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from device.journal import Journal, Source, StoredGame
from engine import Game, RecordError
from engine.errors import Refusal
from engine.record import replay

T = TypeVar("T")
HINTS_SETTING = "hints"


class SessionError(Refusal, ValueError):
    """A change that makes no sense for the table as it is (e.g. an action with no game); a
    template and its params, like the engine's refusals."""


class StaleVersion(Exception):
    """A change made from an older state than the current one; carries the current state."""

    def __init__(self, base_version: int, current: Snapshot) -> None:
        super().__init__(f"the table changed meanwhile (version {current.version}, "
                         f"not {base_version})")
        self.current = current


@dataclass(frozen=True)
class Snapshot:
    """The table as every phone sees it at one version."""

    version: int
    game_id: int | None = None
    header: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    hints: dict[str, Any] | None = None
    hints_on: bool = True

    def to_json(self) -> dict[str, Any]:
        """The snapshot as a JSON object."""
        return {"version": self.version, "game_id": self.game_id, "header": self.header,
                "view": self.view, "hints": self.hints, "hints_on": self.hints_on}


class TableSession:
    """Owns the game in progress; its changes run one at a time on one worker thread."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._worker: ThreadPoolExecutor | None = None
        self._changed = threading.Condition()
        self._game: Game | None = None
        self._game_id: int | None = None
        self._snapshot = Snapshot(0)
        self.notice: str | None = None
        """Set at start when the journalled game did not replay whole (say it to the host)."""

    def start(self) -> None:
        """Resume the game in progress from the journal and start the worker thread."""
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-session")
        self._run(self._resume)

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

    def new_game(self, header: dict[str, Any], *, base_version: int) -> Snapshot:
        """Start a new game; refused while another one is still being played."""
        return self._run(lambda: self._new_game(header, base_version))

    def act(self, line: dict[str, Any], *, base_version: int, source: Source) -> Snapshot:
        """Apply one record line (an action or ``{"undo": {}}``) to the game in progress."""
        return self._run(lambda: self._act(line, base_version, source))

    def correct(self, index: int, line: dict[str, Any], *, base_version: int,
                source: Source = "phone") -> Snapshot:
        """Replace standing action ``index`` (0-based) and replay the rest after it."""
        return self._run(lambda: self._correct(index, line, base_version, source))

    def abandon(self, *, base_version: int) -> Snapshot:
        """Abandon the current game (its journal stays); the table is then free."""
        return self._run(lambda: self._abandon(base_version))

    def set_hints(self, on: bool, *, base_version: int) -> Snapshot:
        """Switch the engine's hints on or off for the whole table."""
        return self._run(lambda: self._set_hints(on, base_version))

    # Reads (any thread).

    def history(self) -> list[dict[str, Any]]:
        """Finished games, newest first."""
        return self.journal.history()

    def player_wins(self) -> dict[str, int]:
        """Each player's wins over the finished games."""
        return self.journal.player_wins()

    def record(self, game_id: int) -> list[dict[str, Any]]:
        """The record of game ``game_id``: header and standing actions."""
        stored = self.journal.game(game_id)
        if stored is None:
            raise SessionError("there is no game {game}", game=game_id)
        return _replay_stored(stored).record()

    def wait_for_change(self, seen_version: int, timeout: float) -> Snapshot | None:
        """The current snapshot once its version differs from ``seen_version``; None if it
        did not change within ``timeout`` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot.version != seen_version, timeout)
            snapshot = self._snapshot
        return None if snapshot.version == seen_version else snapshot

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
            self.notice = (f"game {stored.id} could not be resumed ({err}); it stays in the "
                           "journal and the table is free")
            self._publish(version, None, None)
            return
        game = replay(enumerate(lines[:good], start=1))
        game_id, version = self.journal.continue_as_new(stored.id, game.record())
        self.notice = (f"game {stored.id} goes on as game {game_id} from before journal {err}; "
                       "the whole game stays in the journal")
        self._publish(version, game, game_id)

    def _new_game(self, header: dict[str, Any], base_version: int) -> Snapshot:
        self._check_version(base_version)
        if self._game is not None and not self._game.over:
            raise SessionError("a game is being played; finish or abandon it first")
        game = Game.start(header)
        game_id, version = self.journal.start_game(game.record()[0])
        return self._publish(version, game, game_id)

    def _act(self, line: dict[str, Any], base_version: int, source: Source) -> Snapshot:
        game = self._current_game(base_version)
        after = game.play_json(line)
        journalled = line if "undo" in line else after.record()[-1]
        return self._journal(after, [journalled], source)

    def _correct(self, index: int, line: dict[str, Any], base_version: int,
                 source: Source) -> Snapshot:
        game = self._current_game(base_version)
        after = game.correct(index, game.parse(line))
        # The journal only takes record lines: undo back to the action, then replay.
        undos: list[dict[str, Any]] = [{"undo": {}}] * (len(game.actions) - index)
        lines = undos + after.record()[index + 1:]
        return self._journal(after, lines, source)

    def _abandon(self, base_version: int) -> Snapshot:
        self._check_version(base_version)
        if self._game_id is None:
            raise SessionError("there is no game to abandon")
        return self._publish(self.journal.abandon(self._game_id), None, None)

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
            raise StaleVersion(base_version, self._snapshot)

    def _journal(self, game: Game, lines: list[dict[str, Any]], source: Source) -> Snapshot:
        assert self._game_id is not None
        winners = list(game.view()["winners"]) if game.over else None
        version = self.journal.append(self._game_id, lines, source=source, winners=winners)
        return self._publish(version, game, self._game_id)

    def _publish(self, version: int, game: Game | None, game_id: int | None) -> Snapshot:
        hints_on = self.journal.setting(HINTS_SETTING) != "off"
        snapshot = Snapshot(
            version=version,
            game_id=game_id,
            header=None if game is None else dict(game.header),
            view=None if game is None else game.view(),
            hints=game.hints() if game is not None and hints_on else None,
            hints_on=hints_on,
        )
        with self._changed:
            self._game, self._game_id, self._snapshot = game, game_id, snapshot
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
            self._seen = snapshot.version
        return snapshot


def _replay_stored(stored: StoredGame) -> Game:
    lines: tuple[dict[str, Any], ...] = (stored.header, *stored.lines)
    return replay(enumerate(lines, start=1))
