"""17 (Diciassette, 2–6 players), as RULES.md plays it: the row, the calls and the tokens.

>>> from engine.game import Game
>>> game = Game.start({"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana"})
>>> for line in [{"play": {"card": "3d", "face": "down"}}, {"play": {"face": "down"}},
...              {"play": {"card": "trap", "face": "down"}}, {"call": ["Ana", "Ben"]}]:
...     game = game.play_json(line)
>>> game.view()["expects"], game.view()["call"]["caller"]
(['reveal'], 'Ana')
>>> game = game.play_json({"reveal": ["4"]})
>>> game.view()["tokens"]["Cleo"], game.view()["turn"]
({'victory': 1, 'penalty': 0}, 'Cleo')
>>> game.play_json({"call": ["Ana"]})
Traceback (most recent call last):
...
engine.errors.IllegalAction: nobody has played yet in round 2; 17 is called after a turn
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from random import Random
from typing import Any

from engine.checks import A_LIST, as_choice, as_int, as_list, as_object, as_player, same_name
from engine.errors import IllegalAction, Key, Many, Shown, and_listed
from engine.rules import JSONDict, Rules, register
from engine.seventeen_cards import PLAIN_BACKS, Card, Deck, too_many

SEVENTEEN = 17
VICTORY_TOKENS = 14
PENALTY_TOKENS = 10
DEFAULT_TARGET = 3
CALL_CHANCE = 0.3
"""How often :meth:`SeventeenRules.random_action` calls when it may."""


class Face(StrEnum):
    """How a card lies in the row."""

    UP = "up"
    DOWN = "down"


@dataclass(frozen=True)
class Placed:
    """A card played this round: its id (None while a plain back is unknown), face and player."""

    card: Card | None
    face: Face
    player: int

    @property
    def public(self) -> bool:
        """True when the table sees what it is: face up, or a number on both sides."""
        return self.face is Face.UP or (self.card is not None and self.card.double_sided)

    @property
    def effect(self) -> Card | None:
        """The special whose effect the card has (face up only)."""
        if self.face is Face.UP and self.card is not None and self.card.special:
            return self.card
        return None


@dataclass(frozen=True)
class Play:
    """A card put at the right end of the row; ``card`` is None for an unknown plain back."""

    card: Card | None
    face: Face


@dataclass(frozen=True)
class Call:
    """Everyone who called "17" at once."""

    callers: tuple[str, ...]


@dataclass(frozen=True)
class Reveal:
    """The unknown face-down cards still in the row, in row order."""

    cards: tuple[Card, ...]


Action = Play | Call | Reveal


@dataclass(frozen=True)
class Called:
    """The call that ended the round: who won it and everyone who called."""

    caller: int
    callers: tuple[int, ...]


@dataclass(frozen=True)
class TokenMove:
    """One token a round's scoring gave, or would have given (``why`` says why not)."""

    player: str
    token: str
    reason: str
    why: str | None = None


@dataclass(frozen=True)
class Discard:
    """A second penalty: both penalty tokens and ``victory`` (0 or 1) victory tokens go back."""

    player: str
    victory: int


@dataclass(frozen=True)
class RoundResult:
    """One finished round, for the score pad's round grid."""

    round: int
    caller: str
    callers: tuple[str, ...]
    last_player: str
    row: tuple[Card, ...]
    total: int
    given: tuple[TokenMove, ...]
    not_given: tuple[TokenMove, ...]
    discarded: tuple[Discard, ...]
    starts_next: str


@dataclass(frozen=True)
class SeventeenState:
    """Everything the rules need: tokens, the row of this round and the rounds played."""

    players: tuple[str, ...]
    target: int
    deck: Deck
    victory: tuple[int, ...]
    penalty: tuple[int, ...]
    turn: int
    round: int = 1
    direction: int = 1
    """1 in the listed (clockwise) order, -1 reversed."""
    turn_plays: int = 1
    played: int = 0
    """Cards played so far in the turn in progress."""
    x2: bool = False
    """A face-up ``x2`` was played this turn: the next turn plays 2."""
    last: int | None = None
    """Who finished the last turn of this round (None before the first)."""
    row: tuple[Placed, ...] = ()
    trashed: tuple[Placed, ...] = ()
    called: Called | None = None
    results: tuple[RoundResult, ...] = ()
    winners: tuple[str, ...] = ()
    over: bool = False

    @property
    def cards_left(self) -> int:
        """Cards of the deck not in the row (a trashed card may be drawn again: see
        :func:`check_round_cards`)."""
        return self.deck.total - len(self.row)

    @property
    def phase(self) -> str:
        """``play``, ``play-or-call``, ``call`` (the deck is all in the round), ``reveal``
        or ``over``."""
        if self.over:
            return "over"
        if self.called is not None:
            return "reveal"
        if self.last is None or self.played:
            return "play"
        return "play-or-call" if self.cards_left else "call"


