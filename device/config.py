"""The table's config file: TOML, one section per part of the table.

``dicetable serve --config FILE`` (else ``$DICETABLE_CONFIG``, else ``/etc/dicetable/config.toml``
when it exists) reads it; options given on the command line win over the file. Each part reads
its own section (``[camera]`` in :mod:`device.camera_config`, ``[server]`` in the serve command,
``[buttons]`` for the GPIO buttons), so this module only loads the file and names what is wrong
in words a host understands.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "config.toml"
>>> _ = path.write_text('[camera]\\nsource = "0"\\nfps = 10\\n')
>>> config = load_config(path)
>>> config.section("camera")
{'source': '0', 'fps': 10}
>>> config.section("buttons")
{}
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import Any, TypeVar

from device.notice import Notice
from device.toml_lines import headers, read_without, refused_line

SYSTEM_CONFIG = Path("/etc/dicetable/config.toml")
SECTIONS = ("server", "camera", "buttons")
SECTION_NAMES = ", ".join(f"[{s}]" for s in SECTIONS)
FORGIVEN = "buttons"
"""The one section whose lines TOML cannot read are left out of it, the rest of the file read
(a wrong line elsewhere leaves the whole file unread)."""
T = TypeVar("T")
N = TypeVar("N", int, float)


class ConfigError(ValueError):
    """The config file cannot be used; the message says which file, where, and why. Where one
    setting is at fault, ``setting`` is it as written (``stop = 40``) and ``why`` the reason as
    a message key of the score pad's catalogs (``notice.config.…``, ``web/i18n``) and its values,
    for the phones; ``line`` its line in the file where TOML could not read it (``names`` those
    of the settings it writes, dotted), ``section`` the name of its section where the phones
    name it. ``more`` are the section's other wrong settings, so that one restart fixes
    them all."""

    def __init__(self, message: str, *, setting: str | None = None, why: Notice | None = None,
                 line: int | None = None, names: tuple[str, ...] = (),
                 section: str | None = None,
                 more: Sequence[ConfigError] = ()) -> None:
        super().__init__(message)
        self.setting = setting
        self.why = why
        self.line = line
        self.names = names
        self.section = section
        self.more = tuple(more)


@dataclass(frozen=True)
class Config:
    """The loaded file (``path`` None when there is none): its sections by name."""

    path: Path | None = None
    sections: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    unread: tuple[ConfigError, ...] = ()
    """What of the :data:`FORGIVEN` section could not be read (a line TOML refuses): each
    wrong line as written and why; the section holds the lines that could be read."""
    misspelt: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """The sections named as :data:`FORGIVEN` misspelt ([button]), by name as written: their
    settings are not read (each is told as wrong), but what they hold is looked at."""

    def section(self, name: str) -> dict[str, Any]:
        """The settings of section ``name`` (empty when the file has none)."""
        return dict(self.sections.get(name, {}))

    def where(self, name: str) -> str:
        """Where section ``name`` lives, for messages: ``FILE [name]``."""
        return f"{self.path} [{name}]" if self.path else f"[{name}]"


class Wrong(list[ConfigError]):
    """The wrong settings found so far, each left at its default meanwhile; where they are of
    ``section`` (``server``), each is told with its section's name (a notice that names it, the
    buttons off, has None)."""

    def __init__(self, wrong: Iterable[ConfigError] = (), *, section: str | None = None) -> None:
        super().__init__()
        self.section = section
        self.add(wrong)

    def add(self, wrong: Iterable[ConfigError]) -> None:
        """Keep each of ``wrong``, with this section's name."""
        for err in wrong:
            err.section = err.section or self.section
            self.append(err)

    def read(self, setting: Callable[..., T], default: T, *args: Any) -> T:
        """``setting(*args)``, or ``default`` with why it is wrong kept here."""
        try:
            return setting(*args)
        except ConfigError as err:
            self.add([err])
            return default

    def read_typed(self, settings: Mapping[str, Any], key: str, kind: type[T], default: T,
                   where: str) -> T:
        """Setting ``key`` as :func:`typed` reads it; ``default`` where it is absent or wrong
        (why kept here)."""
        return self.read(typed, default, settings, key, kind, default, where)

    def read_number(self, settings: Mapping[str, Any], key: str, kind: type[N], default: N,
                    bounds: tuple[float, float], where: str) -> N:
        """Setting ``key`` as :func:`number_in` reads it; ``default`` where it is absent or
        wrong (why kept here)."""
        return self.read(number_in, default, settings, key, kind, default, bounds, where)


def told(key: str, wrong: Sequence[ConfigError], file: object) -> Notice:
    """What the host's phone says of the ``wrong`` settings (each with its ``more``) of config
    file ``file``: notice ``notice.KEY``, which names the file, each wrong setting or line as
    written and why (``{wrong}``), and what the table does meanwhile. A guest's phone reads
    ``notice.KEY_guest`` (the file's path and values are the host's)."""
    return Notice(f"notice.{key}", {"file": file, "wrong": tuple(
        _wrong(each) for first in wrong for each in (first, *first.more))},
        guest=Notice(f"notice.{key}_guest"))


