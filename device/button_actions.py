"""What a press of the table's buttons means, by the game being played.

- **stop** ends a Dalek Dice turn: the record's ``stop``. A stop that waits for the camera's
  read of the dice just set aside waits on a thread of its own, so the presses after it are
  taken meanwhile (a stop pressed again waits its turn there); one that does not wait is
  played before the next press is taken.
- **shout**: in 17 a ``call`` by the seats' players (all who shouted together; the engine
  resolves who wins it); with one shout button for the table the phones ask who called. In
  Dalek Dice the Dalek's voice ("Exterminate!") and the score pad's moment.
- Held: stop alone powers the Pi off; where that is refused (a program on the Pi blocks
  shutdown, say) the table goes on, and the phones say why (the host's notices); stop and a
  shout show the table PIN on the phones.

A press the rules refuse (the player who just played calls 17, a stop with no turn to stop)
changes nothing: the buzzer buzzes, the button's LED blinks, and the phones say why. Every
press reaches the game through the session (source ``button``), like a phone's tap.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from device.button_config import STOP, Key
from device.camera_desk import refusal_json
from device.journal import JournalError
from device.session import SessionError, Snapshot, StaleVersion, TableSession
from device.voice import Voice
from engine import IllegalAction
from engine.errors import Refusal

if TYPE_CHECKING:
    from gpiozero import LED, Buzzer  # type: ignore[import-untyped]

_log = logging.getLogger("dicetable")

PIN_SHOWN_S = 60.0
"""How long the phones show the PIN after stop and a shout were held together."""
NOT_TAKEN = ("the table could not take this press; press again, or use the phone; if it "
             "happens again, tell the host")
"""What the phones say of a press the table failed to take (a fault of its own: its memory
card full, say); the fault itself goes to the host's log."""


class ButtonRefusal(Refusal):
    """A press that has no meaning for the game being played (translated like the engine's
    refusals, web/i18n)."""


class Feedback:
    """What the table shows by itself: a button's LED, the buzzer (both optional)."""

    def __init__(self, leds: dict[Key, LED] | None = None, buzzer: Buzzer | None = None) -> None:
        self._leds = leds or {}
        self._buzzer = buzzer

    def accepted(self, keys: list[Key]) -> None:
        """One short flash of each pressed button's LED."""
        for key in keys:
            if key in self._leds:
                self._leds[key].blink(on_time=0.3, off_time=0.1, n=1, background=True)

    def refused(self, keys: list[Key]) -> None:
        """Two short buzzes and a quick blinking of the buttons' LEDs."""
        if self._buzzer is not None:
            self._buzzer.beep(on_time=0.08, off_time=0.08, n=2, background=True)
        for key in keys:
            if key in self._leds:
                self._leds[key].blink(on_time=0.1, off_time=0.1, n=4, background=True)

    def goodbye(self) -> None:
        """Every LED on: the Pi is asked to power off."""
        for led in self._leds.values():
            led.on()

    def stayed_on(self) -> None:
        """Every LED off again, and the refusal's buzz and blinking of stop: the Pi did not
        power off."""
        for led in self._leds.values():
            led.off()
        self.refused([STOP])


