"""The table's buttons on the Pi's GPIO pins (gpiozero): stop, shout, their LEDs and a buzzer.

gpiozero's callbacks only put an :class:`Edge` on a queue; one thread, ``buttons``, reads the
queue and hands what the presses mean to :class:`device.button_actions.ButtonActions`, which
goes through the table session like any other source. So a press while the session is busy
waits in the queue, and gpiozero's thread never does; a stop that waits for the camera's
read of the dice set aside waits on a thread of its own (see :mod:`device.button_actions`).

How presses are read:

- gpiozero debounces each pin (``bounce_time``); an edge within that time of the same
  button's last edge is ignored here too, by its time (mock pins do not debounce), and so is
  the letting go of a press that was ignored (contacts that chatter when let go).
- A shout counts on its press; shouts within ``together_s`` of the first become one shout
  with every caller (one ``call`` in 17).
- Stop counts when it is let go, unless it was held alone (``hold_time``, gpiozero's
  ``when_held``): that powers the Pi off (refused, the table goes on; see
  :meth:`ButtonActions.hold_stop`). With ``shutdown`` off, a held stop counts as a press.
- Stop and a shout held together (stop first) show the table PIN on the phones; neither
  counts as a press. A shout pressed while stop is down that is let go before the PIN shows
  counts as a shout, and the stop as a stop: two players pressed at once. A stop held past
  its time and let go while the shout is down, before the PIN shows, is a stop too: held with
  a shout, it powers nothing off, with ``shutdown`` on as with it off. Stop held on alone
  for ``hold_time`` after the last such shout was let go powers the Pi off (let go
  sooner, it counts as a press; a shout pressed again starts the time anew).

Without GPIO (any machine but a Pi), or with a pin it cannot claim (another program holds
it), :class:`TableButtons` raises :class:`NoButtons`; so it does on a fault of its own while
opening them, whose traceback goes to the host's log.
"""

from __future__ import annotations

import bisect
import importlib
import logging
import queue
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from gpiozero import (  # type: ignore[import-untyped]
    LED,
    Button,
    Buzzer,
    Device,
    GPIOZeroError,
    PinFactoryFallback,
)
from gpiozero.pins import Factory  # type: ignore[import-untyped]

from device.button_actions import ButtonActions, Feedback
from device.button_config import STOP, ButtonConfig, Key

_log = logging.getLogger("dicetable")

Clock = Callable[[], float]
EdgeKind = Literal["press", "release", "held"]
WAIT_S = 0.05
"""The longest the worker sleeps between looks at the clock (a shout's window, the PIN's
time)."""


@dataclass(frozen=True)
class Edge:
    """What a gpiozero callback puts on the queue: which button, what happened, and when (by
    the buttons' clock)."""

    key: Key
    kind: EdgeKind
    at: float


class NoButtons(Exception):
    """The machine has no GPIO the buttons can use (the message says why)."""


