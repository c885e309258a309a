"""Taking the stop signals (SIGTERM, SIGINT) where they are not ignored: a command started in
the background by a script (``dicetable serve &``) is not stopped by the terminal's Ctrl-C."""

from __future__ import annotations

import signal
from collections.abc import Callable
from types import FrameType

Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def take_stop_signals(handler: Handler) -> dict[int, Handler]:
    """Set ``handler`` for SIGTERM and SIGINT (in the main thread), leaving one ignored so;
    returns the handlers of those taken, as they were."""
    return {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS
            if signal.getsignal(signum) is not signal.SIG_IGN}