def _wrong(err: ConfigError) -> Notice:
    """One wrong setting or line, for the phones."""
    if err.line is None and err.section is not None:
        return Notice("notice.config.wrong_in", {"section": f"[{err.section}]",
                                                 "setting": err.setting, "why": err.why})
    if err.line is None:
        return Notice("notice.config.wrong", {"setting": err.setting, "why": err.why})
    return Notice("notice.config.wrong_line", {"line": err.line, "setting": err.setting,
                                               "why": err.why})


def config_path(given: Path | None) -> Path | None:
    """The config file to read: ``given``, else ``$DICETABLE_CONFIG``, else the system one when
    it exists; None when there is none."""
    if given is not None:
        return given
    if os.environ.get("DICETABLE_CONFIG"):
        return Path(os.environ["DICETABLE_CONFIG"])
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None


def load_config(path: Path | None) -> Config:
    """Read the config file at ``path`` (None: no file, every default)."""
    if path is None:
        return Config()
    data, unread = _read(path)
    for name, value in data.items():
        if not isinstance(value, dict):
            raise ConfigError(f"{path}: {name} must be a section ([{name}]), not a value"
                              if name in SECTIONS else
                              f"{path}: {written(data, name)} is a setting outside any section "
                              f"(each setting goes under its section: {SECTION_NAMES})")
    misspelt = [name for name in data if name not in SECTIONS and misspelt_forgiven(name)]
    unknown = [name for name in data if name not in SECTIONS and name not in misspelt]
    if unknown:
        raise ConfigError(f"{path}: unknown section [{unknown[0]}] (the sections are "
                          f"{SECTION_NAMES})")
    beside = FORGIVEN in data or len(misspelt) > 1
    unread += tuple(_misspelt(path, name, beside=beside) for name in misspelt)
    return Config(path, data, unread, {name: data.pop(name) for name in misspelt})


def _misspelt(path: Path, name: str, *, beside: bool) -> ConfigError:
    """Why section ``name``, :data:`FORGIVEN` misspelt, is wrong: its name, or (``beside``
    another section for the same settings, written right or not) that they go in one."""
    tail, key = ((f"the {FORGIVEN} settings all go in one section, [{FORGIVEN}]",
                  "notice.config.section_beside") if beside
                 else (f"it is written [{FORGIVEN}]", "notice.config.section"))
    return ConfigError(f"{path}: unknown section [{name}]: {tail}", setting=f"[{name}]",
                       why=Notice(key, {"section": FORGIVEN}))


def _read(path: Path) -> tuple[dict[str, Any], tuple[ConfigError, ...]]:
    """The file's sections, and the lines of :data:`FORGIVEN` that TOML could not read (left
    out of it)."""
    try:
        text = path.read_text("utf-8-sig")  # a BOM, as Windows Notepad saves it, is no text
        return _tables(tomllib.loads(text), text), ()
    except FileNotFoundError:
        raise ConfigError(f"{path}: there is no such config file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: this is a folder, not a config file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: the config file cannot be read ({_why(err)})") from None
    except tomllib.TOMLDecodeError as err:
        read = read_without(text, _forgiven_section, err)
        if read is None:
            line = refused_line(text, _forgiven_section, err)
            if line is None:
                raise ConfigError(f"{path}: this is not a valid config file ({err})") from None
            raise ConfigError(f"{path} line {line.number}: {line.text}: this is not a valid "
                              "config file", setting=line.text, why=line.why,
                              line=line.number) from None
        data, wrong = read
        return _tables(data, text), tuple(
            ConfigError(f"{path} line {line.number}: {line.text}: {line.reason}",
                        setting=line.text, why=line.why, line=line.number,
                        names=line.names)
            for line in wrong)


def _tables(data: dict[str, Any], text: str) -> dict[str, Any]:
    """``data`` read from ``text``, each section within a section that ``text`` writes as a
    header (``[buttons.leds]``) a :class:`Table`, so that it is told as written."""
    for path, name in headers(text).items():
        *within, last = path
        parent: Any = data
        for part in within:
            parent = parent.get(part) if isinstance(parent, dict) else None
        if within and isinstance(parent, dict) and isinstance(parent.get(last), dict):
            parent[last] = Table(parent[last], header=name)
    return data


class Table(dict[str, Any]):
    """A section within a section, written as its header ``[header]``."""

    def __init__(self, settings: Mapping[str, Any], *, header: str) -> None:
        super().__init__(settings)
        self.header = header


def misspelt_forgiven(name: str) -> bool:
    """Whether section ``name`` is :data:`FORGIVEN` misspelt ([button], [Buttons]), beside a
    [buttons] or not (its settings are for the buttons either way).

    >>> [misspelt_forgiven(name) for name in ("Buttons", "button", "buttns", " buttons ")]
    [True, True, True, True]
    >>> [misspelt_forgiven(name) for name in ("camra", "buttons_old", "button_leds", "mutton")]
    [False, False, False, False]
    """
    return get_close_matches(name.strip().casefold(), SECTIONS, n=1, cutoff=0.8) == [FORGIVEN]


