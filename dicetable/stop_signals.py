"""Taking the stop signals (SIGTERM, SIGINT) where they are not ignored: a command started in
the background by a script (``dicetable serve &``) is not stopped by the terminal's Ctrl-C;
and while a command's modules load (:func:`early_stop`), a stop is noted, to be raised once
they are."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def take_stop_signals(handler: Handler) -> dict[int, Handler]:
    """Set ``handler`` for SIGTERM and SIGINT (in the main thread), leaving one ignored so;
    returns the handlers of those taken, as they were."""
    return {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS
            if signal.getsignal(signum) is not signal.SIG_IGN}


class Stopped(KeyboardInterrupt):
    """A stop signal (SIGTERM, SIGINT) came before the command took it itself."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class EarlyStop:
    """SIGTERM and SIGINT while a command loads and starts (systemd stopping the table as it
    starts, Ctrl-C): noted while its modules load (raised inside a compiled module's loading,
    it comes out as an ImportError with a traceback), raised as :class:`Stopped` once they
    are (:meth:`now`), until the command takes the signals itself (serve, once its table
    opens); one more while they load is let be, one after the stop is raised acts as it would
    by default (a second Ctrl-C ends a command slow to stop), also where this one is within
    another (serve's, around its table's loading, is within the command line's)."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._raising = False
        self.raised = False  # the stop is raised (a signal now acts by default)
        self._taken: tuple[int, ...] = ()

    def take(self) -> dict[int, Handler]:
        """Take SIGTERM and SIGINT (in the main thread), but leave one ignored so (a command
        started in the background by a script, ``dicetable eval … &``, is not stopped by
        Ctrl-C); returns the handlers of those taken, as they were."""
        before = take_stop_signals(self)
        self._taken = tuple(before)
        return before

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is not None:
            return
        self.signum = signum
        if self._raising:
            self._stop(signum)

    def now(self) -> None:
        """The modules are loaded: a stop noted is raised, and one to come at once."""
        self._raising = True
        if self.signum is not None:
            self._stop(self.signum)

    def _stop(self, signum: int) -> None:
        """Raise :class:`Stopped` by ``signum``; a signal taken acts as by default from now
        on."""
        for taken in self._taken:
            signal.signal(taken, signal.SIG_DFL)
        self.raised = True
        raise Stopped(signum)


@contextmanager
def early_stop() -> Iterator[EarlyStop]:
    """An :class:`EarlyStop` taking SIGTERM and SIGINT while inside (in the main thread, where
    not ignored; the handlers before are put back after, but for an early stop around this one
    once the stop is raised: it goes out through it, and a signal after it acts by default)."""
    stop = EarlyStop()
    if threading.current_thread() is not threading.main_thread():
        stop.now()
        yield stop
        return
    before = stop.take()
    try:
        yield stop
    finally:
        for signum, handler in before.items():
            signal.signal(signum, signal.SIG_DFL if stop.raised and isinstance(handler, EarlyStop)
                          else handler)
