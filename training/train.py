"""Train the dice reader's locator and classifier and export them to ONNX.

    .venv/bin/pip install -e '.[train]' onnx     # torch==2.13.0 (CPU); onnx for the export
    .venv/bin/python training/train.py --out models            # both networks, on the CPU
    python3 training/train.py --locator models/dice_locator.onnx --classifier-steps 47000 \
        --device cuda --workers 14 --out models                 # the shipped classifier
    .venv/bin/python training/train.py --exclude byler-d6 --out runs/no-byler  # cross-set
    .venv/bin/python training/train.py --exclude byler-d6 --out runs/no-byler --resume
                                      # ... goes on from where a stopped run left off
    .venv/bin/python training/train.py --classifier models/dice_classifier.onnx \
        --out runs/loc                                          # the locator alone
    .venv/bin/python training/train.py --init runs/shipped/dice_locator.onnx --lr 3e-4 \
        --locator-steps 500 --classifier models/dice_classifier.onnx --out runs/loc-ft
                            # the shipped locator: commit 30700d9's fine-tuned (models/README)
    .venv/bin/python training/train.py --locator models/dice_locator.onnx \
        --init-classifier models/dice_classifier.onnx --lr 3e-4 --classifier-steps 600 \
        --out runs/cls-ft        # the shipped classifier fine-tuned: tried, not shipped
    .venv/bin/python training/train.py --exclude byler-d6 --locator runs/e1-cls/dice_locator.onnx \
        --init-classifier runs/e1-cls/dice_classifier.onnx --lr 1e-3 --classifier-steps 600 \
        --blender-patches runs/bl-train --out runs/bl-ft   # Blender scenes: tried, not chosen

Data: the train splits of ../shared/datasets (15 % of each carved off by file-name hash for
validation, never trained on) plus synthetic scenes from vision.render (and, for the
classifier, Blender's with --blender-patches). The test splits are
never read here. Prints the validation figures at the end. The classifier is written 8-bit
(training/quantize.py, calibrated on patches drawn as training draws them), as models/ ships
it, with its float export beside it (dice_classifier-float.onnx: the die finder's, and to
calibrate again or fine-tune from). models/dice_classifier.onnx is 8-bit since
2026-11-29: --init-classifier takes its weights as they dequantize; the exact ones are
models/dice_classifier-float.onnx's.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
import onnx
import onnx.numpy_helper
import torch
import torch.nn.functional as F
from onnx.reference import ReferenceEvaluator
from torch import nn
from torch.utils.data import DataLoader, IterableDataset

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import (  # noqa: E402
    SETS,
    SHARE,
    Negative,
    Sample,
    classifier_batch,
    load_set,
    locator_batch,
    mine_negatives,
    source_weights,
    synthetic,
    train_photos,
)
from nets import Classifier, Locator  # noqa: E402
from quantize import calibration_patches, quantize_classifier  # noqa: E402

from vision.classify import CROP  # noqa: E402
from vision.evaluate import score_image, summarise  # noqa: E402
from vision.reader import CLASSIFIER, FLOAT_CLASSIFIER, LOCATOR, DiceReader  # noqa: E402

LR = 3e-3  # peak learning rate of both networks
SAVE_EVERY = 500  # steps between checkpoints
# arguments a resumed run may change (the others must be those its checkpoints were left with)
RESUME_MAY_CHANGE = {"out", "resume", "threads", "device", "workers", "cache"}
N = TypeVar("N", bound=torch.nn.Module)


def focal(logit: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on a heatmap."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pl = -torch.log(p) * (1 - p) ** 2 * pos
    nl = -torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * neg
    return (pl.sum() + nl.sum()) / pos.sum().clamp(min=1)


def lr_at(step: int, steps: int, base: float) -> float:
    warm = min(1.0, (step + 1) / 100)
    return base * warm * 0.5 * (1 + math.cos(math.pi * step / steps))


Arrays = tuple[np.ndarray, ...]


class Endless(IterableDataset):
    """Batches from make(rng) without end; each loader worker draws with its own seed."""

    def __init__(self, make: Callable[[np.random.Generator], Arrays], seed: list[int]) -> None:
        self.make, self.seed = make, seed

    def __iter__(self) -> Iterator[Arrays]:
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([*self.seed, info.id])
        while True:
            yield self.make(rng)


def batches(make: Callable[[np.random.Generator], Arrays], rng: np.random.Generator,
            seed: int, start: int, workers: int) -> Iterator[Arrays]:
    """make's batches, drawn in this process from rng (workers = 0, so the same seed gives
    the same batches, and a checkpoint can keep where rng stands) or by that many loader
    processes seeded with (seed, start) (faster, not repeatable; forked, as on Linux, so
    that they share the pool instead of copying it)."""
    if workers == 0:
        while True:
            yield make(rng)
    yield from DataLoader(Endless(make, [seed, start]), batch_size=None, num_workers=workers,
                          prefetch_factor=8, persistent_workers=True)


@dataclasses.dataclass(frozen=True)
class Draws:
    """Where a network's batches come from: make(rng), seeded, on `workers` processes."""

    make: Callable[[np.random.Generator], Arrays]
    seed: int
    workers: int


