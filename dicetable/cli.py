"""The one entry point: ``dicetable <command>``; ``dicetable --help`` lists the commands."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from device.state_dir import NO_OWNER_ADVICE, StateFolderIsAFile, ownership_advice
from dicetable.stop_signals import Handler, take_stop_signals

Command = tuple[str, str, Callable[[argparse.ArgumentParser], None],
                Callable[[argparse.Namespace], int]]


def _commands() -> list[Command]:
    # imported here, once stop signals are taken (see main): they take a second here to load,
    # seconds on a Pi
    from dicetable import (
        backup,
        bench,
        calibrate_command,
        demo,
        eval_command,
        kiosk,
        pin,
        render_command,
        replay,
        serve,
        teach_command,
    )

    return [
        ("replay", "rebuild a game from its record (JSON Lines) and print its state",
         replay.configure, replay.run),
        ("serve", "run the table: the score pad on every phone, kept by the rules",
         serve.configure, serve.run),
        ("pin", "print the table PIN that phones need to change the game",
         pin.configure, pin.run),
        ("eval", "score the dice reader on a labelled image set (labels.json or YOLO)",
         eval_command.configure, eval_command.run),
        ("bench", "measure speed, latency and memory and print the figures",
         bench.configure, bench.run),
        ("demo", "render the demo game's frames for serve --demo",
         demo.configure, demo.run),
        ("backup", "copy every game to a file, also while the table is serving",
         backup.configure_backup, backup.run_backup),
        ("restore", "put a backup back in place of the journal (not while serving)",
         backup.configure_restore, backup.run_restore),
        ("kiosk", "show the score pad full screen on a TV on the Pi (Chromium)",
         kiosk.configure, kiosk.run),
        ("calibrate", "print the table sheet, or find it in a camera frame and keep it",
         calibrate_command.configure, calibrate_command.run),
        ("teach", "teach the reader your own dice or cards from labelled photos, or take "
                  "up a profile taught elsewhere",
         teach_command.configure, teach_command.run),
        ("render", "render labelled table scenes of a game (for tests and teaching)",
         render_command.configure, render_command.run),
    ]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per command."""
    parser = argparse.ArgumentParser(
        prog="dicetable",
        description="A camera over a real game table: it reads the dice and cards, checks every "
                    "move by the rules and keeps the score on every phone at the table.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary, configure, run in _commands():
        sub = commands.add_parser(name, help=summary, description=summary)
        configure(sub)
        sub.set_defaults(run=run, command_parser=sub)
    return parser


class Stopped(KeyboardInterrupt):
    """A stop signal (SIGTERM, SIGINT) came before the command took it itself."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class EarlyStop:
    """SIGTERM and SIGINT while a command loads and starts (systemd stopping the table as it
    starts, Ctrl-C): noted while its modules load (raised inside a compiled module's loading,
    it comes out as an ImportError with a traceback), raised as :class:`Stopped` once they
    are (:meth:`now`), until the command takes the signals itself (serve, once its table
    opens); one more while they load is let be, one after the stop is raised acts as it would
    by default (a second Ctrl-C ends a command slow to stop)."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._raising = False
        self._taken: tuple[int, ...] = ()

    def take(self) -> dict[int, Handler]:
        """Take SIGTERM and SIGINT (in the main thread), but leave one ignored so (a command
        started in the background by a script, ``dicetable eval … &``, is not stopped by
        Ctrl-C); returns the handlers of those taken, as they were."""
        before = take_stop_signals(self)
        self._taken = tuple(before)
        return before

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is not None:
            return
        self.signum = signum
        if self._raising:
            self._stop(signum)

    def now(self) -> None:
        """The modules are loaded: a stop noted is raised, and one to come at once."""
        self._raising = True
        if self.signum is not None:
            self._stop(self.signum)

    def _stop(self, signum: int) -> None:
        """Raise :class:`Stopped` by ``signum``; a signal taken acts as by default from now
        on."""
        for taken in self._taken:
            signal.signal(taken, signal.SIG_DFL)
        raise Stopped(signum)


@contextmanager
def early_stop() -> Iterator[EarlyStop]:
    """An :class:`EarlyStop` taking SIGTERM and SIGINT while inside (in the main thread, where
    not ignored; the handlers before are put back after)."""
    stop = EarlyStop()
    if threading.current_thread() is not threading.main_thread():
        stop.now()
        yield stop
        return
    before = stop.take()
    try:
        yield stop
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def stopped_status(err: KeyboardInterrupt, command: str | None) -> int:
    """The exit status of a command stopped by ``err``: a table served is stopped by design
    (0, as when it stops once started); another command stopped by Ctrl-C 130, by SIGTERM 143,
    as the shell counts a signal."""
    if command == "serve":
        return 0
    return 128 + (err.signum if isinstance(err, Stopped) else signal.SIGINT)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``dicetable`` with ``argv`` (default: the command line); returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    with early_stop() as stop:
        try:
            parser = build_parser()  # (loads the commands' modules)
            stop.now()
            return _run(parser, words)
        except KeyboardInterrupt as err:  # stopped on purpose, so no traceback
            print("dicetable: stopped", file=sys.stderr)
            return stopped_status(err, next((w for w in words if not w.startswith("-")), None))


def _run(parser: argparse.ArgumentParser, argv: list[str]) -> int:
    """Parse ``argv`` and run its command; returns the exit status."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # said with the command's own usage, not the list of commands
        args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        status: int = args.run(args)
        sys.stdout.flush()
    except StateFolderIsAFile as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    except PermissionError as err:
        print(f"dicetable: {refused(err)}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader stopped early (``dicetable replay --json … | head``): that is no error.
        # Point stdout at /dev/null so that the interpreter's last flush cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return status


def refused(err: PermissionError) -> str:
    """What a file the system would not open means, and what to do (see
    :func:`device.state_dir.ownership_advice`)."""
    if not err.filename:
        return f"a file is not open to this user: {NO_OWNER_ADVICE}"
    path = Path(err.filename)
    return f"{path} is not open to this user: {ownership_advice(path)}"


if __name__ == "__main__":
    sys.exit(main())
