"""Write rendered scenes of the domain randomiser as a labelled set for `dicetable eval`.

    .venv/bin/python training/render_set.py runs/rendered --seed 99 --images 200
    .venv/bin/dicetable eval runs/rendered --models runs/no-byler

A seed other than training's (train.py --seed, 1) draws scenes no run trained on: a rendered
domain held out. Images are 1280×960 JPEG files (quality 90) under images/, labels in
labels.json (split "test"); a die's box is the square of its top face's side around its
centre (a die cut by the border keeps its whole box). --upscale 3.15 enlarges every image
(bicubic) to 4032×3024, a 12-megapixel photo.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.render import randomised_scene


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--images", type=int, default=200)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=960)
    ap.add_argument("--upscale", type=float, default=1.0)
    args = ap.parse_args()
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    entries = []
    for i in range(args.images):
        scene = randomised_scene(rng, width=args.width, height=args.height)
        k = args.upscale
        w, h = round(args.width * k), round(args.height * k)
        image = cv2.resize(scene.image, (w, h), interpolation=cv2.INTER_CUBIC)
        file = f"images/{i:04d}.jpg"
        cv2.imwrite(str(args.out / file), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        dice = [{"value": d.value, "bbox": [k * (d.x - d.size / 2), k * (d.y - d.size / 2),
                                            k * (d.x + d.size / 2), k * (d.y + d.size / 2)]}
                for d in scene.dice]
        entries.append({"file": file, "width": w, "height": h, "split": "test", "dice": dice})
    (args.out / "labels.json").write_text(json.dumps({"images": entries}), encoding="utf-8")


if __name__ == "__main__":
    main()
