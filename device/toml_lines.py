"""A config file that TOML cannot read because of one section's lines: the file read without
that section, and each of its wrong lines as written, with why in a host's words.

>>> text = '[server]\\nport = 8017\\n[buttons]\\nstop = 17\\nshout = GPIO27\\n'
>>> try:
...     tomllib.loads(text)
... except tomllib.TOMLDecodeError as err:
...     data, wrong = read_without(text, "buttons".__eq__, err)
>>> data
{'server': {'port': 8017}, 'buttons': {'stop': 17}}
>>> [(line.number, line.text, line.why.key) for line in wrong]
[(5, 'shout = GPIO27', 'notice.config.toml_pin')]
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from device.notice import Notice

_HEADER = re.compile(r"\s*\[\s*([^\[\]]*?)\s*\]\s*(#.*)?")
_NAME = re.compile(r"(?![0-9_.-]*$)(?!(?:true|false|[+-]?(?:inf|nan))$)[\w.-]+")
"""A section's name as a list cannot hold it: a bare word, not a number, true or false."""
_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_PIN = re.compile(r"\s*(?:gpio|pin)\s*_?\s*(\d+)\s*(#.*)?", re.IGNORECASE)
_PART = r"""(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s"'=.,:{}\[\]#]+)"""
_PARTS = re.compile(_PART)
_DOTTED = rf"{_PART}(?:\s*\.\s*{_PART})*"
_WRITES = re.compile(rf"""(?P<name>{_DOTTED})\s*=(?P<table>\s*{{)?
                         |(?P<text>"(?:[^"\\\n]|\\.)*"|'[^'\n]*')|(?P<close>}})|\#""", re.VERBOSE)
"""In a line, a setting's name before its ``=`` (a value written ``{`` after it), a quoted
text, the close of a value written ``{ … }``, or its comment."""
_LEADS = re.compile(rf"\s*({_DOTTED})")
_VALUE = re.compile(r"""\s*("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^,}#]*)""")
# tomllib's reasons, as a host may read them (the first words of its message)
_REASONS = (("Cannot declare", "notice.config.toml_twice"),
            ("Cannot overwrite", "notice.config.toml_twice"),
            ("Unclosed array", "notice.config.toml_list"),
            ("Expected '='", "notice.config.toml_equals"),
            ("Expected newline", "notice.config.toml_after"),
            ("Invalid value", "notice.config.toml_value"))


@dataclass(frozen=True)
class WrongLine:
    """A line TOML refuses: its number (from 1), its text as written, why (for the phones),
    TOML's own words for it (for the host's log), and the names of the settings it writes
    (:func:`names_written`)."""

    number: int
    text: str
    why: Notice
    reason: str
    names: tuple[str, ...]


def read_without(text: str, owns: Callable[[str], bool],
                 err: tomllib.TOMLDecodeError) -> tuple[dict[str, Any], list[WrongLine]] | None:
    """``text`` (which ``err`` refuses) read without the wrong lines of the sections whose
    names ``owns``: the file's sections, those holding the lines of them that can be read, and
    the wrong lines; None when ``err`` is not in those sections or the rest of the file is
    wrong too."""
    lines = text.splitlines()
    own = _section_lines(lines, owns)
    if _setting_index(lines, err) not in own:
        return None
    try:
        data = tomllib.loads("\n".join("" if i in own else line for i, line in enumerate(lines)))
    except tomllib.TOMLDecodeError:
        return None
    kept = [line if i in own else "" for i, line in enumerate(lines)]
    wrong: list[WrongLine] = []
    while True:
        try:
            sections = tomllib.loads("\n".join(kept))
            break
        except tomllib.TOMLDecodeError as refused:
            setting = _setting_index(kept, refused)
            if setting is None:
                return None
            wrong.append(_wrong_line(setting, kept[setting], refused))
            kept[setting] = ""
    if not wrong:
        return None
    return {**data, **sections}, sorted(wrong, key=lambda line: line.number)


def refused_line(text: str, owns: Callable[[str], bool],
                 err: tomllib.TOMLDecodeError) -> WrongLine | None:
    """The line of ``text`` (which ``err`` refuses) that TOML refuses outside the sections whose
    names ``owns``, as written and why; the line ``err`` names where the rest is right; None
    when it names none.

    >>> text = '[buttons]\\nstop = 17,\\n[server]\\nport = 8017,\\n'
    >>> try:
    ...     tomllib.loads(text)
    ... except tomllib.TOMLDecodeError as err:
    ...     line = refused_line(text, "buttons".__eq__, err)
    >>> line.number, line.text, line.why.key
    (4, 'port = 8017,', 'notice.config.toml_after')
    >>> try:
    ...     tomllib.loads("[camera\\nfps = 5\\n")
    ... except tomllib.TOMLDecodeError as err:
    ...     line = refused_line("[camera\\nfps = 5\\n", "buttons".__eq__, err)
    >>> line.number, line.text, line.why.key
    (1, '[camera', 'notice.config.toml_header')
    """
    lines = text.splitlines()
    own = _section_lines(lines, owns)
    outside = ["" if i in own else line for i, line in enumerate(lines)]
    try:
        tomllib.loads("\n".join(outside))
    except tomllib.TOMLDecodeError as refused:
        lines, err = outside, refused
    at = _setting_index(lines, err)
    if at is None:
        return None
    # (outside [buttons], no setting is a list of several lines)
    return _wrong_line(at, lines[at], err, header=lines[at].lstrip().startswith("["))


