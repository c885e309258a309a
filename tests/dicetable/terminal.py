"""Commands started as a terminal starts them: with Ctrl-C taken, or ignored (``cmd &`` in a
script). This test process may itself ignore SIGINT (a test run started in the background),
which a child inherits; a handler of the process's own is set back to the default in the child
as it starts. No function is run between fork and exec (``preexec_fn``), which may deadlock
in a test process beside a browser's threads."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def started_from_a_terminal(command: list[str], *, ctrl_c_ignored: bool = False,
                            **popen: Any) -> subprocess.Popen[str]:
    """``command`` started (text streams, ``popen``'s other arguments) so that Ctrl-C stops
    it, or with Ctrl-C ignored."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN if ctrl_c_ignored
                           else signal.default_int_handler)
    try:
        return subprocess.Popen(command, text=True, **popen)
    finally:
        signal.signal(signal.SIGINT, before)
