"""Train the Dalek sheet's centre network, distilled from the shipped classifier's centre head.

    .venv/bin/pip install -e '.[train]' onnx
    nice -n 19 .venv/bin/python training/train_centre.py --steps 0 --cache runs/centre500.npz \
        --out runs/none.onnx                                  # the patches of 500 scenes, kept
    nice -n 19 .venv/bin/python training/train_centre.py --cache runs/centre500.npz \
        --steps 1200 --batch 64 --threads 2 --out runs/centre_cpu.onnx
                                        # the shipped one (models/README), copied to models/

Data: rendered Dalek sheets (vision.table_scene, seeds from --seed on: never the bench's,
the development or the test scenes), calibrated and rectified as the live loop does. Each
patch is cut where the die finder cuts one on such a sheet (vision.dice_finder: the
locator's candidates that are not the print, the places its first look moves them to) and
around where the dice end (up to MOVE sides off); the target of each is the shipped centre
head's answer on that patch. The last 10 % of the scenes are held out and the student's
error against its teacher there is printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from nets import Centre  # noqa: E402
from train import Arrays, Draws, fit  # noqa: E402

from vision.calibrate import calibrate, rectify  # noqa: E402
from vision.classify import CROP, WINDOW, batch, crop  # noqa: E402
from vision.dice_finder import DieFinder  # noqa: E402
from vision.face_reader import HEAT, FaceReader  # noqa: E402
from vision.profile import default  # noqa: E402
from vision.sheet import PX_PER_MM  # noqa: E402
from vision.sheet_print import SheetPrint  # noqa: E402
from vision.table_scene import render_table  # noqa: E402

MOVE = 0.35  # patches around where dice end lie up to this many sides off
AROUND = 4  # ... this many for each die


def patches(seeds: range) -> tuple[np.ndarray, np.ndarray]:
    """Patches (N×48×48×3 uint8) of rendered Dalek sheets and the teacher's offsets (N×2)."""
    cv2.setNumThreads(1)  # one process per core
    reader = FaceReader(default("dalek"), threads=1)
    finder: DieFinder = reader.finder
    side = float(reader.profile.side_mm) * PX_PER_MM
    rng = np.random.default_rng(seeds.start)
    cut: list[np.ndarray] = []
    printed: dict[str, SheetPrint] = {}
    for seed in seeds:
        scene = render_table(seed, game="dalek", dice=int(rng.integers(1, 11)))
        found = calibrate(scene.image)
        image = rectify(scene.image, found)
        if found.layout.paper not in printed:
            printed[found.layout.paper] = SheetPrint(found.layout)
        sheet_print = printed[found.layout.paper]
        looked, scale = reader.looked_at(image, side)
        places = [(c.x, c.y) for c in finder.candidates(looked, scale, threshold=HEAT)
                  if not sheet_print.shows(image, c.x, c.y, side)]
        first = [crop(image, x, y, side * WINDOW) for x, y in places]
        cut += first
        if not first:
            continue
        moved = finder.offsets(batch(first)) * side * WINDOW
        ends = [(x + dx, y + dy) for (x, y), (dx, dy) in zip(places, moved, strict=True)]
        cut += [crop(image, x, y, side * WINDOW) for x, y in ends]
        for x, y in ends:
            for _ in range(AROUND):
                r, a = MOVE * side * np.sqrt(rng.uniform()), rng.uniform(0, 2 * np.pi)
                px = float(np.clip(x + r * np.cos(a), 0, image.shape[1] - 1))
                py = float(np.clip(y + r * np.sin(a), 0, image.shape[0] - 1))
                cut.append(crop(image, px, py, side * WINDOW))
    x = np.stack(cut)
    y = np.concatenate([finder.offsets(batch(list(x[i:i + 256])))
                        for i in range(0, len(x), 256)])
    return x, y.astype(np.float32)


def patches_of(seeds: range, jobs: int, chunk: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """patches() of these scenes, in `jobs` processes (chunk scenes at a time)."""
    parts = [range(a, min(a + chunk, seeds.stop)) for a in range(seeds.start, seeds.stop, chunk)]
    if jobs > 1:
        with Pool(jobs) as pool:
            done = pool.map(patches, parts)
    else:
        done = [patches(p) for p in parts]
    return np.concatenate([x for x, _ in done]), np.concatenate([y for _, y in done])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=500)
    ap.add_argument("--seed", type=int, default=600_000, help="first scene's seed")
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--jobs", type=int, default=1, help="processes rendering the scenes")
    ap.add_argument("--device", default="cpu", help="torch device to train on, e.g. cuda")
    ap.add_argument("--cache", type=Path, help="keep the patches in this .npz file")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "dalek_centre.onnx")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    if args.cache and args.cache.is_file():
        cached = np.load(args.cache)
        x, y, held = cached["x"], cached["y"], int(cached["held"])
    else:
        t0 = time.time()
        train_scenes = args.scenes - args.scenes // 10
        x, y = patches_of(range(args.seed, args.seed + train_scenes), args.jobs)
        hx, hy = patches_of(range(args.seed + train_scenes, args.seed + args.scenes), args.jobs)
        held = len(hx)
        x, y = np.concatenate([x, hx]), np.concatenate([y, hy])
        print(f"{len(x) - held} training patches, {held} held out, {time.time() - t0:.0f}s",
              flush=True)
        if args.cache:
            np.savez(args.cache, x=x, y=y, held=held)
    train_x, train_y = x[:len(x) - held], y[:len(x) - held]

    def draw(rng: np.random.Generator) -> Arrays:
        i = rng.integers(0, len(train_x), args.batch)
        return batch(list(train_x[i])), train_y[i]

    def loss(net: Centre, b: tuple[torch.Tensor, ...]
             ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        patch, target = b
        err = torch.nn.functional.smooth_l1_loss(net(patch), target, beta=0.01)
        return err, {"loss": err}

    draws = Draws(draw, args.seed, workers=0)  # in this process: the same seed, the same run
    net = fit(Centre(), "centre", args.steps, draws, loss, args.device, lr=3e-3)
    with torch.no_grad():
        got = torch.cat([net(torch.as_tensor(batch(list(x[i:i + 256]))))
                         for i in range(len(x) - held, len(x), 256)]).numpy()
    err = np.hypot(*(got - y[len(x) - held:]).T) * CROP
    print(f"held out: {held} patches, error against the teacher {np.mean(err):.2f} px mean, "
          f"{np.percentile(err, 95):.2f} px p95, {err.max():.2f} px most (of {CROP} px patches)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(2, 3, CROP, CROP), str(args.out),
                      input_names=["patch"], output_names=["offset"], opset_version=17,
                      dynamic_axes={"patch": {0: "n"}, "offset": {0: "n"}}, dynamo=False)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
