"""Where dice lie, whatever their faces show: the shipped dice networks used as a die finder.

The locator (vision.locate) proposes candidate top faces; the classifier's centre head
(vision.classify), which learnt where a die's top face is centred whatever its pips, moves
each candidate onto the centre of its top face (twice for those the first look moved a tenth
of a side or more, about a quarter of them: the second look is centred on the first's
answer; the others were centred already). Its value head is not used here: special dice
are read by their look (vision.face_reader). Candidates that end on one die are merged.

On a rectified Dalek sheet read with the shipped profile, a lighter network does the centre
head's work there (models/dalek_centre.onnx: distilled from the centre head on rendered Dalek
sheets, a quarter of its work; training/train_centre.py, models/README.md).

The classifier here is the float one (FLOAT_CLASSIFIER), not the 8-bit one the photo reader
runs: the face reader matches cut-outs placed by the centre head to a pixel, and the 8-bit
head's centres (about 1 px off) made a Dalek `ink` die taught from 3 photos read wrong
(docs/model-log.md, *An 8-bit classifier*).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from onnxruntime import InferenceSession  # type: ignore[import-untyped]

from vision.classify import WINDOW, batch, crop
from vision.locate import SCALE, Candidate, find_peaks, locator_input
from vision.reader import FLOAT_CLASSIFIER, LOCATOR, MODELS, model_session

SHEET_CENTRE = "dalek_centre.onnx"  # the centre network for Dalek dice on a rectified sheet

HEAT = 0.25  # locator score a candidate needs (the profile's "none" examples weed out more)
LIMIT = 40  # candidates looked at per image
LOOKS = 2  # times the classifier's centre head moves a candidate ...
MOVED = 0.1  # ... looking again only at those the last look moved at least this many sides
SAME_DIE = 0.4  # candidates whose centres end closer than this many sides are one die


class DieFinder:
    """The shipped locator, classifier and Dalek sheet centre network, run with onnxruntime
    on the CPU."""

    def __init__(self, *, threads: int | None = None, models: Path | None = None) -> None:
        folder = models or MODELS
        self._locator = model_session(folder / LOCATOR, threads)
        self._classifier = model_session(folder / FLOAT_CLASSIFIER, threads)
        self._sheet_centre_at, self._threads = folder / SHEET_CENTRE, threads
        self._sheet_centre: InferenceSession | None = None  # loaded when first needed

    def candidates(self, image: NDArray[np.uint8], scale: int = SCALE, *,
                   threshold: float = HEAT, limit: int = LIMIT) -> list[Candidate]:
        """Candidate top faces of a BGR image, likeliest first (centres as the locator
        places them, sides as it guesses them); scale: the locator sees the image shrunk this
        many times."""
        out = self._locator.run(None, {"image": locator_input(image, scale)})[0]
        return find_peaks(out, shape=image.shape[:2], threshold=threshold, limit=limit,
                          stride=2 * scale)

    def offsets(self, patches: NDArray[np.float32], *, sheet: bool = False
                ) -> NDArray[np.float32]:
        """Where the top face's centre lies from each patch's centre (batch()'s patches), in
        patch widths (N×2: x, y); sheet: by the Dalek sheet's centre network."""
        if sheet:
            if self._sheet_centre is None:
                self._sheet_centre = model_session(self._sheet_centre_at, self._threads)
            return np.asarray(self._sheet_centre.run(None, {"patch": patches})[0], np.float32)
        return np.asarray(self._classifier.run(None, {"patch": patches})[0][:, 7:9], np.float32)

    def centred(self, image: NDArray[np.uint8], found: list[Candidate],
                side: float | None = None, *, sheet: bool = False) -> list[Candidate]:
        """The candidates moved onto the centres of their top faces (side: the dice's side in
        pixels where it is known, else each candidate's guess), one per die; sheet: Dalek
        dice of the shipped look on a rectified sheet (the lighter centre network)."""
        if not found:
            return []
        sides = np.array([side or c.size for c in found], np.float64) * WINDOW
        x = np.array([c.x for c in found], np.float64)
        y = np.array([c.y for c in found], np.float64)
        h, w = image.shape[:2]
        look = np.arange(len(found))
        for _ in range(LOOKS):
            if not len(look):
                break
            patches = batch([crop(image, float(x[i]), float(y[i]), float(sides[i]), area=not sheet)
                             for i in look])
            offset = self.offsets(patches, sheet=sheet)
            x[look] = np.clip(x[look] + offset[:, 0] * sides[look], 0, w - 1)
            y[look] = np.clip(y[look] + offset[:, 1] * sides[look], 0, h - 1)
            look = look[np.hypot(offset[:, 0], offset[:, 1]) * WINDOW >= MOVED]
        out: list[Candidate] = []
        for c, a, b, s in zip(found, x, y, sides / WINDOW, strict=True):
            if all((a - o.x) ** 2 + (b - o.y) ** 2 >= (SAME_DIE * s) ** 2 for o in out):
                out.append(Candidate(float(a), float(b), float(s), c.score))
        return out
