"""The dice reader: find every die in a BGR image and read its top face.

Two small ONNX networks run with onnxruntime: the locator (vision.locate) proposes
candidate top-face centres, and the classifier (vision.classify) reads a full-resolution
patch around each candidate, saying which value it shows or that no die is centred there, and
refining the centre. Candidates are read likeliest first, CHUNK patches per call; once a
chunk's last candidates are no dice, the rest (the table's texture) are left unread. A
candidate whose "no die" the classifier gives neither surely nor surely not (LOOK_AGAIN; often its
patch was cut off the die's top face), where the locator's score is not low (LOOK_AGAIN_HEAT), is
read once more from a patch cut at the top face's centre the classifier found, and its class
logits averaged with the first read's. The few
dice whose value it doubts most are read again turned and mirrored, and the class logits of
the eight reads averaged (the centre stays that of the upright read). A candidate the locator
scored weakly needs the classifier surer that it is a die (WEAK_HEAT, WEAK_NO_DIE): on tables
never seen, false dice are the candidates both networks doubt. A read whose value the
classifier is not sure of comes back with value None. The patches read per image are bounded
(MAX_CANDIDATES, PATCH_BUDGET), and so is the time of a busy frame.

Scale: an image whose long side exceeds MAX_SIDE is shrunk to it for the locator (the
classifier still cuts its patches from the image as given). The locator looks at the image
shrunk 4× (dice of about 20 to 110 pixels across); where no die is read there or a candidate
found there is large (read as a die or not), also 8× (about 80 to 220 pixels); where the dice
read are small, or on a photo shrunk for the locator none was read at all (its dice may be
too small for the shrunk image), also 2× (down to about 12 pixels). Each further level's new
candidates are read in turn; a candidate read as no die hides none of them (seen at another
size, the same place may be a die). On a photo shrunk for the locator, the 2× level looks at
it shrunk FINER times less (at most to its own size), so that its small dice keep the pixels
the locator needs: down to about 12 px of that image, about 25 px of a 12 MP photo. No
calibration is needed.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]
from numpy.typing import NDArray

from vision.classify import CROP, WINDOW, batch, crop
from vision.dice import DieRead
from vision.errors import ModelMissing, ModelUnreadable, UnreadableImage
from vision.locate import MULTIPLE, SCALE, Candidate, find_peaks, locator_input, merge

MODELS = Path(__file__).resolve().parent.parent / "models"

LOCATOR = "dice_locator.onnx"
CLASSIFIER = "dice_classifier.onnx"  # 8-bit (training/quantize.py) ...
FLOAT_CLASSIFIER = "dice_classifier-float.onnx"  # ... and in floats, for vision.dice_finder

HEAT_THRESHOLD = 0.3  # locator score a candidate needs
MAX_CANDIDATES = 32  # at most this many candidates (the likeliest) are read per image
CHUNK = 16  # candidates per classifier call (bounds memory)
TAIL = 4  # a chunk whose last TAIL candidates are no dice ends the reading
NO_DIE = 0.3  # a candidate whose "no die" probability is above this is dropped ...
WEAK_HEAT = 0.5  # ... and one the locator scored under this (weak evidence of a die) ...
WEAK_NO_DIE = 0.05  # ... unless its "no die" probability is at most this
LOOK_AGAIN = (0.02, 0.97)  # a candidate whose "no die" probability lies between these ...
LOOK_AGAIN_HEAT = 0.4  # ... and that the locator scored this or more is read again at the
#                        top face's centre the classifier found
DOUBT_BELOW = 0.95  # a die's value read with less confidence is read again, turned and mirrored
SECOND_READS = 4  # at most this many doubtful dice are read again, turned and mirrored ...
PATCH_BUDGET = 48  # ... and only while the patches read stay this many (bounds a frame's time)
MAX_SIDE = 1280  # a longer image side is shrunk to this before the locator sees it
FINER = 1.5  # ... and for its fine level to FINER times that (below)
COARSE = 2 * SCALE  # the locator also looks at the image shrunk this much, for large dice
#                     (CHUNK of its candidates read even past MAX_CANDIDATES), ...
LARGE_DIE = 64.0  # ... when no die is read at SCALE or a candidate there is this large
FINE = SCALE // 2  # ... and this much where the dice are small ...
SMALL_DIE = 30.0  # ... when the dice read at SCALE and COARSE have a median side under this
SIZE_PEAKS = 8  # (where none was read: the median side of the likeliest peaks at SCALE ...
SIZE_SCORE = 0.1  # ... of at least this score)
TILE_AREA = 320 * 192  # the locator runs on at most this many input pixels at once ...
OVERLAP = 32  # ... in tiles that overlap by this many (dice up to 2 × OVERLAP px at FINE)
SURE = 0.5  # below this probability of its best value (given a die) a die is "not sure"
MIN_SIDE = 16  # images smaller than this (either side) are refused


class _Read(NamedTuple):
    """Candidates read, their patches and the classifier's outputs, row for row."""

    found: list[Candidate]
    patches: NDArray[np.float32]
    logits: NDArray[np.float32]


