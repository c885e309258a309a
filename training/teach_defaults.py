"""Make the default teach profiles (models/profile-KIND.npz) from rendered classic-art scenes.

    python training/teach_defaults.py [--scenes N] [--per-face K] [--out models]

The profiles are kept in the repository (example patches as lossless WebP, under 3 MB
together); run this again whenever the renderer, the teaching or the profile format
changes. Scenes are seeded (seeds 500000 and up: the figures' test scenes start at 0
and 1000000 and the development scenes at 200000, so the default profiles never see them), so
every run makes the same files. Dalek scenes hold 10 dice; card scenes show every face in
turn. Every die and card is taught (vision.teach); each face then keeps K of its examples,
drawn at random (seeded), and the dice's "none" examples twice that.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from vision.components import NOTHING, faces
from vision.profile import Profile
from vision.table_dataset import load, write
from vision.table_scene import TableScene, render_table
from vision.teach import teach

SEED = 500_000
GAMES = {"dalek": "dalek", "dicy": "dicy-card", "17": "17-card"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=60,
                        help="scenes rendered per game (twice that of Dalek Dice)")
    parser.add_argument("--per-face", type=int, default=28, help="examples kept per face")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent.parent / "models")
    args = parser.parse_args()
    for game, kind in GAMES.items():
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            count = args.scenes * (2 if game == "dalek" else 1)
            write(root, (("train", scene(game, SEED + i, i)) for i in range(count)))
            profile = thin(teach(kind, load(root), source=f"rendered classic {game}").profile,
                           args.per_face)
        path = args.out / f"profile-{kind}.npz"
        profile.save(path)
        print(f"{path}: {path.stat().st_size / 1e6:.2f} MB, {profile.counts()}")


def scene(game: str, seed: int, number: int) -> TableScene:
    """A training scene: 10 Dalek dice, or every card face in turn from a place of the row."""
    if game == "dalek":
        return render_table(seed, game=game, dice=10)
    shown = faces(GAMES[game])
    start = number * 7 % len(shown)
    return render_table(seed, game=game, faces=tuple(shown[(start + k) % len(shown)]
                                                     for k in range(len(shown))))


def thin(profile: Profile, per_face: int, seed: int = 0) -> Profile:
    """At most per_face examples a face (twice that of "none"), drawn at random."""
    rng = np.random.default_rng(seed)
    keep: list[int] = []
    for label in sorted(set(profile.labels)):
        index = [i for i, x in enumerate(profile.labels) if x == label]
        limit = per_face * (2 if label == NOTHING else 1)
        keep += [int(i) for i in rng.permutation(index)[:limit]]
    keep.sort()
    return Profile(profile.kind, tuple(profile.labels[i] for i in keep), profile.patches[keep],
                   profile.source, profile.side_mm)


if __name__ == "__main__":
    main()