class ButtonActions:
    """Carries out presses on ``session``. ``seated``: the table has a shout button per seat
    (else one for the table). ``on_shutdown`` is called when stop is held alone (on a thread
    of its own), and says whether the Pi powers off (False: it was refused, and why is told
    by it; None: the hold does nothing)."""

    def __init__(self, session: TableSession, *, seated: bool, voice: Voice | None = None,
                 on_shutdown: Callable[[], bool] | None = None) -> None:
        self._session = session
        self._seated = seated
        self._voice = voice
        self._on_shutdown = on_shutdown
        self.feedback = Feedback()
        self._news = 0
        self._pin_until: float | None = None
        self._telling = threading.Lock()  # the news and the PIN's time, told from two threads
        self._stops = ThreadPoolExecutor(max_workers=1, thread_name_prefix="button-stop")
        self._last_stop: Future[None] | None = None
        self._powering_off = threading.Lock()
        """Held while the Pi is asked to power off."""

    def stop(self, *, held: bool = False) -> None:
        """Stop was pressed (and let go; ``held``: held alone past its hold time, told to
        :meth:`hold_stop`, which is no stop where that powers the Pi off): returns once the
        stop was played or refused, or waits for the camera's read of the dice set aside (or
        is queued behind a stop that waits)."""
        if held and self._on_shutdown is not None:
            return
        view = self._session.snapshot().view
        # once such a game ended too: the engine's refusal names the record's actions
        if view is not None and view["game"] != "dalek":
            self._refuse([STOP], ButtonRefusal(
                "the stop button ends a turn of Dalek Dice; this game has no use for it"))
            return
        behind = self._last_stop is not None and not self._last_stop.done()
        going = threading.Event()
        try:
            self._last_stop = self._stops.submit(self._stop, going)
        except RuntimeError:  # closed: the table is shutting down, the press is let go
            return
        if not behind:
            going.wait()

    def close(self) -> None:
        """Let go of the stops queued behind one that waits for the camera, and finish that
        one (at once where the camera has stopped); a stop pressed after is let go."""
        self._stops.shutdown(wait=True, cancel_futures=True)

    def _stop(self, going: threading.Event) -> None:
        """Play a stop on the stops' thread: a failure to tell of it (the table shutting
        down as it refuses the stop) goes to the host's log, as nobody waits on the thread."""
        try:
            self._act({"stop": {}}, [STOP], waiting=going.set)
        except Exception:
            _log.exception("dicetable: the table failed to take a press of stop")
        finally:
            going.set()

    def shout(self, seats: list[int | None]) -> None:
        """Shouts together: by the seats in ``seats`` (None: the table's one shout button)."""
        keys = [Key("shout", seat) for seat in seats]
        view = self._session.snapshot().view
        if view is None or view["over"]:
            self._refuse(keys, SessionError("no game is being played; set one up first"))
        elif view["game"] == "dalek":
            if self._voice is not None:
                self._voice.say()
            self.feedback.accepted(keys)
            self._tell({"kind": "exterminate"})
        elif view["game"] == "17":
            self._call(view, keys)
        else:
            self._refuse(keys, ButtonRefusal("the shout button has no part in Dicy Cards"))

    def hold_stop(self) -> None:
        """Stop was held alone: power the Pi off (when that is on; else its letting go is a
        stop, see :meth:`stop`), on a thread of its own, so that the presses made while the
        Pi answers (up to half a minute) are taken then; held again meanwhile, it asks
        nothing more. Refused, the table goes on: the phones are told (``shutdown_refused``;
        the host's notice told with it says why). A failure before the Pi is asked goes to the
        host's log, and a later hold asks again."""
        if self._on_shutdown is None or not self._powering_off.acquire(blocking=False):
            return
        try:
            self.feedback.goodbye()
            self._tell({"kind": "shutdown"})
            threading.Thread(target=self._power_off, args=(self._on_shutdown,),
                             name="button-power-off", daemon=True).start()
        except Exception:  # an LED, the phones or a thread failed: held again, it asks again
            self._powering_off.release()
            _log.exception("dicetable: the table failed to power the Pi off")

    def _power_off(self, on_shutdown: Callable[[], bool]) -> None:
        """Ask the Pi to power off, and say so where it stayed on; a failure of the table's
        own goes to the host's log, as nobody waits on the thread."""
        try:
            taken = on_shutdown()
        except Exception:
            _log.exception("dicetable: the table failed to power the Pi off")
            taken = False
        finally:
            self._powering_off.release()  # held again from now on, it asks again
        if not taken:
            self.feedback.stayed_on()
            with suppress(SessionError, RuntimeError):  # the table is shutting down
                self._tell({"kind": "shutdown_refused"})

    def show_pin(self, keys: list[Key], now: float) -> None:
        """Stop and a shout were held together (``keys``, stop first): the PIN on the phones
        for a minute. A journal that cannot give it (a failing card) goes to the host's log,
        and the players hear that the press of those buttons was not taken."""
        try:
            pin = self._session.journal.pin()
        except (JournalError, sqlite3.Error):
            _log.exception("dicetable: the table failed to read its PIN")
            self._refuse(keys, ButtonRefusal(NOT_TAKEN))
            return
        self._tell({"kind": "pin", "pin": pin}, pin_until=now + PIN_SHOWN_S)

    def due(self, now: float) -> None:
        """Take the PIN off the phones once its time is over."""
        with self._telling:
            if self._pin_until is not None and now >= self._pin_until:
                self._pin_until = None
                self._session.tell_buttons(None)

    def _call(self, view: dict[str, Any], keys: list[Key]) -> None:
        players: list[str] = list(view["players"])
        if not self._seated:
            if view["call_allowed"]:
                self.feedback.accepted(keys)
                self._tell({"kind": "who", "actions": view["actions"]})
            else:
                self._refuse(keys, ButtonRefusal("nobody may call 17 now"))
            return
        empty = [key for key in keys if key.seat is None or key.seat > len(players)]
        for key in empty:
            self._refuse([key], ButtonRefusal("seat {seat} has no player in this game",
                                              seat=key.seat))
        seated = [key for key in keys if key not in empty]
        callers = {players[key.seat - 1]: key for key in seated if key.seat is not None}
        if not callers:
            return
        try:
            self._act({"call": list(callers)}, list(callers.values()), quiet=True)
        except IllegalAction as err:
            allowed = [name for name in callers if name in view["may_call"]]
            for name, key in callers.items():
                if name not in allowed:
                    self._refuse([key], err, player=name)
            if allowed and len(allowed) < len(callers):
                self._act({"call": allowed}, [callers[name] for name in allowed])
            elif allowed:
                self._refuse(list(callers.values()), err)

    def _act(self, line: dict[str, Any], keys: list[Key], *, quiet: bool = False,
             waiting: Callable[[], None] | None = None) -> None:
        """Play ``line`` as the buttons' action on the table as it is now; a refusal is shown
        (or raised, when ``quiet``). A failure of the table's own goes to the host's log, and
        the players hear that the press was not taken (the buttons go on). ``waiting``: see
        :meth:`TableSession.act`."""
        try:
            while True:  # a phone changed the table at that moment: the press is for the new
                try:
                    self._session.act(line, base_version=self._session.snapshot().version,
                                      source="button", waiting=waiting)
                    break
                except StaleVersion:
                    continue
        except (IllegalAction, SessionError) as err:
            if quiet and isinstance(err, IllegalAction):
                raise
            self._refuse(keys, err)
            return
        except Exception:
            _log.exception("dicetable: the table failed to take a press of %s", keys[0].button)
            with suppress(SessionError, RuntimeError):  # the table is shutting down
                self._refuse(keys, ButtonRefusal(NOT_TAKEN))
            return
        self.feedback.accepted(keys)

    def _refuse(self, keys: list[Key], err: Refusal, *, player: str | None = None) -> None:
        """Refuse the press of ``keys``: one button's kind (``stop``, ``shout``), or stop and
        a shout held together (``stop_and_shout``), told with the first's seat."""
        self.feedback.refused(keys)
        key = keys[0]
        both = {each.button for each in keys} == {"stop", "shout"}
        self._tell({"kind": "refused", "button": "stop_and_shout" if both else key.button,
                    "seat": key.seat, "player": player, "reason": refusal_json(err)})

    def _tell(self, news: dict[str, Any], *, pin_until: float | None = None) -> Snapshot:
        """Show ``news`` on the phones; ``pin_until``: when the PIN it shows goes (other news
        takes it off)."""
        with self._telling:
            self._news += 1
            self._pin_until = pin_until
            return self._session.tell_buttons({"n": self._news, **news})
