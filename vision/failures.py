"""Pictures for ``dicetable eval --save-failures``: reads drawn on an image (d6 sets, and table
photos of every kind), and the d6 confusion matrix, both drawn with OpenCV.

Colours on an image: labelled boxes green when read right, red for a wrong value, orange when
missed; reads as dots with their value (``?`` = not sure) in the same colours, magenta for a
false die, grey in an ignore region; ignore regions are thin grey boxes. A card place is a
box; when it is not read right, its label is written above and what it read at its centre.

>>> from vision.dice import DieRead
>>> from vision.evaluate import score_image
>>> from vision.datasets import LabelledDie
>>> image = np.zeros((60, 80, 3), np.uint8)
>>> dice = [LabelledDie(3, (10, 10, 40, 40))]
>>> reads = [DieRead(4, 25, 25, 0.7)]
>>> draw_reads(image, dice, (), reads, score_image(reads, dice)).shape[1]
80
>>> draw_confusion(score_image(reads, dice).confusion).dtype
dtype('uint8')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.components import is_card
from vision.datasets import Box, LabelledDie
from vision.dice import DieRead
from vision.evaluate import VALUES, DieOutcome, ImageScore, ReadOutcome
from vision.kind_eval import FALSE, MISSED, NOT_SURE, Read, Scored

Image = NDArray[np.uint8]
Colour = tuple[int, int, int]
Named = tuple[Box, str, Colour]  # a box, the name written above it, its colour
Dot = tuple[float, float, str, Colour]  # a point, the text written beside it, its colour

GREEN: Colour = (60, 180, 60)
RED: Colour = (40, 40, 230)
ORANGE: Colour = (0, 150, 255)
MAGENTA: Colour = (220, 40, 220)
GREY: Colour = (160, 160, 160)
WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)
FONT = cv2.FONT_HERSHEY_SIMPLEX

DIE_COLOURS = {DieOutcome.READ: GREEN, DieOutcome.WRONG_VALUE: RED, DieOutcome.MISSED: ORANGE}
READ_COLOURS = {ReadOutcome.CORRECT: GREEN, ReadOutcome.WRONG_VALUE: RED,
                ReadOutcome.NOT_SURE: ORANGE, ReadOutcome.FALSE: MAGENTA,
                ReadOutcome.IGNORED: GREY}
BANNER = 26


def draw_reads(image: Image, dice: Sequence[LabelledDie], ignore: Sequence[Box],
               reads: Sequence[DieRead], score: ImageScore) -> Image:
    """A copy of ``image`` with the labels, the reads and a one-line tally on top."""
    boxes = [(die.box, str(die.value), DIE_COLOURS[outcome])
             for die, outcome in zip(dice, score.dice, strict=True)]
    dots = [(read.x, read.y,
             f"{read.value if read.value is not None else '?'} {read.confidence:.2f}",
             READ_COLOURS[outcome]) for read, outcome in zip(reads, score.reads, strict=True)]
    tally = (f"{score.correct}/{len(score.dice)} right  {score.wrong_value} wrong value  "
             f"{score.missed} missed  {score.false_dice} false")
    return draw_marks(image, boxes, dots, ignore, tally)


@dataclass(frozen=True)
class KindScored:
    """One kind on one image as scored (vision.kind_eval): each label's box (a die's, or a card
    place's as the image shows it) in the order scored, and the dice reads (none for cards:
    what each place read is in ``scored``)."""

    kind: str
    boxes: tuple[Box, ...]
    scored: Scored
    reads: tuple[Read, ...] = ()


def draw_kinds(image: Image, ignore: Sequence[Box], kinds: Sequence[KindScored]) -> Image:
    """A copy of ``image`` with each kind's labels and reads drawn as ``draw_reads`` draws
    dice (a card place read right is only its green box; one read wrong or not sure has its
    label above and what it read at its centre), and each kind's tally on top."""
    boxes: list[Named] = []
    dots: list[Dot] = []
    tallies = []
    for one in kinds:
        colours = [_colour(label, got) for label, got in one.scored.labels]
        card = is_card(one.kind)
        boxes += [(box, "" if card and got == label else label, colour)
                  for box, (label, got), colour in zip(one.boxes, one.scored.labels, colours,
                                                       strict=True)]
        for (face, x, y, confidence), matched in zip(one.reads, one.scored.reads, strict=True):
            colour = colours[matched] if isinstance(matched, int) else (
                MAGENTA if matched == FALSE else GREY)
            dots.append((x, y, f"{face if face is not None else '?'} {confidence:.2f}", colour))
        if card:
            dots += [((box[0] + box[2]) / 2, (box[1] + box[3]) / 2,
                      "?" if got == NOT_SURE else got, colour)
                     for box, (label, got), colour in zip(one.boxes, one.scored.labels, colours,
                                                          strict=True) if got != label]
        tallies.append(_tally(one))
    return draw_marks(image, boxes, dots, ignore, "   ".join(tallies))


