"""A cap on the live streams open at once, so that waitress always keeps threads free.

>>> gate = StreamGate(1)
>>> gate.enter(), gate.enter(), gate.open
(True, False, 1)
>>> gate.leave(); gate.open
0
>>> gate.close(); gate.closed, gate.enter()
(True, False)
"""

from __future__ import annotations

import threading


class StreamGate:
    """Counts open streams; :meth:`enter` refuses beyond ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open = 0
        self._lock = threading.Lock()
        self._closed = threading.Event()

    @property
    def open(self) -> int:
        """Streams open now."""
        return self._open

    @property
    def closed(self) -> bool:
        """True once the server is stopping: open streams end, new ones are refused."""
        return self._closed.is_set()

    def close(self) -> None:
        """End every stream (within a poll interval) and refuse new ones."""
        self._closed.set()

    def enter(self) -> bool:
        """Take a place for one more stream; False if all are taken or the gate is closed."""
        with self._lock:
            if self._open >= self.limit or self.closed:
                return False
            self._open += 1
            return True

    def leave(self) -> None:
        """Give a stream's place back."""
        with self._lock:
            self._open -= 1
