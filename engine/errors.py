"""The one error hierarchy of the engine.

Every refusal names the bad input and the state it met, in words a player understands. A
message may be given as a template with named fields, so that the score pad can show it in
the player's language; ``str()`` is always the English text.

>>> issubclass(IllegalAction, ValueError)
True
>>> err = IllegalAction("it is {player}'s turn, not {other}'s", player="Ana", other="Ben")
>>> str(err), err.template, err.params["player"]
("it is Ana's turn, not Ben's", "it is {player}'s turn, not {other}'s", 'Ana')
>>> str(RecordError(3, "two-pairs needs two different values"))
'line 3: two-pairs needs two different values'
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of everything the engine refuses."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow in the current state (or a malformed one)."""


class RecordError(EngineError, ValueError):
    """A game-record line that cannot be read or replayed; carries its 1-based line number."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__("line {line}: {reason}", line=line, reason=reason)
        self.line = line
        self.reason = reason