def _forgiven_section(name: str) -> bool:
    """Whether a section header ``name`` is :data:`FORGIVEN`'s, written right or misspelt, or
    one within it (``[buttons.leds]``).

    >>> [_forgiven_section(name) for name in ("buttons", "button", "buttons.leds", "camera.x")]
    [True, True, True, False]
    """
    head = name.split(".")[0].strip()
    return head == FORGIVEN or misspelt_forgiven(head)


def unknown_keys(settings: Mapping[str, Any], known: tuple[str, ...],
                 where: str) -> list[ConfigError]:
    """Why each setting a section does not know is wrong, in the section's order (a section
    within it named as its header is written, ``[server.lan]``)."""
    return [ConfigError(f"{where}: unknown setting {_name(settings, key)} (known: "
                        f"{', '.join(known)})",
                        setting=written(settings, key),
                        why=Notice("notice.config.unknown", {"known": ", ".join(known)}))
            for key in settings if key not in known]


def _name(settings: Mapping[str, Any], key: str) -> str:
    """Setting ``key``'s name, for messages: “key”, or ``[header]`` for a section within a
    section written as its header."""
    return written(settings, key) if isinstance(settings[key], Table) else f"“{key}”"


def typed(settings: Mapping[str, Any], key: str, kind: type[T], default: T, where: str) -> T:
    """Setting ``key`` as a ``kind`` (``default`` when absent), or ConfigError naming it.

    >>> typed({"fps": "fast"}, "fps", int, 15, "config.toml [camera]")
    Traceback (most recent call last):
    ...
    device.config.ConfigError: config.toml [camera]: “fps” must be a whole number, not “fast”
    """
    if key not in settings:
        return default
    value = settings[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"{where}: “{key}” must be {_KINDS.get(kind, kind.__name__)}, "
                          f"not {as_written(value)}", setting=written(settings, key),
                          why=Notice(f"notice.config.{kind.__name__}"))
    return value


def number_in(settings: Mapping[str, Any], key: str, kind: type[N], default: N,
              bounds: tuple[float, float], where: str, *, above: bool = False) -> N:
    """Setting ``key`` as a ``kind`` from ``bounds[0]`` (or ``above`` it) to ``bounds[1]``; nan
    and inf are not.

    >>> number_in({"fps": 0}, "fps", float, 15.0, (0, 1000), "[camera]", above=True)
    Traceback (most recent call last):
    ...
    device.config.ConfigError: [camera]: “fps” must be above 0 and at most 1000, not 0
    """
    value = typed(settings, key, kind, default, where)
    low, high = bounds
    if not (low < value if above else low <= value) or not value <= high:
        span = f"above {low:g} and at most {high:g}" if above else f"from {low:g} to {high:g}"
        raise ConfigError(f"{where}: “{key}” must be {span}, "
                          f"not {as_written(settings.get(key, value))}",
                          setting=written(settings, key),
                          why=Notice("notice.config.above" if above else "notice.config.from_to",
                                     {"low": f"{low:g}", "high": f"{high:g}"}))
    return value


def written(settings: Mapping[str, Any], key: str) -> str:
    """Setting ``key`` as the config file writes it: ``stop = 40``, or ``[buttons.leds]`` for
    a section within a section written as its header.

    >>> written({"seats": [22, 40]}, "seats")
    'seats = [22, 40]'
    >>> written({"leds": Table({"stop": 5}, header="buttons.leds")}, "leds")
    '[buttons.leds]'
    """
    value = settings[key]
    return f"[{value.header}]" if isinstance(value, Table) else f"{key} = {as_written(value)}"


def as_written(value: Any) -> str:
    """``value`` as the config file writes it, for messages: “fast”, true, 0.05, [22, "a"].

    >>> as_written(True), as_written([22, "a"]), as_written({"pin": 4}), as_written(float("nan"))
    ('true', '[22, "a"]', '{ pin = 4 }', 'nan')
    >>> as_written(17.0), as_written(0.05), as_written(1e20)  # not 17, as a whole number is
    ('17.0', '0.05', '1e+20')
    >>> as_written(1234567.0), as_written(0.1234567)  # every digit, not 1.23457e+06
    ('1234567.0', '0.1234567')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"“{value}”"
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same number
    if isinstance(value, list):
        return "[" + ", ".join(_inner(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{name} = {_inner(item)}" for name, item in value.items()) + " }"
    return str(value)


def _inner(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else as_written(value)


_KINDS: dict[type, str] = {int: "a whole number", float: "a number", str: "text",
                           bool: "true or false"}


def _why(err: Exception) -> str:
    if isinstance(err, UnicodeDecodeError):
        return "it is not UTF-8 text"
    return getattr(err, "strerror", None) or str(err)
