"""Small validators shared by the game modules for values read from records and phones.

Each one returns the value in a precise type or raises IllegalAction naming what was wrong.

>>> as_list([1, 2], "roll")
[1, 2]
>>> as_list(3, "roll")
Traceback (most recent call last):
...
engine.errors.IllegalAction: roll needs a list, not 3
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.errors import IllegalAction


def as_list(value: object, what: str) -> list[Any]:
    """``value`` as a list, or IllegalAction."""
    if not isinstance(value, list):
        raise IllegalAction(f"{what} needs a list, not {value!r}")
    return value


def as_object(value: object, what: str, keys: Iterable[str]) -> Mapping[str, Any]:
    """``value`` as a JSON object whose keys are all among ``keys``, or IllegalAction."""
    if not isinstance(value, Mapping):
        raise IllegalAction(f"{what} needs an object, not {value!r}")
    allowed = set(keys)
    unknown = sorted(str(k) for k in value if k not in allowed)
    if unknown:
        expected = ", ".join(sorted(allowed)) or "no keys"
        raise IllegalAction(f"{what} does not take {', '.join(unknown)} (it takes {expected})")
    return value


def as_int(value: object, what: str, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``, or IllegalAction (booleans are not numbers).

    >>> as_int(7, "a die", 1, 6)
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: a die shows 1 to 6, not 7
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise IllegalAction(f"{what} shows {low} to {high}, not {value!r}")
    return value


def as_choice(value: object, what: str, choices: Iterable[str]) -> str:
    """``value`` as one of ``choices``, or IllegalAction listing them."""
    options = list(choices)
    if not isinstance(value, str) or value not in options:
        raise IllegalAction(f"{what} must be one of {', '.join(options)}, not {value!r}")
    return value


def as_player(value: object, players: tuple[str, ...]) -> str:
    """``value`` as the name of a player at the table, or IllegalAction."""
    if not isinstance(value, str) or value not in players:
        raise IllegalAction(f"{value!r} is not playing; the players are {', '.join(players)}")
    return value


def as_empty(value: object, what: str) -> None:
    """Accept only ``{}`` (the value of actions such as ``stop`` and ``skip``)."""
    as_object(value, what, ())
