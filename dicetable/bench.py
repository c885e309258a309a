"""``dicetable bench``: run the benchmark suites and print their figures.

Each suite is a module with ``suite(threads) -> Iterator[(label, value, unit)]``; figures are
medians, percentiles or ratios measured in this one run. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Iterator

from dicetable.options import thread_count
from vision.heap import keep_memory_flat

Figure = tuple[str, float, str]
"""One measured figure: its label, value and unit."""
SUITES = {
    "engine": "dicetable.engine_bench",
    "vision": "vision.bench",
    "web": "dicetable.web_bench",
    "live": "dicetable.live_bench",
    "hardening": "dicetable.hardening_bench",
    "pi": "dicetable.pi_bench",
    "tabletop": "vision.table_bench",
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the bench arguments."""
    parser.add_argument("--suite", action="append", choices=sorted(SUITES),
                        help="run only this suite (repeatable; default: all)")
    parser.add_argument("--threads", type=thread_count, default=2,
                        help="threads for onnxruntime and OpenCV in every suite (default 2)")
    parser.add_argument("--json", action="store_true",
                        help="print the figures as JSON lines instead of a table")


def run(args: argparse.Namespace) -> int:
    """Run the chosen suites, printing each figure as soon as it is measured, in a process
    whose allocator is set as the table's."""
    keep_memory_flat()
    for name in args.suite or list(SUITES):
        suite: Callable[[int], Iterator[Figure]] = importlib.import_module(SUITES[name]).suite
        if not args.json:
            print(f"[{name}]")
        for label, value, unit in suite(args.threads):
            if args.json:
                print(json.dumps({"suite": name, "figure": label, "value": value, "unit": unit}))
            else:
                print(f"  {label:<58} {value:>12.4g} {unit}")
            sys.stdout.flush()
    return 0


def percentile(values: list[float], percent: int) -> float:
    """The ``percent``-th percentile of ``values`` (the nearest rank).

    >>> percentile([0.1, 0.2, 0.3, 0.4, 0.5], 50), percentile([3.0, 1.0, 2.0], 95)
    (0.3, 3.0)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(percent / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> float:
    """Seconds as milliseconds."""
    return seconds * 1000

