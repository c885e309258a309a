"""``dicetable render``: labelled camera frames of a game on its sheet (vision.table_scene).

Scenes are seeded (the same seed gives the same frames), written as JPEG with a labels.json
(vision.table_dataset). ``--teach`` renders photos for teach mode instead: each photo shows
every face once (cards as far as the places go), so N photos show each face at most N times.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dicetable.options import whole_number
from vision.art import STYLES
from vision.components import D6_FACES, DALEK_FACES, faces
from vision.sheet import GAMES, PAPERS
from vision.table_dataset import write
from vision.table_scene import GAME_DICE, TableScene, render_table

PROG = "dicetable render"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=GAMES, required=True,
                        help="the game whose sheet the frames show")
    parser.add_argument("--style", choices=[*STYLES, "pictures"], default="classic",
                        help="the components' art (pictures: d6 dice with pictures for pips; "
                             "default classic)")
    parser.add_argument("--count", type=whole_number(1, 1_000_000), default=100,
                        help="frames to render (default 100)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the first frame, the next ones counting on (default 0)")
    parser.add_argument("--split", default="test",
                        help="the split the frames are labelled (default test)")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4",
                        help="the paper of the sheet (default a4)")
    parser.add_argument("--dice", type=whole_number(1, max(GAME_DICE.values())),
                        help=_dice_help())
    parser.add_argument("--teach", action="store_true",
                        help="photos for teach mode: every face once in each photo")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="where to write the frames and their labels.json")


def _dice_help() -> str:
    """The help of ``--dice``, its counts from GAME_DICE: a Dalek frame shows 1 to all of its
    dice by default, a Dicy frame all of them (render_table)."""
    most = ", ".join(f"{game} {n}" for game, n in GAME_DICE.items() if n)
    dalek, dicy = GAME_DICE["dalek"], GAME_DICE["dicy"]
    return (f"dice per frame, up to the game's own ({most}; default: dalek 1-{dalek}, "
            f"dicy {dicy}; not with --teach)")


def run(args: argparse.Namespace) -> int:
    if args.teach and args.dice is not None:
        print(f"{PROG}: --dice is for frames of a game, not with --teach: each photo for teach "
              "mode shows every face once", file=sys.stderr)
        return 2
    most = GAME_DICE[args.game]
    if args.dice is not None and args.dice > most:
        said = (f"at most {most} dice, as the game has: give --dice 1 to {most}" if most
                else "no dice, as the game has none: leave out --dice")
        print(f"{PROG}: a {args.game} frame shows {said}", file=sys.stderr)
        return 2
    try:
        n = write(args.out, ((args.split, _scene(args, i)) for i in range(args.count)))
    except OSError as err:
        print(f"{PROG}: cannot write into {args.out}: {err.strerror or err}", file=sys.stderr)
        return 1
    print(f"{n} frame{'s' * (n != 1)} of {args.game} ({args.style}) in {args.out}")
    return 0


def _scene(args: argparse.Namespace, i: int) -> TableScene:
    seed = args.seed + i
    if not args.teach:
        return render_table(seed, game=args.game, paper=args.paper, style=args.style,
                            dice=args.dice)
    if args.game == "dalek":
        return render_table(seed, game="dalek", paper=args.paper, style=args.style,
                            dice=len(DALEK_FACES), faces=DALEK_FACES)
    cards = faces("dicy-card" if args.game == "dicy" else "17-card")
    start = (i * 16) % len(cards)
    shown = tuple(cards[(start + k) % len(cards)] for k in range(len(cards)))
    return render_table(seed, game=args.game, paper=args.paper, style=args.style,
                        dice=len(D6_FACES) if args.game == "dicy" else None,
                        faces=shown, dice_faces=D6_FACES if args.game == "dicy" else None)
