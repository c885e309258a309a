"""``dicetable serve``: run the table: the session, the journal, the camera and the score pad.

One process owns the game and the camera; phones join over the table's network by the
address or QR code printed at start. ``--demo`` plays a recorded game through the same loop,
reader and session as a camera, with a scripted player on the phone's side. The PIN and the
host's link are printed only to a terminal, never to a log (``dicetable pin`` prints them on
demand). The journal is checked at start (:mod:`device.recovery`); what the host must be told
goes to the log and to the score pad.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from device.backup import drop_left_scratch, drop_unfinished_keeps
from device.button_config import ButtonConfig, button_config, buttons_off
from device.calibration_store import CalibrationFileError
from device.camera import DEFAULT_FPS, CameraError
from device.config import (
    Config,
    ConfigError,
    Table,
    Wrong,
    config_path,
    load_config,
    number_in,
    told,
    typed,
    unknown_keys,
    written,
)
from device.demo_film import DemoFolderError
from device.journal import JournalError
from device.notice import Notice
from device.recorder import RECORDED
from device.recovery import OpenedTable, open_table
from device.reserve import CARD_FULL, keep_room, let_go
from device.serving import AlreadyServing, ServingLock
from device.session import TableSession
from device.state_dir import add_state_argument, journal_path
from dicetable.live_table import camera_for
from dicetable.options import MAX_PORT, port_number, rate, whole_number
from dicetable.service import (
    PowerOff,
    StopSignals,
    open_buttons,
    service_watchdog,
    status_line,
)
from vision.heap import keep_memory_flat
from vision.profile import ProfileError

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8017
DEFAULT_MAX_STREAMS = 40
MAX_STREAMS = 10_000
MAX_FPS = 1000
SERVER_KEYS = ("host", "port", "max_streams")
CAMERA_KEYS = ("source", "fps")
EMPTY_HOST = ("is empty: write the address out, such as “127.0.0.1” (this machine alone) or "
              "“0.0.0.0” (every network)")
IN_DOUBT = ("the table does not start while the address it listens on is in doubt (its "
            "default is every network)")
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
    camera.add_argument("--camera", metavar="SOURCE",
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


@dataclass(frozen=True)
class ServeSettings:
    """Where to listen and what to watch: the command line's options over the config file's."""

    host: str
    port: int
    max_streams: int
    source: str | None
    fps: float | None  # None: a folder's default, a video's own rate
    buttons: ButtonConfig | None
    told: tuple[Notice, ...] = ()
    """What the host is told on the phones of the config file's wrong settings, each left at
    its default meanwhile (no camera, no buttons, the default port)."""
    file: Path | None = None
    """The config file read (None: none)."""
    source_setting: str | None = None
    """The camera's source as the config file writes it, where the camera is the file's."""


def serve_settings(args: argparse.Namespace) -> ServeSettings:
    """The settings of ``args`` and the config file. A wrong file never widens who can reach the
    table nor turns hardware on: ConfigError (the table does not start) for a file that cannot
    be read at all (every default would listen on every network and switch on the default
    buttons), and, where ``--host`` is not given, for a wrong or empty ``host``, a setting
    ``[server]`` does not know, or a ``[server]`` setting written in another section (the host
    is in doubt; its default listens on every network); so is an empty ``--host``. Any other wrong
    setting is left at its default and ``told`` to the host: a wrong port or max_streams, a
    wrong ``[camera]`` (a wrong source: no camera) and a wrong ``[buttons]`` (no buttons). A
    setting the command line gives (``--host``, ``--port``, …) is not read from the file, so
    not told."""
    config = load_config(config_path(args.config))
    server_wrong = Wrong(section="server")
    notices: tuple[Notice, ...] = ()
    server_settings = config.section("server")
    where = config.where("server")
    unknown = unknown_keys(server_settings, SERVER_KEYS, where)
    if args.host is not None:
        # the file's host is not used, so not told (a setting [server] does not know is)
        host = _given_host(args.host)
        server_wrong.add(unknown)
    else:
        host = _host(server_settings, [*unknown, *_server_settings_elsewhere(config)], where)
    port = args.port  # checked by port_number
    if port is None:
        port = server_wrong.read_number(server_settings, "port", int, DEFAULT_PORT,
                                        (0, MAX_PORT), where)
    max_streams = args.max_streams or server_wrong.read_number(
        server_settings, "max_streams", int, DEFAULT_MAX_STREAMS, (1, MAX_STREAMS), where)
    camera_settings = config.section("camera")
    where = config.where("camera")
    camera_wrong = Wrong(section="camera")
    camera_wrong.add(unknown_keys(camera_settings, CAMERA_KEYS, where))
    source, source_setting = args.camera, None
    if not args.camera and not args.demo and "source" in camera_settings:
        source_setting = written(camera_settings, "source")
        try:
            source = camera_source(camera_settings, where)
        except ConfigError as err:
            notices += (camera_off(err, config.path),)
    fps = args.fps or (camera_wrong.read(partial(number_in, above=True), None, camera_settings,
                                         "fps", float, DEFAULT_FPS, (0, MAX_FPS), where)
                       if "fps" in camera_settings else None)
    if wrong := [*server_wrong, *camera_wrong]:
        notices += (told("settings_off", wrong, config.path),)
    try:
        buttons = button_config(config.section("buttons"), config.where("buttons"),
                                unread=config.unread)
    except ConfigError as err:
        buttons = None
        notices += (buttons_off(err, config.path),)
    return ServeSettings(host, port, max_streams, source, fps, buttons, notices, config.path,
                         source_setting if source else None)


def _host(settings: Mapping[str, Any], doubts: list[ConfigError], where: str) -> str:
    """The config file's host; ConfigError when it is wrong or empty, or with ``doubts`` (a
    setting ``[server]`` does not know: ``hots`` may be the host misspelt; ``host`` written in
    another section)."""
    doubts = list(doubts)
    try:
        host = typed(settings, "host", str, DEFAULT_HOST, where)
        if not host.strip():  # waitress would listen on every network
            raise ConfigError(f"{where}: “host” {EMPTY_HOST}")
    except ConfigError as err:
        doubts.insert(0, err)
    if doubts:
        raise ConfigError("; ".join(map(str, doubts)) + f": {IN_DOUBT}: fix the config file, or "
                          "give --host")
    return host


def _given_host(host: str) -> str:
    """``--host``'s address; ConfigError where it is empty (waitress would listen on every
    network)."""
    if not host.strip():
        raise ConfigError(f"--host {EMPTY_HOST}: {IN_DOUBT}")
    return host


def _server_settings_elsewhere(config: Config) -> list[ConfigError]:
    """Why each ``[server]`` setting written in another section (``[camera]``, ``[buttons]``
    or a misspelt one, a section within one, ``[buttons.leds]``, a ``[buttons]`` line TOML
    cannot read too) puts the host in doubt: the host meant for ``[server]`` may be among
    them."""
    sections = {"camera": config.section("camera"), "buttons": config.section("buttons"),
                **config.misspelt}
    found = [each for name, settings in sections.items()
             for each in _server_keys(settings, config.where(name), config)]
    found += [(f"{config.path} line {line.line}", line.key) for line in config.unread
              if line.key is not None and line.key in SERVER_KEYS]
    return [ConfigError(f"{where}: “{key}” is a setting of [server]: it goes under [server]")
            for where, key in found]


def _server_keys(settings: Mapping[str, Any], where: str, config: Config,
                 within: str = "") -> Iterator[tuple[str, str]]:
    """Where each ``[server]`` setting in ``settings`` (of section ``where``) and in the
    sections within them is written, and its name: a section written as its header
    (``[buttons.leds]``) is named so, a setting of a value written ``{ … }`` by its dotted name
    (``leds.host``, ``within`` the names before it)."""
    for key, value in settings.items():
        if isinstance(value, Table):
            yield from _server_keys(value, config.where(value.header), config)
        elif isinstance(value, dict):
            yield from _server_keys(value, where, config, f"{within}{key}.")
        elif key in SERVER_KEYS:
            yield where, f"{within}{key}"
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):  # a list of sections, [[buttons.leds]]
                    yield from _server_keys(item, where, config, f"{within}{key}.")


def camera_source(settings: Mapping[str, Any], where: str) -> str | None:
    """The config file's camera: text, or a camera's number written as a number (0)."""
    number = settings.get("source")
    if isinstance(number, int) and not isinstance(number, bool) and number >= 0:
        return str(number)
    return typed(settings, "source", str, "", where) or None


def camera_off(err: ConfigError, file: Path | None) -> Notice:
    """What the host's phone says of the config file ``file``'s camera source that is wrong or
    names no camera (``err``): the table runs without a camera until it is fixed."""
    return told("camera_off", Wrong([err], section="camera"), file)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted (Ctrl-C or SIGTERM); :data:`CONFIG_REFUSED` where the config
    file keeps the table from starting."""
    keep_memory_flat()
    try:
        settings = serve_settings(args)
    except ConfigError as err:
        print(f"dicetable: {_refusal(err)}", file=sys.stderr)
        return CONFIG_REFUSED
    # A file past a size limit (RLIMIT_FSIZE) is an error the journal reports, not a crash.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    state = journal_path(args.state).parent
    serving = ServingLock(state)
    try:
        serving.acquire()
    except AlreadyServing as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    # From here a stop signal closes whatever has been opened (a table that is still
    # starting, rendering the demo say, as well as one that serves), in reverse order.
    stop_signals = StopSignals(before=lambda: None)
    stop_signals.install()
    with ExitStack() as close:
        close.callback(serving.release)
        try:
            status = _serve(args, settings, state, stop_signals, close)
        except KeyboardInterrupt:  # a stop before the server ran (its run takes one itself)
            status = 0
        finally:
            stop_signals.closing = True
    if status == 0:
        print("dicetable: stopped; the game is saved", file=sys.stderr, flush=True)
    return status


