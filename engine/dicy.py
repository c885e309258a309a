"""Dicy Cards (2–4 players, 6 dice, a row of 5 cards each), as RULES.md plays it.

>>> from engine.game import Game
>>> game = Game.start({"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"})
>>> for line in [{"roll": [6, 6, 5, 2, 1, 1]},
...              {"reroll": {"freeze": "odd", "dice": [6, 6, 5, 3, 4, 1]}},
...              {"score": {"card": "two-dice", "dice": [6, 6]}}]:
...     game = game.play_json(line)
>>> game.view()["scores"], game.view()["expects"]
({'Ana': 12, 'Ben': 0}, ['effect'])
>>> [(p["player"], p["choice"], p["because"]) for p in game.view()["pending"]]
[('Ben', 'freeze', 'two-dice')]
>>> game.play_json({"effect": {"player": "Ana", "card": "odd"}})
Traceback (most recent call last):
...
engine.errors.IllegalAction: Ana owes no choice now; waiting for Ben to freeze a card (two-dice)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from importlib.resources import files
from random import Random
from typing import Any

from engine.checks import A_LIST, as_choice, as_empty, as_int, as_list, as_object, as_player
from engine.dicy_cards import EFFECTS, Card, Choice, Dice, Reach, best, points, refusal, shown
from engine.errors import IllegalAction, Key, Many, Refusal, Shown, and_listed
from engine.rounds import after_turn
from engine.rules import JSONDict, Rules, register

DICE = 6
ROW = 5
DEFAULT_TARGET = 100
GLACIAL = "glacial"
INTERGLACIAL = "interglacial"
GLACIAL_CARDS = (Card.TWO_DICE, Card.NO_SIX, Card.ODD, Card.STRAIGHT, Card.TWO_PAIRS)
BOX_PRESETS = ("B", "C", "D")  # the box's other modes, their cards not known yet
PRESETS_FILE = "dicy_presets.json"
SKIP = "skip"
"""What a choice owed after a skip names as its cause (effects name their card)."""


class Phase(StrEnum):
    """What the rules wait for."""

    ROLL = "roll"
    PLAY = "play"
    """Dice are on the table: reroll, score or skip."""
    FORCED_SKIP = "forced-skip"
    """Every card of the player to move is frozen: skip without rolling."""
    EFFECT = "effect"
    """Affected players owe their choices before the turn passes."""
    OVER = "over"


@dataclass(frozen=True)
class Roll:
    """The six dice rolled at the start of a turn."""

    dice: Dice


@dataclass(frozen=True)
class Reroll:
    """Freeze an active card to reroll; ``dice`` are all six after the reroll."""

    freeze: Card
    dice: Dice


@dataclass(frozen=True)
class Score:
    """Score ``card`` with the selected ``dice``."""

    card: Card
    dice: Dice


@dataclass(frozen=True)
class Skip:
    """Reactivate all one's frozen cards; every other player then reactivates one."""


@dataclass(frozen=True)
class EffectChoice:
    """An affected player's answer: the card they freeze or reactivate."""

    player: str
    card: Card


Action = Roll | Reroll | Score | Skip | EffectChoice

_KINDS: Mapping[type, str] = {Roll: "roll", Reroll: "reroll", Score: "score", Skip: "skip",
                              EffectChoice: "effect"}


@dataclass(frozen=True)
class Owed:
    """A choice a player still owes: freeze or reactivate one card, because of a card or skip."""

    player: int
    choice: Choice
    because: str


@dataclass(frozen=True)
class Chosen:
    """A choice made: who froze or reactivated which card."""

    player: str
    choice: Choice
    card: Card


@dataclass(frozen=True)
class Outcome:
    """How the player ended the turn: a score (``card`` set) or a skip (``card`` None)."""

    card: Card | None
    dice: Dice | None
    points: int
    choices: tuple[Chosen, ...] = ()


