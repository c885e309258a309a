"""One answer of a look that costs and may change, shared by every thread that asks within a
period: the table's address, which each open live stream looks at (:mod:`web.events`), is
asked of the system once per period for all of them, not once per stream.

>>> asked = []
>>> look = SharedLook(lambda: asked.append(1) or len(asked), every=60.0)
>>> look(), look(), len(asked)
(1, 1, 1)
>>> look.fresh(), look(), len(asked)
(2, 2, 2)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class SharedLook(Generic[T]):
    """``find``'s answer, found again only once it is ``every`` seconds old."""

    def __init__(self, find: Callable[[], T], *, every: float) -> None:
        self._find = find
        self._every = every
        self._lock = threading.Lock()
        self._found: tuple[float, T] | None = None

    def __call__(self) -> T:
        """The answer found within the last ``every`` seconds, else one found now (by one
        thread: the others asking meanwhile wait for it)."""
        with self._lock:
            now = time.monotonic()
            if self._found is None or now - self._found[0] >= self._every:
                self._found = (now, self._find())
            return self._found[1]

    def fresh(self) -> T:
        """An answer found now, which the others then share as one found by them."""
        with self._lock:
            self._found = (time.monotonic(), self._find())
            return self._found[1]
