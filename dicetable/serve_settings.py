"""``dicetable serve``'s settings: the command line's options over the config file's
(:mod:`device.config`). Light to load: a file that keeps the table from starting is said
before the camera's and the server's libraries load (a second here, seconds on a Pi)."""

from __future__ import annotations

import argparse
import json
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from device.button_config import ButtonConfig, button_config, buttons_off
from device.camera_config import CAMERA_KEYS, DEFAULT_FPS, camera_source
from device.config import (
    Config,
    ConfigError,
    Table,
    Wrong,
    as_written,
    config_path,
    load_config,
    number_in,
    told,
    typed,
    unknown_keys,
    written,
)
from device.notice import Notice
from device.toml_lines import value_written
from dicetable.options import MAX_PORT

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8017
DEFAULT_MAX_STREAMS = 40
MAX_STREAMS = 10_000
MAX_FPS = 1000
SERVER_KEYS = ("host", "port", "max_streams")
EMPTY_HOST = ("is empty: write the address out, such as “127.0.0.1” (this machine alone) or "
              "“0.0.0.0” (every network)")
IN_DOUBT = ("The table does not start while the address it listens on is in doubt (by "
            "default it is every network)")
ELSEWHERE = ("The table does not start while a [server] setting lies elsewhere (the address it "
             "listens on may be among them; by default it is every network)")
FIX = ": fix the config file, or give --host"


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
        host = _host(server_settings, unknown, _server_settings_elsewhere(config), where)
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
    if source is None and not args.demo and "source" in camera_settings:
        source_setting = written(camera_settings, "source")
        try:
            source = camera_source(camera_settings, where)
        except ConfigError as err:  # (source stays None: no camera)
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


def _host(settings: Mapping[str, Any], unknown: list[ConfigError],
          elsewhere: list[tuple[str, ConfigError]], where: str) -> str:
    """The config file's host; ConfigError when it is wrong or empty, or with settings
    ``[server]`` does not know (``unknown``: ``hots`` may be the host misspelt) or its settings
    written in another section (``elsewhere``, each with its name: the host may be among
    them)."""
    doubts = [*unknown, *(err for _, err in elsewhere)]
    try:
        host = typed(settings, "host", str, DEFAULT_HOST, where)
        if not host.strip():  # waitress would listen on every network
            raise ConfigError(f"{where}: “host” {EMPTY_HOST}")
    except ConfigError as err:
        doubts.insert(0, err)
    if doubts:
        host_in_doubt = len(doubts) > len(elsewhere) or any(key == "host" for key, _ in elsewhere)
        raise ConfigError("; ".join(map(str, doubts)) + ". "
                          + (IN_DOUBT if host_in_doubt else ELSEWHERE) + FIX)
    return host


def _given_host(host: str) -> str:
    """``--host``'s address; ConfigError where it is empty (waitress would listen on every
    network)."""
    if not host.strip():
        raise ConfigError(f"--host {EMPTY_HOST}. {IN_DOUBT}")
    return host


def _server_settings_elsewhere(config: Config) -> list[tuple[str, ConfigError]]:
    """Each ``[server]`` setting written in another section (``[camera]``, ``[buttons]``
    or a misspelt one, a section within one, ``[buttons.leds]``, a ``[buttons]`` line TOML
    cannot read too, its name dotted or in another case, ``leds.HOST``), by its name in
    ``[server]``, and why it puts the host in doubt, with the line to write under ``[server]``
    (the host meant for ``[server]`` may be among them)."""
    sections = {"camera": config.section("camera"), "buttons": config.section("buttons"),
                **config.misspelt}
    found: list[tuple[str, str, str | None]] = [(where, name, _toml_text(value))
             for section, settings in sections.items()
             for where, name, value in _server_keys(settings, config.where(section), config)]
    found += [(f"{config.path} line {line.line}", name, value_written(line.setting or "", name))
              for line in config.unread for name in line.names if _names_server_setting(name)]
    return [(key := _server_key(name),
             ConfigError(f"{where}: “{name}” belongs under [server], written "
                         f"{key} = {server_value(key, value)}"))
            for where, name, value in found]


def server_value(key: str, written: str | None) -> str:
    """The value ``written`` (as the file writes it; None: none) as TOML reads it under
    ``[server]``'s ``key``: quoted where TOML needs quotes, as a host always does.

    >>> server_value("host", "127.0.0.1"), server_value("host", "'::1'"), server_value("port", "80")
    ('"127.0.0.1"', "'::1'", '80')
    """
    text = (written or "").strip()
    try:
        value = tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return json.dumps(text.strip("\"'"), ensure_ascii=False)
    return json.dumps(str(value), ensure_ascii=False) if key == "host" and not isinstance(
        value, str) else text


def _toml_text(value: Any) -> str:
    """``value`` read from the file, written as TOML writes it."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else as_written(value)


def _server_keys(settings: Mapping[str, Any], where: str, config: Config,
                 within: str = "") -> Iterator[tuple[str, str, Any]]:
    """Where each ``[server]`` setting in ``settings`` (of section ``where``) and in the
    sections within them is written, its name and its value: a section written as its header
    (``[buttons.leds]``) is named so, a setting of a value written ``{ … }`` by its dotted name
    (``leds.host``, ``within`` the names before it)."""
    for key, value in settings.items():
        if isinstance(value, Table):
            yield from _server_keys(value, config.where(value.header), config)
        elif isinstance(value, dict):
            yield from _server_keys(value, where, config, f"{within}{key}.")
        elif _names_server_setting(key):
            yield where, f"{within}{key}", value
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):  # a list of sections, [[buttons.leds]]
                    yield from _server_keys(item, where, config, f"{within}{key}.")


def _names_server_setting(name: str) -> bool:
    """Whether setting ``name`` (dotted: ``leds.host``) is one of ``[server]``'s, in any case
    (``HOST``): its last part."""
    return _server_key(name) in SERVER_KEYS


def _server_key(name: str) -> str:
    """Setting ``name`` (dotted: ``leds.HOST``) as ``[server]`` names it: ``host``."""
    return name.rsplit(".", 1)[-1].strip().casefold()


def camera_off(err: ConfigError, file: Path | None) -> Notice:
    """What the host's phone says of the config file ``file``'s camera source that is wrong or
    names no camera (``err``): the table runs without a camera until it is fixed."""
    return told("camera_off", Wrong([err], section="camera"), file)