def draw_marks(image: Image, boxes: Sequence[Named], dots: Sequence[Dot], ignore: Sequence[Box],
               tally: str) -> Image:
    """A copy of ``image`` with the ignore regions (thin grey boxes), the boxes with their
    names above, the dots with their texts beside, and ``tally`` on a banner on top."""
    scale = max(1.0, min(image.shape[:2]) / 480)
    thick = max(1, round(scale))
    canvas = np.ascontiguousarray(image).copy()
    for box in ignore:
        cv2.rectangle(canvas, _pt(box[0], box[1]), _pt(box[2], box[3]), GREY, 1)
    for box, name, colour in boxes:
        cv2.rectangle(canvas, _pt(box[0], box[1]), _pt(box[2], box[3]), colour, thick)
        _label(canvas, name, _pt(box[0], box[1] - 3), colour, 0.45 * scale)
    for x, y, text, colour in dots:
        centre = _pt(x, y)
        cv2.circle(canvas, centre, 3 * thick, BLACK, -1, cv2.LINE_AA)
        cv2.circle(canvas, centre, 2 * thick, colour, -1, cv2.LINE_AA)
        _label(canvas, text, (centre[0] + 4 * thick, centre[1] + 4 * thick), colour,
               0.4 * scale)
    banner = np.full((BANNER, canvas.shape[1], 3), 32, np.uint8)
    cv2.putText(banner, tally, (6, 18), FONT, 0.5, WHITE, 1, cv2.LINE_AA)
    return np.vstack([banner, canvas])


def _colour(label: str, got: str) -> Colour:
    """A label's colour: right, missed (or not sure), or wrong."""
    return GREEN if got == label else ORANGE if got in (MISSED, NOT_SURE) else RED


def _tally(one: KindScored) -> str:
    """One kind's line on a picture: right of labelled, wrong, missed (not sure counts missed),
    and for dice the false reads."""
    labels = one.scored.labels
    right = sum(label == got for label, got in labels)
    missed = sum(got in (MISSED, NOT_SURE) for _, got in labels)
    line = (f"{one.kind} {right}/{len(labels)} right  {len(labels) - right - missed} wrong  "
            f"{missed} missed")
    return line if is_card(one.kind) else line + f"  {one.scored.reads.count(FALSE)} false"


def draw_confusion(confusion: Sequence[Sequence[int]], cell: int = 56) -> Image:
    """The 6×7 confusion matrix as a picture: rows = labelled value, columns = read value
    then missed; each cell shaded by its share of its row (green on the diagonal, red off it)."""
    header = cell
    width = header + (VALUES + 1) * cell
    height = header + VALUES * cell + 30
    canvas = np.full((height, width, 3), 255, np.uint8)
    _centred(canvas, "label \\ read", (header // 2, header // 2), 0.38, BLACK)
    for col, name in enumerate([*map(str, range(1, VALUES + 1)), "missed"]):
        _centred(canvas, name, (header + col * cell + cell // 2, header // 2), 0.5, BLACK)
    for row in range(VALUES):
        _centred(canvas, str(row + 1), (header // 2, header + row * cell + cell // 2), 0.5, BLACK)
        total = sum(confusion[row])
        for col, count in enumerate(confusion[row]):
            share = count / total if total else 0.0
            hue = GREEN if col == row else RED
            fill = tuple(round(255 - share * (255 - c)) for c in hue)
            x0, y0 = header + col * cell, header + row * cell
            cv2.rectangle(canvas, (x0, y0), (x0 + cell, y0 + cell), fill, -1)
            cv2.rectangle(canvas, (x0, y0), (x0 + cell, y0 + cell), GREY, 1)
            ink = WHITE if share > 0.6 else BLACK
            _centred(canvas, str(count), (x0 + cell // 2, y0 + cell // 2), 0.5, ink)
    correct = sum(confusion[v][v] for v in range(VALUES))
    total = sum(sum(row) for row in confusion)
    _centred(canvas, f"{correct} of {total} labelled dice read right", (width // 2, height - 14),
             0.45, BLACK)
    return canvas


def _pt(x: float, y: float) -> tuple[int, int]:
    return (round(x), round(y))


def _label(canvas: Image, text: str, origin: tuple[int, int], colour: Colour,
           size: float) -> None:
    cv2.putText(canvas, text, origin, FONT, size, BLACK, 3, cv2.LINE_AA)
    cv2.putText(canvas, text, origin, FONT, size, colour, 1, cv2.LINE_AA)


def _centred(canvas: Image, text: str, centre: tuple[int, int], size: float,
             colour: Colour) -> None:
    (w, h), _ = cv2.getTextSize(text, FONT, size, 1)
    cv2.putText(canvas, text, (centre[0] - w // 2, centre[1] + h // 2), FONT, size, colour, 1,
                cv2.LINE_AA)