@dataclass(frozen=True)
class Turn:
    """The turn in progress."""

    player: int
    dice: Dice | None = None
    rerolls: tuple[Card, ...] = ()
    """The cards frozen for rerolls this turn, in order."""
    outcome: Outcome | None = None
    owed: tuple[Owed, ...] = ()


@dataclass(frozen=True)
class TurnResult:
    """One finished turn, for the score pad's round grid."""

    player: str
    round: int
    outcome: Outcome


@dataclass(frozen=True)
class DicyState:
    """Everything the rules need: the cards, their states, scores and the turn in progress."""

    players: tuple[str, ...]
    cards: tuple[Card, ...]
    mode: str | None
    target: int
    scores: tuple[int, ...]
    frozen: tuple[frozenset[Card], ...]
    round: int
    turn: Turn
    results: tuple[TurnResult, ...] = ()
    winners: tuple[str, ...] = ()
    over: bool = False

    @property
    def phase(self) -> Phase:
        """What the rules wait for now."""
        if self.over:
            return Phase.OVER
        if self.turn.outcome is not None:
            return Phase.EFFECT
        if self.turn.dice is not None:
            return Phase.PLAY
        if not self.active(self.turn.player):
            return Phase.FORCED_SKIP
        return Phase.ROLL

    def active(self, player: int) -> tuple[Card, ...]:
        """The active cards of ``player`` (an index), in row order."""
        return tuple(c for c in self.cards if c not in self.frozen[player])

    def frozen_cards(self, player: int) -> tuple[Card, ...]:
        """The frozen cards of ``player`` (an index), in row order."""
        return tuple(c for c in self.cards if c in self.frozen[player])

    def eligible(self, player: int, choice: Choice) -> tuple[Card, ...]:
        """The cards ``player`` may pick for ``choice``."""
        return self.active(player) if choice is Choice.FREEZE else self.frozen_cards(player)

    def expects(self) -> list[str]:
        """The action kinds accepted now."""
        phase = self.phase
        if phase is Phase.PLAY:
            active = self.active(self.turn.player)
            dice = self.turn.dice
            assert dice is not None
            kinds = ["reroll"] if active else []
            if any(best(card, dice) is not None for card in active):
                kinds.append("score")
            return [*kinds, "skip"]
        return {Phase.OVER: [], Phase.EFFECT: ["effect"], Phase.FORCED_SKIP: ["skip"],
                Phase.ROLL: ["roll"]}[phase]


def draw_interglacial(rng: Random) -> tuple[Card, ...]:
    """Draw the 5 cards of an interglacial game (for the set-up screen and its header).

    >>> cards = draw_interglacial(Random(7))
    >>> len(set(cards)), all(isinstance(c, Card) for c in cards)
    (5, True)
    """
    return tuple(rng.sample(list(Card), ROW))


def parse_cards(value: object) -> tuple[Card, ...]:
    """A row of 5 different card ids (a header's ``cards``), or IllegalAction.

    >>> parse_cards(["pair", "odd", "pair", "sixes", "straight"])
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: cards names pair twice; the 5 cards are all different
    """
    ids = [Card(as_choice(v, "a card must be one of {options}, not {value}", list(Card)))
           for v in as_list(value, A_LIST, key=Key("cards"))]
    if len(ids) != ROW:
        raise IllegalAction("cards must name 5 cards, not {count}", count=len(ids))
    twice = Many(c for c, n in Counter(ids).items() if n > 1)
    if twice:
        raise IllegalAction("cards names {cards} twice; the 5 cards are all different",
                            cards=twice)
    return tuple(ids)


def parse_presets(data: object) -> dict[str, tuple[Card, ...]]:
    """The preset modes of a preset file's JSON: ``{name: [5 card ids]}``.

    >>> parse_presets({"B": ["pair", "odd", "sixes", "straight", "same-x5"]})["B"][0]
    <Card.PAIR: 'pair'>
    """
    if not isinstance(data, Mapping):
        raise IllegalAction("the preset file holds its modes in curly brackets, not {value}",
                            value=Shown(data))
    presets: dict[str, tuple[Card, ...]] = {}
    for name, cards in data.items():
        if not isinstance(name, str) or name in (GLACIAL, INTERGLACIAL):
            raise IllegalAction("the preset file cannot define mode {mode}", mode=Shown(name))
        try:
            presets[name] = parse_cards(cards)
        except IllegalAction as err:
            raise IllegalAction("preset {mode} is refused: {reason}", mode=name,
                                reason=err) from err
    return presets