CALL_MISFIT = ("the face-down cards, turned over, do not fit the deck ({reason}): correct the "
               "one entered wrong, then call 17 again")


def shown(state: SeventeenState, placed: Placed, *, trashed: bool = False) -> Card | None:
    """The card's id if the table may see it: public, or in the row once 17 is called (a
    ``trashed`` card is never turned over)."""
    if placed.public or (state.called is not None and not trashed):
        return placed.card
    return None


def seen_cards(state: SeventeenState) -> Counter[Card]:
    """The cards of this round the table sees, in the row and trashed, by id."""
    return Counter(card for placed, trashed in _placed(state)
                   if (card := shown(state, placed, trashed=trashed)) is not None)


def seen_in_row(state: SeventeenState) -> Counter[Card]:
    """The cards in the row the table sees, by id: the only cards of the round surely out of
    the draw pile (a trashed card is discarded, and the discard pile becomes the draw pile
    again when the draw pile runs out)."""
    return Counter(card for placed in state.row if (card := shown(state, placed)) is not None)


def _placed(state: SeventeenState) -> Iterator[tuple[Placed, bool]]:
    """The round's cards, each with whether it was trashed."""
    yield from ((placed, False) for placed in state.row)
    yield from ((placed, True) for placed in state.trashed)


def check_round_cards(state: SeventeenState, new: Placed | None = None) -> None:
    """Refuse a row that holds more cards of an id (or more plain backs) than the deck.

    Only the row counts: a trashed card may have been shuffled back into the draw pile and
    played again. Only the cards the table sees count by their id (and ``new``, the card being
    played, that whoever enters it knows): no refusal may tell a card that lies face down and
    unseen. The plain backs count whole: the backs of face-down cards are seen.
    """
    known = seen_in_row(state)
    if new is not None and new.card is not None and not new.public:
        known[new.card] += 1
    left, plain_left = left_in_deck(state, known)
    for card in known:
        if left[card] < 0:
            raise too_many(state.deck, card)
    if plain_left < 0:
        raise IllegalAction("every plain-back card of the deck ({count}) is in the row "
                            "already", count=state.deck.plain_backs)


def left_in_deck(state: SeventeenState, in_row: Counter[Card]) -> tuple[Counter[Card], int]:
    """What the deck holds beyond the row: the cards of each id beyond ``in_row`` (the row's
    cards by id: those the table sees, or all that are known), and the plain-back cards beyond
    the row's (their backs are seen, known or not); below 0 where the row holds more than the
    deck."""
    left = Counter(dict(state.deck.items()))
    left.subtract(in_row)
    plain = sum(1 for p in state.row if p.card is None or not p.card.double_sided)
    return left, state.deck.plain_backs - plain


def nearest_caller(callers: Iterable[int], last: int, direction: int, players: int) -> int:
    """The caller nearest after the last player in the direction of play.

    >>> nearest_caller([0, 1], 2, 1, 3), nearest_caller([0, 1], 2, -1, 3)
    (0, 1)
    """
    called = set(callers)
    return next(p for step in range(1, players)
                if (p := (last + step * direction) % players) in called)


@dataclass(frozen=True)
class Handout:
    """Tokens after a round's scoring, and what moved."""

    victory: tuple[int, ...]
    penalty: tuple[int, ...]
    given: tuple[TokenMove, ...]
    not_given: tuple[TokenMove, ...]
    discarded: tuple[Discard, ...]


