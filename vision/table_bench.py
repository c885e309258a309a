"""Speed of the game readers on rectified frames, for ``dicetable bench --suite tabletop``.

Rendered 1280×720 frames of a Dalek sheet with 10 dice and of a Dicy sheet with all four
players' rows and 6 dice are calibrated and rectified (untimed: the live loop rectifies once
per settled frame, and calibrates once per table); the read of each rectified frame is timed,
interleaved with inferences of the YOLOv8n-640 yardstick, with the same threads. Each reader
first reads every frame once, timed but not counted (a running table's reads are what the bar
is about; a fresh reader's first pass is printed apart).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterator

import cv2
import numpy as np

from vision.bench import ANCHOR, ANCHOR_RUNS, ROUNDS, anchor_session, anchor_times
from vision.calibrate import calibrate, rectify
from vision.sheet import Layout
from vision.table_reads import DalekTableReader, DicyTableReader
from vision.table_scene import render_table

FRAMES = 20  # rectified frames per game


def rectified(game: str, n: int = FRAMES) -> tuple[list[np.ndarray], Layout]:
    """n rectified frames of a game's sheet (Dalek: 10 dice; Dicy: 6 dice, 20 places)."""
    out, sheet = [], None
    for i in range(n):
        scene = render_table(70_000 + i, game=game, dice=10 if game == "dalek" else 6)
        found = calibrate(scene.image)
        out.append(rectify(scene.image, found))
        sheet = found.layout
    assert sheet is not None
    return out, sheet


def suite(threads: int) -> Iterator[tuple[str, float, str]]:
    """Median read times of both games' frames, the yardstick's, and their ratios."""
    cv2.setNumThreads(threads)
    dalek, dalek_sheet = rectified("dalek")
    dicy, dicy_sheet = rectified("dicy")
    dalek_reader = DalekTableReader(threads=threads)
    dicy_reader = DicyTableReader(threads=threads)
    session = anchor_session(threads) if ANCHOR.is_file() else None
    reads: dict[str, list[float]] = {"dalek": [], "dicy": []}
    jobs: list[tuple[str, Callable[[np.ndarray], object], list[np.ndarray]]] = [
        ("dalek", lambda f: dalek_reader.read(f, dalek_sheet), dalek),
        ("dicy", lambda f: dicy_reader.read(f, dicy_sheet), dicy)]
    # a first pass over every frame, not counted: a table reads frames like these for hours,
    # and a fresh reader's first reads are slower (the process's memory not yet grown to its
    # steady size, the weights that tell alike faces apart not yet kept); printed apart
    first = {name: [_timed(read, frame) for frame in frames] for name, read, frames in jobs}
    yardstick: list[float] = []
    if session is not None:
        anchor_times(session, 1)
    for _ in range(ROUNDS):
        for name, read, frames in jobs:
            reads[name] += [_timed(read, frame) for frame in frames]
        if session is not None:
            yardstick += anchor_times(session, ANCHOR_RUNS // ROUNDS)
    anchor = statistics.median(yardstick) * 1000 if yardstick else math.nan
    labels = {"dalek": "Dalek sheet, 10 dice", "dicy": "Dicy sheet, 4 rows of cards + 6 dice"}
    for name, times in reads.items():
        ms = statistics.median(times) * 1000
        yield (f"read of a rectified {labels[name]}, median of {len(times)}, {threads} threads",
               ms, "ms")
        if yardstick:
            yield f"{name} read / anchor inference (bar <= 0.2)", ms / anchor, "ratio"
        yield (f"  first pass of a fresh reader, not counted, median of {len(first[name])}",
               statistics.median(first[name]) * 1000, "ms")
    yield (f"yolov8n_640 anchor inference, median of {len(yardstick)}, interleaved"
           if yardstick else f"yolov8n_640 anchor skipped: {ANCHOR} not found", anchor, "ms")


def _timed(read: Callable[[np.ndarray], object], frame: np.ndarray) -> float:
    """Seconds one read of a frame takes."""
    t = time.perf_counter()
    read(frame)
    return time.perf_counter() - t
