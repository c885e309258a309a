"""Telling systemd how the table is: the ``sd_notify`` protocol and the watchdog.

Under a ``Type=notify`` unit, systemd gives the process ``$NOTIFY_SOCKET``: a Unix datagram
socket (a leading ``@`` names one in the abstract namespace). Each datagram is lines of
``KEY=value``: ``READY=1`` once the table is up, ``STATUS=…`` for ``systemctl status``,
``WATCHDOG=1`` as the watchdog's ping, ``STOPPING=1`` (see sd_notify(3); the protocol is these
few lines, so no library). Outside systemd there is no socket and nothing is sent.

:class:`Watchdog` pings at half of ``WatchdogSec`` (systemd passes it as ``$WATCHDOG_USEC``),
and only while every loop that matters has shown life since the last ping: a loop that hangs
stops the pings, and systemd restarts the service.

>>> Notifier(None).send("READY=1")
False
>>> watchdog_interval({"WATCHDOG_USEC": "30000000"}, pid=7)
15.0
>>> watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "8"}, pid=7) is None
True
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Mapping

Post = Callable[[Callable[[], None]], None]
"""Queues a call on a loop's own thread (e.g. the session worker), without waiting."""


class Notifier:
    """Sends notifications to the socket at ``address`` (None: not under systemd)."""

    def __init__(self, address: str | None) -> None:
        self.address = address or None
        self._lock = threading.Lock()

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Notifier:
        """The notifier systemd asked for with ``$NOTIFY_SOCKET`` (none outside systemd)."""
        return cls(environ.get("NOTIFY_SOCKET"))

    @property
    def enabled(self) -> bool:
        """Whether there is a service manager to tell."""
        return self.address is not None

    def send(self, *lines: str) -> bool:
        """Send ``lines`` as one notification; True if it was sent. A manager that went away
        is no reason to stop the table: errors are swallowed."""
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        with self._lock, socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto("\n".join(lines).encode(), target)
            except OSError:
                return False
        return True

    def ready(self, status: str) -> bool:
        """The table is up (journal, session, camera and server)."""
        return self.send("READY=1", f"STATUS={status}")

    def status(self, status: str) -> bool:
        """A one-line status for ``systemctl status``."""
        return self.send(f"STATUS={status}")

    def stopping(self) -> bool:
        """The table is shutting down."""
        return self.send("STOPPING=1", "STATUS=stopping")


def watchdog_interval(environ: Mapping[str, str] = os.environ, *,
                      pid: int | None = None) -> float | None:
    """Half of the unit's ``WatchdogSec`` in seconds, or None when it has no watchdog (or the
    watchdog is meant for another process, ``$WATCHDOG_PID``)."""
    usec = environ.get("WATCHDOG_USEC", "")
    wanted_pid = environ.get("WATCHDOG_PID")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if wanted_pid and wanted_pid != str(os.getpid() if pid is None else pid):
        return None
    return int(usec) / 1e6 / 2


class Watchdog:
    """Pings systemd's watchdog every ``interval`` seconds while every registered loop has
    shown life since the previous ping, and keeps the status line fresh.

    A loop shows life by calling the function :meth:`loop` gives it (the camera loop does so
    whenever the camera answers); a loop that sleeps while idle (the session worker) gets a
    probe posted to it at each ping, which beats when the loop runs it. ``interval`` None: no
    watchdog, only the status line (every ``status_s`` seconds).
    """

    def __init__(self, notifier: Notifier, interval: float | None, *,
                 status: Callable[[], str] | None = None, status_s: float = 5.0) -> None:
        self.notifier = notifier
        self.interval = interval
        self._status = status
        self._status_s = status_s
        self._lock = threading.Lock()
        self._beaten: dict[str, bool] = {}
        self._probes: dict[str, Callable[[], None]] = {}
        self._probe_pending: set[str] = set()
        self._said: str | None = None
        self.failed: list[str] = []
        """The loops that had shown no life at the last ping (so it was not sent)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.pings = 0

    def loop(self, name: str) -> Callable[[], None]:
        """Watch loop ``name`` from now on; it calls the returned function to show life."""
        with self._lock:
            self._beaten[name] = True

        def beat() -> None:
            with self._lock:
                if name in self._beaten:
                    self._beaten[name] = True
        return beat

    def probe(self, name: str, post: Post) -> None:
        """Watch loop ``name``, which runs what ``post`` queues on it: a probe is posted at
        each ping (once the previous one ran) and beats when the loop gets to it."""
        beat = self.loop(name)
        with self._lock:
            self._probes[name] = lambda: post(self._probe_done(name, beat))

    def leave(self, name: str) -> None:
        """Loop ``name`` ended on purpose (e.g. a recording that played to its end)."""
        with self._lock:
            self._beaten.pop(name, None)
            self._probes.pop(name, None)

    def late(self) -> list[str]:
        """The loops that have shown no life since the last ping."""
        with self._lock:
            return sorted(name for name, beaten in self._beaten.items() if not beaten)

    def tick(self) -> bool:
        """One ping: sent when every loop showed life since the last one; then every loop
        must show life again (probes are posted). True if the ping was sent."""
        with self._lock:
            self.failed = sorted(name for name, beaten in self._beaten.items() if not beaten)
            alive = not self.failed
            self._beaten = dict.fromkeys(self._beaten, False)
            probes = [(name, post) for name, post in self._probes.items()
                      if name not in self._probe_pending]
            self._probe_pending.update(name for name, _ in probes)
        for _name, post in probes:
            post()
        if alive and self.interval is not None and self.notifier.send("WATCHDOG=1"):
            self.pings += 1
            return True
        return False

    def ready(self) -> None:
        """Tell systemd the table is up, with its status line."""
        self._said = self._status() if self._status is not None else "ready"
        self.notifier.ready(self._said)

    def say_status(self) -> None:
        """Send the status line when it changed."""
        if self._status is None:
            return
        line = self._status()
        if self.failed:
            line += "; not answering: " + ", ".join(self.failed)
        if line != self._said:
            self.notifier.status(line)
            self._said = line

    def start(self) -> None:
        """Ping (and keep the status fresh) on a thread of its own, until :meth:`stop`.
        Nothing is started outside systemd."""
        if not self.notifier.enabled:
            return
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop pinging."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        next_ping = time.monotonic()
        while True:
            if self.interval is not None and time.monotonic() >= next_ping:
                self.tick()
                next_ping += self.interval
            self.say_status()
            wait = self._status_s
            if self.interval is not None:
                wait = min(wait, next_ping - time.monotonic())
            if self._stop.wait(max(0.0, wait)):
                return

    def _probe_done(self, name: str, beat: Callable[[], None]) -> Callable[[], None]:
        def done() -> None:
            with self._lock:
                self._probe_pending.discard(name)
            beat()
        return done