def hand_out(players: tuple[str, ...], victory: Sequence[int], penalty: Sequence[int],
             penalties: Sequence[tuple[int, str]], victories: Sequence[tuple[int, str]]
             ) -> Handout:
    """Give the penalties, then the victories, from the box (14 victory, 10 penalty tokens).

    A second penalty sends both penalty tokens and one victory token (if any) back to the
    box; nobody gets more than one victory a round; a victory token not in the box is not
    given. (The penalty box never runs out: between rounds each player holds at most one, so
    at most 7 of the 10 are ever out.)

    >>> out = hand_out(("Ana", "Ben"), [1, 0], [1, 0], [(0, "total")], [(1, "total")])
    >>> out.victory, out.penalty, out.discarded
    ((0, 1), (0, 0), (Discard(player='Ana', victory=1),))
    """
    vic, pen = list(victory), list(penalty)
    given: list[TokenMove] = []
    not_given: list[TokenMove] = []
    discarded: list[Discard] = []
    for player, reason in penalties:
        given.append(TokenMove(players[player], "penalty", reason))
        pen[player] += 1
        if pen[player] == 2:
            lost = min(vic[player], 1)
            pen[player], vic[player] = 0, vic[player] - lost
            discarded.append(Discard(players[player], lost))
    winners: set[int] = set()
    for player, reason in victories:
        move = TokenMove(players[player], "victory", reason)
        if player in winners:
            not_given.append(replace(move, why="one victory token a round"))
        elif sum(vic) >= VICTORY_TOKENS:
            not_given.append(replace(move, why="the box is out of victory tokens"))
        else:
            given.append(move)
            winners.add(player)
            vic[player] += 1
    return Handout(tuple(vic), tuple(pen), tuple(given), tuple(not_given), tuple(discarded))


def max_target(players: int) -> int:
    """The highest target the box allows: while nobody has reached it, a victory token is
    always left in the box (players × (target − 1) ≤ 13), so every round can give one.

    >>> max_target(2), max_target(6)
    (7, 3)
    """
    return 1 + (VICTORY_TOKENS - 1) // players


