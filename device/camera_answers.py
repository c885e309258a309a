"""The phones' answers to the camera's questions (:class:`device.table_reads.Ask`).

Every answer is one tap: ``{"ignore": true}`` drops any question (the read was wrong, the
table goes on by hand); ``{"values": [v, ...]}`` gives the circled dice's values;
``{"card": id}`` names the card frozen for a reroll; ``{"next_roll": true}`` says the dice
are the next player's roll; ``{"rolled": true}`` says a die that seemed nudged was rerolled.
An answer that does not fit its question is refused and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from device.camera_desk import Question
from device.live import Seen
from device.table_reads import Apply, Decision, Hold, TableReads, reroll
from engine import Game
from engine.errors import Refusal


class AnswerRefused(Refusal, ValueError):
    """An answer that does not fit the camera's question."""


def answer_question(question: Question, reply: dict[str, Any], game: Game,
                    reads: TableReads) -> tuple[Decision, Seen]:
    """What ``reply`` to ``question`` decides, and the read it is about (with the values
    given, for a values answer)."""
    ask, seen = question.ask, question.seen
    line = ask.line or {}
    if reply == {"ignore": True}:
        return None, seen
    if ask.kind == "values" and set(reply) == {"values"}:
        filled = _filled(seen, ask.circled, reply["values"])
        return reads.decide(filled.observation, game), filled
    if ask.kind in ("freeze", "whose") and reply == {"next_roll": True} \
            and ask.next_player is not None:
        return Hold({"roll": _dice(line)}, ask.next_player), seen
    if ask.kind == "freeze" and set(reply) == {"card"} and reply["card"] in ask.cards:
        return Apply({"reroll": {"freeze": reply["card"], "dice": _dice(line)}}), seen
    if ask.kind == "nudge" and reply == {"rolled": True}:
        if "roll" in line:
            return Apply(line), seen
        return reroll(game.view(), _dice(line), ask.was), seen
    raise AnswerRefused("that answer does not fit the camera's question")


def _dice(line: dict[str, Any]) -> list[int]:
    value = line.get("roll") or line.get("reroll", {}).get("dice")
    return [int(v) for v in value or []]


def _filled(seen: Seen, circled: tuple[int, ...], values: object) -> Seen:
    """``seen`` with the circled dice's values given by a phone."""
    if not isinstance(values, list) or len(values) != len(circled) or not all(
            type(v) is int and 1 <= v <= 6 for v in values):
        raise AnswerRefused("give a value from 1 to 6 for each circled die")
    dice = list(seen.observation.dice)
    for index, value in zip(circled, values, strict=True):
        dice[index] = replace(dice[index], value=value, confidence=1.0)
    return replace(seen, observation=replace(seen.observation, dice=tuple(dice)))
