"""Small validators shared by the game modules for values read from records and phones.

Each one returns the value in a precise type or raises IllegalAction naming what was wrong.
The caller gives the refusal's template; the validator fills in ``{value}`` (the bad value as
written) and the fields it knows (``{low}``, ``{high}``, ``{options}``).

>>> as_list([1, 2], A_LIST, key="roll")
[1, 2]
>>> as_list(3, A_LIST, key="roll")
Traceback (most recent call last):
...
engine.errors.IllegalAction: write roll as a list in square brackets, not 3
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.errors import IllegalAction, Key, Many, Shown

A_LIST = "write {key} as a list in square brackets, not {value}"
"""The refusal of a record key whose value must be a list (``{key}`` the key)."""


def as_list(value: object, template: str, /, **params: object) -> list[Any]:
    """``value`` as a list, or IllegalAction."""
    if not isinstance(value, list):
        raise IllegalAction(template, value=Shown(value), **params)
    return value


def as_object(value: object, key: str, keys: Iterable[str],
              named: Callable[[str], object] = Key) -> Mapping[str, Any]:
    """``value`` (the value of record key ``key``) as a JSON object whose keys are all among
    ``keys`` (``named`` tells a refusal what they are: record keys, or e.g. card ids), or
    IllegalAction."""
    if not isinstance(value, Mapping):
        raise IllegalAction("write {key} with its details in curly brackets, not {value}",
                            key=Key(key), value=Shown(value))
    allowed = sorted(keys)
    unknown = Many(Shown(str(k)) for k in sorted(str(k) for k in value if k not in allowed))
    if unknown and allowed:
        raise IllegalAction("{key} does not take {unknown} (it takes {expected})", key=Key(key),
                            unknown=unknown, expected=Many(named(k) for k in allowed))
    if unknown:
        raise IllegalAction("{key} does not take {unknown} (its curly brackets stay empty)",
                            key=Key(key), unknown=unknown)
    return value


def as_int(value: object, template: str, low: int, high: int, /, **params: object) -> int:
    """``value`` as an int in ``low..high`` (``6.0`` is 6), or IllegalAction (booleans and
    text are not numbers).

    >>> as_int(7, "a die shows {low} to {high}, not {value}", 1, 6)
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: a die shows 1 to 6, not 7

    A number in range written as text is told so:

    >>> as_int("6", "a die shows {low} to {high}, not {value}", 1, 6)
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: "6" must be a number, written without quotes: 6
    """
    if isinstance(value, str) and value.strip().isdecimal() and low <= int(value) <= high:
        raise IllegalAction("{value} must be a number, written without quotes: {number}",
                            value=Shown(value), number=Shown(int(value)))
    number = _whole_number(value)  # 6.0 is 6 in JSON
    if number is None or not low <= number <= high:
        shown = value if number is None else number
        raise IllegalAction(template, low=low, high=high, value=Shown(shown), **params)
    return number


def as_choice(value: object, template: str, choices: Iterable[str], /,
              **params: object) -> str:
    """``value`` as one of ``choices``, or IllegalAction listing them as ``{options}`` (the
    choices as given: enums, :class:`Key` or plain text).

    A number written where one of the choices is that number as text is told so (the list
    would show the number among the choices):

    >>> as_choice(5, "a card must be one of {options}, not {value}", ["4", "5"])
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: the number 5 must be written as text, in quotes: "5"
    """
    options = list(choices)
    if isinstance(value, str) and value in options:
        return value
    if (number := _whole_number(value)) is not None and str(number) in options:
        raise IllegalAction("the number {value} must be written as text, in quotes: {text}",
                            value=Shown(number), text=Shown(str(number)))
    raise IllegalAction(template, options=Many(options), value=Shown(value), **params)


def _whole_number(value: object) -> int | None:
    """``value`` if it is a whole number (``5.0`` is 5); None for anything else."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def as_player(value: object, players: tuple[str, ...]) -> str:
    """``value`` as the name of a player at the table (as the header spells it: the same
    letters written another way are the same name), or IllegalAction."""
    if isinstance(value, str):
        if value in players:
            return value
        for player in players:
            if same_name(player) == same_name(value):
                return player
    raise IllegalAction("{value} is not playing; the players are {names}",
                        value=Shown(value), names=Many(players))


def same_name(name: str) -> str:
    """What two names that read the same have in common: their letters composed one way
    (Unicode NFC), without characters that show nothing (a zero-width space).

    >>> same_name("Zoe\u0308") == same_name("Zo\u00eb"), same_name("An\u200ba")
    (True, 'Ana')
    """
    return "".join(c for c in unicodedata.normalize("NFC", name)
                   if unicodedata.category(c) != "Cf")


def as_empty(value: object, key: str) -> None:
    """Accept only ``{}`` (the value of actions such as ``stop`` and ``skip``).

    >>> as_empty([], "stop")
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: write stop with empty curly brackets, not []
    """
    if not isinstance(value, Mapping):
        raise IllegalAction("write {key} with empty curly brackets, not {value}", key=Key(key),
                            value=Shown(value))
    as_object(value, key, ())
