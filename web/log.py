"""The game told in plain words: one entry per standing action, in the phone's language.

Each entry says who did what and what came of it ("Ana scored Two pairs (5 5 4 4) for 18;
Ben must freeze a card"); an entry that ends a turn or a round also carries a ``moment``, the
few words every phone shows big ("Exterminate! 16", "12 < 17 → Cleo ★, Ana ✖"). Where these
show pictures (17's tokens, ★ and ✖), the entry also carries them in words for a screen reader
(``said``, ``moment_said``: "… → Cleo: 1 victory token, Ana: 1 penalty token"). The game is
replayed from its header, and only what the table may see is told: the public record's lines
and the public views.

>>> from engine import Game
>>> game = Game.start({"game": "dalek", "players": ["Jenna", "Peter"]})
>>> for line in [{"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]},
...              {"keep": ["H4", "H4", "H4", "D3", "D3", "D3"]},
...              {"roll": ["D3", "D2", "EXT"]}, {"keep": ["D3", "D2"]}]:
...     game = game.play_json(line)
>>> entries = game_log(game, "en")
>>> entries[1]["text"]
'Jenna kept 3 × 4 humans, 3 × 3 Daleks'
>>> entries[3]["text"], entries[3]["moment"]
('Jenna kept 3 Daleks, 2 Daleks; no dice left: 17 points', 'No dice left: +5 → 17')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine import Game
from engine.dalek import Face
from engine.errors import Many
from web.i18n import text
from web.wording import value_text

Entry = dict[str, Any]
View = dict[str, Any]


def game_log(game: Game, lang: str) -> list[Entry]:
    """One entry per standing action of ``game``: ``player`` (who acted, or None), ``text``
    and ``moment`` (None, or the words to show big); with ``said`` and ``moment_said`` where
    those show pictures (the same in words)."""
    return tell_on(game, lang, None).entries


@dataclass(frozen=True)
class Told:
    """A story as far as it was told: the game's public lines and actions, the game replayed
    to there and its view, and the entries."""

    header: Mapping[str, Any]
    lines: list[dict[str, Any]]
    actions: tuple[Any, ...]
    step: Game
    view: View
    entries: list[Entry]


def tell_on(game: Game, lang: str, told: Told | None) -> Told:
    """The story of ``game`` in ``lang``, told on from ``told`` where that is how this game
    begins (the next action of a game in progress costs one step, not a replay); from the
    start where it is not (an undo, a correction, a card turned over at a call)."""
    tell = _TELLERS[str(game.rules.name)]
    lines = game.public_record()[1:]
    if told is not None and told.header == game.header \
            and told.actions == game.actions[:len(told.actions)] \
            and told.lines == lines[:len(told.lines)]:
        step, before, entries = told.step, told.view, list(told.entries)
    else:
        step = game.replayed(())
        before, entries = step.view(), []
    done = len(entries)
    for line, action in zip(lines[done:], game.actions[done:], strict=True):
        step = step.play(action)
        after = step.view()
        entries.append(tell(lang, line, before, after))
        before = after
    return Told(game.header, lines, game.actions, step, before, entries)


def _entry(player: str | None, said: str, moment: str | None = None) -> Entry:
    return {"player": player, "text": said, "moment": moment}


def _new_results(before: View, after: View) -> list[dict[str, Any]]:
    return list(after["results"][len(before["results"]):])


# Dalek Dice ----------------------------------------------------------------------------------

def _dalek(lang: str, line: dict[str, Any], before: View, after: View) -> Entry:
    ((kind, value),) = line.items()
    player = before["turn"]
    faces = value_text(lang, _faces(value)) if kind in ("roll", "keep") and value else ""
    if kind == "roll":
        said = text(lang, "log.rolled", name=player, what=faces)
    elif kind == "keep":
        said = (text(lang, "log.kept", name=player, what=faces) if value
                else text(lang, "log.kept_none", name=player))
    else:
        area = before["table"]
        said = text(lang, "log.stopped", name=player, n=_banked(after, player))
        if area["daleks"] < area["humans"]:
            said = text(lang, "log.stopped_short", name=player, humans=area["humans"],
                        daleks=area["daleks"])
    for result in _new_results(before, after):
        if result["ending"] != "stop":
            ending = result["ending"]
            said += text(lang, f"log.end.{ending}", n=result["points"])
            bonus = ending == "exterminate" and result["points"] > 2 * result["humans"]
            moment = f"{ending}-no-dice" if bonus else ending
            return _entry(player, said, text(lang, f"moment.{moment}", n=result["points"],
                                             humans=result["humans"]))
    return _entry(player, said)


def _faces(value: list[str]) -> Many:
    return Many(Face(f) for f in value)


def _banked(after: View, player: str) -> int:
    return int(next(r["points"] for r in reversed(after["results"]) if r["player"] == player))


# Dicy Cards ----------------------------------------------------------------------------------

def _dicy(lang: str, line: dict[str, Any], before: View, after: View) -> Entry:
    ((kind, value),) = line.items()
    player = before["turn"]
    if kind == "roll":
        said = text(lang, "log.rolled", name=player, what=_dice(value))
    elif kind == "reroll":
        said = text(lang, "log.rerolled", name=player, card=_card(lang, value["freeze"]),
                    what=_dice(value["dice"]))
    elif kind == "score":
        outcome = (after["table"] or {}).get("outcome") or _new_results(before, after)[-1]
        said = text(lang, "log.scored", name=player, card=_card(lang, value["card"]),
                    what=_dice(value["dice"]), n=outcome["points"])
    elif kind == "skip":
        said = text(lang, "log.skipped", name=player)
    else:
        owed = next(o for o in before["pending"] if o["player"] == value["player"])
        player = value["player"]
        said = text(lang, f"log.{owed['choice']}", name=player, card=_card(lang, value["card"]))
    if kind in ("score", "skip", "effect"):
        said += "".join(text(lang, f"log.owes.{o['choice']}", name=o["player"])
                        for o in after["pending"])
    return _entry(player, said)


def _dice(dice: list[int]) -> str:
    return " ".join(str(d) for d in dice)


def _card(lang: str, card: str) -> str:
    return text(lang, f"card.{card}")


# 17 ------------------------------------------------------------------------------------------

def _seventeen(lang: str, line: dict[str, Any], before: View, after: View) -> Entry:
    ((kind, value),) = line.items()
    player = before["turn"]
    moment = None
    if kind == "play":
        card = value.get("card")
        said = (text(lang, "log.played_hidden", name=player) if card is None else
                text(lang, f"log.played_{value['face']}", name=player, card=_card17(lang, card)))
    elif kind == "call":
        results = _new_results(before, after)
        caller = after["call"]["caller"] if after["call"] else results[-1]["caller"]
        player = caller
        said = text(lang, "log.called", name=caller)
        moment = text(lang, "moment.seventeen", name=caller)
    else:
        said = text(lang, "log.revealed", what=", ".join(_card17(lang, c) for c in value))
    results = _new_results(before, after)
    if not results:
        return _entry(player, said, moment)
    in_words = said
    for result in results:
        summary, summary_in_words = round_told(lang, result)
        said += "; " + summary
        in_words += "; " + summary_in_words
        moment = summary
    return {**_entry(player, said, moment), "said": in_words, "moment_said": summary_in_words}


def _card17(lang: str, card: str) -> str:
    return text(lang, f"c17.{card}")


def round_told(lang: str, result: dict[str, Any]) -> tuple[str, str]:
    """A scored 17 round in a few words, as shown and as a screen reader says it: "12 < 17 →
    Cleo ★, Ana ✖" and "12 < 17 → Cleo: 1 victory token, Ana: 1 penalty token" (each player's
    tokens of the round together, in the order given, each player named once: "Ana: 1 penalty
    token and 1 victory token")."""
    given = _tokens_given(result)
    shown = ", ".join(f"{player} {_marks(kinds)}" for player, kinds in given.items())
    said = ", ".join(f"{player}: " + _kinds_in_words(lang, kinds)
                     for player, kinds in given.items())
    return _round(lang, result, shown), _round(lang, result, said)