class TableButtons:
    """The buttons of ``config`` on ``factory``'s pins (default: gpiozero's own choice, the
    Pi's GPIO), handed to ``actions``. ``clock`` times presses (a fake one in tests)."""

    def __init__(self, config: ButtonConfig, actions: ButtonActions, *,
                 factory: Factory | None = None, clock: Clock = time.monotonic) -> None:
        self.config = config
        self._actions = actions
        self._clock = clock
        self._edges: queue.Queue[Edge] = queue.Queue()
        self._devices: list[Device] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader = PressReader(config, actions, clock)
        self._board: Any = None
        """The board's pins as gpiozero knows them (``board_info``: the header's numbers)."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PinFactoryFallback)
                self._open(factory)
        except _pin_errors() as err:
            self.close()
            raise NoButtons(_why(err)) from None
        except Exception as err:  # a fault of the table's own: the table goes on without
            # buttons all the same, and the host's log has its traceback
            _log.exception("dicetable: the buttons failed to open")
            self.close()
            raise NoButtons(_why(err)) from None

    def _open(self, factory: Factory | None) -> None:
        config = self.config
        keys: list[tuple[Key, int, int | None]] = []
        if config.stop is not None:
            keys.append((STOP, config.stop, config.stop_led))
        if config.shout is not None:
            keys.append((Key("shout"), config.shout, config.shout_led))
        for seat, pin in enumerate(config.seats, start=1):
            led = config.seat_leds[seat - 1] if config.seat_leds else None
            keys.append((Key("shout", seat), pin, led))
        leds: dict[Key, LED] = {}
        for key, pin, led_pin in keys:
            button = Button(pin, pull_up=True, bounce_time=config.bounce_s,
                            hold_time=config.hold_s, pin_factory=factory)
            self._devices.append(button)
            button.when_pressed = self._putter(key, "press")
            button.when_released = self._putter(key, "release")
            button.when_held = self._putter(key, "held")
            if led_pin is not None:
                leds[key] = LED(led_pin, pin_factory=factory)
                self._devices.append(leds[key])
        if self._devices:
            self._board = self._devices[0].pin_factory.board_info
        buzzer = None if config.buzzer is None else Buzzer(config.buzzer, pin_factory=factory)
        if buzzer is not None:
            self._devices.append(buzzer)
        self._actions.feedback = Feedback(leds, buzzer)

    def _putter(self, key: Key, kind: EdgeKind) -> Callable[[], None]:
        def put() -> None:  # gpiozero's thread: only queue the edge
            self._edges.put(Edge(key, kind, self._clock()))
        return put

    def describe(self) -> str:
        """The buttons in words, for the host's log: each pin by its GPIO (BCM) number and its
        number on the 40-pin header (``stop on GPIO 17, header pin 11``), so that a host who
        wired by the header's numbers sees a mismatch."""
        config = self.config
        parts = []
        if config.stop is not None:
            parts.append(f"stop on {self._pins((config.stop,))}")
        if config.shout is not None:
            parts.append(f"one shout on {self._pins((config.shout,))}")
        if config.seats:
            parts.append(f"a shout per seat on {self._pins(config.seats)}")
        return "buttons: " + "; ".join(parts)

    def _pins(self, pins: tuple[int, ...]) -> str:
        """``GPIO 22, 23, header pins 15, 16`` (the header's numbers as the board's pin factory
        gives them; left out where it does not know them)."""
        gpio = ", ".join(map(str, pins))
        header = [self._header_pin(pin) for pin in pins]
        if None in header:
            return f"GPIO {gpio}"
        plural = "s" if len(pins) > 1 else ""
        return f"GPIO {gpio}, header pin{plural} {', '.join(map(str, header))}"

    def _header_pin(self, pin: int) -> int | None:
        """GPIO ``pin``'s number on the header (None: unknown, off the header, or on two)."""
        if self._board is None:
            return None
        try:
            found = [info.number for _, info in self._board.find_pin(f"GPIO{pin}")]
        except Exception:  # only words for the log: they never keep the table from starting
            return None
        return found[0] if len(found) == 1 else None

    def start(self) -> None:
        """Start reading presses."""
        self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop reading presses and let go of the pins."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        self._actions.close()
        self.close()

    def close(self) -> None:
        """Let go of the pins."""
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def _run(self) -> None:
        while not self._stop.is_set():
            due = self._reader.next_due()
            wait = WAIT_S if due is None else min(WAIT_S, max(0.0, due - self._clock()))
            try:
                edges = [self._edges.get(timeout=wait)]
            except queue.Empty:
                edges = []
            now = self._clock()  # before the queue is emptied: every edge queued by now is read
            while True:  # everything queued meanwhile (a busy session): grouped by its time
                try:
                    edges.append(self._edges.get_nowait())
                except queue.Empty:
                    break
            for edge in edges:
                self._reader.edge(edge)
            self._reader.due(now)


