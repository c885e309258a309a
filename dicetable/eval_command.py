"""``dicetable eval DATASET``: read every labelled image with the dice reader and score it.

A progress bar and any skipped image go to stderr; the summary (or with ``--json`` only a JSON
object) goes to stdout. Exit status 2 when the dataset cannot be evaluated at all (no such
folder, nothing recognisable, unreadable ``labels.json``, no such split), 1 when a model of the
reader is missing or cannot be loaded, else 0 whatever the score. Latency is the time of
``DiceReader.read`` per image, decoding excluded, after one untimed warm-up read of the first
image.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import cv2
import numpy as np
from numpy.typing import NDArray

from dicetable import eval_kinds
from dicetable.failure_pictures import FailurePictures, PictureError
from dicetable.options import thread_count
from vision.datasets import (
    Dataset,
    DatasetError,
    Entry,
    EntryError,
    Problem,
    Sample,
    decode,
    load,
    split_named,
)
from vision.dice import DieRead
from vision.errors import ModelMissing, ModelUnreadable, UnreadableImage
from vision.evaluate import ImageScore, Summary, score_image, summarise
from vision.failures import draw_confusion, draw_reads

if TYPE_CHECKING:
    from vision.reader import DiceReader

PROG = "dicetable eval"
SHOWN = 10  # images not read exactly that the text summary names


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the eval arguments."""
    parser.add_argument("dataset", type=Path, metavar="DATASET",
                        help='a folder with labels.json ({"images": [{"file", "split", '
                             '"dice": [{"value", "bbox": [x0, y0, x1, y1]}], "ignore"}]}, '
                             "pixel boxes) or YOLO labels (images/ + labels/, or a .txt beside "
                             "each image; lines 'class xc yc w h', class 0..5 = value 1..6 unless "
                             "data.yaml, classes.txt or obj.names names the classes); "
                             "photos of Dalek dice, cards or a printed sheet also have "
                             '"items" and "sheet": every key is spelled out in '
                             "vision/table_dataset.py")
    parser.add_argument("--split", metavar="NAME",
                        help="the split to score: a split of labels.json or a train/val/test "
                             "folder (in any case; valid or validation is val, testing is test, "
                             "training is train), or 'all' "
                             "(default: test when there is one, else all)")
    parser.add_argument("--json", action="store_true",
                        help="print only a JSON object on stdout: dataset, format, split, "
                             "dice_total, dice_correct, dice_wrong_value, dice_missed, "
                             "false_dice, images_total, images_exact, confusion (rows: labelled "
                             "1..6; columns: read 1..6, missed), latency_ms {median, p95}, "
                             "accuracy, accuracy_wilson95, false_dice_rate, by_size (the same "
                             "by die size in pixels: min, max, dice, dice_correct, "
                             "dice_wrong_value, dice_missed, false_dice, accuracy), "
                             "images_skipped (how many) and skipped [{file, line, reason}], "
                             "images_failed [{file, dice, correct, wrong_value, missed, "
                             "false_dice}]; for a set with items: dataset, split, photos, "
                             "skipped and notes (lines of text), read_ms_median, kinds [{kind, "
                             "total, right, wrong, not_sure, missed, false, right_rate, "
                             "wrong_rate, confusion {rows, columns, counts}}]")
    parser.add_argument("--save-failures", type=Path, metavar="DIR",
                        help="write each image not read exactly, with the reads drawn on it, "
                             "into DIR (and, for a set of d6 dice, confusion.png)")
    parser.add_argument("--threads", type=thread_count, metavar="N",
                        help="threads for the reader (onnxruntime and OpenCV; default: its own)")
    parser.add_argument("--profile", type=Path, metavar="PROFILE",
                        help="read that profile's kind (d6, dalek, dicy or 17) with this teach "
                             "profile (dicetable teach) instead of the shipped one; sets that "
                             "label other kinds (items, sheet) are scored kind by kind")
    parser.add_argument("--models", type=Path, metavar="DIR",
                        help="read with the dice_locator.onnx and dice_classifier.onnx in DIR "
                             "(default: the shipped models/), e.g. a training run's output; "
                             "sets of every kind also use its dice_classifier-float.onnx and, "
                             "on Dalek sheets, dalek_centre.onnx")


