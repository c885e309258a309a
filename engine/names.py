"""The players' names of a header, and which rules they are held to.

RULES.md asks of a record's names only that they be unique and not empty: a record written
elsewhere keeps its names as written, however long, spaces and all. A new game at this table
is held to how a name looks on the score pad too (the pad trims it and takes at most
MAX_NAME_LENGTH letters). A journal's header keeps the names it was accepted with.

>>> from engine.dalek import DalekRules
>>> header_players(["Maria Fernanda de Oliveira", " Ben "], DalekRules(), NameRules.RECORD)
('Maria Fernanda de Oliveira', ' Ben ')
>>> header_players(["Ana", " Ben "], DalekRules(), NameRules.TABLE)
Traceback (most recent call last):
...
engine.errors.IllegalAction: a name neither starts nor ends with a space: " Ben "
"""

from __future__ import annotations

import unicodedata
from enum import Enum
from typing import Any

from engine.checks import same_name
from engine.errors import CONTROLLED, IllegalAction, Shown
from engine.rules import Rules

MAX_NAME_LENGTH = 24
"""The most letters a name entered at this table has (the score pad's field)."""


class NameRules(Enum):
    """Which rules a header's names are held to."""

    TABLE = "table"
    """A new game set up at this table: RULES.md's, and how a name looks on the score pad (no
    space at either end, at most MAX_NAME_LENGTH letters)."""
    RECORD = "record"
    """A record written elsewhere: RULES.md's (unique, not empty), the names as written; like
    every name, none holds a line break or another control character."""
    JOURNAL = "journal"
    """A header the journal kept since it was accepted: its names as they were then (a later
    version's rules for names do not shut out a game played)."""


def header_players(value: object, game: Rules[Any, Any], names: NameRules) -> tuple[str, ...]:
    """The names of a header's ``players`` (as many as ``game`` is for) held to ``names``, or
    IllegalAction naming what is wrong."""
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise IllegalAction("players must be a list of names, not {value}", value=Shown(value))
    given = tuple(value)
    if not game.min_players <= len(given) <= game.max_players:  # before any check of each
        raise IllegalAction("{game} is for {low} to {high} players, not {count}",
                            game=game.title, low=game.min_players, high=game.max_players,
                            count=len(given))
    if names is not NameRules.JOURNAL:
        _check_names(given)
    if names is NameRules.TABLE:
        _check_looks(given)
    alike = list(given) if names is NameRules.JOURNAL else [same_name(n) for n in given]
    twice = [n for n, a in zip(given, alike, strict=True) if alike.count(a) > 1]
    if twice:
        raise IllegalAction("two players have the same name: {name}", name=twice[0])
    return given


def _check_names(names: tuple[str, ...]) -> None:
    """What every name is: something shown, without control characters."""
    controlled = [n for n in names if CONTROLLED.search(n)]  # what a refusal shows escaped
    if controlled:
        raise IllegalAction("a name cannot hold line breaks or other control characters: "
                            "{name}", name=Shown(controlled[0]))
    if not all(_shows(n) for n in names):
        raise IllegalAction("every player needs a name")


def _check_looks(names: tuple[str, ...]) -> None:
    """How a new game's names look at this table: without outer spaces, at most
    MAX_NAME_LENGTH letters."""
    spaced = [n for n in names if n != n.strip()]
    if spaced:
        raise IllegalAction("a name neither starts nor ends with a space: {name}",
                            name=Shown(spaced[0]))
    if any(len(n) > MAX_NAME_LENGTH for n in names):
        raise IllegalAction("a name has at most {count} letters", count=MAX_NAME_LENGTH)


def _shows(name: str) -> bool:
    """Whether a name shows something: a letter, digit, mark or symbol (an emoji counts)."""
    return any(unicodedata.category(c)[0] in "LNPS" for c in name)