@cache
def presets() -> dict[str, tuple[Card, ...]]:
    """The preset modes in engine/data/dicy_presets.json (empty until the box's are known)."""
    text = (files("engine") / "data" / PRESETS_FILE).read_text(encoding="utf-8")
    return parse_presets(json.loads(text))


def game_cards(mode: object, cards: object) -> tuple[Card, ...]:
    """The row every player gets, from the header's ``mode`` and ``cards``.

    >>> game_cards("glacial", None)[0]
    <Card.TWO_DICE: 'two-dice'>
    >>> game_cards(None, ["pair", "odd", "sixes", "straight", "same-x5"])[-1]
    <Card.SAME_X5: 'same-x5'>
    """
    if mode is None or mode == INTERGLACIAL:
        if cards is None and mode:
            raise IllegalAction("interglacial mode needs the 5 drawn cards in the header's cards")
        if cards is None:
            raise IllegalAction("a Dicy Cards game needs a mode or its 5 cards")
        return parse_cards(cards)
    known = presets()
    fixed = GLACIAL_CARDS if mode == GLACIAL else known.get(mode) if isinstance(mode, str) else None
    if fixed is None and mode in BOX_PRESETS and cards is not None:
        return parse_cards(cards)  # a preset of the box the table does not know: as named
    if fixed is None and known:
        raise IllegalAction("there is no mode {mode}; the modes are {modes}; or leave out mode "
                            "and name the 5 cards", mode=Shown(mode),
                            modes=Many(Key(m) for m in (GLACIAL, INTERGLACIAL, *known)))
    if fixed is None:
        raise IllegalAction("there is no mode {mode}; the modes are {modes} (the box's presets "
                            "B, C, D are not known yet); or leave out mode and name the 5 cards",
                            mode=Shown(mode), modes=Many((Key(GLACIAL), Key(INTERGLACIAL))))
    if cards is None:
        return fixed
    given = parse_cards(cards)
    if set(given) != set(fixed):
        raise IllegalAction("{mode} mode plays {cards}; cards names {given}", mode=Key(mode),
                            cards=Many(fixed), given=Many(given))
    return given


