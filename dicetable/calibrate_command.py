"""``dicetable calibrate``: print the sheet, or find it in a camera frame and keep the result.

``--print`` writes the sheet of a game as PDF and PNG; ``--image FILE`` finds the sheet in a
frame (the markers tell which game's sheet it is), checks it can be used, and keeps the
calibration in the state folder. A frame in which the sheet cannot be used gets a message
that says why and what to do, and exit status 1; nothing already kept is lost.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device import calibration_store
from device.printed_sheet import write
from device.state_dir import add_state_argument, default_state_dir
from vision.calibrate import CalibrationError, calibrate
from vision.picture_file import FRAME_PIXELS, PictureError, read_picture
from vision.sheet import GAMES, PAPERS, layout
from vision.sheet_art import LANGUAGES, PAPER_NAMES

PROG = "dicetable calibrate"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the calibrate arguments."""
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--print", action="store_true", dest="print_sheet",
                      help="write the printable sheet (PDF and PNG) of a game")
    what.add_argument("--image", type=Path, metavar="FILE",
                      help="find the sheet in this camera frame and keep the calibration")
    parser.add_argument("--game", choices=GAMES, default="dalek",
                        help="the game whose sheet to print (default dalek)")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4",
                        help="the paper it is printed on (default a4)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en",
                        help="the language of the words on the sheet (default en)")
    parser.add_argument("--out", type=Path, default=Path("."), metavar="DIR",
                        help="where to write the printable sheet (default: here)")
    add_state_argument(parser)


def run(args: argparse.Namespace) -> int:
    if args.print_sheet:
        try:
            pdf, png = write(layout(args.game, args.paper), args.out, lang=args.lang)
        except OSError as err:
            print(f"{PROG}: cannot write into {args.out}: {err.strerror or err}",
                  file=sys.stderr)
            return 1
        print(f"Print {pdf} at actual size (100 %, not 'fit to page') on {PAPER_NAMES[args.paper]} "
              f"paper: a shrunk sheet is misread. {png} is the same sheet.")
        others = " or ".join(f"--paper {p}" for p in PAPERS if p != args.paper)
        print(f"For other paper, print the sheet made for it: {others}.")
        return 0
    if not args.image.is_file():
        print(f"{PROG}: there is no picture {args.image}", file=sys.stderr)
        return 2
    try:
        frame = read_picture(args.image, fit=FRAME_PIXELS)  # as a folder camera's frames are
    except PictureError as err:
        print(f"{PROG}: the picture {args.image} {err}", file=sys.stderr)
        return 2
    try:
        found = calibrate(frame)
    except CalibrationError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 1
    state = args.state or default_state_dir()
    try:
        saved = calibration_store.save(state, found)
    except OSError as err:
        print(f"{PROG}: found the {found.game} sheet, but cannot keep the calibration in "
              f"{state}: {err.strerror or err}", file=sys.stderr)
        return 1
    print(f"Found the {found.game} sheet ({found.paper}); calibration kept in {saved}.")
    return 0
