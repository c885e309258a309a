"""The one error hierarchy of the engine.

Every refusal names the bad input and the state it met, in words a player understands.

>>> issubclass(IllegalAction, ValueError)
True
>>> str(RecordError(3, "two-pairs needs two different values"))
'line 3: two-pairs needs two different values'
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of everything the engine refuses."""


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow in the current state (or a malformed one)."""


class RecordError(EngineError, ValueError):
    """A game-record line that cannot be read or replayed; carries its 1-based line number."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
