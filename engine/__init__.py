"""The rules engine: pure game logic for Dicy Cards, Dalek Dice and 17.

No I/O, no clock, no hidden randomness. A game record (RULES.md) is both its input and its
export; :func:`read_record` replays one into a :class:`Game`.

>>> game = Game.start({"game": "17", "players": ["Ana", "Ben"]})
>>> game.view()["tokens"]["Ana"]
{'victory': 0, 'penalty': 0}
"""

from engine import dalek, dicy, seventeen
from engine.errors import EngineError, IllegalAction, RecordError, Refusal
from engine.game import VIEW_VERSION, Game
from engine.names import NameRules
from engine.record import parse_lines, read_record, write_record
from engine.rules import Rules, game_names, rules_for

__all__ = [
    "VIEW_VERSION",
    "EngineError",
    "Game",
    "IllegalAction",
    "NameRules",
    "RecordError",
    "Refusal",
    "Rules",
    "dalek",
    "dicy",
    "game_names",
    "parse_lines",
    "read_record",
    "rules_for",
    "seventeen",
    "write_record",
]
