"""The Pi's side of ``dicetable serve``: the buttons, what systemd is told (ready, status,
watchdog), and powering the Pi off for a held stop button.

Everything here does nothing harmful off the Pi: without GPIO there are no buttons (said
once), and outside systemd nothing is sent.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from types import FrameType
from typing import TextIO

from device.button_actions import ButtonActions
from device.button_config import ButtonConfig
from device.buttons import NoButtons, TableButtons
from device.notice import Notice
from device.notify import Notifier, Watchdog, watchdog_interval
from device.session import TableSession
from device.voice import Voice
from dicetable.stop_signals import take_stop_signals

POWER_OFF = ("systemctl", "poweroff")
"""Without -i: a program that blocks shutdown (an upgrade, a firmware update) keeps the Pi on,
as systemd/dicetable-poweroff.rules grants no power-off-ignore-inhibit either."""
POWER_OFF_WAIT_S = 30.0
"""How long the power-off may take to answer (logind answers at once; D-Bus gives up at 25 s)."""


def open_buttons(config: ButtonConfig | None, session: TableSession, *,
                 on_shutdown: Callable[[], bool], out: TextIO | None = None
                 ) -> TableButtons | None:
    """The table's buttons (not started), or None (switched off, or no GPIO: said once on
    ``out``, default the standard error as it is then)."""
    out = out or sys.stderr
    if config is None:
        return None
    voice = Voice() if config.voice else None
    actions = ButtonActions(session, seated=bool(config.seats), voice=voice,
                            on_shutdown=on_shutdown if config.shutdown else None)
    try:
        buttons = TableButtons(config, actions)
    except NoButtons as err:
        print(f"dicetable: no buttons: {err}; the phones do everything", file=out, flush=True)
        return None
    print(f"dicetable: {buttons.describe()}", file=out, flush=True)
    return buttons


class PowerOff:
    """A held stop button powers the Pi off: the power-off is asked while the table still
    serves. Taken, systemd stops the table as it stops every service before the power goes
    (SIGTERM: the journal is closed on the way out, as on ``systemctl stop``). Refused (a
    program blocks shutdown, or polkit does not let the table's user power the Pi off, or past
    a program's weak inhibitor), the table goes on serving, and ``on_refused`` is given why,
    in a player's words."""

    def __init__(self, on_refused: Callable[[Notice], None], *,
                 command: tuple[str, ...] = POWER_OFF, out: TextIO | None = None) -> None:
        self.on_refused = on_refused
        self.command = command
        self.out = out

    def __call__(self) -> bool:
        """Power the Pi off (on a thread of the buttons' own): True once it was taken; False
        where it was refused, said in the host's log and to ``on_refused``."""
        out = self.out or sys.stderr
        print("dicetable: powering off", file=out, flush=True)
        try:
            done = subprocess.run(self.command, check=False, capture_output=True, text=True,
                                  timeout=POWER_OFF_WAIT_S)
        except (OSError, subprocess.TimeoutExpired) as err:
            why = str(err)
        else:
            if done.returncode <= 0:  # below 0: stopped by a signal, as the shutdown it
                return True  # started stops every process of the table's service
            why = done.stderr.strip() or f"it exited with {done.returncode}"
        print(f"dicetable: cannot power off: {why}; the table goes on", file=out, flush=True)
        self.on_refused(power_off_refused(why))
        return False


def power_off_refused(why: str) -> Notice:
    """What the players are told of a power-off refused for ``why`` (what systemctl said).

    A program that blocks shutdown (``systemd-inhibit --mode=block``) is named in systemctl's
    words: "Operation denied due to active block inhibitor" from logind (257 and later; "Access
    denied due to active block inhibitor" before), "Operation inhibited by …" from systemctl's
    own check on a terminal. polkit saying no is "Access denied" or "Interactive authentication
    required.", and it says so for two reasons alike: the table's user may not power the Pi off
    (the polkit rule missing), or a program holds a weak inhibitor (``--mode=block-weak``, and
    before logind 257 any inhibitor that blocks), which logind lets only a user granted
    power-off-ignore-inhibit pass; the players are told either may be why. A delay inhibitor
    refuses nothing (the power-off waits for it). Another reason is in the host's log."""
    said = why.lower()
    if "inhibit" in said:
        return Notice("notice.power_off.inhibited")
    if "access denied" in said or "authentication required" in said:
        return Notice("notice.power_off.denied")
    return Notice("notice.power_off.failed")


class StopSignals:
    """SIGTERM and SIGINT stop the table once: the first runs ``before`` (ending what would
    hold the server up) and interrupts it; one that comes while the table closes (Ctrl-C
    pressed again, or ``make`` passing its own SIGTERM on) is only acknowledged, so the
    close always runs to its end and the journal is closed."""

    def __init__(self, before: Callable[[], None], out: TextIO | None = None) -> None:
        self.before = before
        self.out = out
        self.closing = False
        """True once the table closes (by a signal, or set by the caller as it begins to)."""

    def install(self) -> None:
        """Take SIGTERM and SIGINT (in the main thread), but leave one ignored so (a table
        started in the background by a script, ``dicetable serve &``, is not stopped by
        Ctrl-C)."""
        take_stop_signals(self._on_signal)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.closing:
            print("dicetable: already stopping; the game is being saved",
                  file=self.out or sys.stderr, flush=True)
            return
        self.closing = True
        self.before()
        raise KeyboardInterrupt


def service_watchdog(session: TableSession, status: Callable[[], str]) -> Watchdog:
    """systemd's watchdog and status line for this process (idle outside systemd); the
    session worker is watched with a probe, the camera loop by :meth:`Watchdog.loop`."""
    watchdog = Watchdog(Notifier.from_environment(), watchdog_interval(), status=status)
    watchdog.probe("session", session.call_soon)
    return watchdog


def status_line(phones: int, session: TableSession, buttons: TableButtons | None) -> str:
    """One line for ``systemctl status``: ``serving 2 phones; camera ok; buttons``."""
    camera = session.snapshot().camera
    parts = [f"serving {phones} phone{'s' if phones != 1 else ''}",
             "no camera" if camera is None else f"camera {camera['status']}",
             "buttons" if buttons is not None else "no buttons"]
    return "; ".join(parts)