class DicyRules(Rules[DicyState, Action]):
    """Dicy Cards."""

    name = "dicy"
    title = "Dicy Cards"
    min_players = 2
    max_players = 4
    options = frozenset({"mode", "cards", "target"})

    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> DicyState:
        target = as_int(options.get("target", DEFAULT_TARGET),
                        "the target is a whole number from {low} to {high}, not {value}", 1, 10_000)
        mode = options.get("mode")
        cards = game_cards(mode, options.get("cards"))
        return DicyState(players, cards, mode, target, (0,) * len(players),
                         (frozenset(),) * len(players), 1, Turn(0))

    def parse_action(self, kind: str, value: object) -> Action:
        kind = as_choice(kind, "a {game} action must be one of {options}, not {value}",
                         tuple(map(Key, ("roll", "reroll", "score", "skip", "effect"))),
                         game=self.title)
        if kind == "skip":
            as_empty(value, "skip")
            return Skip()
        if kind == "roll":
            return Roll(_six_dice(value, "roll"))
        if kind == "reroll":
            fields = _fields(value, "reroll", ("freeze", "dice"))
            return Reroll(_card(fields, "reroll", "freeze"), _six_dice(fields["dice"], "reroll"))
        if kind == "score":
            fields = _fields(value, "score", ("card", "dice"))
            return Score(_card(fields, "score", "card"), _dice(fields["dice"], "score"))
        fields = _fields(value, "effect", ("player", "card"))
        player = fields["player"]
        if not isinstance(player, str):
            raise IllegalAction("effect's player needs a name, not {value}", value=Shown(player))
        return EffectChoice(player, _card(fields, "effect", "card"))

    def action_to_json(self, action: Action) -> JSONDict:
        if isinstance(action, Roll):
            return {"roll": list(action.dice)}
        if isinstance(action, Reroll):
            return {"reroll": {"freeze": action.freeze.value, "dice": list(action.dice)}}
        if isinstance(action, Score):
            return {"score": {"card": action.card.value, "dice": list(action.dice)}}
        if isinstance(action, Skip):
            return {"skip": {}}
        return {"effect": {"player": action.player, "card": action.card.value}}

    def apply(self, state: DicyState, action: Action) -> DicyState:
        phase = state.phase
        kind = _KINDS[type(action)]
        if phase is Phase.OVER:
            raise IllegalAction("the game is over; no more actions")
        name = state.players[state.turn.player]
        if phase is Phase.EFFECT:
            if not isinstance(action, EffectChoice):
                raise IllegalAction("{waiting}; only effect choices are taken now",
                                    waiting=_waiting(state))
            return _choose(state, action)
        if isinstance(action, EffectChoice):
            raise IllegalAction(_NO_CHOICE_OWED[tuple(state.expects())], name=name)
        if phase is Phase.FORCED_SKIP:
            if not isinstance(action, Skip):
                raise IllegalAction(_MUST_SKIP[kind], name=name)
            return _skip(state)
        if phase is Phase.ROLL:
            if isinstance(action, Roll):
                return replace(state, turn=replace(state.turn, dice=action.dice))
            if isinstance(action, Skip):
                raise IllegalAction("{name} has not rolled yet; only a player whose cards are "
                                    "all frozen skips without rolling", name=name)
            raise IllegalAction(_ROLL_FIRST[kind], name=name)
        if isinstance(action, Roll):
            raise IllegalAction("{name} has rolled already; to roll again, freeze a card "
                                "with a reroll", name=name)
        if isinstance(action, Reroll):
            return _reroll(state, action)
        if isinstance(action, Score):
            return _score(state, action)
        return _skip(state)

    def public_view(self, state: DicyState) -> JSONDict:
        turn = state.turn
        table = None
        if not state.over:
            outcome = turn.outcome
            table = {
                "player": state.players[turn.player],
                "dice": None if turn.dice is None else list(turn.dice),
                "rerolls": len(turn.rerolls),
                "frozen_to_reroll": [c.value for c in turn.rerolls],
                "outcome": None if outcome is None else _outcome_json(outcome),
            }
        return {
            "game": self.name,
            "players": list(state.players),
            "turn": None if state.over else state.players[turn.player],
            "over": state.over,
            "winners": list(state.winners),
            "scores": dict(zip(state.players, state.scores, strict=True)),
            "target": state.target,
            "mode": state.mode,
            "cards": [c.value for c in state.cards],
            "rows": {
                p: {c.value: "frozen" if c in state.frozen[i] else "active" for c in state.cards}
                for i, p in enumerate(state.players)
            },
            "active": {p: len(state.active(i)) for i, p in enumerate(state.players)},
            "round": state.round,
            "expects": state.expects(),
            "table": table,
            "pending": [
                {"player": state.players[o.player], "choice": o.choice.value,
                 "because": o.because,
                 "eligible": [c.value for c in state.eligible(o.player, o.choice)]}
                for o in turn.owed
            ],
            "results": [
                {"player": r.player, "round": r.round, **_outcome_json(r.outcome)}
                for r in state.results
            ],
        }

    def hints(self, state: DicyState) -> JSONDict:
        from engine.dicy_hints import turn_hints

        return turn_hints(state)

    def random_action(self, state: DicyState, rng: Random) -> Action:
        phase = state.phase
        if phase is Phase.OVER:
            raise IllegalAction("the game is over; no more actions")
        if phase is Phase.EFFECT:
            owed = rng.choice(state.turn.owed)
            card = rng.choice(state.eligible(owed.player, owed.choice))
            return EffectChoice(state.players[owed.player], card)
        if phase is Phase.FORCED_SKIP:
            return Skip()
        if phase is Phase.ROLL:
            return Roll(_random_dice(rng))
        dice = state.turn.dice
        assert dice is not None
        active = state.active(state.turn.player)
        if active and rng.random() < 0.25:
            return Reroll(rng.choice(active), _random_dice(rng))
        met = [card for card in active if best(card, dice) is not None]
        if met and rng.random() < 0.9:
            card = rng.choice(met)
            return Score(card, _random_selection(card, dice, rng))
        return Skip()

    def describe(self, state: DicyState) -> str:
        head = (f"Dicy Cards, {state.mode or 'custom'} mode, target {state.target}: "
                f"{' '.join(state.cards)}")
        lines = [head]
        for i, (player, score) in enumerate(zip(state.players, state.scores, strict=True)):
            frozen = ", ".join(state.frozen_cards(i)) or "none"
            lines.append(f"  {player} {score}  (frozen: {frozen})")
        if state.over:
            lines += [f"  over after round {state.round}",
                      f"  Winner{'s' * (len(state.winners) > 1)}: {and_listed(state.winners)}"]
            return "\n".join(lines)
        turn = state.turn
        name = state.players[turn.player]
        doing = (f"{name}'s turn: {_waiting(state)}" if turn.owed  # another player may owe it
                 else f"{name} to {' or '.join(state.expects())}")
        lines.append(f"  round {state.round}, {doing}")
        if turn.dice is not None:
            rerolls = len(turn.rerolls)
            lines.append(f"  dice: {shown(turn.dice)} after {rerolls} reroll{'s' * (rerolls != 1)}")
        return "\n".join(lines)

    def is_over(self, state: DicyState) -> bool:
        return state.over


