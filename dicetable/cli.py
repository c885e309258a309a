"""The one entry point: ``dicetable <command>``; ``dicetable --help`` lists the commands."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path

from device.state_dir import NO_OWNER_ADVICE, StateFolderIsAFile, ownership_advice
from dicetable.stop_signals import Stopped, early_stop

COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("replay", "rebuild a game from its record (JSON Lines) and print its state"),
    "serve": ("serve", "run the table: the score pad on every phone, kept by the rules"),
    "pin": ("pin", "print the table PIN that phones need to change the game"),
    "eval": ("eval_command",
             "score the dice reader on a labelled image set (labels.json or YOLO)"),
    "bench": ("bench", "measure speed, latency and memory and print the figures"),
    "demo": ("demo", "render the demo game's frames for serve --demo"),
    "backup": ("backup", "copy every game to a file, also while the table is serving"),
    "restore": ("restore", "put a backup back in place of the journal (not while serving)"),
    "kiosk": ("kiosk", "show the score pad full screen on a TV on the Pi (Chromium)"),
    "calibrate": ("calibrate_command",
                  "print the table sheet, or find it in a camera frame and keep it"),
    "teach": ("teach_command", "teach the reader your own dice or cards from labelled photos, "
                               "or take up a profile taught elsewhere"),
    "render": ("render_command",
               "render labelled table scenes of a game (for tests and teaching)"),
}
"""Each command: its module in ``dicetable`` (its ``configure(parser)`` adds the command's
arguments, its ``run(args)`` runs it and returns the exit status), and what it does."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per command; only ``command``'s arguments where
    it is given, only its module loaded (all of them take a second to load, seconds on a Pi:
    the camera's, the reader's and the server's libraries)."""
    parser = argparse.ArgumentParser(
        prog="dicetable",
        description="A camera over a real game table: it reads the dice and cards, checks every "
                    "move by the rules and keeps the score on every phone at the table.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, summary) in COMMANDS.items():
        sub = commands.add_parser(name, help=summary, description=summary)
        if command in (None, name):
            loaded = import_module(f"dicetable.{module}")
            loaded.configure(sub)
            sub.set_defaults(run=loaded.run, command_parser=sub)
    return parser


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
            # (loads the command's module, once stop signals are taken)
            parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
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
