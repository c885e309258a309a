"""Slowing down wrong PINs: each client waits longer after every failure, up to a lockout.

The first few tries are free; then every failure doubles the wait before the next try is even
checked. A client's record is forgotten after a quiet window or at its first success.

>>> now = [0.0]
>>> throttle = PinThrottle(free_tries=2, clock=lambda: now[0])
>>> throttle.failed("phone"), throttle.failed("phone"), throttle.failed("phone")
(0.0, 0.0, 1.0)
>>> throttle.wait("phone")
1.0
>>> now[0] = 1.0
>>> throttle.wait("phone"), throttle.failed("phone")
(0.0, 2.0)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_CLIENTS = 1000


@dataclass
class _Failures:
    count: int
    last: float


class PinThrottle:
    """Exponential delay per client after ``free_tries`` failures, capped at ``max_delay``."""

    def __init__(self, *, free_tries: int = 3, base_delay: float = 1.0, max_delay: float = 300.0,
                 window: float = 900.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._free = free_tries
        self._base = base_delay
        self._max = max_delay
        self._window = max(window, max_delay)
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, _Failures] = {}

    def wait(self, client: str) -> float:
        """Seconds ``client`` must still wait before a try is checked (0 when it may try)."""
        with self._lock:
            record = self._current(client)
            if record is None:
                return 0.0
            return max(0.0, record.last + self._delay(record.count) - self._clock())

    def failed(self, client: str) -> float:
        """Count a wrong try; returns the wait it imposes."""
        with self._lock:
            record = self._current(client) or _Failures(0, 0.0)
            record.count += 1
            record.last = self._clock()
            self._failures[client] = record
            self._prune()
            return self._delay(record.count)

    def succeeded(self, client: str) -> None:
        """Forget the client's failures."""
        with self._lock:
            self._failures.pop(client, None)

    def _delay(self, count: int) -> float:
        if count <= self._free:
            return 0.0
        return float(min(self._max, self._base * 2 ** (count - self._free - 1)))

    def _current(self, client: str) -> _Failures | None:
        record = self._failures.get(client)
        if record is not None and self._clock() - record.last > self._window:
            del self._failures[client]
            return None
        return record

    def _prune(self) -> None:
        if len(self._failures) <= MAX_CLIENTS:
            return
        oldest = sorted(self._failures, key=lambda c: self._failures[c].last)
        for client in oldest[: len(oldest) - MAX_CLIENTS]:
            del self._failures[client]