def run(args: argparse.Namespace) -> int:
    """Evaluate the reader on ``args.dataset``; returns the exit status."""
    if eval_kinds.wanted(args):
        return eval_kinds.run(args)
    try:
        dataset, split = _dataset(args.dataset, args.split)
        failures = _failures_folder(args.save_failures)
        reader = _reader(args.threads, args.models)
    except _Stop as stop:
        print(f"{PROG}: {stop}", file=sys.stderr)
        return stop.status
    progress = _Progress(sys.stderr, len(dataset.entries))
    skipped = list(dataset.problems)
    for problem in skipped:
        progress.note(f"{PROG}: skipped {problem.describe()}")
    scores: list[tuple[str, ImageScore]] = []
    latency_ms: list[float] = []
    for entry in dataset.entries:
        try:
            sample, reads, ms = _read(reader, entry, warm_up=not latency_ms)
        except EntryError as err:
            skipped.append(err.problem)
            progress.note(f"{PROG}: skipped {err.problem.describe()}")
        else:
            latency_ms.append(ms)
            score = score_image(reads, sample.dice, sample.ignore)
            scores.append((entry.file, score))
            if failures is not None and not score.exact:
                picture = draw_reads(sample.image, sample.dice, sample.ignore, reads, score)
                _save(failures, failures.name_for(entry.file), picture, progress)
        progress.advance()
    progress.close()
    if not scores:
        print(f"{PROG}: no image of {args.dataset} could be scored: each was skipped (above)",
              file=sys.stderr)
        return 2
    summary = summarise((s for _, s in scores), latency_ms)
    if failures is not None:
        _save(failures, "confusion.png", draw_confusion(summary.confusion), progress)
    failed = [(file, s) for file, s in scores if not s.exact]
    if args.json:
        print(json.dumps(_as_json(dataset, split, summary, skipped, failed)))
    else:
        print(_as_text(dataset, split, summary, skipped, failed, failures))
    return 0


