"""``dicetable serve``: run the table: the session, the journal, the camera and the score pad.

One process owns the game and the camera; phones join over the table's network by the
address or QR code printed at start. ``--demo`` plays a recorded game through the same loop,
reader and session as a camera, with a scripted player on the phone's side. The PIN and the
host's link are printed only to a terminal, never to a log (``dicetable pin`` prints them on
demand). The journal is checked at start (:mod:`device.recovery`); what the host must be told
goes to the log and to the score pad. The settings are read first
(:mod:`dicetable.serve_settings`), the table's own modules loaded once they are right
(:mod:`dicetable.serve_table`): a config file that keeps the table from starting is said at
once.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from device.camera_config import DEFAULT_FPS
from device.config import ConfigError
from device.state_dir import add_state_argument
from dicetable.options import port_number, rate, whole_number
from dicetable.serve_settings import (
    DEFAULT_MAX_STREAMS,
    DEFAULT_PORT,
    MAX_FPS,
    MAX_STREAMS,
    serve_settings,
)
from dicetable.stop_signals import early_stop
from vision.heap import keep_memory_flat

CONFIG_REFUSED = os.EX_CONFIG
"""The exit status of a table its config file keeps from starting (78, sysexits' EX_CONFIG):
systemd does not start it again until the file is fixed (the unit's RestartPreventExitStatus);
any other refusal (2: the state folder held by a restore, say) it starts again."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the serve arguments."""
    add_state_argument(parser)
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help="the table's config file (TOML; default: $DICETABLE_CONFIG or "
                             "/etc/dicetable/config.toml when it exists); options given here "
                             "win over it")
    parser.add_argument("--host", default=None,
                        help="the address to listen on (default: every interface)")
    parser.add_argument("--port", type=port_number, default=None,
                        help=f"the port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--max-streams", type=whole_number(1, MAX_STREAMS), default=None,
                        metavar="N",
                        help="how many phones may follow the game live at once "
                             f"(default {DEFAULT_MAX_STREAMS})")
    camera = parser.add_mutually_exclusive_group()
    camera.add_argument("--camera", type=_camera_named, metavar="SOURCE",
                        help="the camera: picamera2, a camera number (0) or /dev/video path, "
                             "a folder of pictures or a video file (default: none, or the "
                             "config file's [camera] source)")
    camera.add_argument("--demo", nargs="?", type=Path, const=True, default=None, metavar="DIR",
                        help="play the demo game through the camera loop, with a scripted "
                             "player (its frames in DIR, default STATE/demo, rendered if "
                             "missing)")
    parser.add_argument("--fps", type=rate(MAX_FPS), default=None,
                        help=f"frames per second of a folder (default {DEFAULT_FPS:g}) or a video "
                             "(default: the video's own)")
    parser.add_argument("--loop", action="store_true",
                        help="play a folder, video or the demo again and again")
    parser.add_argument("--speed", type=rate(100), default=1.0,
                        help="play a folder, video or the demo this many times faster "
                             "(default 1)")


def _camera_named(source: str) -> str:
    """``--camera``'s value: a camera named; an empty one names none (it was the working
    folder, played as a folder of pictures)."""
    if not source.strip():
        raise argparse.ArgumentTypeError(
            "it is empty: name the camera, such as “picamera2”, “0” (a camera's number), "
            "“/dev/video0”, a folder of pictures or a video file; or leave --camera out for the "
            "config file's camera, or none")
    return source


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted (Ctrl-C or SIGTERM); :data:`CONFIG_REFUSED` where the config
    file keeps the table from starting."""
    keep_memory_flat()
    try:
        settings = serve_settings(args)
    except ConfigError as err:
        print(f"dicetable: {_refusal(err)}", file=sys.stderr)
        return CONFIG_REFUSED
    with early_stop() as loading:  # the camera's, the reader's and the server's libraries
        from dicetable.serve_table import serve_table
        loading.now()
    return serve_table(args, settings)


def _refusal(err: ConfigError) -> str:
    """Why the config file keeps the table from starting, in English: ``err``, and why its line
    cannot be read as the phones word it, where it names one (not TOML's own words)."""
    from web.wording import notice_text

    return f"{err}: {notice_text('en', err.why)}" if err.why else str(err)