def _marks(kinds: dict[str, int]) -> str:
    """One player's tokens of a round as signs: "★✖✖"."""
    return "".join(("★" if token == "victory" else "✖") * n for token, n in kinds.items())


def _kinds_in_words(lang: str, kinds: dict[str, int]) -> str:
    """One player's tokens of a round in words, both kinds joined: "1 penalty token and 1
    victory token"."""
    first, *then = (text(lang, f"c17.{token}_n", n=n) for token, n in kinds.items())
    return text(lang, "log.tokens_and", first=first, then=then[0]) if then else first


def _round(lang: str, result: dict[str, Any], tokens: str) -> str:
    sign = "≥" if result["reached_17"] else "<"
    return text(lang, "log.round", total=result["total"], sign=sign, tokens=tokens)


def _tokens_given(result: dict[str, Any]) -> dict[str, dict[str, int]]:
    """How many tokens of each kind each player was given in a round, in the order given."""
    given: dict[str, dict[str, int]] = {}
    for token in result["given"]:
        kinds = given.setdefault(token["player"], {})
        kinds[token["token"]] = kinds.get(token["token"], 0) + 1
    return given


_TELLERS: dict[str, Callable[[str, dict[str, Any], View, View], Entry]] = {
    "dalek": _dalek, "dicy": _dicy, "17": _seventeen}
