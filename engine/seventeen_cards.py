"""The cards of 17 (Diciassette): their ids, worth and backs, and the deck a game uses.

>>> Card("3d").points, Card("3d").double_sided, Card("trap").points
(3, True, 0)
>>> deck = Deck.from_header({"trap": 2})
>>> deck.count(Card.TRAP), deck.count(Card.ONE), deck.total
(2, 3, 67)
>>> str(too_many(deck, Card.TRAP))
'the deck has only 2 trap cards'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from engine.checks import as_int, as_object
from engine.errors import IllegalAction

MAX_COUNT = 99
"""The most cards of one id a deck may hold."""


class Card(StrEnum):
    """Every card id: numbers on the front only, numbers on both sides, and the specials."""

    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    ONE_D = "1d"
    TWO_D = "2d"
    THREE_D = "3d"
    FOUR_D = "4d"
    FIVE_D = "5d"
    REVERSE = "reverse"
    X2 = "x2"
    TRASH = "trash"
    TRAP = "trap"

    @property
    def double_sided(self) -> bool:
        """True for the numbers printed on both sides (a face-down one shows its number)."""
        return self.value.endswith("d")

    @property
    def special(self) -> bool:
        """True for ``reverse``, ``x2``, ``trash`` and ``trap``."""
        return not self.value[0].isdigit()

    @property
    def points(self) -> int:
        """What the card adds to the row's total (specials are worth 0, on either face)."""
        return 0 if self.special else int(self.value[0])


PLAIN_BACKS = tuple(c for c in Card if not c.double_sided)
"""The cards whose back is plain: a face-down one is hidden until the call."""

DEFAULT_COUNTS: Mapping[Card, int] = {
    c: 7 if c.double_sided else 5 if c.special else 3 for c in Card
}
"""The split RULES.md settles for the 70 cards: 3 per front-only value, 7 per double-sided
value, 5 per special."""


@dataclass(frozen=True)
class Deck:
    """How many cards of each id the deck holds (in :class:`Card` order)."""

    counts: tuple[int, ...]

    @classmethod
    def from_header(cls, value: object) -> Deck:
        """The default deck with the counts a header's ``deck`` object overrides.

        >>> Deck.from_header({"joker": 1})
        Traceback (most recent call last):
        ...
        engine.errors.IllegalAction: deck does not take "joker" (it takes 1, 1d, 2, 2d, 3, 3d, \
4, 4d, 5, 5d, reverse, trap, trash, x2)
        """
        overrides = as_object(value, "deck", [c.value for c in Card], Card)
        counts = dict(DEFAULT_COUNTS)
        for key, count in overrides.items():
            card = Card(key)
            counts[card] = as_int(count, "the count of {card} cards shows {low} to {high}, "
                                  "not {value}", 0, MAX_COUNT, card=card)
        deck = cls(tuple(counts[c] for c in Card))
        if deck.total == 0:
            raise IllegalAction("the deck needs at least one card")
        return deck

    def count(self, card: Card) -> int:
        """Cards of id ``card`` in the deck."""
        return self.counts[_INDEX[card]]

    @property
    def total(self) -> int:
        """Cards in the deck."""
        return sum(self.counts)

    @property
    def plain_backs(self) -> int:
        """Cards with a plain back in the deck."""
        return sum(self.count(c) for c in PLAIN_BACKS)

    def items(self) -> Iterator[tuple[Card, int]]:
        """Each card id with its count, in :class:`Card` order."""
        return zip(Card, self.counts, strict=True)


_INDEX = {c: i for i, c in enumerate(Card)}


def too_many(deck: Deck, card: Card) -> IllegalAction:
    """The refusal for one card too many of an id in a round."""
    count = deck.count(card)
    if count == 0:
        return IllegalAction("the deck has no {card} cards", card=card)
    if count == 1:
        return IllegalAction("the deck has only 1 {card} card", card=card)
    return IllegalAction("the deck has only {count} {card} cards", count=count, card=card)