class SeventeenRules(Rules[SeventeenState, Action]):
    """17 (Diciassette)."""

    name = "17"
    title = "17"
    min_players = 2
    max_players = 6
    options = frozenset({"first", "deck", "target"})

    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> SeventeenState:
        first = players.index(as_player(options.get("first", players[0]), players))
        deck = Deck.from_header(options.get("deck", {}))
        target = as_int(options.get("target", DEFAULT_TARGET),
                        "with {players} players the target is 1 to {high} victory tokens "
                        "(the box holds {box}), not {value}", 1, max_target(len(players)),
                        players=len(players), box=VICTORY_TOKENS)
        zeros = (0,) * len(players)
        return SeventeenState(players, target, deck, zeros, zeros, turn=first)

    def parse_action(self, kind: str, value: object) -> Action:
        kind = as_choice(kind, "a {game} action must be one of {options}, not {value}",
                         (Key("play"), Key("call"), Key("reveal")), game=self.title)
        if kind == "call":
            callers = as_list(value, A_LIST, key=Key("call"))
            if not callers:
                raise IllegalAction("call names at least one player")
            if not all(isinstance(c, str) for c in callers):
                raise IllegalAction("call needs the names of the players who called, "
                                    "not {value}", value=Shown(callers))
            alike = [same_name(c) for c in callers]  # the same letters written two ways too
            twice = sorted({c for c, a in zip(callers, alike, strict=True) if alike.count(a) > 1})
            if twice:
                raise IllegalAction("{names} is named twice in the call", names=Many(twice))
            return Call(tuple(callers))
        if kind == "reveal":
            return Reveal(tuple(_card(c) for c in as_list(
                value, A_LIST, key=Key("reveal"))))
        play = as_object(value, "play", ("card", "face"))
        if "face" not in play:
            raise IllegalAction("play needs a face: up or down")
        face = Face(as_choice(play["face"], "face must be one of {options}, not {value}",
                              list(Face)))
        if "card" not in play:
            if face is Face.UP:
                raise IllegalAction("a card played face up must be named")
            return Play(None, face)
        return Play(_card(play["card"]), face)

    def action_to_json(self, action: Action) -> JSONDict:
        if isinstance(action, Call):
            return {"call": list(action.callers)}
        if isinstance(action, Reveal):
            return {"reveal": [c.value for c in action.cards]}
        card = {} if action.card is None else {"card": action.card.value}
        return {"play": {**card, "face": action.face.value}}

    def public_actions(self, actions: Sequence[Action]) -> list[JSONDict]:
        """The actions without the ids of the face-down plain-back cards the table has not
        seen: those in the row of the round not yet called, and those trashed (a trashed
        card is never turned over)."""
        trashed: set[int] = set()
        row: list[int] = []
        for i, action in enumerate(actions):
            if isinstance(action, Call):
                row = []
            elif isinstance(action, Play) and action.face is Face.UP \
                    and action.card is Card.TRASH:
                trashed.update(row[-1:])
                del row[-1:]
            elif isinstance(action, Play):
                row.append(i)
        unseen = trashed.union(row)
        public = []
        for i, action in enumerate(actions):
            if i in unseen and isinstance(action, Play) and _hidden(action):
                action = Play(None, action.face)
            public.append(self.action_to_json(action))
        return public

    def apply(self, state: SeventeenState, action: Action) -> SeventeenState:
        phase = state.phase
        if phase == "over":
            raise IllegalAction("the game is over; no more actions")
        if phase == "reveal":
            if isinstance(action, Reveal):
                return _reveal(state, action.cards)
            raise _awaiting_reveal(state)
        if isinstance(action, Reveal):
            if state.last is None and state.results:
                raise IllegalAction("round {round} was scored at the call; no card waits to be "
                                    "revealed", round=state.results[-1].round)
            raise IllegalAction("nobody has called 17; there is nothing to reveal")
        if isinstance(action, Call):
            return _call(state, action.callers)
        if phase == "call":
            raise IllegalAction("every card of the deck is in the row already; "
                                "someone must call 17")
        return _play(state, action)

    def public_view(self, state: SeventeenState) -> JSONDict:
        phase = state.phase
        may_call = _may_call(state)
        seen = seen_cards(state)
        playing = phase not in ("reveal", "over")
        return {
            "game": self.name,
            "players": list(state.players),
            "turn": state.players[state.turn] if playing else None,
            "over": state.over,
            "winners": list(state.winners),
            "tokens": {p: {"victory": v, "penalty": n} for p, v, n
                       in zip(state.players, state.victory, state.penalty, strict=True)},
            "box": {"victory": VICTORY_TOKENS - sum(state.victory),
                    "penalty": PENALTY_TOKENS - sum(state.penalty)},
            "target": state.target,
            "round": state.round,
            "direction": "clockwise" if state.direction == 1 else "counterclockwise",
            "expects": [] if state.over else phase.split("-or-"),
            "plays_left": state.turn_plays - state.played if playing else 0,
            "next_turn_plays": 2 if state.x2 else 1,
            "last_player": None if state.last is None else state.players[state.last],
            "call_allowed": bool(may_call),
            "may_call": [state.players[p] for p in may_call],
            "row": [{"position": i, **_card_view(state, p)}
                    for i, p in enumerate(state.row, start=1)],
            "trashed": [_card_view(state, p, trashed=True) for p in state.trashed],
            "seen": {c.value: seen[c] for c in Card if seen[c]},
            "cards_left": state.cards_left,
            "call": _call_view(state),
            "deck": {c.value: n for c, n in state.deck.items()},
            "results": [_result_view(r) for r in state.results],
        }

    def hints(self, state: SeventeenState) -> JSONDict:
        from engine.seventeen_hints import row_hints

        return row_hints(state)

    def random_action(self, state: SeventeenState, rng: Random) -> Action:
        phase = state.phase
        if phase == "reveal":
            return Reveal(_plausible_reveal(state, rng))
        if phase == "call" or (phase == "play-or-call" and rng.random() < CALL_CHANCE):
            others = [state.players[p] for p in _may_call(state)]
            callers = [p for p in others if rng.random() < 0.5] or [rng.choice(others)]
            return Call(tuple(callers))
        card = _random_card(state, rng)
        face = rng.choice(list(Face))
        if face is Face.DOWN and not card.double_sided and rng.random() < 0.5:
            return Play(None, face)
        return Play(card, face)

    def describe(self, state: SeventeenState) -> str:
        tokens = "tokens (victory/penalty): " + "   ".join(
            f"{p} {v}/{n}" for p, v, n in zip(state.players, state.victory, state.penalty,
                                              strict=True))
        if state.over:
            return (f"17, over after round {state.round} (target {state.target})\n"
                    f"  {tokens}\n  Winner{'s' * (len(state.winners) > 1)}: "
                    f"{and_listed(state.winners)}")
        doing = _doing(state)
        direction = "clockwise" if state.direction == 1 else "counterclockwise"
        row = " ".join(_card_text(state, p) for p in state.row) or "empty"
        return (f"17, round {state.round}: {doing}; {direction}, target {state.target}\n"
                f"  {tokens}\n  row: {row}")

    def is_over(self, state: SeventeenState) -> bool:
        return state.over