class _Stop(Exception):
    """The run cannot start; ``status`` is the exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def _dataset(root: Path, split: str | None) -> tuple[Dataset, str]:
    try:
        everything = load(root)
        split = split_named(split) if split else everything.default_split()
        dataset = everything.select(split)
    except DatasetError as err:
        raise _Stop(str(err)) from err
    if not dataset.entries and not dataset.problems:
        raise _Stop(f"{root}: no images in split {split!r}")
    return dataset, split


def _failures_folder(folder: Path | None) -> FailurePictures | None:
    try:
        return FailurePictures(folder) if folder is not None else None
    except PictureError as err:
        raise _Stop(str(err)) from err


def _reader(threads: int | None, models: Path | None) -> DiceReader:
    from vision.reader import DiceReader  # imported here: onnxruntime loads only when needed

    if threads is not None:
        cv2.setNumThreads(threads)
    try:
        return DiceReader(threads=threads, models=models)
    except (ModelMissing, ModelUnreadable) as err:
        raise _Stop(f"cannot start the dice reader: {err}", status=1) from err


def _read(reader: DiceReader, entry: Entry, *,
          warm_up: bool) -> tuple[Sample, list[DieRead], float]:
    """Decode and read one image; the read's time in ms. Raises EntryError when it can't."""
    sample = decode(entry)
    try:
        if warm_up:
            reader.read(sample.image)
        start = time.perf_counter()
        reads = reader.read(sample.image)
    except UnreadableImage as err:
        raise EntryError(Problem(entry.file, f"the reader refused it: {err}",
                                 split=entry.split)) from err
    return sample, reads, (time.perf_counter() - start) * 1000


def _save(failures: FailurePictures, name: str, picture: NDArray[np.uint8],
          progress: _Progress) -> None:
    try:
        failures.save(name, picture)
    except PictureError as err:
        progress.note(f"{PROG}: {err}")


def _as_json(dataset: Dataset, split: str, summary: Summary, skipped: list[Problem],
             failed: list[tuple[str, ImageScore]]) -> dict[str, object]:
    wilson = summary.accuracy_wilson95
    return {
        "dataset": str(dataset.root),
        "format": dataset.kind,
        "split": split,
        "dice_total": summary.dice_total,
        "dice_correct": summary.dice_correct,
        "dice_wrong_value": summary.dice_wrong_value,
        "dice_missed": summary.dice_missed,
        "false_dice": summary.false_dice,
        "images_total": summary.images_total,
        "images_exact": summary.images_exact,
        "confusion": [list(row) for row in summary.confusion],
        "latency_ms": {"median": summary.latency_median_ms, "p95": summary.latency_p95_ms},
        "accuracy": summary.accuracy,
        "accuracy_wilson95": list(wilson) if wilson is not None else None,
        "false_dice_rate": summary.false_dice_rate,
        "by_size": [{"min": b.low, "max": b.high if math.isfinite(b.high) else None,
                     "dice": b.dice, "dice_correct": b.correct,
                     "dice_wrong_value": b.wrong_value, "dice_missed": b.missed,
                     "false_dice": b.false_dice, "accuracy": b.accuracy}
                    for b in summary.by_size],
        "images_skipped": len(skipped),
        "skipped": [{"file": p.file, "line": p.line, "reason": p.reason} for p in skipped],
        "images_failed": [{"file": file, "dice": len(s.dice), "correct": s.correct,
                           "wrong_value": s.wrong_value, "missed": s.missed,
                           "false_dice": s.false_dice} for file, s in failed],
    }


def _as_text(dataset: Dataset, split: str, summary: Summary, skipped: list[Problem],
             failed: list[tuple[str, ImageScore]], failures: FailurePictures | None) -> str:
    s = summary
    lines = [f"{dataset.root} ({dataset.kind}, split {split}): {s.images_total} images, "
             f"{s.dice_total} labelled dice"]
    if s.accuracy is not None and s.accuracy_wilson95 is not None:
        low, high = s.accuracy_wilson95
        lines.append(f"  read right    {s.dice_correct:>6} / {s.dice_total}  {s.accuracy:.2%}  "
                     f"(95 % Wilson {low:.2%} .. {high:.2%})")
    lines += [f"  wrong value   {s.dice_wrong_value:>6}",
              f"  missed        {s.dice_missed:>6}  (not found or not sure)",
              f"  false dice    {s.false_dice:>6}"
              + (f"  ({s.false_dice_rate:.2%} of labelled)" if s.false_dice_rate is not None
                 else ""),
              f"  images exact  {s.images_exact:>6} / {s.images_total}"]
    if s.latency_median_ms is not None and s.latency_p95_ms is not None:
        lines.append(f"  read time     median {s.latency_median_ms:.1f} ms, "
                     f"p95 {s.latency_p95_ms:.1f} ms (per image, decoding excluded)")
    lines.append("  by die size (px; a false die by the size the reader gave it)")
    lines.append("        size   dice  right  wrong missed  false  read right")
    for b in s.by_size:
        if b.dice or b.false_dice:
            span = f"{b.low:.0f}+" if not math.isfinite(b.high) else f"{b.low:.0f}-{b.high:.0f}"
            right = f"{b.accuracy:.1%}" if b.accuracy is not None else "-"
            lines.append(f"  {span:>10} {b.dice:>6} {b.correct:>6} {b.wrong_value:>6} "
                         f"{b.missed:>6} {b.false_dice:>6}  {right:>10}")
    lines.append("  confusion (rows: labelled value; columns: value read, then missed)")
    lines.append("        " + "".join(f"{c:>7}" for c in [*"123456", "missed"]))
    for value, row in enumerate(s.confusion, start=1):
        lines.append(f"  {value:>4}  " + "".join(f"{n:>7}" for n in row))
    if failed:
        lines.append(f"  not exact ({len(failed)}):")
        lines += [f"    {file}: {s.correct}/{len(s.dice)} right, {s.wrong_value} wrong value, "
                  f"{s.missed} missed, {s.false_dice} false" for file, s in failed[:SHOWN]]
        if len(failed) > SHOWN:
            lines.append(f"    and {len(failed) - SHOWN} more (--json lists them all)")
    if skipped:
        lines.append(f"  skipped {len(skipped)}:")
        lines += [f"    {p.describe()}" for p in skipped]
    if failures is not None:
        lines.append(f"  failure pictures and confusion.png in {failures.folder}")
    return "\n".join(lines)


class _Progress:
    """A progress bar on ``stream``: redrawn in place on a terminal, else a line per 10 %."""

    WIDTH = 30

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.done = 0
        self.tty = stream.isatty()
        self.shown_tenths = -1
        self.drawing = True
        self._draw()

    def advance(self) -> None:
        """One more image done."""
        self.done += 1
        self._draw()

    def note(self, message: str) -> None:
        """Print a message line above the bar."""
        self.stream.write(("\r\033[K" if self.tty else "") + message + "\n")
        if self.tty and self.drawing:
            self._draw()
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line; later notes do not redraw it."""
        self.drawing = False
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

    def _draw(self) -> None:
        fraction = self.done / self.total if self.total else 1.0
        tenths = int(fraction * 10)
        if not self.tty and tenths == self.shown_tenths:
            return
        self.shown_tenths = tenths
        filled = round(fraction * self.WIDTH)
        bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.done}/{self.total} images"
        self.stream.write(f"\r{bar}" if self.tty else f"{bar}\n")
        self.stream.flush()