_NO_CHOICE_OWED = {
    ("roll",): "nobody owes an effect choice now; it is {name}'s turn to roll",
    ("skip",): "nobody owes an effect choice now; it is {name}'s turn to skip",
    ("reroll", "skip"): "nobody owes an effect choice now; it is {name}'s turn to reroll or skip",
    ("reroll", "score", "skip"):
        "nobody owes an effect choice now; it is {name}'s turn to reroll, score or skip",
}
"""The refusal of an effect choice nobody owes, by what the turn expects."""

_MUST_SKIP = {
    "roll": "all of {name}'s cards are frozen: {name} must skip, not roll",
    "reroll": "all of {name}'s cards are frozen: {name} must skip, not reroll",
    "score": "all of {name}'s cards are frozen: {name} must skip, not score",
}
_ROLL_FIRST = {
    "reroll": "{name} has not rolled yet; a turn starts with a roll of 6 dice, not a reroll",
    "score": "{name} has not rolled yet; a turn starts with a roll of 6 dice, not a score",
}
_WAITING = {
    (Choice.FREEZE, False): "waiting for {name} to freeze a card ({card})",
    (Choice.FREEZE, True): "waiting for {names} and {last} to freeze a card ({card})",
    (Choice.REACTIVATE, False): "waiting for {name} to reactivate a card ({card})",
    (Choice.REACTIVATE, True): "waiting for {names} and {last} to reactivate a card ({card})",
}
_WAITING_AFTER_SKIP = {
    False: "waiting for {name} to reactivate a card ({player} skipped)",
    True: "waiting for {names} and {last} to reactivate a card ({player} skipped)",
}
_FROZEN = {
    ("reroll", False): "{name}'s {card} is frozen; a reroll freezes an active card ({active})",
    ("reroll", True): "{name}'s {card} is frozen; a reroll freezes an active card "
                      "(none is left)",
    ("score", False): "{name}'s {card} is frozen; score with an active card ({active})",
    ("score", True): "{name}'s {card} is frozen; score with an active card (none is left)",
}
"""The refusal of a frozen card, by its use and whether no card is active."""


