"""Turn order for the games scored to a target (Dicy Cards, Dalek Dice): after the last
listed player's turn a round is finished, and a finished round in which someone reached the
target ends the game, so that everyone has had the same number of turns.

>>> after_turn(2, players=3, round=4, scores=(99, 101, 40), target=100)
(0, 4, True)
>>> after_turn(0, players=3, round=4, scores=(120, 0, 0), target=100)
(1, 4, False)
"""

from __future__ import annotations


def after_turn(player: int, *, players: int, round: int, scores: tuple[int, ...],
               target: int) -> tuple[int, int, bool]:
    """Who plays next, in which round, and whether the game is over instead."""
    following = (player + 1) % players
    if following != 0:
        return following, round, False
    if max(scores) >= target:
        return following, round, True
    return following, round + 1, False
