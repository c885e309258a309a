"""The demo: a whole Dicy Cards game for two, planned so that a camera can film it.

:func:`plan_game` plays a seeded game with a simple player's sense (score when it pays,
else freeze the weakest card and reroll the dice the best card does not use) and lays the
dice out on the table for every roll and reroll: the *rests* the camera will see, with the
line each rest should become. The frames are rendered from the plan (``dicetable demo``);
the phone's part of the game (scores, skips, effect choices, and the answers to the camera's
questions) is played by :class:`device.scripted_player.ScriptedPlayer`.

A plan is JSON (``demo.json`` beside the frames): the record, the frame rate, and for every
rest its first still frame and the index of the action it becomes (None for a rest that
changes nothing: the empty table, a hand passing over).

>>> plan = plan_game(seed=1)
>>> plan.record[0]["game"], plan.record[-1] != plan.record[0]
('dicy', True)
>>> sum(1 for r in plan.rests if r.action is not None) == sum(
...     1 for line in plan.record[1:] if "roll" in line or "reroll" in line)
True
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, replace
from random import Random
from typing import Any

from engine import Game
from vision.film import MOTION_FRAMES

HEADER = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
FPS = 15.0
WIDTH, HEIGHT = 1280, 720
DIE_SIDE = 46.0
GOOD_ENOUGH = 15  # score at once when the best card gives this many points
OPENING_S = 4.0  # the empty table before the first roll (time to set the game up)
AFTER_DICE_S = 2.2  # the rest after a roll or reroll …
PER_PHONE_LINE_S = 1.2  # … and this much longer for each line the phone enters then
HAND_PASS_S = 1.6  # the rest after a hand passed over without changing anything
CLOSING_S = 6.0  # the last rest, the game over
HAND_PASS_EVERY = 5  # a hand passes over the dice after every this many dice changes


@dataclass(frozen=True)
class PlannedDie:
    """A die at rest: value, top-face centre, turn, and its look (a seed)."""

    value: int
    x: float
    y: float
    angle: float
    look: int


@dataclass(frozen=True)
class PlannedRest:
    """What lies still on the table, how long (seconds), whether a hand passes over first,
    and the index of the standing action it becomes (None: it changes nothing)."""

    dice: tuple[PlannedDie, ...]
    seconds: float
    action: int | None
    hand: bool = True


@dataclass(frozen=True)
class Plan:
    """The demo: the whole record, and the rests the camera will see."""

    record: list[dict[str, Any]]
    rests: list[PlannedRest]
    fps: float = FPS

    def to_json(self) -> dict[str, Any]:
        """The plan as JSON (the rests with their first still frame, see frames_of)."""
        return {"record": self.record, "fps": self.fps,
                "rests": [{**asdict(rest), "frame": frame}
                          for rest, frame in zip(self.rests, self.still_frames(), strict=True)]}

    def still_frames(self) -> list[int]:
        """The number of the first still frame of each rest, in a film with MOTION_FRAMES
        between rests (see vision.film)."""
        frames, number = [], 0
        for index, rest in enumerate(self.rests):
            if index:
                number += MOTION_FRAMES
            frames.append(number)
            number += self.hold(rest)
        return frames

    def hold(self, rest: PlannedRest) -> int:
        """How many frames ``rest`` lasts."""
        return max(1, round(rest.seconds * self.fps))

    def resume_frame(self, standing: int) -> int:
        """Where to start the film for a game with ``standing`` actions: the still frame of
        the last rest already in the game (the dice as they lie), or the start."""
        frame = 0
        for rest, first in zip(self.rests, self.still_frames(), strict=True):
            if rest.action is not None and rest.action < standing:
                frame = first
        return frame

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        """The plan :meth:`to_json` wrote."""
        rests = [PlannedRest(tuple(PlannedDie(**d) for d in r["dice"]), float(r["seconds"]),
                             r["action"], bool(r["hand"])) for r in data["rests"]]
        return cls(list(data["record"]), rests, float(data["fps"]))


def plan_game(seed: int = 1, header: dict[str, Any] | None = None) -> Plan:
    """A whole game, played and laid out (see the module's docstring)."""
    rng = Random(seed)
    game = Game.start(header or HEADER)
    table = _Table(rng)
    rests = [PlannedRest((), OPENING_S, None, hand=False)]
    changes = 0
    while not game.over:
        line = _next_line(game, rng)
        index = len(game.actions)
        game = game.play_json(line)
        if "roll" in line or "reroll" in line:
            dice = line["roll"] if "roll" in line else line["reroll"]["dice"]
            seconds = AFTER_DICE_S + (PER_PHONE_LINE_S if "reroll" in line else 0.0)  # which card
            rests.append(PlannedRest(table.lay(dice, fresh="roll" in line), seconds, index))
            changes += 1
            if changes % HAND_PASS_EVERY == 0:
                rests.append(PlannedRest(table.dice, HAND_PASS_S, None))
        else:  # the phone's part: the dice rest a moment longer
            rests[-1] = replace(rests[-1], seconds=rests[-1].seconds + PER_PHONE_LINE_S)
    rests.append(PlannedRest(table.dice, CLOSING_S, None, hand=False))
    return Plan(game.record(), rests)


def _next_line(game: Game, rng: Random) -> dict[str, Any]:
    """What a sensible player does next."""
    view = game.view()
    expects = view["expects"]
    if "effect" in expects:
        owed = view["pending"][0]
        return {"effect": {"player": owed["player"], "card": owed["eligible"][0]}}
    if "roll" in expects:
        return {"roll": [rng.randint(1, 6) for _ in range(6)]}
    if expects == ["skip"]:
        return {"skip": {}}
    cards = game.hints()["cards"]
    met = {c: h for c, h in cards.items() if h is not None}
    best = max(met, key=lambda c: met[c]["points"], default=None)
    good = best is not None and met[best]["points"] >= GOOD_ENOUGH
    if not good and "reroll" in expects and view["table"]["rerolls"] == 0 and len(cards) > 1:
        weakest = min(cards, key=lambda c: -1 if cards[c] is None else cards[c]["points"])
        keep = Counter(met[best]["dice"] if best is not None else [])
        dice = []
        for value in view["table"]["dice"]:
            if keep[value] > 0:
                keep[value] -= 1
                dice.append(value)
            else:
                dice.append(rng.randint(1, 6))
        if dice == view["table"]["dice"]:
            dice[-1] = dice[-1] % 6 + 1  # at least one die is rerolled (and shows it)
        return {"reroll": {"freeze": weakest, "dice": dice}}
    if best is not None:
        return {"score": {"card": best, "dice": met[best]["dice"]}}
    return {"skip": {}}


class _Table:
    """Where the six dice lie: a fresh roll throws all six, a reroll moves those that changed."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.dice: tuple[PlannedDie, ...] = ()
        self._looks = 0

    def lay(self, values: list[int], *, fresh: bool) -> tuple[PlannedDie, ...]:
        """The dice at rest after a roll (``fresh``) or a reroll to ``values``."""
        staying: list[PlannedDie] = []
        if not fresh:
            wanted = Counter(values)
            pool = list(self.dice)
            self.rng.shuffle(pool)
            for die in pool:
                if wanted[die.value] > 0 and len(staying) < len(values) - 1:
                    wanted[die.value] -= 1
                    staying.append(die)
            # the dice that were rerolled: every die of the old ones not staying
            thrown = list(wanted.elements())
        else:
            thrown = list(values)
        placed = list(staying)
        for value in thrown:
            placed.append(self._throw(value, placed))
        self.dice = tuple(placed)
        return self.dice

    def _throw(self, value: int, placed: list[PlannedDie]) -> PlannedDie:
        """A die landing in the middle of the table, clear of the others."""
        self._looks += 1
        for _ in range(500):
            x = self.rng.uniform(0.2 * WIDTH, 0.8 * WIDTH)
            y = self.rng.uniform(0.2 * HEIGHT, 0.75 * HEIGHT)
            if all(math.hypot(x - d.x, y - d.y) > 2.2 * DIE_SIDE for d in placed):
                break
        return PlannedDie(value, x, y, self.rng.uniform(0, math.pi / 2), self._looks)
