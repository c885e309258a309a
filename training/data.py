"""Training data for the dice reader: real labelled photos, synthetic renders, augmentation.

A Sample is one image with its dice as (value, x, y, size, size_known): x, y the centre of
the top face and size the die's side in pixels (estimated where the labels do not give it).
"""

from __future__ import annotations

import hashlib
import inspect
import math
import multiprocessing
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]

from vision import datasets
from vision.classify import CROP, WINDOW, crop
from vision.datasets import Box, LabelledDie
from vision.locate import SCALE, STRIDE, find_peaks, locator_input
from vision.render import randomised_scene

SETS = ("byler-d6", "matteop65-dice")
SHARE = {"byler-d6": 0.5, "matteop65-dice": 0.2, "synthetic": 0.3,  # of classifier positives
         "blender": 0.25}  # with --blender-patches only
RENDERER = [Path(__file__).resolve().parent.parent / "vision" / name
            for name in ("render.py", "surfaces.py")]


@dataclass
class Sample:
    image: np.ndarray
    dice: np.ndarray  # N×5 float32: value, x, y, size, size_known
    source: str
    labels: tuple[LabelledDie, ...] = ()  # the labels themselves, if real
    ignore: tuple[Box, ...] = ()  # the labels' places to leave unscored, if any


def _matteop_sizes(dice: tuple[LabelledDie, ...]) -> list[tuple[float, float]]:
    """Die sides from pip-pattern boxes: the pattern spans ~0.75 of the face; a 1's box is
    the lone pip (or sometimes the face), so its size comes from the other dice."""
    sizes: list[tuple[float, float]] = []
    for d in dice:
        x0, y0, x1, y1 = d.box
        side = max(x1 - x0, y1 - y0)
        sizes.append((side * 1.33, 1.0) if d.value != 1 else (side, 0.0))
    known = [s for s, k in sizes if k]
    ref = float(np.median(known)) if known else 0.0
    out = []
    for s, k in sizes:
        if k:
            out.append((s, 1.0))
        elif ref:
            out.append((ref, 1.0))
        else:
            out.append((s if s > 35 else s * 3.8, 0.0))
    return out


def load_set(root: Path, split: str, *, val_fraction: float = 0.15,
             part: str = "train") -> list[Sample]:
    """Images of one labels.json set, read as `dicetable eval` reads them (stopping at the
    first image it would skip). split "train" is carved by a hash of the file name into
    part "train" and part "val"; split "test" returns the test images."""
    try:
        entries = datasets.load(root).select(split)
    except datasets.DatasetError as err:
        raise SystemExit(str(err)) from err
    if entries.problems:
        raise SystemExit(f"{root}: {entries.problems[0].describe()}")
    matteop = "matteop" in root.name
    out = []
    for entry in entries.entries:
        if split == "train":
            is_val = (zlib.crc32(entry.file.encode()) % 1000) < val_fraction * 1000
            if is_val != (part == "val"):
                continue
        try:
            photo = datasets.decode(entry)
        except datasets.EntryError as err:
            raise SystemExit(f"{root}: {err}") from err
        if matteop:
            sizes = _matteop_sizes(photo.dice)
        else:
            sizes = [(0.5 * (x1 - x0 + y1 - y0), 1.0) for x0, y0, x1, y1 in
                     (d.box for d in photo.dice)]
        rows = [(d.value, 0.5 * (d.box[0] + d.box[2]), 0.5 * (d.box[1] + d.box[3]), s, k)
                for d, (s, k) in zip(photo.dice, sizes, strict=True)]
        out.append(Sample(photo.image, np.array(rows, np.float32).reshape(-1, 5), root.name,
                          photo.dice, photo.ignore))
    return out


def train_photos(data: Path, exclude: list[str]) -> list[Sample]:
    """The train parts of the real sets in ``data`` that are not left out."""
    return [s for name in SETS if name not in exclude for s in load_set(data / name, "train")]


