"""A cap on the live streams open at once, so that waitress always keeps threads free, and on
the streams of one address, so that a phone that reconnects replaces the stream it left behind
(a phone that drops off the Wi-Fi does not say so: its old stream lingers until a write fails).

>>> gate = StreamGate(2, per_address=2)
>>> first = gate.enter("10.0.0.5")
>>> gate.enter("10.0.0.6") is not None
True
>>> again = gate.enter("10.0.0.5")   # all taken, but the same phone again: its old stream ends
>>> first.ended, again.ended, gate.open
(True, False, 3)
>>> gate.leave(first); gate.open
2
>>> gate.enter("10.0.0.7")           # all taken by others
>>> gate.close(); gate.closed, gate.enter("10.0.0.8")
(True, None)
"""

from __future__ import annotations

import threading

PER_ADDRESS = 12
"""Live streams one address may hold: a phone's page, and a few tabs or reconnections, or the
phones of a whole table behind one address (a Wi-Fi extender that shares its own)."""


class Ticket:
    """One stream's place; :attr:`ended` once the gate wants the stream to end."""

    def __init__(self, address: str) -> None:
        self.address = address
        self._ended = threading.Event()

    @property
    def ended(self) -> bool:
        """True once the stream should end (the same phone opened a newer one)."""
        return self._ended.is_set()

    def end(self) -> None:
        """Ask the stream to end (within a poll interval)."""
        self._ended.set()


class StreamGate:
    """Counts open streams; :meth:`enter` refuses beyond ``limit``."""

    def __init__(self, limit: int, *, per_address: int = PER_ADDRESS) -> None:
        self.limit = limit
        self.per_address = per_address
        self._tickets: list[Ticket] = []
        self._lock = threading.Lock()
        self._closed = threading.Event()

    @property
    def open(self) -> int:
        """Streams open now."""
        return len(self._tickets)

    @property
    def closed(self) -> bool:
        """True once the server is stopping: open streams end, new ones are refused."""
        return self._closed.is_set()

    def close(self) -> None:
        """End every stream (within a poll interval) and refuse new ones."""
        self._closed.set()

    def enter(self, address: str) -> Ticket | None:
        """A place for one more stream from ``address``; None if all are taken by other
        addresses or the gate is closed. When all are taken, or ``address`` holds
        ``per_address`` already, the oldest stream of ``address`` is ended instead."""
        with self._lock:
            if self.closed:
                return None
            running = [t for t in self._tickets if not t.ended]
            mine = [t for t in running if t.address == address]
            if mine and (len(mine) >= self.per_address or len(running) >= self.limit):
                mine[0].end()
                running.remove(mine[0])
            if len(running) >= self.limit:
                return None
            ticket = Ticket(address)
            self._tickets.append(ticket)
            return ticket

    def leave(self, ticket: Ticket) -> None:
        """Give a stream's place back."""
        with self._lock:
            self._tickets.remove(ticket)