def _hidden(play: Play) -> bool:
    """A face-down play of a plain-back card: hidden at the table until the call."""
    return play.face is Face.DOWN and play.card is not None and not play.card.double_sided


def _play(state: SeventeenState, play: Play) -> SeventeenState:
    placed = Placed(play.card, play.face, state.turn)
    row, trashed = state.row, state.trashed
    if placed.effect is Card.TRASH:
        row, trashed = row[:-1], (*trashed, *row[-1:], placed)
    else:
        row = (*row, placed)
    direction = -state.direction if placed.effect is Card.REVERSE else state.direction
    state = replace(state, row=row, trashed=trashed, direction=direction,
                    x2=state.x2 or placed.effect is Card.X2, played=state.played + 1)
    check_round_cards(state, placed)
    if state.played < state.turn_plays and state.cards_left:
        return state
    following = (state.turn + state.direction) % len(state.players)
    return replace(state, last=state.turn, turn=following, turn_plays=2 if state.x2 else 1,
                   played=0, x2=False)


def _call(state: SeventeenState, names: tuple[str, ...]) -> SeventeenState:
    if state.last is None:
        raise IllegalAction("nobody has played yet in round {round}; 17 is called after a turn",
                            round=state.round)
    if state.played:
        raise IllegalAction("{name} is in the middle of an {card} turn ({count} more card to "
                            "play); 17 is called after it", card=Card.X2,
                            name=state.players[state.turn],
                            count=state.turn_plays - state.played)
    callers = tuple(state.players.index(as_player(n, state.players)) for n in names)
    if state.last in callers:
        raise IllegalAction("{name} played last and may not call 17",
                            name=state.players[state.last])
    caller = nearest_caller(callers, state.last, state.direction, len(state.players))
    state = replace(state, called=Called(caller, callers))
    try:
        check_round_cards(state)  # the call turns the face-down cards over: all count now
    except IllegalAction as err:  # one of them was entered wrong: the way on is a correction
        raise IllegalAction(CALL_MISFIT, reason=err) from err
    if any(p.card is None for p in state.row):
        return state
    return _score(state)


def _reveal(state: SeventeenState, cards: tuple[Card, ...]) -> SeventeenState:
    positions = [i for i, p in enumerate(state.row, start=1) if p.card is None]
    if len(cards) != len(positions):
        template = ("the row has 1 face-down card to reveal (at {positions}); this reveal "
                    "names {count}" if len(positions) == 1 else
                    "the row has {hidden} face-down cards to reveal (at {positions}); this "
                    "reveal names {count}")
        raise IllegalAction(template, hidden=len(positions), count=len(cards),
                            positions=Many(positions))
    for card in cards:
        if card.double_sided:
            raise IllegalAction("a face-down {card} shows its {points} on the back; a reveal "
                                "names only plain-back cards", card=card,
                                points=card.points)
    named = iter(cards)
    row = tuple(replace(p, card=next(named)) if p.card is None else p for p in state.row)
    state = replace(state, row=row)
    check_round_cards(state)
    return _score(state)


def _score(state: SeventeenState) -> SeventeenState:
    assert state.called is not None and state.last is not None
    caller, last = state.called.caller, state.last
    cards = tuple(p.card for p in state.row if p.card is not None)
    total = sum(c.points for c in cards)
    winner, loser = (caller, last) if total >= SEVENTEEN else (last, caller)
    traps = [p.player for p in state.row if p.face is Face.DOWN and p.card is Card.TRAP]
    out = hand_out(state.players, state.victory, state.penalty,
                   [*((caller, "trap") for _ in traps), (loser, "total")],
                   [*((p, "trap") for p in traps), (winner, "total")])
    names = state.players
    result = RoundResult(state.round, names[caller], tuple(names[c] for c in state.called.callers),
                         names[last], cards, total, out.given, out.not_given, out.discarded,
                         names[winner])
    state = replace(state, victory=out.victory, penalty=out.penalty,
                    results=(*state.results, result), row=(), trashed=(), called=None,
                    last=None, turn=winner, turn_plays=1, played=0, x2=False)
    reached = [i for i, v in enumerate(out.victory) if v >= state.target]
    if not reached:
        return replace(state, round=state.round + 1)
    best = max((out.victory[i], -out.penalty[i]) for i in reached)
    winners = tuple(names[i] for i in reached if (out.victory[i], -out.penalty[i]) == best)
    return replace(state, winners=winners, over=True)


