"""What the dice reader says about one die.

>>> DieRead(value=5, x=120.0, y=80.5, confidence=0.98).sure
True
>>> DieRead(value=None, x=10.0, y=10.0, confidence=0.4).sure
False
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DieRead:
    """One die found in an image: its top-face value (None = "not sure"), the centre of its
    top face in image pixels, the reader's confidence in the value (0..1), and the side of
    its top face in image pixels (0 where not known)."""

    value: int | None
    x: float
    y: float
    confidence: float
    size: float = 0.0

    @property
    def sure(self) -> bool:
        """True when the reader commits to a value."""
        return self.value is not None
