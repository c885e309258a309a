"""``dicetable teach KIND --from DIR --out PROFILE``: teach the reader a table's own components;
``dicetable teach KIND --import PROFILE [--state DIR]``: a table uses a profile taught elsewhere
(by this command, or on another table's score pad and downloaded there).

DIR holds photos and a ``labels.json`` (vision.table_dataset: any layout, no sheet needed);
every labelled die or card of KIND becomes an example, and what the photos show besides them
teaches what is not one. A photo is read on its sheet as ``dicetable eval`` reads it; what is
labelled off that sheet is left out, and said; a photo that cannot be read (a HEIC, a file cut
short) is passed over, and said, the others taught. The faces no photo taught are named; where
the photos label a face but it would not be taught (its only photos cannot be read, or show it
off the sheet), no profile is written: it would be read as another face (d6 aside, whose faces
untaught are read by their pips: it is written). A face no photo labels is not asked for (a
game's frame shows some cards only): the profile is written without it.
The profile is then checked photo by photo, each read with a profile taught from the other
photos: the faces it reads as others are named, to be taught from more photos.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from device.state_dir import add_state_argument, journal_path
from dicetable.eval_kinds import tally
from vision.components import faces
from vision.datasets import DatasetError
from vision.kind_eval import MISSED, NOT_SURE
from vision.profile import ProfileError
from vision.table_dataset import Labelled, TablePhoto, load
from vision.teach import teach
from vision.teach_sheet import OPTIONAL

PROG = "dicetable teach"
KINDS = ("d6", "dalek", "dicy-card", "17-card")  # as the profile files and the pad name them
SHORT_NAMES = {"dicy": "dicy-card", "17": "17-card"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=KINDS, type=lambda name: SHORT_NAMES.get(name, name),
                        help="what to teach: d6 dice, dalek dice, dicy-card (Dicy Cards' cards, "
                             "also 'dicy') or 17-card (17's cards, also '17')")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--from", dest="source", type=Path, metavar="DIR",
                     help="a folder of photos with labels.json")
    how.add_argument("--import", dest="profile", type=Path, metavar="PROFILE",
                     help="a profile file (.npz) for this table to read its KIND with, kept "
                          "in the state folder")
    parser.add_argument("--out", type=Path, metavar="PROFILE",
                        help="the profile file to write (.npz; with --from)")
    add_state_argument(parser)
    parser.add_argument("--split", metavar="NAME",
                        help="teach only from this split of labels.json (with --from; "
                             "default: every photo)")


def run(args: argparse.Namespace) -> int:
    kind = args.kind
    if args.profile is not None:
        for option, given in (("--out", args.out), ("--split", args.split)):
            if given is not None:
                print(f"{PROG}: {option} is for teaching from photos (--from DIR), not with "
                      "--import: an imported profile is kept in the table's state folder "
                      "(--state DIR)", file=sys.stderr)
                return 2
        return _import(kind, args.profile, args.state)
    if args.out is None:
        print(f"{PROG}: say where to write the profile (--out PROFILE)", file=sys.stderr)
        return 2
    try:
        photos = load(args.source, args.split)
        profile, left_out, unread = teach(kind, photos, source=str(args.source))
    except (DatasetError, ProfileError, ValueError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    untaught = [face for face in faces(kind) if face not in profile.taught()]
    lost = _labelled(kind, untaught, unread, left_out)
    if lost and kind not in OPTIONAL:
        print(_refusal(kind, lost, unread, left_out), file=sys.stderr)
        return 2
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        profile.save(args.out)
    except OSError as err:
        print(f"{PROG}: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 1
    counts = profile.counts()
    taught = ", ".join(f"{face} {counts[face]}" for face in profile.taught())
    passed_over = {photo for photo, _ in unread}
    read = [photo for photo in photos if photo not in passed_over]
    print(f"Taught {kind} from {len(read)} photos: {taught}; written to {args.out}")
    for _, why in unread:
        print(f"  skipped {why}")
    for line in _left_out(left_out):
        print(line)
    if untaught:
        it = "it" if len(untaught) == 1 else "them"
        print(f"  not taught: {', '.join(untaught)} ("
              + ("read by their pips)" if kind in OPTIONAL else f"no photo labels {it})"))
    print(checked(kind, read))
    return 0


def _labelled(kind: str, untaught: list[str], unread: Iterable[tuple[TablePhoto, str]],
              left_out: Iterable[tuple[TablePhoto, Labelled]]) -> list[str]:
    """The faces of ``untaught`` the photos label: on a photo that could not be read, or lying
    off the sheet."""
    labelled = {item.face for photo, _ in unread for item in photo.of_kind(kind)}
    labelled |= {item.face for _, item in left_out}
    return [face for face in untaught if face in labelled]


def _refusal(kind: str, lost: list[str], unread: Iterable[tuple[TablePhoto, str]],
             left_out: Iterable[tuple[TablePhoto, Labelled]]) -> str:
    """Why no profile is written: the faces ``lost`` are labelled, but their only photos cannot
    be read or show them off the sheet (each photo named under it)."""
    it = "it" if len(lost) == 1 else "them"
    cannot = [f"  {why}" for photo, why in unread
              if any(item.face in lost for item in photo.of_kind(kind))]
    off = _left_out([(photo, item) for photo, item in left_out if item.face in lost])
    how = " or ".join((["cannot be read"] if cannot else [])
                      + ([f"show {it} off the sheet"] if off else []))
    return (f"{PROG}: {', '.join(lost)} would not be taught: the only photos of {it} {how}; "
            "no profile written:\n" + "\n".join(cannot + off))


def _left_out(items: Iterable[tuple[TablePhoto, Labelled]]) -> list[str]:
    """A line for each die or card left out of teaching, lying off its photo's sheet."""
    return [f"  note {photo.file}: the {item.kind} labelled {item.face!r} lies off the sheet; "
            f"it is not taught" for photo, item in items]


def _import(kind: str, source: Path, state: Path | None) -> int:
    """Keep the profile at ``source`` as the table's profile of ``kind``."""
    from device.teacher import imported

    folder = journal_path(state).parent
    try:
        profile = imported(folder, source, kind)
    except ProfileError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{PROG}: cannot keep it in {folder}: {err.strerror or err}", file=sys.stderr)
        return 1
    print(f"This table now reads {kind} with {source} ({len(profile.taught())} faces "
          f"taught); a running table takes it up within seconds.")
    return 0


def checked(kind: str, photos: list[TablePhoto]) -> str:
    """What the reader makes of each photo when taught from the others: a line to print."""
    if len(photos) < 2:
        return "Not checked: teach from two photos or more to have each checked by the others."
    right = total = 0
    mistaken: dict[tuple[str, str], int] = {}
    for i, photo in enumerate(photos):
        try:
            others = teach(kind, photos[:i] + photos[i + 1:]).profile
        except ValueError:  # the other photos hold none of this kind
            continue
        scored = tally([photo], others).get(kind)
        if scored is None:
            continue
        right, total = right + scored.right, total + scored.total
        for (label, read), n in scored.confusion.items():
            if read not in (label, NOT_SURE, MISSED):
                mistaken[(label, read)] = mistaken.get((label, read), 0) + n
    line = (f"Checked, each photo read as taught from the others: {right} of {total} read "
            f"right")
    if not mistaken:
        return line + "."
    pairs = ", ".join(f"{label} as {read} ({n})" for (label, read), n in
                      sorted(mistaken.items(), key=lambda kv: -kv[1]))
    return line + f"; read wrong: {pairs}. Teach these from more photos."