class PressReader:
    """Turns edges into presses (see the module's docstring); used by the worker only."""

    def __init__(self, config: ButtonConfig, actions: ButtonActions, clock: Clock) -> None:
        self._config = config
        self._actions = actions
        self._clock = clock
        self._down: set[Key] = set()
        self._taken: set[Key] = set()
        """Buttons whose last press was taken (not a bounce): only their letting go counts."""
        self._last_edge: dict[Key, float] = {}
        self._held: set[Key] = set()
        self._chord: set[Key] = set()
        self._pin_shown = False
        self._shouts: list[Edge] = []
        self._withheld: dict[Key, Edge] = {}
        """Shouts pressed while stop was down: they count when let go unless the PIN showed."""
        self._stop_hold_told = False
        """Whether the hold of the stop that is down was told to the actions (held alone: it
        powers the Pi off where that is on); held with a shout, it was not, and its letting go
        is a stop."""
        self._alone_until: float | None = None
        """When stop, alone again since the shouts pressed with it were let go, has been held
        alone long enough to power the Pi off (None: no such stop is down)."""

    def next_due(self) -> float | None:
        """When something is next due (None: nothing is): the open group of shouts closes,
        or stop, down alone again after a shout, has been held on long enough."""
        dues = [self._alone_until]
        if self._shouts:
            dues.append(self._shouts[0].at + self._config.together_s)
        return min((due for due in dues if due is not None), default=None)

    def edge(self, edge: Edge) -> None:
        """Take one edge."""
        self._held_alone(edge.at)  # a stop let go after its time was held long enough
        key = edge.key
        bounced = edge.kind != "held" and \
            edge.at - self._last_edge.get(key, float("-inf")) < self._config.bounce_s
        if edge.kind == "press":
            self._down.add(key)
        elif edge.kind == "release":
            self._down.discard(key)
            if key == STOP and self._alone_until is not None:  # bounced too: stop is up
                self._alone_until = None  # not held alone long enough: a stop, if it counts
                self._held.discard(STOP)
        if bounced or (edge.kind == "release" and key not in self._taken):
            return
        if edge.kind != "held":
            self._last_edge[key] = edge.at
        if edge.kind == "press":
            self._taken.add(key)
            self._pressed(edge)
        elif edge.kind == "release":
            self._taken.discard(key)
            self._released(edge)
        else:
            self._was_held(key)

    def due(self, now: float) -> None:
        """Act on what is due by ``now``: stop held on alone long enough after a shout, a
        group of shouts whose window closed, the PIN's time on the phones."""
        self._held_alone(now)
        if self._shouts and now >= self._shouts[0].at + self._config.together_s:
            group = [edge for edge in self._shouts
                     if edge.at < self._shouts[0].at + self._config.together_s]
            self._shouts = self._shouts[len(group):]
            self._actions.shout(sorted({edge.key.seat for edge in group},
                                       key=lambda seat: seat or 0))
        self._actions.due(now)

    def _pressed(self, edge: Edge) -> None:
        key = edge.key
        shouts_down = {k for k in self._down if k.button == "shout"}
        if key == STOP:
            self._stop_hold_told = False
            if shouts_down:
                self._chord |= {STOP} | shouts_down
        elif STOP in self._down:
            self._chord |= {STOP, key}
            self._withheld[key] = edge
            self._alone_until = None
        else:
            self._shouts.append(edge)

    def _released(self, edge: Edge) -> None:
        key = edge.key
        self._held.discard(key)
        in_chord = key in self._chord
        pin_shown = self._pin_shown
        self._chord.discard(key)
        if self._chord == {STOP} and not pin_shown:  # the shouts counted: stop is alone again
            self._chord.clear()
            if STOP in self._down:  # not when its letting go was dropped as a bounce
                self._alone_until = edge.at + self._config.hold_s
        if not self._chord:
            self._pin_shown = False
        withheld = self._withheld.pop(key, None)
        if withheld is not None and not pin_shown:
            bisect.insort(self._shouts, withheld, key=lambda edge: edge.at)
        if key == STOP and not (in_chord and pin_shown):
            self._actions.stop(held=self._stop_hold_told)

    def _was_held(self, key: Key) -> None:
        if key not in self._down or key in self._held:
            return  # let go meanwhile, or held already (stop held on alone after a shout)
        self._held.add(key)
        shouts_held = any(k.button == "shout" for k in self._held)
        if STOP in self._held and shouts_held and STOP in self._chord:
            if not self._pin_shown:
                self._pin_shown = True
                shouts = sorted((k for k in self._held & self._chord if k.button == "shout"),
                                key=lambda k: k.seat or 0)
                self._actions.show_pin([STOP, *shouts], self._clock())
        elif key == STOP and STOP not in self._chord and self._alone_until is None:
            self._hold_stop()

    def _held_alone(self, now: float) -> None:
        """Power the Pi off once stop, alone again after a shout, has been held on long
        enough."""
        if self._alone_until is not None and now >= self._alone_until:
            self._alone_until = None
            self._held.add(STOP)
            self._hold_stop()

    def _hold_stop(self) -> None:
        """Stop was held alone: tell the actions (which ask the Pi to power off, or leave its
        letting go a stop)."""
        self._stop_hold_told = True
        self._actions.hold_stop()


def _pin_errors() -> tuple[type[Exception], ...]:
    """What pins that cannot be used raise: gpiozero's errors, the system's, and lgpio's own (a
    plain Exception: "GPIO busy" for a pin another program holds) where lgpio is installed."""
    try:
        lgpio = importlib.import_module("lgpio")
    except ImportError:
        return (GPIOZeroError, OSError, RuntimeError)
    return (GPIOZeroError, OSError, RuntimeError, lgpio.error)


def _why(err: BaseException) -> str:
    if isinstance(err, GPIOZeroError) and "default pin factory" in str(err):
        return "this machine has no GPIO pins (it is no Raspberry Pi, or gpiozero has no " \
               "pin library: on the Pi, apt install python3-lgpio)"
    return f"the GPIO pins cannot be used ({err})"
