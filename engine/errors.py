"""The one error hierarchy of the engine, and the refusals a player reads.

Every refusal names the bad input and the state it met, in words a player understands. It is
a template with named fields plus their values, so that the score pad can show it in the
player's language (``web/i18n/*.json`` hold every template); ``str()`` is the English text.

The values are language-neutral: names, numbers, the games' own enums (card ids, Dalek faces),
dice written as text, and the small types below, which tell a translator what a value is: a
:class:`Key` of the record (an action kind or field), :class:`Many` values listed, a
:class:`Shown` bad input as it was written, an :class:`Action` line of the record. Their
``str()`` is the English text; the score pad shows each in the phone's language (card names,
faces and actions as the page shows them, never code). Every word a player reads is in a
template. A value may itself be a :class:`Refusal`: the
inner refusal of one that wraps it (``Game`` naming the replayed action that is refused,
:class:`RecordError` naming the line, both as ``reason``), or a clause (what a Dicy Cards turn
waits for). A translator translates each template and puts the inner text into the outer.

>>> issubclass(IllegalAction, ValueError)
True
>>> err = IllegalAction("it is {player}'s turn, not {other}'s", player="Ana", other="Ben")
>>> str(err), err.template, err.params["player"]
("it is Ana's turn, not Ben's", "it is {player}'s turn, not {other}'s", 'Ana')
>>> wrapped = RecordError(3, err)
>>> str(wrapped), wrapped.template, wrapped.params["reason"] is err
("line 3: it is Ana's turn, not Ben's", 'line {line}: {reason}', True)
>>> LIST = "write {key} as a list in square brackets, not {value}"
>>> str(IllegalAction(LIST, key=Key("roll"), value=Shown("H4")))
'write roll as a list in square brackets, not "H4"'
>>> str(Many(["Ana", "Ben"])), str(Shown([1, True]))
('Ana, Ben', '[1, true]')
>>> to_json(IllegalAction(LIST, key=Key("roll"), value=Shown(3)))
... # doctest: +NORMALIZE_WHITESPACE
{'template': 'write {key} as a list in square brackets, not {value}',
 'params': {'key': {'key': 'roll'}, 'value': {'shown': 3}}}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any


class Key(str):
    """A key of the record: an action kind (``roll``) or one of its fields (``card``)."""

    __slots__ = ()


class Many(tuple[Any, ...]):
    """Several values of one kind (names, card ids, faces), listed with commas."""

    def __new__(cls, values: Iterable[Any]) -> Many:
        return super().__new__(cls, values)

    def __str__(self) -> str:
        return ", ".join(str(v) for v in self)


def and_listed(names: Iterable[str]) -> str:
    """Names as a sentence lists them.

    >>> and_listed(["Ana"]), and_listed(["Ana", "Ben", "Dai"])
    ('Ana', 'Ana, Ben and Dai')
    """
    *first, last = names
    return f"{', '.join(first)} and {last}" if first else last


SHOWN_CHARS = 80  # a value longer than this is shown cut short
UNSHOWN = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Characters JSON leaves as they are that would break or turn round the text they are shown
in (control characters past ASCII's first 32, Unicode's line and paragraph breaks, reordering
marks): shown as ``\\uXXXX``."""


CONTROLLED = re.compile(f"[\x00-\x1f]|{UNSHOWN.pattern}")
"""What a word quoted in a refusal shows escaped: ASCII's first 32 (which JSON escapes), and
the characters above."""


def shown_words(words: str) -> str:
    """Words that were not understood, as a refusal quotes them (the score pad, in the phone's
    quotes): a character that would break or turn round the text escaped, cut short past
    SHOWN_CHARS.

    >>> print(shown_words("A\\nna\\u202e"), len(shown_words("x" * 500)))
    A\\u000ana\\u202e 80
    """
    return _cut(CONTROLLED.sub(_escaped, words))


def _escaped(char: re.Match[str]) -> str:
    return f"\\u{ord(char[0]):04x}"


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


class Shown:
    """A value that was not understood, as it was written (JSON text, a character that would
    break or turn round the text escaped), cut short past SHOWN_CHARS.

    >>> print(Shown("A\\nna"), Shown("\\u202eAna"))
    "A\\nna" "\\u202eAna"
    """

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __str__(self) -> str:
        try:
            text = json.dumps(self.value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(self.value)
        return _cut(UNSHOWN.sub(_escaped, text))


class Action:
    """One action of the record, as the table may see it (a JSON line)."""

    __slots__ = ("game", "line")

    def __init__(self, game: str, line: Mapping[str, Any]) -> None:
        self.game = game
        self.line = dict(line)

    def __str__(self) -> str:
        return json.dumps(self.line, separators=(", ", ": "), ensure_ascii=False)


class Refusal(Exception):
    """A message for the players: ``template`` with named fields, and their ``params``."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


class EngineError(Refusal):
    """Base class of everything the engine refuses."""


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow in the current state (or a malformed one)."""


class RecordError(EngineError, ValueError):
    """A game-record line that cannot be read or replayed: its 1-based line number, and the
    refusal met there as its ``reason``."""

    def __init__(self, line: int, reason: EngineError) -> None:
        super().__init__("line {line}: {reason}", line=line, reason=reason)
        self.line = line
        self.reason = reason


def to_json(value: object) -> Any:
    """A refusal (or one of its values) as JSON that keeps what each value is, so that it can
    travel (e.g. in the camera's question) and still be shown in any language: a refusal is
    ``{"template", "params"}``, a :class:`Key` ``{"key"}``, :class:`Many` ``{"many": [...]}``,
    :class:`Shown` ``{"shown"}``, an :class:`Action` ``{"action", "game"}``, an enum of a
    game ``{"enum": "module.Class", "value"}``; names and numbers stay as they are."""
    if isinstance(value, Refusal):
        return {"template": value.template,
                "params": {k: to_json(v) for k, v in value.params.items()}}
    if isinstance(value, Enum):
        kind = type(value)
        return {"enum": f"{kind.__module__}.{kind.__qualname__}", "value": value.value}
    if isinstance(value, Key):
        return {"key": str(value)}
    if isinstance(value, Many):
        return {"many": [to_json(v) for v in value]}
    if isinstance(value, Shown):
        return {"shown": value.value if _is_json(value.value) else str(value)}  # cut where shown
    if isinstance(value, Action):
        return {"action": value.line, "game": value.game}
    return value


def _is_json(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