def _scene(seed: int, index: int) -> Sample:
    """Scene number index of a seed's synthetic set, 480..800 × 400..640 px, from its own
    random stream (so scenes can be drawn in any order, on any number of processes)."""
    rng = np.random.default_rng([seed, index])
    w, h = int(rng.integers(480, 800)), int(rng.integers(400, 640))
    scene = randomised_scene(rng, width=w, height=h)
    rows = [(d.value, d.x, d.y, d.size, 1.0) for d in scene.dice]
    return Sample(scene.image, np.array(rows, np.float32).reshape(-1, 5), "synthetic")


def synthetic(seed: int, n: int, cache: Path | None = None, processes: int = 1) -> list[Sample]:
    """n scenes of vision.render's domain randomiser, drawn on this many processes. With a
    cache folder, they are kept there (keyed by seed, n and the source that draws them: the
    renderer and _scene) and read back instead of drawn again."""
    source = b"".join(p.read_bytes() for p in RENDERER) + inspect.getsource(_scene).encode()
    key = hashlib.sha256(source).hexdigest()[:12]
    path = None if cache is None else cache / f"scenes-{seed}-{n}-{key}.npz"
    if path is not None and path.is_file():
        with np.load(path) as z:
            return [Sample(z[f"image{i}"], z[f"dice{i}"], "synthetic") for i in range(n)]
    args = [(seed, i) for i in range(n)]
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            out = pool.starmap(_scene, args, chunksize=8)
    else:
        out = [_scene(*a) for a in args]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {f"{k}{i}": a for i, s in enumerate(out)
                  for k, a in (("image", s.image), ("dice", s.dice))}
        np.savez(path, **arrays)  # type: ignore[arg-type]
    return out


@dataclass(frozen=True)
class Aug:
    """Ranges of the photometric changes (probabilities p_*, intervals as pairs)."""

    p_shuffle: float  # swap colour channels
    p_invert: float
    gain: tuple[float, float]
    contrast: tuple[float, float]
    shift: float
    gamma: tuple[float, float]
    blur: tuple[float, float]
    noise: tuple[float, float]
    jpeg: tuple[int, int]
    p_blur: float
    p_noise: float
    p_jpeg: float


LOCATOR_SIDES = (3.5, 32.0)  # die sides in locator input pixels that training covers
LOCATOR_AUG = Aug(0.3, 0.08, (0.6, 1.4), (0.6, 1.3), 30, (0.6, 1.6), (0.3, 1.3), (1, 10),
                  (25, 90), 0.4, 0.5, 0.4)
P_LOW_RES = 0.4  # share of classifier patches shrunk 1.3..2.5 times and enlarged back
CLASSIFIER_AUG = Aug(0.3, 0.05, (0.7, 1.3), (0.7, 1.25), 25, (0.7, 1.4), (0.3, 1.0), (1, 6),
                     (40, 95), 0.3, 0.4, 0.3)


def photometric(rng: np.random.Generator, img: np.ndarray, a: Aug) -> np.ndarray:
    """Colour, contrast, blur, noise and JPEG changes of a uint8 BGR image."""
    f: np.ndarray = img.astype(np.float32)
    if rng.random() < a.p_shuffle:
        f = f[..., rng.permutation(3)]
    if rng.random() < a.p_invert:
        f = 255.0 - f
    if rng.random() < 0.1:
        f[:] = f.mean(2, keepdims=True)
    gain = rng.uniform(*a.gain) * rng.uniform(0.85, 1.15, 3)
    f = (f - 128.0) * rng.uniform(*a.contrast) + 128.0
    f = f * gain + rng.uniform(-a.shift, a.shift)
    if rng.random() < 0.3:
        f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** rng.uniform(*a.gamma)
    if rng.random() < a.p_blur:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(*a.blur))
    if rng.random() < a.p_noise:
        f += rng.normal(0, rng.uniform(*a.noise), f.shape).astype(np.float32)
    out: np.ndarray = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < a.p_jpeg:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*a.jpeg))])
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return out


def pick(rng: np.random.Generator, pool: list[Sample], weights: np.ndarray) -> int:
    """A sample index, drawn by per-sample weights (which sum to 1)."""
    return int(rng.choice(len(pool), p=weights))


