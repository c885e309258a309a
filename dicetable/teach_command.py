"""``dicetable teach KIND --from DIR --out PROFILE``: teach the reader a table's own components.

DIR holds photos and a ``labels.json`` (vision.table_dataset: any layout, no sheet needed);
every labelled die or card of KIND becomes an example, and what the photos show besides them
teaches what is not one. The profile is checked on the photos it was taught from before it is
written: a face the reader still confuses is named.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.datasets import DatasetError
from vision.profile import ProfileError
from vision.table_dataset import load
from vision.teach import teach

PROG = "dicetable teach"
KINDS = {"d6": "d6", "dalek": "dalek", "dicy": "dicy-card", "17": "17-card"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=list(KINDS),
                        help="what to teach: d6 dice, dalek dice, dicy cards or 17 cards")
    parser.add_argument("--from", dest="source", type=Path, required=True, metavar="DIR",
                        help="a folder of photos with labels.json")
    parser.add_argument("--out", type=Path, required=True, metavar="PROFILE",
                        help="the profile file to write (.npz)")
    parser.add_argument("--split", metavar="NAME",
                        help="teach only from this split of labels.json (default: every photo)")


def run(args: argparse.Namespace) -> int:
    kind = KINDS[args.kind]
    try:
        photos = load(args.source, args.split)
        profile = teach(kind, photos, source=str(args.source))
    except (DatasetError, ProfileError, ValueError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        profile.save(args.out)
    except OSError as err:
        print(f"{PROG}: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 1
    counts = profile.counts()
    taught = ", ".join(f"{face} {counts[face]}" for face in profile.taught())
    print(f"Taught {kind} from {len(photos)} photos: {taught}; written to {args.out}")
    return 0
