"""The pace at which PINs (and host-link tokens) are checked: per client, and for the table.

Each client's first few tries are free; then every wrong try doubles the wait before its next
try is even checked, up to a lockout. A client's record is forgotten after a quiet window or at
its first success. Whatever the number of addresses a guesser rotates through, the whole table
checks at most ``table_rate`` tries a minute (after a first ``table_burst``): a try beyond that
is refused unchecked, so the 10⁶ PINs stay out of reach.

>>> now = [0.0]
>>> throttle = PinThrottle(free_tries=2, clock=lambda: now[0])
>>> [throttle.acquire("phone") for _ in range(4)]
[0.0, 0.0, 0.0, 1.0]
>>> now[0] = 1.0
>>> throttle.acquire("phone"), throttle.acquire("phone")
(0.0, 2.0)
>>> throttle.succeeded("phone"); throttle.acquire("phone")
0.0
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_CLIENTS = 1000
TABLE_RATE = 30.0
"""Tries checked a minute for the whole table, once its burst is spent."""
TABLE_BURST = 10


@dataclass
class _Tries:
    count: int
    last: float


class PinThrottle:
    """Exponential delay per client after ``free_tries`` tries, capped at ``max_delay``, under
    a token bucket for the whole table (``table_rate`` a minute, ``table_burst`` at once)."""

    def __init__(self, *, free_tries: int = 3, base_delay: float = 1.0, max_delay: float = 300.0,
                 window: float = 900.0, table_rate: float = TABLE_RATE,
                 table_burst: int = TABLE_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._free = free_tries
        self._base = base_delay
        self._max = max_delay
        self._window = max(window, max_delay)
        self._rate = table_rate / 60.0
        self._burst = float(table_burst)
        self._clock = clock
        self._lock = threading.Lock()
        self._tries: dict[str, _Tries] = {}
        self._tokens = self._burst
        self._filled = clock()

    def acquire(self, client: str) -> float:
        """0.0 if a try of ``client`` may be checked now (it is counted: call
        :meth:`succeeded` if it was right); else the seconds to wait, and nothing is counted."""
        with self._lock:
            now = self._clock()
            record = self._current(client, now)
            wait = 0.0 if record is None else record.last + self._delay(record.count) - now
            self._tokens = min(self._burst, self._tokens + (now - self._filled) * self._rate)
            self._filled = now
            wait = max(wait, (1.0 - self._tokens) / self._rate)
            if wait > 0:
                return wait
            self._tokens -= 1.0
            record = record or _Tries(0, now)
            record.count += 1
            record.last = now
            self._tries[client] = record
            self._prune()
            return 0.0

    def delay(self, client: str) -> float:
        """The wait ``client``'s counted tries impose on its next one."""
        with self._lock:
            record = self._tries.get(client)
            return 0.0 if record is None else self._delay(record.count)

    def succeeded(self, client: str) -> None:
        """Forget the client's tries (its last one was right)."""
        with self._lock:
            self._tries.pop(client, None)

    def _delay(self, count: int) -> float:
        if count <= self._free:
            return 0.0
        return float(min(self._max, self._base * 2 ** (count - self._free - 1)))

    def _current(self, client: str, now: float) -> _Tries | None:
        record = self._tries.get(client)
        if record is not None and now - record.last > self._window:
            del self._tries[client]
            return None
        return record

    def _prune(self) -> None:
        """Past :data:`MAX_CLIENTS`, forget the clients with the fewest tries (the oldest of
        them first): never one that is locked out while others are not."""
        if len(self._tries) <= MAX_CLIENTS:
            return
        ranked = sorted(self._tries, key=lambda c: (self._tries[c].count, self._tries[c].last))
        for client in ranked[: len(ranked) - MAX_CLIENTS]:
            del self._tries[client]