def _refusal(err: ConfigError) -> str:
    """Why the config file keeps the table from starting, in English: ``err``, and why its line
    cannot be read as the phones word it, where it names one (not TOML's own words)."""
    from web.wording import notice_text

    return f"{err}: {notice_text('en', err.why)}" if err.why else str(err)


def _serve(args: argparse.Namespace, settings: ServeSettings, state: Path,
           stop_signals: StopSignals, close: ExitStack) -> int:
    """Open the table, the camera, the buttons and the server, each closed by ``close``,
    and serve until a stop signal."""
    from web.app import create_app
    from web.auth import host_link, keep_served_at
    from web.qr import qr_text, table_url
    from web.server import create_server, end_streams
    from web.table import table

    path = journal_path(args.state)
    drop_unfinished_keeps(path)  # a restore stopped while keeping the journal left them
    drop_left_scratch(path.parent)  # and a backup or restore killed reading through a copy
    try:
        opened, card_full = _open_journal(path)
    except JournalError as err:
        print(f"dicetable: cannot open the table's journal: {err}", file=sys.stderr)
        return 2
    journal = opened.journal
    close.callback(journal.close)
    session = TableSession(journal, recording=state / RECORDED)
    session.start()
    close.callback(session.stop)
    keep_room(path.parent)
    notices = [*opened.notices, *([session.notice] if session.notice else []),
               *([CARD_FULL] if card_full else []),
               *settings.told]
    demo = (state / "demo" if args.demo is True else args.demo) if args.demo else None
    watchdog = service_watchdog(session, lambda: status_line(
        table(app).streams.open, session, buttons))
    try:
        camera = camera_for(session, source=settings.source, fps=settings.fps, demo=demo,
                            loop=args.loop, speed=args.speed, on_alive=watchdog.loop("camera"),
                            on_ended=lambda: watchdog.leave("camera"), state=state)
    except CameraError as err:
        if settings.source_setting is None:  # given on the command line: refused now
            print(f"dicetable: {err}", file=sys.stderr)
            return 2
        camera = None  # the config file's: the table serves without, and the host is told
        notices.append(camera_off(ConfigError(str(err), setting=settings.source_setting,
                                              why=Notice(err.key, err.params)), settings.file))
    except (CalibrationFileError, ProfileError, DemoFolderError) as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    _log_notices(opened, notices)
    if camera is None:
        watchdog.leave("camera")
    # a held stop that cannot power the Pi off: the table goes on, and the phones say why
    power_off = PowerOff(on_refused=lambda notice: table(app).tell(notice))
    buttons = open_buttons(settings.buttons, session, on_shutdown=power_off)
    if buttons is not None:
        close.callback(buttons.stop)
    app = create_app({"JOURNAL": journal, "TABLE_SESSION": session,
                      "MAX_STREAMS": settings.max_streams, "NOTICES": notices})
    host = settings.host
    try:
        server = create_server(app, host=host, port=settings.port)
    except OSError as err:
        print(f"dicetable: cannot listen on {host}:{settings.port}: {err.strerror}",
              file=sys.stderr)
        return 2
    except ValueError:  # waitress: a host that is no address of this machine, nor a name of one
        print(f"dicetable: cannot listen on {host}: it is no address or name of this machine",
              file=sys.stderr)
        return 2
    close.callback(server.close)
    url = table_url(server.effective_port, host)
    # looked up again for each page: the Pi's network may change (its hotspot, then the house's)
    table(app).public_url = partial(table_url, server.effective_port, host)
    try:
        keep_served_at(journal, host, server.effective_port)
    except JournalError as err:
        print(f"dicetable: {err}", file=sys.stderr)
    print(qr_text(url))
    print(f"dicetable is serving the score pad at {url}")
    if host in ("0.0.0.0", "::"):
        print(f"Also by name, where phones resolve .local: "
              f"http://{socket.gethostname()}.local:{server.effective_port}/")
    if sys.stdout.isatty():
        print(f"Table PIN (needed to change the game): {journal.pin()}")
        print(f"Host link (changes the game without the PIN): {host_link(url, journal)}")
    else:
        print("Table PIN and host link: `dicetable pin` and `dicetable pin --link` print them")
    print(f"State folder: {journal.path.parent}", flush=True)

    # Waitress waits for its threads once interrupted: end the live streams first.
    stop_signals.before = lambda: end_streams(app)
    if camera is None:
        print("No camera: enter the dice on the phones (dicetable serve --camera, or --demo).")
    else:
        camera.start()
        close.callback(camera.stop)
    if buttons is not None:
        buttons.start()
    watchdog.ready()
    watchdog.start()
    close.callback(watchdog.stop)
    close.callback(watchdog.notifier.stopping)
    server.run()
    return 0


def _open_journal(path: Path) -> tuple[OpenedTable, bool]:
    """The table's journal opened, and whether the card was full: then the room kept for it
    is let go (:mod:`device.reserve`) and it is opened again."""
    try:
        return open_table(path), False
    except JournalError as err:
        if err.problem != "full" or not let_go(path.parent):
            raise
    return open_table(path), True


def _log_notices(opened: OpenedTable, notices: list[Notice]) -> None:
    """Tell the host, in the log, what the score pad will show them."""
    from web.wording import notice_text

    for notice in notices:
        print(f"dicetable: {notice_text('en', notice)}", file=sys.stderr)
    if opened.kept is not None:
        detail = f" ({opened.detail})" if opened.detail else ""
        print(f"dicetable: the damaged journal files are kept in {opened.kept}{detail}",
              file=sys.stderr, flush=True)
