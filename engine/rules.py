"""The contract every game module fulfils, and the registry that finds them by name.

A game module (in the spirit of OpenSpiel) declares its facts (name, player counts, header
options) and registers one :class:`Rules` object. Its transitions are pure: a state and an
action in, a new state out, or :class:`~engine.errors.IllegalAction`. Chance (a roll, a card
seen) enters as an explicit action, so a camera, a phone and a test feed it the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, ClassVar, Generic, TypeVar

from engine.errors import IllegalAction, Many, Shown

S = TypeVar("S")
A = TypeVar("A")

JSONDict = dict[str, Any]


class Rules(ABC, Generic[S, A]):
    """One game's rules: set-up, action parsing, transitions and what players may see."""

    name: ClassVar[str]
    """The id a record's header names in ``game``."""
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[frozenset[str]]
    """Header keys this game takes besides ``game`` and ``players``."""

    @abstractmethod
    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> S:
        """The state before the first action; refuses bad options with IllegalAction."""

    @abstractmethod
    def parse_action(self, kind: str, value: object) -> A:
        """Turn one record action (``{kind: value}``) into an action object."""

    @abstractmethod
    def action_to_json(self, action: A) -> JSONDict:
        """The one-key record object of an action (inverse of :meth:`parse_action`)."""

    def public_actions(self, actions: Sequence[A]) -> list[JSONDict]:
        """The record objects of ``actions`` as a player at the table may see them.

        By default everything; a game with hidden information leaves out what is hidden.
        """
        return [self.action_to_json(a) for a in actions]

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """The state after ``action``, or IllegalAction saying why not."""

    @abstractmethod
    def public_view(self, state: S) -> JSONDict:
        """What a player at the table may see, as JSON (see docs/state-view.md)."""

    @abstractmethod
    def hints(self, state: S) -> JSONDict:
        """The engine's advice for the situation on the table, as JSON."""

    @abstractmethod
    def random_action(self, state: S, rng: Random) -> A:
        """A legal action chosen with ``rng`` (chance included); for tests and benchmarks."""

    @abstractmethod
    def describe(self, state: S) -> str:
        """The state as a few lines of plain text for a terminal."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """True once the game has ended."""


_REGISTRY: dict[str, Rules[Any, Any]] = {}

NOT_PLAYED = "this table does not play that game; it plays {known}"
"""The refusal of a header whose game is none of this table's (its games by their titles: a
player starting a game reads them); its ``game`` is the value read, which dicetable replay
names with the id a record gives the game."""


def register(rules: Rules[S, A]) -> Rules[S, A]:
    """Make a game findable by its name; returns it so a module can keep a handle."""
    _REGISTRY[rules.name] = rules
    return rules


def rules_for(name: object) -> Rules[Any, Any]:
    """The registered rules of game ``name``.

    >>> rules_for("dalek").title
    'Dalek Dice'
    >>> rules_for("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: this table does not play that game; it plays Dalek Dice, ...
    """
    if isinstance(name, str) and name in _REGISTRY:
        return _REGISTRY[name]
    raise IllegalAction(NOT_PLAYED, known=Many(rules.title for rules in _REGISTRY.values()),
                        game=Shown(name))


def game_names() -> tuple[str, ...]:
    """The names of all registered games, in registration order."""
    return tuple(_REGISTRY)
