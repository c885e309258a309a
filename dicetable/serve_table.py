"""The table ``dicetable serve`` runs, once its settings are read (:mod:`dicetable.serve`):
the journal, the session, the camera, the buttons and the score pad's server, each closed in
reverse order at a stop signal."""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from contextlib import ExitStack
from functools import partial
from pathlib import Path

from device.backup import drop_left_scratch, drop_unfinished_keeps
from device.calibration_store import CalibrationFileError
from device.camera import CameraError
from device.config import ConfigError
from device.demo_film import DemoFolderError
from device.journal import JournalError
from device.notice import Notice
from device.recorder import RECORDED
from device.recovery import OpenedTable, open_table
from device.reserve import CARD_FULL, keep_room, let_go
from device.serving import AlreadyServing, ServingLock
from device.session import TableSession
from device.state_dir import journal_path
from dicetable.live_table import camera_for
from dicetable.serve_settings import ServeSettings, camera_off
from dicetable.service import (
    PowerOff,
    StopSignals,
    open_buttons,
    service_watchdog,
    status_line,
)
from vision.profile import ProfileError
from web.app import create_app
from web.auth import host_link, keep_served_at
from web.qr import qr_text, table_url
from web.server import create_server, end_streams
from web.table import table
from web.wording import notice_text


def serve_table(args: argparse.Namespace, settings: ServeSettings) -> int:
    """Serve the table with ``settings`` until interrupted (Ctrl-C or SIGTERM)."""
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


def _serve(args: argparse.Namespace, settings: ServeSettings, state: Path,
           stop_signals: StopSignals, close: ExitStack) -> int:
    """Open the table, the camera, the buttons and the server, each closed by ``close``,
    and serve until a stop signal."""
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
    for notice in notices:
        print(f"dicetable: {notice_text('en', notice)}", file=sys.stderr)
    if opened.kept is not None:
        detail = f" ({opened.detail})" if opened.detail else ""
        print(f"dicetable: the damaged journal files are kept in {opened.kept}{detail}",
              file=sys.stderr, flush=True)