def headers(text: str) -> dict[tuple[str, ...], str]:
    """The section headers ``text`` writes (outside a text of several lines): each one's names
    (``("buttons", "leds")``) and its name as written (``buttons . leds``).

    >>> headers("[buttons]\\n[ buttons . 'leds' ]  # LEDs\\nnote = '''\\n[x.y]\\n'''\\n")
    {('buttons',): 'buttons', ('buttons', 'leds'): "buttons . 'leds'"}
    """
    lines = text.splitlines()
    written: dict[tuple[str, ...], str] = {}
    for line, in_text in zip(lines, _in_texts(lines), strict=True):
        header = None if in_text else _HEADER.fullmatch(line)
        if header is not None:
            written[tuple(name.strip().strip("\"'") for name in header[1].split("."))] = header[1]
    return written


def names_written(line: str) -> tuple[str, ...]:
    """The names of the settings ``line`` writes, read as well as a line TOML cannot read
    allows: each before an ``=``, its parts joined by dots, quotes removed, a setting of a value
    written ``{ … }`` named after it; with no ``=``, the name it starts with.

    >>> names_written("server . 'host' = 127.0.0.1  # host = 1")
    ('server.host',)
    >>> names_written('leds = { stop = 5, "Port" = 90, note = "a = b" }, x = {y = { z = 1 }}')
    ('leds', 'leds.stop', 'leds.Port', 'leds.note', 'x', 'x.y', 'x.y.z')
    >>> names_written("host: 127.0.0.1"), names_written("# host: 1")
    (('host',), ())
    """
    names: list[str] = []
    within: list[str] = []  # the names of the values written { … } that the line is in
    for found in _WRITES.finditer(line):
        if found["name"]:
            names.append(".".join([*within, _joined(found["name"])]))
            if found["table"]:
                within.append(_joined(found["name"]))
        elif found["close"]:
            within = within[:-1]
        elif not found["text"]:  # the comment
            break
    if not names and (lead := _LEADS.match(line)):
        names.append(_joined(lead[1]))
    return tuple(names)


def value_written(line: str, name: str) -> str | None:
    """The value ``line`` gives setting ``name`` (dotted, as :func:`names_written` names it),
    as written: a quoted text whole, else up to a comma, a ``}`` or a comment; None where it
    writes none.

    >>> value_written("leds = { stop = 5, max_streams = 5,, }", "leds.max_streams")
    '5'
    >>> value_written("host: 127.0.0.1  # mine", "host"), value_written("'host' = '::1'", "host")
    ('127.0.0.1', "'::1'")
    """
    within: list[str] = []
    for found in _WRITES.finditer(line):
        if found["name"]:
            dotted = ".".join([*within, _joined(found["name"])])
            if found["table"]:
                within.append(_joined(found["name"]))
            elif dotted == name:
                return _value(line[found.end():])
        elif found["close"]:
            within = within[:-1]
        elif not found["text"]:  # the comment
            break
    lead = _LEADS.match(line)
    if lead and _joined(lead[1]) == name and "=" not in line:
        return _value(line[lead.end():].lstrip().removeprefix(":"))
    return None


def _value(rest: str) -> str | None:
    """The value that ``rest`` (what follows a setting's ``=``) starts with, as written."""
    found = _VALUE.match(rest)
    return found[1].strip() if found and found[1].strip() else None


def _joined(name: str) -> str:
    """A dotted name as written (``leds . "host"``), its parts joined by dots, quotes removed."""
    return ".".join(part.strip("\"'") for part in _PARTS.findall(name))


def _section_lines(lines: list[str], owns: Callable[[str], bool]) -> set[int]:
    """The indexes of the lines of the sections whose names ``owns``, from each of their headers
    to the next line that starts with ``[`` outside a text of several lines and outside a list
    of several lines: a header written wrong ends one too, and stays with the rest of the file.
    Within a list left open, a line written as a section's header (a name, which no list
    holds) is one: the list is not closed.

    >>> lines = ["[buttons]", "stop = 17", "[server]]", "port = 80"]
    >>> sorted(_section_lines(lines, "buttons".__eq__))
    [0, 1]
    >>> lines = ["[buttons]", "seats = [", "[22, 23]]", "[camera]", "[buttons]", "x = [1,",
    ...          "[camera]"]
    >>> sorted(_section_lines(lines, "buttons".__eq__))
    [0, 1, 2, 4, 5]
    """
    own: set[int] = set()
    inside = False
    depth = 0  # the lists open
    for i, (line, in_text) in enumerate(zip(lines, _in_texts(lines), strict=True)):
        header = None if in_text else _HEADER.fullmatch(line)
        if not in_text and line.lstrip().startswith("[") and (
                depth == 0 or (header is not None and _NAME.fullmatch(header[1]))):
            inside = header is not None and owns(header[1].strip("\"'"))
            depth = 0
        else:
            depth = max(0, depth + _read_line(line, in_text)[0])
        if inside:
            own.add(i)
    return own


