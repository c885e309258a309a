"""The one error hierarchy of the engine, and the refusals a player reads.

Every refusal names the bad input and the state it met, in words a player understands. It is
a template with named fields plus their values, so that the score pad can show it in the
player's language (``web/i18n/*.json`` hold every template); ``str()`` is the English text.

The values are language-neutral: names, numbers, card ids, record keys, dice written as text.
Every word a player reads is in a template. A value may itself be a :class:`Refusal`: the
inner refusal of one that wraps it (``Game`` naming the replayed action that is refused,
:class:`RecordError` naming the line, both as ``reason``), or a clause (what a Dicy Cards turn
waits for). A translator translates each template and puts the inner text into the outer.

>>> issubclass(IllegalAction, ValueError)
True
>>> err = IllegalAction("it is {player}'s turn, not {other}'s", player="Ana", other="Ben")
>>> str(err), err.template, err.params["player"]
("it is Ana's turn, not Ben's", "it is {player}'s turn, not {other}'s", 'Ana')
>>> wrapped = RecordError(3, err)
>>> str(wrapped), wrapped.template, wrapped.params["reason"] is err
("line 3: it is Ana's turn, not Ben's", 'line {line}: {reason}', True)
"""

from __future__ import annotations


class Refusal(Exception):
    """A message for the players: ``template`` with named fields, and their ``params``."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


class EngineError(Refusal):
    """Base class of everything the engine refuses."""


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow in the current state (or a malformed one)."""


class RecordError(EngineError, ValueError):
    """A game-record line that cannot be read or replayed: its 1-based line number, and the
    refusal met there as its ``reason``."""

    def __init__(self, line: int, reason: EngineError) -> None:
        super().__init__("line {line}: {reason}", line=line, reason=reason)
        self.line = line
        self.reason = reason
