"""Dalek Dice (2–8 players, 10 special dice), as RULES.md plays it.

>>> from engine.game import Game
>>> game = Game.start({"game": "dalek", "players": ["Jenna", "Peter"]})
>>> for line in [{"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]},
...              {"keep": ["H4", "H4", "H4", "D3", "D3", "D3"]},
...              {"roll": ["D3", "D2", "EXT"]}, {"keep": ["D3", "D2"]}]:
...     game = game.play_json(line)
>>> game.view()["scores"]
{'Jenna': 17, 'Peter': 0}
>>> game.play_json({"keep": ["H4"]})
Traceback (most recent call last):
...
engine.errors.IllegalAction: it is Peter's turn to roll 10 dice, not to keep
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from random import Random
from typing import Any

from engine.checks import A_LIST, as_choice, as_empty, as_int, as_list
from engine.errors import IllegalAction, Key, Many, and_listed
from engine.rounds import after_turn
from engine.rules import JSONDict, Rules, register

DICE = 10
DEFAULT_TARGET = 60
NO_DICE_BONUS = 5
TOP_LIMIT = 3


class Face(StrEnum):
    """The six faces of every Dalek die."""

    H4 = "H4"
    H2 = "H2"
    D3 = "D3"
    D2 = "D2"
    DOC = "DOC"
    EXT = "EXT"

    @property
    def humans(self) -> int:
        """Humans this face shows."""
        return {"H4": 4, "H2": 2}.get(self.value, 0)

    @property
    def daleks(self) -> int:
        """Daleks this face shows."""
        return {"D3": 3, "D2": 2}.get(self.value, 0)


TOP_FACES = (Face.DOC, Face.EXT)


class Ending(StrEnum):
    """How a turn ended."""

    STOP = "stop"
    NO_DICE = "no-dice"
    EXTERMINATE = "exterminate"
    DOCTOR = "doctor"


@dataclass(frozen=True)
class Roll:
    """The faces of all the dice rolled (a multiset)."""

    faces: tuple[Face, ...]


@dataclass(frozen=True)
class Keep:
    """The human and Dalek dice kept from the last roll (DOC and EXT go to the top by rule)."""

    faces: tuple[Face, ...]


@dataclass(frozen=True)
class Stop:
    """End the turn and bank the score."""


Action = Roll | Keep | Stop


@dataclass(frozen=True)
class Turn:
    """The turn in progress: the player's area on the table."""

    player: int
    top_doctors: int = 0
    top_exterminates: int = 0
    kept: tuple[Face, ...] = ()
    pool: int = DICE
    rolled: tuple[Face, ...] | None = None
    """The last roll while its keep is awaited."""
    moved_to_top: int = 0
    rolls: int = 0

    @property
    def humans(self) -> int:
        """Humans kept so far."""
        return sum(f.humans for f in self.kept)

    @property
    def daleks(self) -> int:
        """Daleks kept so far."""
        return sum(f.daleks for f in self.kept)


@dataclass(frozen=True)
class TurnResult:
    """One finished turn, for the score pad's round grid."""

    player: str
    round: int
    points: int
    ending: Ending
    humans: int
    daleks: int


@dataclass(frozen=True)
class DalekState:
    """Everything the rules need: scores, the turn in progress and the turns played."""

    players: tuple[str, ...]
    target: int
    scores: tuple[int, ...]
    round: int
    turn: Turn
    results: tuple[TurnResult, ...] = ()
    winners: tuple[str, ...] = ()
    over: bool = False

    @property
    def phase(self) -> str:
        """What the rules wait for: ``roll``, ``keep``, ``stop-or-roll`` or ``over``."""
        if self.over:
            return "over"
        if self.turn.rolled is not None:
            return "keep"
        return "roll" if self.turn.rolls == 0 else "stop-or-roll"


def stop_points(humans: int, daleks: int) -> int:
    """Points for stopping: the humans if the Daleks match them, else nothing.

    >>> stop_points(12, 14), stop_points(6, 5)
    (12, 0)
    """
    return humans if daleks >= humans else 0