def source_weights(pool: list[Sample], share: dict[str, float]) -> np.ndarray:
    """Per-sample weights giving each source its share (renormalised over those present)."""
    counts: dict[str, int] = {}
    for s in pool:
        counts[s.source] = counts.get(s.source, 0) + 1
    total = sum(share[k] for k in counts)
    return np.array([share[s.source] / total / counts[s.source] for s in pool])


def locator_batch(rng: np.random.Generator, pool: list[Sample], n: int, side: int = 128
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """n crops of side×side locator input pixels: images N×3×S×S, heat N×1×s×s,
    regression targets N×3×s×s (dx, dy, log size) and their mask N×3×s×s (s = side / 2)."""
    cells = side * SCALE // STRIDE
    xs = np.zeros((n, 3, side, side), np.float32)
    heat = np.zeros((n, 1, cells, cells), np.float32)
    reg = np.zeros((n, 3, cells, cells), np.float32)
    mask = np.zeros((n, 3, cells, cells), np.float32)
    gy, gx = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for i in range(n):
        s = pool[int(rng.integers(len(pool)))]
        f = math.exp(rng.uniform(math.log(0.45), math.log(1.7)))
        if len(s.dice):  # dice of LOCATOR_SIDES input pixels, as the reader's levels see them
            die = float(np.median(s.dice[:, 3])) / SCALE
            lo, hi = (max(0.3, LOCATOR_SIDES[0] / die), min(2.0, LOCATOR_SIDES[1] / die))
            if lo < hi:
                f = math.exp(rng.uniform(math.log(lo), math.log(hi)))
        k = f / SCALE
        h, w = s.image.shape[:2]
        small = cv2.resize(s.image, (max(1, round(w * k)), max(1, round(h * k))),
                           interpolation=cv2.INTER_AREA)
        sh, sw = small.shape[:2]
        ox = int(rng.integers(min(0, sw - side), max(0, sw - side) + 1))
        oy = int(rng.integers(min(0, sh - side), max(0, sh - side) + 1))
        m = np.array([[1, 0, -ox], [0, 1, -oy]], np.float32)
        angle = float(rng.choice([0, 90, 180, 270])) + (rng.uniform(-30, 30)
                                                         if rng.random() < 0.3 else 0.0)
        rot = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
        full = rot @ np.vstack([m, [0, 0, 1]])
        patch = cv2.warpAffine(small, full, (side, side), borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.5:
            patch = patch[:, ::-1]
            full = np.array([[-1, 0, side], [0, 1, 0]], np.float64) @ np.vstack([full, [0, 0, 1]])
        xs[i] = photometric(rng, np.ascontiguousarray(patch), LOCATOR_AUG).transpose(2, 0, 1)
        xs[i] /= 255.0
        for _, x, y, size, known in s.dice:
            px, py = full @ np.array([x * k, y * k, 1.0])
            cx, cy = px * SCALE / STRIDE, py * SCALE / STRIDE  # in output cells
            sc = size * f / STRIDE
            if not (-1 <= cx < cells + 1 and -1 <= cy < cells + 1):
                continue
            sigma = max(0.6, 0.12 * sc)
            g = np.exp(-((gx + 0.5 - cx) ** 2 + (gy + 0.5 - cy) ** 2) / (2 * sigma * sigma))
            heat[i, 0] = np.maximum(heat[i, 0], g)
            ix, iy = math.floor(cx), math.floor(cy)
            if 0 <= ix < cells and 0 <= iy < cells:
                heat[i, 0, iy, ix] = 1.0
                reg[i, :, iy, ix] = (cx - ix - 0.5, cy - iy - 0.5, math.log(max(sc, 0.5)))
                mask[i, :2, iy, ix] = 1.0
                mask[i, 2, iy, ix] = known
    return xs, heat, reg, mask


@dataclass
class Negative:
    """A place in a sample where no die is centred, with the window side to crop there."""

    sample: int
    x: float
    y: float
    size: float


def classifier_batch(rng: np.random.Generator, pool: list[Sample], weights: np.ndarray,
                     negatives: list[Negative], n: int
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """n patches as the reader cuts them: N×3×CROP×CROP, class N (0 = no die), centre
    offset N×2 in patch widths, and its mask N."""
    xs = np.zeros((n, 3, CROP, CROP), np.float32)
    cls = np.zeros(n, np.int64)
    off = np.zeros((n, 2), np.float32)
    msk = np.zeros(n, np.float32)
    for i in range(n):
        r = rng.random()
        if r < 0.7:
            s = pool[pick(rng, pool, weights)]
            while len(s.dice) == 0:
                s = pool[pick(rng, pool, weights)]
            v, x, y, size, _ = s.dice[int(rng.integers(len(s.dice)))]
            a, rad = rng.uniform(0, 2 * math.pi), size * 0.22 * math.sqrt(rng.random())
            qx, qy = x + rad * math.cos(a), y + rad * math.sin(a)
            cls[i], msk[i] = int(v), 1.0
        elif r < 0.85 or not negatives:
            s = pool[pick(rng, pool, weights)]
            size = float(np.median(s.dice[:, 3])) if len(s.dice) else rng.uniform(25, 70)
            size *= rng.uniform(0.7, 1.4)
            h, w = s.image.shape[:2]
            for _ in range(20):
                if len(s.dice) and rng.random() < 0.6:
                    d = s.dice[int(rng.integers(len(s.dice)))]
                    a, rad = rng.uniform(0, 2 * math.pi), d[3] * rng.uniform(0.5, 1.1)
                    qx, qy = d[1] + rad * math.cos(a), d[2] + rad * math.sin(a)
                else:
                    qx, qy = rng.uniform(0, w), rng.uniform(0, h)
                if not (0 <= qx < w and 0 <= qy < h):
                    continue
                if len(s.dice) == 0 or np.all(np.hypot(s.dice[:, 1] - qx, s.dice[:, 2] - qy)
                                              > 0.45 * s.dice[:, 3]):
                    break
            cls[i] = 0
        else:
            ng = negatives[int(rng.integers(len(negatives)))]
            s, qx, qy, size = pool[ng.sample], ng.x, ng.y, ng.size * rng.uniform(0.85, 1.2)
            cls[i] = 0
        side = WINDOW * size * math.exp(rng.uniform(math.log(0.72), math.log(1.3)))
        # rotate a region round the crop centre, then cut it as the reader does
        big = int(side * 1.5) + 2
        angle = rng.uniform(0, 360)
        rot = cv2.getRotationMatrix2D((float(qx), float(qy)), angle, 1.0)
        rot[:, 2] += (big / 2 - qx, big / 2 - qy)
        region = cv2.warpAffine(s.image, rot, (big, big), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)  # as the reader's crop
        flip = rng.random() < 0.5
        if flip:
            region = np.ascontiguousarray(region[:, ::-1])
        if cls[i]:
            tx, ty = rot @ np.array([x, y, 1.0])
            dx = (tx - big / 2) / side
            off[i] = (-dx if flip else dx, (ty - big / 2) / side)
        patch = crop(np.asarray(region, np.uint8), big / 2, big / 2, side)
        if rng.random() < P_LOW_RES:  # a camera with fewer pixels than the patch
            k = rng.uniform(1.3, 2.5)
            small = cv2.resize(patch, (round(CROP / k), round(CROP / k)),
                               interpolation=cv2.INTER_AREA)
            patch = np.asarray(cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR),
                               np.uint8)
        xs[i] = photometric(rng, patch, CLASSIFIER_AUG).transpose(2, 0, 1) / 255.0
    return xs, cls, off, msk


def mine_negatives(locator: Path, pool: list[Sample]) -> list[Negative]:
    """Peaks of the exported locator that are not a die's centre: hard negatives for the
    classifier."""
    session = ort.InferenceSession(str(locator), providers=["CPUExecutionProvider"])
    found = []
    for i, s in enumerate(pool):
        out = session.run(None, {"image": locator_input(s.image)})[0]
        for c in find_peaks(out, shape=s.image.shape[:2], threshold=0.1, limit=64):
            d = s.dice
            if len(d) == 0 or np.all(np.hypot(d[:, 1] - c.x, d[:, 2] - c.y) > 0.45 * d[:, 3]):
                found.append(Negative(i, c.x, c.y, c.size))
    return found
