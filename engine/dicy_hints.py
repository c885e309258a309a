"""Hints for the player with dice on the table: each active card's best selection and score.

>>> from engine.game import Game
>>> game = Game.start({"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"})
>>> game = game.play_json({"roll": [6, 6, 5, 2, 1, 1]})
>>> hints = game.hints()["cards"]
>>> hints["two-dice"], hints["no-six"]
({'dice': [6, 6], 'points': 12}, None)
"""

from __future__ import annotations

from engine.dicy import DicyState, Phase
from engine.dicy_cards import best
from engine.rules import JSONDict


def turn_hints(state: DicyState) -> JSONDict:
    """For each active card of the player to move, the best selection or None; else empty.

    Only while the dice lie on the table and the player decides (not while effect choices
    are owed). ``cards`` maps card ids, in row order, to ``{"dice", "points"}`` or None.
    """
    dice = state.turn.dice
    if state.phase is not Phase.PLAY or dice is None:
        return {}
    player = state.turn.player
    cards: JSONDict = {}
    for card in state.active(player):
        found = best(card, dice)
        cards[card.value] = None if found is None else {"dice": list(found.dice),
                                                        "points": found.points}
    return {"player": state.players[player], "dice": list(dice), "cards": cards}