def _setting_index(lines: list[str], err: tomllib.TOMLDecodeError) -> int | None:
    """The line index of the setting ``err`` is in: the line it is told on, or the last one
    written before it; a list left open is told at the start of the line after it, at the end,
    or on the header of the section after it, so it is the nearest line above that opens more
    lists than it closes.

    >>> def wrong(lines):
    ...     try:
    ...         tomllib.loads("\\n".join(lines))
    ...     except tomllib.TOMLDecodeError as err:
    ...         return lines[_setting_index(lines, err)]
    >>> wrong(["seats = [22, 23", "stop_led = 5", "shout = 27"])
    'seats = [22, 23'
    >>> wrong(["seats = [", "22, 23]", "leds = [5,", "stop = 17"])  # (a comma after the last)
    'leds = [5,'
    >>> wrong(["seats = [22, 23,", "[camera]"])
    'seats = [22, 23,'
    """
    told = _AT.search(str(err))
    at = int(told[1]) - 1 if told else len(lines)  # (past the last line: told at the end)
    # told within a line's text, a list is open on that line; at its start, above it
    within = told is not None and at < len(lines) \
        and int(told[2]) > len(lines[at]) - len(lines[at].lstrip()) + 1
    header = at < len(lines) and lines[at].lstrip().startswith("[")
    if str(err).startswith("Unclosed array") or (
            str(err).startswith("Invalid value") and (header or not within)):
        in_texts = _in_texts(lines)
        still_open = 0  # the lists opened from the line looked at to the one told
        for i in range(at if within else min(at, len(lines)) - 1, -1, -1):
            still_open += _read_line(lines[i], in_texts[i])[0]
            if still_open > 0:
                return i
    for i in range(min(at, len(lines) - 1), -1, -1):
        if lines[i].strip() and not lines[i].lstrip().startswith("#"):
            return i
    return None


def _read_line(line: str, text: str = "") -> tuple[int, str]:
    """How many more lists ``line`` opens than it closes (its brackets outside quoted text,
    before its comment), and the quotes of the text of several lines still open at its end
    ("" for none); ``text``: the quotes of the one it starts inside.

    >>> [_read_line(line)[0] for line in ('seats = [22, 23  # ]', '# old: [21', 'a = "[#"')]
    [1, 0, 0]
    >>> [_read_line(line)[0] for line in ('a = [22, "b\\\\"]", 2', 'a = ["b\\\\\\\\", 2')]
    [1, 1]
    >>> _read_line('note = \"\"\"[red'), _read_line('stop] [red]\"\"\" # ]', '\"\"\"')
    ((0, '\"\"\"'), (0, ''))
    """
    opened, quote, i = 0, text, 0
    while i < len(line):
        if quote:
            if line[i] == "\\" and quote[0] == '"':  # an escape: the next character is text
                i += 2
                continue
            if line.startswith(quote, i):
                i, quote = i + len(quote), ""
                continue
        elif line.startswith(('"""', "'''"), i):
            i, quote = i + 3, line[i:i + 3]
            continue
        elif line[i] in "\"'":
            quote = line[i]
        elif line[i] == "#":
            break
        else:
            opened += {"[": 1, "]": -1}.get(line[i], 0)
        i += 1
    return opened, quote if len(quote) == 3 else ""


def _in_texts(lines: list[str]) -> list[str]:
    """For each line, the quotes of the text of several lines it starts inside ("" for none).
    A text left open to the end of the file is a mistake: the lines after it are read as
    lines."""
    texts: list[str] = []
    text, opened_at = "", 0
    for i, line in enumerate(lines):
        texts.append(text)
        if not text:
            opened_at = i
        text = _read_line(line, text)[1]
    if text:
        texts[opened_at + 1:] = [""] * (len(lines) - opened_at - 1)
    return texts


def _wrong_line(index: int, line: str, err: tomllib.TOMLDecodeError, *,
                header: bool = False) -> WrongLine:
    """Line ``index`` (from 0), ``line``, which ``err`` refuses (a section's ``header``, or a
    setting), as written and why."""
    key, _, value = line.partition("=")
    why = Notice("notice.config.toml_header") if header else _why(err, key.strip(), value, line)
    return WrongLine(index + 1, line.strip(), why, str(err), names_written(line))


def _why(err: tomllib.TOMLDecodeError, key: str, value: str, line: str) -> Notice:
    """Why TOML refuses ``line`` (``err``), setting ``key`` = ``value``, as a notice's message
    key."""
    pin = _PIN.fullmatch(value)
    if pin:
        return Notice("notice.config.toml_pin", {"pin": int(pin[1])})
    if str(err).startswith("Invalid value") and _read_line(line)[0] > 0:
        return Notice("notice.config.toml_list")  # (a list left open, a comma after its last)
    for start, reason in _REASONS:
        if str(err).startswith(start):
            return Notice(reason, {"name": key} if reason.endswith("_twice") else {})
    return Notice("notice.config.toml_line")