def model_session(path: Path, threads: int | None) -> ort.InferenceSession:
    if not path.is_file():
        raise ModelMissing(f"dice reader model not found: {path}")
    opts = ort.SessionOptions()
    opts.enable_mem_pattern = False  # input sizes vary from image to image
    opts.enable_cpu_mem_arena = True  # tensors kept between runs: no fresh mapping per tensor
    # Idle worker threads must not spin: between the two networks the reader's own code runs.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    if threads is not None:
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime's own error classes derive only from Exception
        raise ModelUnreadable(f"dice reader model cannot be loaded: {path} is not a model this "
                              "reader can load (damaged, cut short, another kind of file, or "
                              "made for a newer onnxruntime)") from err


def _softmax(z: NDArray[np.float32]) -> NDArray[np.float32]:
    e: NDArray[np.float32] = np.exp(z - z.max(axis=1, keepdims=True))
    out: NDArray[np.float32] = e / e.sum(axis=1, keepdims=True)
    return out


def check_image(image: object) -> NDArray[np.uint8]:
    """The image as an H×W×3 uint8 BGR array, or UnreadableImage saying what is wrong.

    A single-channel (H×W or H×W×1) image is converted to BGR; a 4-channel one loses alpha.

    >>> check_image(np.zeros((20, 30), np.uint8)).shape
    (20, 30, 3)
    >>> check_image("photo.jpg")
    Traceback (most recent call last):
    ...
    vision.errors.UnreadableImage: expected a numpy image array, got str
    """
    if not isinstance(image, np.ndarray):
        raise UnreadableImage(f"expected a numpy image array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise UnreadableImage(f"expected an 8-bit image (uint8), got dtype {image.dtype}")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise UnreadableImage(f"expected an H×W×3 BGR image, got shape {image.shape}")
    if min(image.shape[:2]) < MIN_SIDE:
        raise UnreadableImage(f"image too small to hold a die: {image.shape[1]}×{image.shape[0]}")
    return np.ascontiguousarray(image)


class DiceReader:
    """Reads the dice in BGR images; one instance serves any number of reads.

    threads sets onnxruntime's intra-op threads (None: its default); models is the folder
    holding dice_locator.onnx and dice_classifier.onnx (default: the repository's models/).
    """

    def __init__(self, *, threads: int | None = None, models: Path | None = None) -> None:
        folder = MODELS if models is None else models
        self._locator = model_session(folder / LOCATOR, threads)
        self._classifier = model_session(folder / CLASSIFIER, threads)

    def read(self, image_bgr: NDArray[np.uint8]) -> list[DieRead]:
        """Every die found in the image, best first; value None where not sure."""
        image = check_image(image_bgr)
        ratio = min(1.0, MAX_SIDE / max(image.shape[:2]))  # the locator's image ...
        small = _shrunk(image, ratio)  # ... shrunk to MAX_SIDE
        weak = self._peaks(small, SCALE, ratio, SIZE_SCORE)
        usual = [c for c in weak if c.score >= HEAT_THRESHOLD]
        read = self._first_read(image, merge([usual], MAX_CANDIDATES))
        dice = _die_sides(read.found, read.logits, ratio)
        if not dice or max(c.size for c in usual) * ratio >= LARGE_DIE:  # large dice here?
            read = self._read_more(image, read, self._peaks(small, COARSE, ratio, HEAT_THRESHOLD),
                                   least=CHUNK)
            dice = _die_sides(read.found, read.logits, ratio)
        sizes = dice or [c.size * ratio for c in weak[:SIZE_PEAKS]]  # no die read: weak peaks
        if (sizes and float(np.median(sizes)) < SMALL_DIE) or (ratio < 1 and not dice):
            read = self._read_more(image, read, self._fine_peaks(image, ratio))
        if not read.found:
            return []
        looked = self._look_again(image, read)
        self._read_again(read.patches, read.logits, spent=len(read.found) + looked)
        return _decide(read.found, read.logits)

    def _fine_peaks(self, image: NDArray[np.uint8], ratio: float) -> list[Candidate]:
        """The fine level's peaks. Where the locator sees the photo at ``ratio`` of its size,
        the fine level sees it at FINER times that (at most its own size): there a die that
        is small in the shrunk image keeps the pixels the locator needs."""
        finer = min(1.0, FINER * ratio)
        return self._peaks(_shrunk(image, finer), FINE, finer, HEAT_THRESHOLD)

    def _first_read(self, image: NDArray[np.uint8], found: list[Candidate]) -> _Read:
        """The candidates read (ordered likeliest first), their patches and classifier
        outputs, CHUNK at a time; the next chunk is read only while the last TAIL of a chunk
        hold a die (past them the locator's peaks are the table's texture, not dice)."""
        if not found:
            return _Read([], np.zeros((0, 3, CROP, CROP), np.float32),
                         np.zeros((0, 9), np.float32))
        patches = _patches(image, found)
        out = []
        for i in range(0, len(found), CHUNK):
            out.append(self._classifier.run(None, {"patch": patches[i:i + CHUNK]})[0])
            if _softmax(out[-1][-TAIL:, :7])[:, 0].min() > NO_DIE:
                break
        logits = np.concatenate(out)
        return _Read(found[:len(logits)], patches[:len(logits)], logits)

    def _look_again(self, image: NDArray[np.uint8], read: _Read) -> int:
        """Read once more each candidate of ``read`` that the locator scored LOOK_AGAIN_HEAT
        or more and whose "no die" probability lies inside LOOK_AGAIN, from a patch cut at
        the top face's centre the classifier found; ``read`` is updated in place: the
        candidate moves there, its class logits become the mean of the two reads' and its
        centre offset the second read's. Likeliest dice first, CHUNK at most, while the
        patches read stay within PATCH_BUDGET. Returns how many were read again."""
        found, patches, logits = read
        no_die = _softmax(logits[:, :7])[:, 0]
        heat = np.array([c.score for c in found], np.float32)
        low, high = LOOK_AGAIN
        unsure = np.nonzero((heat >= LOOK_AGAIN_HEAT) & (no_die > low) & (no_die < high))[0]
        room = min(CHUNK, PATCH_BUDGET - len(found))
        unsure = unsure[np.argsort(no_die[unsure], kind="stable")[:max(0, room)]]
        if not len(unsure):
            return 0
        for i in unsure:
            found[i] = _moved(found[i], logits[i], image.shape[:2])
        patches[unsure] = _patches(image, [found[i] for i in unsure])
        out = self._classifier.run(None, {"patch": patches[unsure]})[0]
        logits[unsure, :7] = (logits[unsure, :7] + out[:, :7]) / np.float32(2.0)
        logits[unsure, 7:] = out[:, 7:]
        return len(unsure)

    def _read_more(self, image: NDArray[np.uint8], read: _Read, level: list[Candidate],
                   least: int = 0) -> _Read:
        """``read`` and the first read of the candidates of another locator level that are
        not dice already read: as many as keep the candidates read to MAX_CANDIDATES, but at
        least ``least``. A candidate read as no die hides none of the level's: seen at another
        size, the same place may be a die."""
        found, patches, logits = read
        taken = set(found)
        more = [c for c in merge([_dice(found, logits), level], MAX_CANDIDATES)
                if c not in taken]
        more = more[:max(least, MAX_CANDIDATES - len(found))]
        extra, extra_patches, extra_logits = self._first_read(image, more)
        return _Read(found + extra, np.concatenate([patches, extra_patches]),
                     np.concatenate([logits, extra_logits]))

    def _peaks(self, image: NDArray[np.uint8], scale: int, ratio: float,
               threshold: float) -> list[Candidate]:
        """The locator's peaks (score >= threshold) on the image shrunk `scale` times, best
        first, in the pixels of an image `ratio` times smaller than the image read. An input larger
        than TILE_AREA pixels is run in overlapping tiles (so memory stays that of one), each
        keeping the peaks of its own part."""
        full = locator_input(image, scale)
        h, w = full.shape[2:]
        rows, cols = _tiles(h, w)
        found = []
        for y0, y1 in rows:
            for x0, x1 in cols:
                ty0, tx0 = max(0, y0 - OVERLAP), max(0, x0 - OVERLAP)
                tile = np.ascontiguousarray(full[:, :, ty0:min(h, y1 + OVERLAP),
                                                 tx0:min(w, x1 + OVERLAP)])
                out = self._locator.run(None, {"image": tile})[0]
                for c in find_peaks(out, shape=image.shape[:2], threshold=threshold,
                                    limit=MAX_CANDIDATES, stride=2 * scale):
                    x, y = c.x + tx0 * scale, c.y + ty0 * scale
                    if x0 * scale <= x < x1 * scale and y0 * scale <= y < y1 * scale:
                        found.append(Candidate(x / ratio, y / ratio, c.size / ratio, c.score))
        return sorted(found, key=lambda c: -c.score)[:MAX_CANDIDATES]

    def _read_again(self, patches: NDArray[np.float32], out: NDArray[np.float32], *,
                    spent: int) -> None:
        """Of the dice whose value the classifier outputs `out` read with less than
        DOUBT_BELOW confidence, the SECOND_READS likeliest to be dice (fewer where that would
        take the patches read, `spent` so far, past PATCH_BUDGET) are read again in the
        seven other quarter turns and mirror images of their patches, and their seven class
        logits (no die, 1..6) in `out` replaced by the mean over all eight views (the upright
        view's logits as `out` holds them: for a die looked at again, its two reads' mean);
        the centre offset stays that of the upright read."""
        p = _softmax(out[:, :7])
        value = p[:, 1:].max(axis=1) / np.maximum(1.0 - p[:, 0], 1e-6)
        doubt = np.nonzero((p[:, 0] < NO_DIE) & (value < DOUBT_BELOW))[0]
        room = min(SECOND_READS, (PATCH_BUDGET - spent) // 7)
        doubt = doubt[np.argsort(p[doubt, 0], kind="stable")[:max(0, room)]]
        if len(doubt):
            again = self._classifier.run(None, {"patch": _other_views(patches[doubt])})[0]
            views = again[:, :7].reshape(7, len(doubt), 7)
            out[doubt, :7] = (out[doubt, :7] + views.sum(axis=0)) / np.float32(8.0)


def _patches(image: NDArray[np.uint8], candidates: list[Candidate]) -> NDArray[np.float32]:
    """The classifier's input: a patch of WINDOW times its size around each candidate."""
    return batch([crop(image, c.x, c.y, WINDOW * c.size) for c in candidates])


def _top_face(candidate: Candidate, out: NDArray[np.float32]) -> tuple[float, float]:
    """The centre of the top face that the classifier's output row ``out`` (offsets in
    patch widths) found in the candidate's patch, in the image's pixels."""
    side = WINDOW * candidate.size
    return candidate.x + float(out[7]) * side, candidate.y + float(out[8]) * side


def _moved(candidate: Candidate, out: NDArray[np.float32], shape: tuple[int, ...]
           ) -> Candidate:
    """The candidate moved to its _top_face, kept inside an image of ``shape`` (height, width).

    >>> row = np.array([0] * 7 + [0.25, -1.0], np.float32)
    >>> _moved(Candidate(50, 10, 20, 0.9), row, (100, 200))
    Candidate(x=57.0, y=0.0, size=20, score=0.9)
    """
    x, y = _top_face(candidate, out)
    return Candidate(min(max(x, 0.0), shape[1] - 1.0), min(max(y, 0.0), shape[0] - 1.0),
                     candidate.size, candidate.score)


def _shrunk(image: NDArray[np.uint8], ratio: float) -> NDArray[np.uint8]:
    """The image scaled to ``ratio`` of its sides by averaging (itself at 1)."""
    if ratio == 1.0:
        return image
    h, w = image.shape[:2]
    return np.asarray(cv2.resize(image, (max(1, round(w * ratio)), max(1, round(h * ratio))),
                                 interpolation=cv2.INTER_AREA), np.uint8)


def _dice(found: list[Candidate], logits: NDArray[np.float32]) -> list[Candidate]:
    """The candidates read as dice (classifier outputs ``logits``, row for row)."""
    return [c for c, die in zip(found, _are_dice(found, _softmax(logits[:, :7])), strict=True)
            if die]


def _are_dice(found: list[Candidate], probs: NDArray[np.float32]) -> NDArray[np.bool_]:
    """Which candidates are dice, given their class probabilities ``probs`` (no die, 1..6):
    the classifier's "no die" is at most NO_DIE, and at most WEAK_NO_DIE where the locator
    scored the candidate under WEAK_HEAT (two weak signs of a die do not make one).

    >>> probs = np.array([[0.01] + [0.165] * 6, [0.2] + [0.8 / 6] * 6], np.float32)
    >>> strong, weak = Candidate(0, 0, 20, 0.9), Candidate(0, 0, 20, 0.35)
    >>> _are_dice([strong, strong], probs).tolist(), _are_dice([weak, weak], probs).tolist()
    ([True, True], [True, False])
    """
    heat = np.array([c.score for c in found], np.float32)
    no_die = probs[:, 0]
    return (no_die <= NO_DIE) & ((heat >= WEAK_HEAT) | (no_die <= WEAK_NO_DIE))


def _die_sides(found: list[Candidate], logits: NDArray[np.float32], ratio: float
               ) -> list[float]:
    """The sides, in the locator's image, of the candidates read as dice."""
    return [c.size * ratio for c in _dice(found, logits)]


def _tiles(h: int, w: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Row and column spans (multiples of MULTIPLE) that cut an h×w locator input into about
    equal tiles of at most TILE_AREA pixels each, before their OVERLAP.

    >>> _tiles(184, 320)
    ([(0, 184)], [(0, 320)])
    >>> _tiles(360, 640)
    ([(0, 176), (176, 360)], [(0, 320), (320, 640)])
    """
    n = 1
    while math.ceil(h / n) * math.ceil(w / n) > TILE_AREA:
        n += 1
    return _spans(h, n), _spans(w, n)


def _spans(length: int, n: int) -> list[tuple[int, int]]:
    cuts = [0] + [round(length * i / n / MULTIPLE) * MULTIPLE for i in range(1, n)] + [length]
    return list(itertools.pairwise(cuts))


def _other_views(patches: NDArray[np.float32]) -> NDArray[np.float32]:
    """The N×3×S×S patches turned by one, two and three quarter turns, and all four turns
    mirrored: a 7N batch, view by view.

    A mark off every symmetry axis lands in each of the seven other places once, and the
    views of two patches come view by view:

    >>> patch = np.zeros((1, 3, 4, 4), np.float32)
    >>> patch[0, :, 0, 1] = 1.0
    >>> views = _other_views(patch)
    >>> views.shape, len({tuple(np.argwhere(v[0] > 0)[0]) for v in views} | {(0, 1)})
    ((7, 3, 4, 4), 8)
    >>> two = np.stack([np.zeros((3, 4, 4), np.float32), np.ones((3, 4, 4), np.float32)])
    >>> _other_views(two)[:, 0, 0, 0].tolist()
    [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    """
    turns = [np.rot90(patches, k, axes=(2, 3)) for k in range(4)]
    views = turns[1:] + [t[:, :, :, ::-1] for t in turns]
    return np.ascontiguousarray(np.concatenate(views))


def _decide(found: list[Candidate], logits: NDArray[np.float32]) -> list[DieRead]:
    """Turn classifier outputs into reads: drop non-dice and duplicates (two reads of one
    top face keep the likelier die), flag unsure values. Best first."""
    probs = _softmax(logits[:, :7])
    dice = _are_dice(found, probs)
    order = np.argsort(probs[:, 0], kind="stable")
    kept: list[DieRead] = []
    for i in order:
        p, c = probs[i], found[i]
        if not dice[i]:
            continue
        x, y = _top_face(c, logits[i])
        if any((r.x - x) ** 2 + (r.y - y) ** 2 < (0.5 * max(r.size, c.size)) ** 2
               for r in kept):
            continue
        value = int(np.argmax(p[1:])) + 1
        sure = p[value] / (1.0 - p[0]) >= SURE
        kept.append(DieRead(value if sure else None, x, y, float(p[value]), c.size))
    return sorted(kept, key=lambda r: -r.confidence)