Loss = Callable[[N, tuple[torch.Tensor, ...]], tuple[torch.Tensor, dict[str, torch.Tensor]]]


def fit(net: N, name: str, steps: int, draws: Draws, batch_loss: Loss[N], device: str,
        lr: float = LR, checkpoint: Checkpoint | None = None) -> N:
    """Train net for `steps` AdamW steps (warm-up, then cosine decay from lr) on the loss
    batch_loss(net, batch) gives with its figures; prints the figures every 100 steps.
    With a checkpoint, saves the run there every SAVE_EVERY steps and at the end, and goes
    on from it where one is already there; on the CPU, without loader processes, the
    resumed run ends with the same weights as one never stopped."""
    net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    rng = np.random.default_rng(draws.seed)
    start = resume(checkpoint, name, steps, net, opt, rng)
    data = batches(draws.make, rng, draws.seed, start, draws.workers)
    t0 = time.time()
    for step in range(start, steps):
        for g in opt.param_groups:
            g["lr"] = lr_at(step, steps, lr)
        batch = tuple(torch.as_tensor(a).to(device, non_blocking=True) for a in next(data))
        loss, figures = batch_loss(net, batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0 or step == steps - 1:
            shown = " ".join(f"{k} {v.item():.3f}" for k, v in figures.items())
            print(f"{name} {step}/{steps} {shown} {time.time() - t0:.0f}s", flush=True)
        if checkpoint is not None and ((step + 1) % SAVE_EVERY == 0 or step + 1 == steps):
            save(checkpoint, name, step + 1, steps, net, opt, rng)
    net.cpu().eval()  # in place
    return net


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    """The file a network's run keeps its state in, and the arguments the run was started
    with: a run goes on only from a checkpoint of the same network, steps and arguments."""

    path: Path
    run: str


def save(checkpoint: Checkpoint, name: str, done: int, steps: int, net: nn.Module,
         opt: torch.optim.Optimizer, rng: np.random.Generator) -> None:
    """Keep a run's state in the checkpoint (written aside, flushed to disk, then moved
    over, so a kill mid-write leaves the previous one)."""
    aside = checkpoint.path.with_name(checkpoint.path.name + ".part")
    with aside.open("wb") as f:
        torch.save({"name": name, "run": checkpoint.run, "done": done, "steps": steps,
                    "net": net.state_dict(), "opt": opt.state_dict(),
                    "rng": rng.bit_generator.state}, f)
        f.flush()
        os.fsync(f.fileno())
    aside.replace(checkpoint.path)


def resume(checkpoint: Checkpoint | None, name: str, steps: int, net: nn.Module,
           opt: torch.optim.Optimizer, rng: np.random.Generator) -> int:
    """The step a run kept in the checkpoint stopped at, its state put back into net, opt
    and rng; 0 where there is no such file."""
    if checkpoint is None or not checkpoint.path.exists():
        return 0
    state = torch.load(checkpoint.path, map_location="cpu", weights_only=True)
    if (state["name"], state["steps"], state["run"]) != (name, steps, checkpoint.run):
        sys.exit(f"{checkpoint.path} was left by a {state['name']} run of {state['steps']} "
                 f"steps with {state['run']}, not a {name} run of {steps} steps with "
                 f"{checkpoint.run}: move it away to start afresh")
    net.load_state_dict(state["net"])
    opt.load_state_dict(state["opt"])
    rng.bit_generator.state = state["rng"]
    print(f"{name}: going on from step {state['done']} of {checkpoint.path}", flush=True)
    return int(state["done"])


def from_onnx(net: N, path: Path) -> N:
    """net with the weights of its exported ONNX file (float, or 8-bit as training/quantize.py
    writes it: its weights are then taken as they dequantize). The exporter folded each batch
    norm into the convolution before it, so each convolution + batch norm becomes one
    convolution with a bias (the network then trains without batch norm, from the exported one
    exactly)."""
    graph = onnx.load(str(path)).graph
    tensors = {name: torch.from_numpy(array.copy())
               for name, array in _weights(graph).items()}
    conv_inputs = [node.input[1:] for node in graph.node if node.op_type == "Conv"]
    folded = iter([[tensors[i] for i in names] for names in conv_inputs])
    for seq in [m for m in net.modules() if isinstance(m, nn.Sequential)]:
        if isinstance(seq[0], nn.Conv2d) and isinstance(seq[1], nn.BatchNorm2d):
            c = seq[0]
            seq[0] = nn.Conv2d(c.in_channels, c.out_channels, c.kernel_size, c.stride,
                               c.padding)
            seq[1] = nn.Identity()
    with torch.no_grad():
        for conv in [m for m in net.modules() if isinstance(m, nn.Conv2d)]:
            weight, bias = next(folded)
            conv.weight.copy_(weight)
            conv.bias.copy_(bias)
        convs = {p for m in net.modules() if isinstance(m, nn.Conv2d) for p in m.parameters()}
        for name, param in net.named_parameters():  # a linear layer keeps its names
            if param not in convs:
                param.copy_(tensors[name])
    return net


def _weights(graph: onnx.GraphProto) -> dict[str, np.ndarray]:
    """The graph's stored tensors, and the float values of those it dequantizes (an 8-bit
    weight or bias, run through its DequantizeLinear node by onnx's reference evaluator)."""
    out = {t.name: onnx.numpy_helper.to_array(t) for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "DequantizeLinear" and node.input[0] in out:
            inputs = {name: out[name] for name in node.input if name}
            out[node.output[0]] = ReferenceEvaluator(node).run(None, inputs)[0]
    return out


def train_locator(pool: list[Sample], steps: int, seed: int, workers: int,
                  device: str, init: Path | None = None, lr: float = LR,
                  checkpoint: Checkpoint | None = None) -> Locator:
    torch.manual_seed(seed)

    def batch_loss(net: Locator, batch: tuple[torch.Tensor, ...]
                   ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        xs, heat, reg, mask = batch
        out = net(xs)
        loss_h = focal(out[:, :1], heat)
        loss_r = (F.smooth_l1_loss(out[:, 1:], reg, reduction="none") * mask).sum() / (
            mask.sum().clamp(min=1))
        return loss_h + loss_r, {"heat": loss_h.detach(), "reg": loss_r.detach()}

    draws = Draws(lambda rng: locator_batch(rng, pool, 32), seed, workers)
    net = Locator() if init is None else from_onnx(Locator(), init)
    return fit(net, "locator", steps, draws, batch_loss, device, lr, checkpoint)


def train_classifier(pool: list[Sample], negatives: list[Negative], steps: int,
                     seed: int, workers: int, device: str, init: Path | None = None,
                     lr: float = LR, checkpoint: Checkpoint | None = None) -> Classifier:
    weights = source_weights(pool, SHARE)
    torch.manual_seed(seed)

    def batch_loss(net: Classifier, batch: tuple[torch.Tensor, ...]
                   ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        xs, cls, off, msk = batch
        out = net(xs)
        loss_c = F.cross_entropy(out[:, :7], cls)
        loss_o = (F.smooth_l1_loss(out[:, 7:9] * 10, off * 10, reduction="none").sum(1)
                  * msk).sum() / msk.sum().clamp(min=1)
        acc = (out[:, :7].argmax(1) == cls).float().mean()
        return loss_c + 0.5 * loss_o, {"ce": loss_c.detach(), "off": loss_o.detach(),
                                       "acc": acc}

    draws = Draws(lambda rng: classifier_batch(rng, pool, weights, negatives, 128),
                  seed + 1, workers)
    net = Classifier() if init is None else from_onnx(Classifier(), init)
    return fit(net, "classifier", steps, draws, batch_loss, device, lr, checkpoint)


def export_locator(locator: Locator, path: Path) -> None:
    torch.onnx.export(locator, torch.zeros(1, 3, 96, 160), str(path),
                      input_names=["image"], output_names=["maps"], opset_version=17,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}},
                      dynamo=False)


def export_classifier(classifier: Classifier, path: Path) -> None:
    torch.onnx.export(classifier, torch.zeros(2, 3, CROP, CROP), str(path),
                      input_names=["patch"], output_names=["logits"], opset_version=17,
                      dynamic_axes={"patch": {0: "n"}, "logits": {0: "n"}}, dynamo=False)


def score(reader: DiceReader, samples: list[Sample]) -> dict[str, int]:
    """The eval rule (vision.evaluate) over labelled real samples."""
    scores = []
    for s in samples:
        scores.append(score_image(reader.read(s.image), s.labels, s.ignore))
    t = summarise(scores)
    return {"dice": t.dice_total, "right": t.dice_correct, "wrong": t.dice_wrong_value,
            "missed": t.dice_missed, "false": t.false_dice}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "datasets")
    ap.add_argument("--exclude", choices=SETS, action="append", default=[],
                    help="leave this real set out entirely (cross-set figure)")
    ap.add_argument("--out", type=Path, default=ROOT / "models")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    ap.add_argument("--device", default="cpu", help="torch device to train on, e.g. cuda")
    ap.add_argument("--workers", type=int, default=0,
                    help="processes drawing training batches (0: this one, repeatable)")
    ap.add_argument("--locator", type=Path,
                    help="reuse this trained locator (.onnx) instead of training one")
    ap.add_argument("--init", type=Path, metavar="LOCATOR.onnx",
                    help="fine-tune this trained locator instead of starting afresh "
                         "(without batch norm: the file's are folded into its convolutions)")
    ap.add_argument("--init-classifier", type=Path, metavar="CLASSIFIER.onnx",
                    help="fine-tune this trained classifier instead of starting afresh "
                         "(its batch norms folded likewise)")
    ap.add_argument("--lr", type=float, default=LR,
                    help="peak learning rate of the networks trained")
    ap.add_argument("--classifier", type=Path,
                    help="reuse this trained classifier (.onnx) instead of training one")
    ap.add_argument("--synthetic", type=int, default=1200, help="rendered scenes")
    ap.add_argument("--blender-patches", type=Path, metavar="DIR",
                    help="also train the classifier on these scenes of "
                         "training/render_blender.py --patches")
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "cache",
                    help="folder keeping the rendered scenes between runs")
    ap.add_argument("--locator-steps", type=int, default=3000)
    ap.add_argument("--classifier-steps", type=int, default=10000)
    ap.add_argument("--resume", action="store_true",
                    help="go on from the checkpoints a stopped run with the same arguments "
                         "left in --out (without it, they are started afresh)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    if args.workers:
        cv2.setNumThreads(1)  # a forked loader hangs in OpenCV's thread pool if it ran here
    t0 = time.time()
    real = train_photos(args.data, args.exclude)
    val = {name: load_set(args.data / name, "train", part="val") for name in SETS}
    pool = real + synthetic(args.seed, args.synthetic, args.cache, max(1, args.workers))
    blender = [] if args.blender_patches is None else [
        dataclasses.replace(s, source="blender")
        for s in load_set(args.blender_patches, "train", val_fraction=0.0)]
    print(f"{len(real)} real + {args.synthetic} synthetic + {len(blender)} Blender images, "
          f"{time.time() - t0:.0f}s", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    run = " ".join(f"--{k}={v}" for k, v in sorted(vars(args).items())
                   if k not in RESUME_MAY_CHANGE)
    checkpoints = {name: Checkpoint(args.out / f"{name}.ckpt", run)
                   for name in ("locator", "classifier")}
    if not args.resume:
        for checkpoint in checkpoints.values():
            checkpoint.path.unlink(missing_ok=True)
    if args.locator is not None:
        shutil.copyfile(args.locator, args.out / LOCATOR)
    else:
        locator = train_locator(pool, args.locator_steps, args.seed, args.workers, args.device,
                                args.init, args.lr, checkpoints["locator"])
        export_locator(locator, args.out / LOCATOR)
    if args.classifier is not None:
        shutil.copyfile(args.classifier, args.out / CLASSIFIER)
    else:
        negatives = mine_negatives(args.out / LOCATOR, pool + blender)
        print(f"{len(negatives)} hard negatives", flush=True)
        classifier = train_classifier(pool + blender, negatives, args.classifier_steps, args.seed,
                                      args.workers, args.device, args.init_classifier,
                                      args.lr, checkpoints["classifier"])
        export_classifier(classifier, args.out / FLOAT_CLASSIFIER)
        quantize_classifier(args.out / FLOAT_CLASSIFIER, args.out / CLASSIFIER,
                            calibration_patches(pool + blender, negatives, args.seed))
    reader = DiceReader(threads=2, models=args.out)
    for name, samples in val.items():
        print(f"val {name}: {score(reader, samples)}", flush=True)
    for name in args.exclude:  # a domain the run never saw: its whole train split
        whole = load_set(args.data / name, "train") + val[name]
        print(f"left out {name}, train split: {score(reader, whole)}", flush=True)
    for checkpoint in checkpoints.values():
        checkpoint.path.unlink(missing_ok=True)
    print(f"done in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