def _doing(state: SeventeenState) -> str:
    if state.called is not None:
        return f"{state.players[state.called.caller]} called 17, the reveal"
    if state.phase == "call":
        return "a call (the deck is all in the round)"
    left = state.turn_plays - state.played
    call = " or a call" if state.phase == "play-or-call" else ""
    return f"{state.players[state.turn]} to play ({_count(left, 'card')}){call}"


def _may_call(state: SeventeenState) -> list[int]:
    if state.phase not in ("play-or-call", "call"):
        return []
    return [p for p in range(len(state.players)) if p != state.last]


def _card_view(state: SeventeenState, placed: Placed, *, trashed: bool = False) -> JSONDict:
    card = shown(state, placed, trashed=trashed)
    return {"face": placed.face.value, "card": None if card is None else card.value,
            "value": None if card is None else card.points, "hidden": card is None,
            "player": state.players[placed.player]}


def _card_text(state: SeventeenState, placed: Placed) -> str:
    card = shown(state, placed)
    text = "??" if card is None else card.value
    return f"[{text}]" if placed.face is Face.DOWN else text


def _call_view(state: SeventeenState) -> JSONDict | None:
    if state.called is None or state.last is None:
        return None
    return {"caller": state.players[state.called.caller],
            "callers": [state.players[c] for c in state.called.callers],
            "last_player": state.players[state.last],
            "to_reveal": [i for i, p in enumerate(state.row, start=1) if p.card is None]}


def _result_view(result: RoundResult) -> JSONDict:
    def move(m: TokenMove) -> JSONDict:
        return {"player": m.player, "token": m.token, "for": m.reason,
                **({} if m.why is None else {"why": m.why})}

    return {"round": result.round, "caller": result.caller, "callers": list(result.callers),
            "last_player": result.last_player, "row": [c.value for c in result.row],
            "total": result.total, "reached_17": result.total >= SEVENTEEN,
            "given": [move(m) for m in result.given],
            "not_given": [move(m) for m in result.not_given],
            "discarded": [{"player": d.player, "penalty": 2, "victory": d.victory}
                          for d in result.discarded],
            "starts_next": result.starts_next}


def _awaiting_reveal(state: SeventeenState) -> IllegalAction:
    assert state.called is not None
    hidden = sum(1 for p in state.row if p.card is None)
    template = ("{name} called 17; the reveal of the 1 face-down card in the row comes first"
                if hidden == 1 else
                "{name} called 17; the reveal of the {hidden} face-down cards in the row comes "
                "first")
    return IllegalAction(template, name=state.players[state.called.caller], hidden=hidden)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' * (n != 1)}"


def _card(value: object) -> Card:
    return Card(as_choice(value, "a card must be one of {options}, not {value}", list(Card)))


def _known_in_row(state: SeventeenState) -> Counter[Card]:
    """The row's cards whose id is known (seen or not), by id."""
    return Counter(p.card for p in state.row if p.card is not None)


def _room(state: SeventeenState) -> dict[Card, int]:
    """Cards of each id that the row may still take."""
    left, plain_left = left_in_deck(state, _known_in_row(state))
    return {c: min(left[c], plain_left) if c in PLAIN_BACKS else left[c] for c in Card}


def _random_card(state: SeventeenState, rng: Random) -> Card:
    room = _room(state)
    cards = [c for c, n in room.items() for _ in range(n)]
    return rng.choice(cards)


def _plausible_reveal(state: SeventeenState, rng: Random) -> tuple[Card, ...]:
    left, _ = left_in_deck(state, _known_in_row(state))
    pool = [c for c in PLAIN_BACKS for _ in range(left[c])]
    hidden = sum(1 for p in state.row if p.card is None)
    return tuple(rng.sample(pool, hidden))


RULES = register(SeventeenRules())
