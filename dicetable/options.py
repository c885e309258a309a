"""Types for command-line options that take a number: each refuses, in words, a value the
table cannot work by (argparse then says which option and exits with status 2)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

MAX_PORT = 65535
MAX_THREADS = 64  # more only costs memory (10,000 took 1.6 GB and read nothing)


def rate(highest: float) -> Callable[[str], float]:
    """An option's type: a number above 0, at most ``highest``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not 0 < value <= highest:  # nan and inf fail too
            raise argparse.ArgumentTypeError(
                f"“{text}” is no rate: give a number above 0, at most {highest:g}")
        return value
    return parse


def whole_number(lowest: int, highest: int, what: str = "") -> Callable[[str], int]:
    """An option's type: a whole number from ``lowest`` to ``highest``; ``what`` says what a
    wrong one is not (default: "not a whole number from … to …")."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = lowest - 1
        if not lowest <= value <= highest:
            raise argparse.ArgumentTypeError(
                f"“{text}” is {what or f'not a whole number from {lowest} to {highest}'}")
        return value
    return parse


port_number = whole_number(0, MAX_PORT, f"no port: give 0 to {MAX_PORT} (0 picks a free one)")
"""``--port``'s value: a port to listen on, 0 (a free one) to 65535."""
thread_count = whole_number(1, MAX_THREADS)
"""``--threads``'s value."""