def end_points(humans: int, daleks: int, exterminates: int, dice_left: int) -> int | None:
    """Points if the turn ends by itself after a keep (3 EXT or no dice left), else None.

    >>> end_points(12, 14, 1, 0), end_points(8, 0, 3, 2), end_points(8, 0, 3, 0)
    (17, 16, 21)
    """
    bonus = NO_DICE_BONUS if dice_left == 0 else 0
    if exterminates >= TOP_LIMIT:
        return 2 * humans + bonus
    if dice_left == 0:
        return humans + bonus if daleks >= humans else 0
    return None


_OUT_OF_TURN = {
    ("roll", "keep"): "it is {name}'s turn to roll {count} dice, not to keep",
    ("roll", "stop"): "{name} has not rolled yet; stop comes after a roll and a keep",
    ("keep", "roll"): "it is {name}'s turn to keep, not to roll",
    ("keep", "stop"): "it is {name}'s turn to keep, not to stop",
    ("stop-or-roll", "keep"): "it is {name}'s turn to stop or roll {count} dice, not to keep",
}
"""The refusal of each action kind out of its phase (``count`` is the dice to roll)."""


class DalekRules(Rules[DalekState, Action]):
    """Dalek Dice."""

    name = "dalek"
    title = "Dalek Dice"
    min_players = 2
    max_players = 8
    options = frozenset({"target"})

    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> DalekState:
        target = as_int(options.get("target", DEFAULT_TARGET),
                        "the target is a whole number from {low} to {high}, not {value}", 1, 10_000)
        return DalekState(players, target, (0,) * len(players), 1, Turn(0))

    def parse_action(self, kind: str, value: object) -> Action:
        kind = as_choice(kind, "a {game} action must be one of {options}, not {value}",
                         (Key("roll"), Key("keep"), Key("stop")), game=self.title)
        if kind == "stop":
            as_empty(value, "stop")
            return Stop()
        faces = tuple(as_choice(f, "a die must be one of {options}, not {value}", list(Face))
                      for f in as_list(value, A_LIST, key=Key(kind)))
        return Roll(tuple(Face(f) for f in faces)) if kind == "roll" else Keep(
            tuple(Face(f) for f in faces))

    def action_to_json(self, action: Action) -> JSONDict:
        if isinstance(action, Stop):
            return {"stop": {}}
        kind = "roll" if isinstance(action, Roll) else "keep"
        return {kind: [f.value for f in action.faces]}

    def apply(self, state: DalekState, action: Action) -> DalekState:
        if state.over:
            raise IllegalAction("the game is over; no more actions")
        kind = type(action).__name__.lower()
        if kind not in state.phase.split("-or-"):
            raise IllegalAction(_OUT_OF_TURN[state.phase, kind],
                                name=state.players[state.turn.player], count=state.turn.pool)
        if isinstance(action, Roll):
            return self._roll(state, action.faces)
        if isinstance(action, Keep):
            return self._keep(state, action.faces)
        turn = state.turn
        return _end_turn(state, stop_points(turn.humans, turn.daleks), Ending.STOP)

    def _roll(self, state: DalekState, faces: tuple[Face, ...]) -> DalekState:
        turn = state.turn
        if len(faces) != turn.pool:
            raise IllegalAction("{name} rolls {pool} dice; this roll has {count}",
                                name=state.players[turn.player], pool=turn.pool,
                                count=len(faces))
        counts = Counter(faces)
        doctors = turn.top_doctors + (1 if counts[Face.DOC] else 0)
        exterminates = turn.top_exterminates + (1 if counts[Face.EXT] else 0)
        moved = (turn.top_doctors != doctors) + (turn.top_exterminates != exterminates)
        rolled = replace(turn, top_doctors=doctors, top_exterminates=exterminates, rolled=faces,
                         moved_to_top=moved, rolls=turn.rolls + 1)
        state = replace(state, turn=rolled)
        if doctors >= TOP_LIMIT:
            return _end_turn(state, 0, Ending.DOCTOR)
        return state

    def _keep(self, state: DalekState, faces: tuple[Face, ...]) -> DalekState:
        turn = state.turn
        assert turn.rolled is not None
        if any(f in TOP_FACES for f in faces):
            raise IllegalAction("the Doctor and Exterminate go to the top by themselves; keep "
                                "only humans and Daleks")
        missing = Counter(faces) - Counter(turn.rolled)
        if missing:
            face = next(iter(missing))
            have = turn.rolled.count(face)
            template = ("the roll shows {shown}; it has {have} × {face} to keep, not {want}"
                        if have else "the roll shows {shown}; it has no {face} to keep")
            raise IllegalAction(template, shown=Many(turn.rolled), face=face, have=have,
                                want=faces.count(face))
        if not faces and not turn.moved_to_top:
            raise IllegalAction("keep at least one die from every roll")
        pool = len(turn.rolled) - len(faces) - turn.moved_to_top
        kept = replace(turn, kept=turn.kept + faces, pool=pool, rolled=None, moved_to_top=0)
        state = replace(state, turn=kept)
        points = end_points(kept.humans, kept.daleks, kept.top_exterminates, pool)
        if points is None:
            return state
        ending = Ending.EXTERMINATE if kept.top_exterminates >= TOP_LIMIT else Ending.NO_DICE
        return _end_turn(state, points, ending)

    def public_view(self, state: DalekState) -> JSONDict:
        turn = state.turn
        return {
            "game": self.name,
            "players": list(state.players),
            "turn": None if state.over else state.players[turn.player],
            "over": state.over,
            "winners": list(state.winners),
            "scores": dict(zip(state.players, state.scores, strict=True)),
            "target": state.target,
            "round": state.round,
            "expects": [] if state.over else state.phase.split("-or-"),
            "table": None if state.over else {
                "player": state.players[turn.player],
                "top": {"DOC": turn.top_doctors, "EXT": turn.top_exterminates},
                "kept": [f.value for f in turn.kept],
                "humans": turn.humans,
                "daleks": turn.daleks,
                "pool": turn.pool,
                "rolled": None if turn.rolled is None else [f.value for f in turn.rolled],
                "rolls": turn.rolls,
            },
            "results": [
                {"player": r.player, "round": r.round, "points": r.points,
                 "ending": r.ending.value, "humans": r.humans, "daleks": r.daleks}
                for r in state.results
            ],
        }

    def hints(self, state: DalekState) -> JSONDict:
        from engine.dalek_hints import turn_hints

        return turn_hints(state)

    def random_action(self, state: DalekState, rng: Random) -> Action:
        turn = state.turn
        if state.phase == "keep":
            assert turn.rolled is not None
            candidates = [f for f in turn.rolled if f not in TOP_FACES]
            keep = [f for f in candidates if rng.random() < 0.5]
            if not keep and not turn.moved_to_top:
                keep = [rng.choice(candidates)]
            return Keep(tuple(keep))
        if state.phase == "stop-or-roll" and rng.random() < 0.4:
            return Stop()
        return Roll(tuple(rng.choice(list(Face)) for _ in range(turn.pool)))

    def describe(self, state: DalekState) -> str:
        scores = "   ".join(f"{p} {s}" for p, s in zip(state.players, state.scores, strict=True))
        if state.over:
            return (f"Dalek Dice, over after round {state.round} (target {state.target})\n"
                    f"  {scores}\n  Winner{'s' * (len(state.winners) > 1)}: "
                    f"{and_listed(state.winners)}")
        turn = state.turn
        lines = [f"Dalek Dice, round {state.round}, {state.players[turn.player]} to "
                 f"{state.phase.replace('-', ' ')} (target {state.target})", f"  {scores}"]
        if turn.rolls:
            lines.append(f"  top: DOC {turn.top_doctors}, EXT {turn.top_exterminates}; kept "
                         f"{' '.join(turn.kept) or 'nothing'} (humans {turn.humans}, Daleks "
                         f"{turn.daleks}); {turn.pool} dice left")
        if turn.rolled is not None:
            lines.append(f"  rolled: {' '.join(turn.rolled)}")
        return "\n".join(lines)

    def is_over(self, state: DalekState) -> bool:
        return state.over


def _end_turn(state: DalekState, points: int, ending: Ending) -> DalekState:
    turn = state.turn
    player = state.players[turn.player]
    scores = tuple(s + points if i == turn.player else s for i, s in enumerate(state.scores))
    result = TurnResult(player, state.round, points, ending, turn.humans, turn.daleks)
    following, round_, over = after_turn(turn.player, players=len(state.players),
                                         round=state.round, scores=scores, target=state.target)
    state = replace(state, scores=scores, results=(*state.results, result), round=round_,
                    turn=Turn(following))
    if over:
        best = max(scores)
        winners = tuple(p for p, s in zip(state.players, scores, strict=True) if s == best)
        return replace(state, winners=winners, over=True)
    return state


RULES = register(DalekRules())
