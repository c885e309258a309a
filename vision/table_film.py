"""Films of a game played on its printed sheet: the frames a camera over the table would take.

A film is a list of rests (:class:`SheetRest`: the dice and cards lying still on the sheet);
between two rests a hand passes over the table for a few frames, then the rest is held still
for `hold` frames. Every frame comes from one seed (vision.table_scene.render_still), so a
still table is still to the pixel. Written as a folder of JPEG frames played by a folder
source (device.camera): the live loop's tests of every game, and their figures.

>>> rest = SheetRest(cards={"row-1": "3"})
>>> frames = list(film([SheetRest(), rest], game="17", seed=3, width=640, height=360))
>>> len(frames), [still for _, still in frames][-2:]
(5, [False, True])
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.table_scene import PlacedDie, render_still

HAND_FRAMES = 3  # frames between two rests, a hand over the table
QUALITY = 90


@dataclass(frozen=True)
class SheetRest:
    """What lies still on the sheet: dice where they were put, cards by place."""

    dice: tuple[PlacedDie, ...] = ()
    cards: dict[str, str] = field(default_factory=dict)


def film(rests: Sequence[SheetRest], *, game: str, seed: int, width: int = 1280,
         height: int = 720, style: str = "classic", hand_frames: int = HAND_FRAMES
         ) -> Iterator[tuple[NDArray[np.uint8], bool]]:
    """Every frame, with True for the one still frame of each rest (hold it as long as the
    rest lasts); the first rest is shown without a hand before it, the others after a hand
    passing over the table for ``hand_frames`` frames (no two of them alike)."""
    for number, rest in enumerate(rests):
        image = render_still(seed, game=game, dice=rest.dice, cards=rest.cards,
                             width=width, height=height, style=style).image
        if number:
            for step in range(hand_frames):
                yield _hand(image, (step + 1) / (hand_frames + 1)), False
        yield image, True


def write_film(folder: Path, rests: Sequence[SheetRest], *, game: str, seed: int,
               hold: int = 12, **options: object) -> int:
    """Film the rests into folder (emptied first) as NNNNN.jpg, each still frame held for
    `hold` frames (hard links); returns the number of frames."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    number = 0
    for image, still in film(rests, game=game, seed=seed, **options):  # type: ignore[arg-type]
        first = folder / f"{number:05d}.jpg"
        cv2.imwrite(str(first), image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        number += 1
        for _ in range(hold - 1 if still else 0):
            target = folder / f"{number:05d}.jpg"
            try:
                os.link(first, target)
            except OSError:
                shutil.copyfile(first, target)
            number += 1
    return number


def _hand(image: NDArray[np.uint8], t: float) -> NDArray[np.uint8]:
    """A hand and arm reaching over the frame from its bottom edge, t of the way in."""
    height, width = image.shape[:2]
    cover = np.zeros((height, width), np.float32)
    x = int(width * (0.3 + 0.4 * t))
    y = int(height * (1.0 - 0.7 * np.sin(np.pi * t)))
    cv2.ellipse(cover, (x, y), (width // 14, height // 8), 0, 0, 360, 1.0, -1)
    cv2.line(cover, (x, y), (x + width // 10, height + 40), 1.0, width // 10)
    cover = np.asarray(cv2.GaussianBlur(cover, (0, 0), 6), np.float32)[..., None]
    skin = np.array([120, 150, 200], np.float32)
    out = image.astype(np.float32) * (1 - cover) + skin * cover
    return np.asarray(np.clip(out, 0, 255), np.uint8)
