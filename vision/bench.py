"""Speed and memory figures of the dice reader, for `dicetable bench`.

suite() times the whole read of rendered 1280×720 frames with about ten dice against one
inference of the YOLOv8n-640 yardstick in ../shared/anchors, with the same thread settings,
and measures the peak resident memory of a fresh process after 100 reads. `dicetable bench` and
that fresh process set their allocator as the table's does (vision.heap).
"""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]

from vision.reader import DiceReader
from vision.render import render_scene

ANCHOR = Path(__file__).resolve().parent.parent.parent / "shared" / "anchors" / "yolov8n_640.onnx"
FRAMES = 100  # different frames timed for the read (a frame that needs the 2× level, 2 in 300
#               of these scenes, held 3 of the 90 reads of 30 frames and so set their p95)
ROUNDS = 3  # each frame is read once per round
ANCHOR_RUNS = 30  # timed inferences of the yardstick, spread over the rounds
RSS_READS = 100  # reads before the fresh process reports its peak memory

# The child sets its allocator as the table's process does (vision.heap), and reports VmHWM,
# its own peak: ru_maxrss would also count the part of this (larger) parent that the fork
# copied before exec, which Linux carries over.
_RSS_CHILD = """
import resource, sys
from pathlib import Path
import cv2
from vision.heap import keep_memory_flat
from vision.reader import DiceReader
keep_memory_flat()
cv2.setNumThreads({threads})
reader = DiceReader(threads={threads})
files = sorted(Path(sys.argv[1]).glob("*.png"))
for i in range({reads}):
    reader.read(cv2.imread(str(files[i % len(files)])))
fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
peak = fields.get("VmHWM", f"{{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}} kB")
print(peak.split()[0], fields.get("RssFile", "nan kB").split()[0])
"""


def frames(n: int = FRAMES) -> list[np.ndarray]:
    """n different rendered 1280×720 frames with about ten dice each."""
    return [render_scene(1000 + i, width=1280, height=720, n_dice=10).image for i in range(n)]


def read_times(reader: DiceReader, images: list[np.ndarray]) -> list[float]:
    """Seconds of reader.read on each image."""
    out = []
    for image in images:
        t = time.perf_counter()
        reader.read(image)
        out.append(time.perf_counter() - t)
    return out


def anchor_session(threads: int, path: Path = ANCHOR) -> ort.InferenceSession:
    """The yardstick, with the reader's thread settings."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def anchor_times(session: ort.InferenceSession, runs: int) -> list[float]:
    """Seconds of one inference of the yardstick on a 1×3×640×640 input, `runs` times."""
    name = session.get_inputs()[0].name
    x = np.random.default_rng(0).random((1, 3, 640, 640), dtype=np.float32)
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        session.run(None, {name: x})
        out.append(time.perf_counter() - t)
    return out


def timed_rounds(threads: int, images: list[np.ndarray], anchor: Path | None
                 ) -> tuple[list[float], list[float]]:
    """Read times of every image and yardstick times, ROUNDS times over, the two interleaved
    so that a machine whose speed drifts (a busy neighbour) slows both alike."""
    cv2.setNumThreads(threads)
    reader = DiceReader(threads=threads)
    session = None if anchor is None else anchor_session(threads, anchor)
    reader.read(images[0])  # warm-up, untimed
    if session is not None:
        anchor_times(session, 1)
    reads: list[float] = []
    yardstick: list[float] = []
    for _ in range(ROUNDS):
        reads += read_times(reader, images)
        if session is not None:
            yardstick += anchor_times(session, ANCHOR_RUNS // ROUNDS)
    return reads, yardstick


def peak_rss_mb(threads: int, images: list[np.ndarray],
                reads: int = RSS_READS) -> tuple[float, float]:
    """Peak resident memory (MB; ru_maxrss, or VmHWM where Linux has it) of a fresh Python
    process that loads the reader and reads `reads` frames decoded from PNG files: every frame
    timed, in turn, so that the frames that send the reader to its finer level count too; and
    the part of its resident memory that maps files (the libraries' code) at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        width = len(str(len(images)))  # names sort in the frames' order, however many
        for i, image in enumerate(images):
            cv2.imwrite(str(Path(tmp) / f"{i:0{width}d}.png"), image)
        code = _RSS_CHILD.format(threads=threads, reads=reads)
        done = subprocess.run([sys.executable, "-c", code, tmp], capture_output=True, text=True,
                              check=True)
    peak, files = done.stdout.split()[-2:]
    return int(peak) / 1024, float(files) / 1024


def suite(threads: int) -> Iterator[tuple[str, float, str]]:
    """(label, value, unit) figures: read time, anchor time, their ratio, peak memory."""
    images = frames()
    reads, yardstick = timed_rounds(threads, images, ANCHOR if ANCHOR.is_file() else None)
    read = statistics.median(reads) * 1000
    p95 = float(np.percentile(reads, 95)) * 1000
    yield (f"dice read, 1280x720 frame, ~10 dice, all stages, median of {len(images)} frames "
           f"x {ROUNDS} rounds, {threads} threads", read, "ms")
    yield "dice read, 95th percentile of the same reads", p95, "ms"
    yield "dice read p95 / median (bar <= 2.5)", p95 / read, "ratio"
    if yardstick:
        anchor = statistics.median(yardstick) * 1000
        yield (f"yolov8n_640 anchor inference, median of {len(yardstick)}, interleaved with "
               f"the reads, {threads} threads", anchor, "ms")
        yield "dice read / anchor inference (bar <= 0.2)", read / anchor, "ratio"
    else:
        yield (f"yolov8n_640 anchor skipped: {ANCHOR} not found", math.nan, "ms")
    peak, files = peak_rss_mb(threads, images)
    yield f"peak RSS of a fresh process after {RSS_READS} reads", peak, "MB"
    yield ("of it, library files mapped at the end (clean pages the kernel can drop; ~40 MB "
           "more right after an install: models/README.md, Speed)", files, "MB")
