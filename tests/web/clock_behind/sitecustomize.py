"""On ``PYTHONPATH``, this makes a Python process see the wall clock
``DICETABLE_TEST_CLOCK_BEHIND_S`` seconds behind: a Pi without a clock battery, started again
after a power cut (tests of a table restarted that way)."""

import os
import time

_BEHIND_S = float(os.environ.get("DICETABLE_TEST_CLOCK_BEHIND_S", "0"))
if _BEHIND_S:
    _time, _time_ns = time.time, time.time_ns
    time.time = lambda: _time() - _BEHIND_S
    time.time_ns = lambda: _time_ns() - int(_BEHIND_S * 1e9)
