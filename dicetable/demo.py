"""``dicetable demo``: render the demo game's frames (seeded) for ``dicetable serve --demo``.

``make run`` does it once at set-up; ``serve --demo`` also renders them when they are missing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.demo_film import DemoFolderError, read_plan, write_film
from device.demo_plan import plan_game
from device.state_dir import add_state_argument, journal_path
from dicetable.live_table import DEMO_SEED


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the demo arguments."""
    add_state_argument(parser)
    parser.add_argument("--out", type=Path, default=None, metavar="DIR",
                        help="where to write the frames (default: STATE/demo)")
    parser.add_argument("--again", action="store_true",
                        help="render them again even when they are there")


def run(args: argparse.Namespace) -> int:
    """Render the demo's film unless it is already there."""
    folder = args.out or journal_path(args.state).parent / "demo"
    if read_plan(folder) is not None and not args.again:
        print(f"The demo game is ready in {folder}")
        return 0
    plan = plan_game(DEMO_SEED)
    try:
        frames = write_film(plan, folder, seed=DEMO_SEED)
    except DemoFolderError as err:
        print(f"dicetable demo: {err}", file=sys.stderr)
        return 2
    seconds = frames / plan.fps
    print(f"Rendered the demo game into {folder}: {frames} frames, {seconds:.0f} s of play")
    return 0
