"""Statistics across the finished games of the table: per game, how many were played, and per
player the games, wins, best and average score (victory tokens in 17).

>>> from engine import Game
>>> game = Game.start({"game": "dalek", "players": ["Jenna", "Peter"], "target": 10})
>>> for line in [{"roll": ["H4"] * 3 + ["D3"] * 7}, {"keep": ["H4", "H4", "H4"]},
...              {"stop": {}}, {"roll": ["D2"] * 10}, {"keep": ["D2"]}, {"stop": {}}]:
...     game = game.play_json(line)
>>> stats = table_stats([final_of(game)])
>>> stats["games"]["dalek"]["played"], stats["games"]["dalek"]["players"]["Peter"]
(1, {'games': 1, 'wins': 0, 'best': 0, 'total': 0, 'average': 0.0})
>>> [(p["name"], p["wins"]) for p in stats["players"]]
[('Jenna', 0), ('Peter', 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine import Game


@dataclass(frozen=True)
class Final:
    """What the statistics take of one finished game: its kind, its players' final scores
    (in turn order) and its winners. Small: the table keeps one per finished game rather than
    replay them all for each look at the statistics."""

    game: str
    scores: Mapping[str, int]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The summary as the journal keeps it (:func:`final_from_json` reads it back)."""
        return {"game": self.game, "scores": dict(self.scores), "winners": list(self.winners)}


def final_from_json(data: Any) -> Final | None:
    """The :class:`Final` that ``data`` (from :meth:`Final.to_json`) holds; None where it
    holds none (garbled on disk).

    >>> final_from_json({"game": "dalek", "scores": {"Ana": 3}, "winners": ["Ana"]})
    Final(game='dalek', scores={'Ana': 3}, winners=('Ana',))
    >>> final_from_json({"game": "dalek", "scores": {"Ana": "3"}, "winners": []}) is None
    True
    """
    if not isinstance(data, dict) or data.keys() != {"game", "scores", "winners"}:
        return None
    game, scores, winners = data["game"], data["scores"], data["winners"]
    if not (isinstance(game, str) and isinstance(scores, dict) and isinstance(winners, list)
            and all(type(score) is int for score in scores.values())
            and all(isinstance(name, str) for name in winners)):
        return None
    return Final(game, scores, tuple(winners))


def final_of(game: Game) -> Final:
    """The end of a finished ``game``, for :func:`table_stats`."""
    view = game.view()
    return Final(str(view["game"]), {name: final_score(view, name) for name in view["players"]},
                 tuple(view["winners"]))


def table_stats(finals: Iterable[Final]) -> dict[str, Any]:
    """The finished games (oldest first) summed up: ``games`` per game id (``played``, and
    per player ``games``, ``wins``, ``best``, ``total``, ``average``) and ``players`` (the
    roster, most recent first: ``name``, ``games``, ``wins``)."""
    kinds: dict[str, dict[str, Any]] = {}
    roster: dict[str, dict[str, Any]] = {}
    last: dict[str, int] = {}
    for number, final in enumerate(finals):
        kind = kinds.setdefault(final.game, {"played": 0, "players": {}})
        kind["played"] += 1
        for name, score in final.scores.items():
            won = name in final.winners
            mine = kind["players"].setdefault(
                name, {"games": 0, "wins": 0, "best": score, "total": 0, "average": 0.0})
            mine["games"] += 1
            mine["wins"] += won
            mine["best"] = max(mine["best"], score)
            mine["total"] += score
            mine["average"] = round(mine["total"] / mine["games"], 1)
            seen = roster.pop(name, {"name": name, "games": 0, "wins": 0})
            seen["games"] += 1
            seen["wins"] += won
            roster[name] = seen
            last[name] = number
    players = sorted(roster.values(), key=lambda p: -last[p["name"]])
    return {"games": kinds, "players": players}


def final_score(view: dict[str, Any], name: str) -> int:
    """A player's score at the end: points, or victory tokens in 17."""
    if "scores" in view:
        return int(view["scores"][name])
    return int(view["tokens"][name]["victory"])