def _fields(value: object, key: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    fields = as_object(value, key, keys)
    missing = [k for k in keys if k not in fields]
    if missing:
        raise IllegalAction("{key} needs {field}", key=Key(key), field=Key(missing[0]))
    return fields


def _card(fields: Mapping[str, Any], key: str, field: str) -> Card:
    return Card(as_choice(fields[field], "in {key}, {field} must be one of {options}, not {value}",
                          list(Card), key=Key(key), field=Key(field)))


def _dice(value: object, key: str) -> Dice:
    return tuple(as_int(d, "a die shows {low} to {high}, not {value}", 1, 6)
                 for d in as_list(value, "in {key}, write the dice as a list in square brackets, "
                                  "not {value}", key=Key(key)))


def _six_dice(value: object, key: str) -> Dice:
    dice = _dice(value, key)
    if not dice:
        raise IllegalAction("{key} needs all 6 dice, not none", key=Key(key))
    if len(dice) != DICE:
        raise IllegalAction("{key} needs all 6 dice, not {count}: {dice}", key=Key(key),
                            count=len(dice), dice=shown(dice))
    return dice


def _waiting(state: DicyState) -> Refusal:
    """What the turn waits for (a clause of refusals, and of the terminal's text)."""
    owed = state.turn.owed
    names = [state.players[o.player] for o in owed]
    several = len(names) > 1
    choice, because = owed[0].choice, owed[0].because
    template = (_WAITING_AFTER_SKIP[several] if because == SKIP
                else _WAITING[choice, several])
    return Refusal(template, name=names[0], names=Many(names[:-1]), last=names[-1],
                   card=because if because == SKIP else Card(because),
                   player=state.players[state.turn.player])


def _usable(state: DicyState, card: Card, use: str) -> None:
    """Refuse a card that is not in this game or not active for the player to move."""
    if card not in state.cards:
        raise IllegalAction("{card} is not one of this game's cards ({cards})",
                            card=card, cards=Many(state.cards))
    if card in state.frozen[state.turn.player]:
        active = Many(state.active(state.turn.player))
        raise IllegalAction(_FROZEN[use, not active], name=state.players[state.turn.player],
                            card=card, active=active)


def _reroll(state: DicyState, action: Reroll) -> DicyState:
    _usable(state, action.freeze, "reroll")
    me = state.turn.player
    turn = replace(state.turn, dice=action.dice, rerolls=(*state.turn.rerolls, action.freeze))
    frozen = _with(state.frozen, me, state.frozen[me] | {action.freeze})
    return replace(state, turn=turn, frozen=frozen)


def _score(state: DicyState, action: Score) -> DicyState:
    card, selected = action.card, action.dice
    _usable(state, card, "score")
    table = state.turn.dice
    assert table is not None
    if Counter(selected) - Counter(table):
        raise IllegalAction("{dice} is not among the dice on the table, {table}",
                            dice=shown(selected), table=shown(table))
    problem = refusal(card, selected, table)
    if problem:
        raise problem
    me = state.turn.player
    gained = points(card, selected)
    scores = tuple(s + gained if i == me else s for i, s in enumerate(state.scores))
    effect = EFFECTS.get(card)
    owed = () if effect is None else _owed(state, effect.reach, effect.choice, card.value)
    frozen = _with(state.frozen, me, state.frozen[me] | {card})
    turn = replace(state.turn, outcome=Outcome(card, selected, gained), owed=owed)
    return _close_if_done(replace(state, scores=scores, frozen=frozen, turn=turn))


def _skip(state: DicyState) -> DicyState:
    me = state.turn.player
    state = replace(state, frozen=_with(state.frozen, me, frozenset()))
    owed = _owed(state, Reach.OTHERS, Choice.REACTIVATE, SKIP)
    turn = replace(state.turn, outcome=Outcome(None, None, 0), owed=owed)
    return _close_if_done(replace(state, turn=turn))


def _owed(state: DicyState, reach: Reach, choice: Choice, because: str) -> tuple[Owed, ...]:
    """The choices owed: one per affected player who has an eligible card.

    Neighbours are the next player (left) and the previous one (right); with two players
    they are the same one, hit once.
    """
    me, count = state.turn.player, len(state.players)
    if reach is Reach.NEIGHBOURS:
        hit = list(dict.fromkeys(((me + 1) % count, (me - 1) % count)))
    else:
        hit = [(me + step) % count for step in range(1, count)]
    return tuple(Owed(p, choice, because) for p in hit if state.eligible(p, choice))


def _choose(state: DicyState, action: EffectChoice) -> DicyState:
    player = as_player(action.player, state.players)
    index = state.players.index(player)
    owed = next((o for o in state.turn.owed if o.player == index), None)
    if owed is None:
        raise IllegalAction("{player} owes no choice now; {waiting}", player=player,
                            waiting=_waiting(state))
    card = action.card
    if card not in state.cards:
        raise IllegalAction("{player} has no {card}; this game's cards are {cards}",
                            player=player, card=card, cards=Many(state.cards))
    if card not in state.eligible(index, owed.choice):
        raise IllegalAction(_NOT_ELIGIBLE[owed.choice], player=player, card=card,
                            eligible=Many(state.eligible(index, owed.choice)))
    mine = state.frozen[index]
    mine = mine | {card} if owed.choice is Choice.FREEZE else mine - {card}
    outcome = state.turn.outcome
    assert outcome is not None
    outcome = replace(outcome, choices=(*outcome.choices, Chosen(player, owed.choice, card)))
    turn = replace(state.turn, outcome=outcome, owed=tuple(o for o in state.turn.owed
                                                           if o is not owed))
    return _close_if_done(replace(state, frozen=_with(state.frozen, index, mine), turn=turn))


_NOT_ELIGIBLE = {
    Choice.FREEZE: "{player} must freeze an active card ({eligible}); {card} is already frozen",
    Choice.REACTIVATE: "{player} must reactivate a frozen card ({eligible}); {card} is active",
}


def _close_if_done(state: DicyState) -> DicyState:
    """Pass the turn once no choice is owed; end the game after a round that reached target."""
    turn = state.turn
    if turn.owed or turn.outcome is None:
        return state
    result = TurnResult(state.players[turn.player], state.round, turn.outcome)
    following, round_, over = after_turn(turn.player, players=len(state.players),
                                         round=state.round, scores=state.scores,
                                         target=state.target)
    state = replace(state, results=(*state.results, result), round=round_,
                    turn=Turn(following))
    return replace(state, over=True, winners=_winners(state)) if over else state


def _winners(state: DicyState) -> tuple[str, ...]:
    """Highest total; tie: most active cards; still tied: all of them."""
    ranks = [(score, len(state.active(i))) for i, score in enumerate(state.scores)]
    top = max(ranks)
    return tuple(p for p, rank in zip(state.players, ranks, strict=True) if rank == top)


def _with(frozen: tuple[frozenset[Card], ...], player: int,
          cards: frozenset[Card]) -> tuple[frozenset[Card], ...]:
    return tuple(cards if i == player else f for i, f in enumerate(frozen))


def _outcome_json(outcome: Outcome) -> JSONDict:
    return {
        "what": "skip" if outcome.card is None else "score",
        "card": None if outcome.card is None else outcome.card.value,
        "dice": None if outcome.dice is None else list(outcome.dice),
        "points": outcome.points,
        "choices": [{"player": c.player, "choice": c.choice.value, "card": c.card.value}
                    for c in outcome.choices],
    }


def _random_dice(rng: Random) -> Dice:
    return tuple(rng.randint(1, 6) for _ in range(DICE))


def _random_selection(card: Card, dice: Dice, rng: Random) -> Dice:
    """A legal selection for a card that can be met: often the best, sometimes another."""
    found = best(card, dice)
    assert found is not None
    if rng.random() < 0.5:
        return found.dice
    for _ in range(20):
        picked = tuple(d for d in dice if rng.random() < 0.5)
        if refusal(card, picked, dice) is None:
            return picked
    return found.dice


RULES = register(DicyRules())
