"""A film's frames as a cheap camera would take them: sensor noise in a dim room, a low JPEG
quality, an arm that trembles, a bump that moved it, mains flicker rolling through its frames."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from device.camera import pictures_in

BAND_PERIOD = 1 / 3  # flicker bands: one period of light a third of the frame high


def banded(image: np.ndarray, amplitude: float, frame: int) -> np.ndarray:
    """``image`` under mains light flickering ``amplitude`` either way, as frame ``frame`` of
    a 30 fps rolling-shutter camera shows it: bands across the picture (100 Hz light, read out
    row after row) that roll by a third of their period from one frame to the next."""
    rows = np.arange(image.shape[0]) / (image.shape[0] * BAND_PERIOD)
    light = 1 + amplitude * np.sin(2 * math.pi * (rows + frame / 3))
    shape = (-1,) + (1,) * (image.ndim - 1)
    return np.clip(image.astype(np.float32) * light.reshape(shape).astype(np.float32), 0,
                   255).astype(np.uint8)


def retake(film: Path, into: Path, *, seed: int, noise: float = 0.0, quality: int = 90,
           shake: int = 0, offset: tuple[int, int] = (0, 0), first: int = 0,
           bands: float = 0.0) -> int:
    """Write every frame of ``film`` into ``into`` (numbered from ``first``) as a camera
    ``offset`` pixels away would take it, each frame shifted again by a whole number of pixels
    in -``shake``..``shake`` across and down, with Gaussian sensor noise of σ ``noise``, under
    flicker ``bands`` of this amplitude (:func:`banded`), as JPEG of ``quality``; returns the
    number after the last frame written."""
    rng = np.random.default_rng(seed)
    cv2.setRNGSeed(seed)
    into.mkdir(parents=True, exist_ok=True)
    number = first
    held: tuple[int, np.ndarray] | None = None  # a film holds a rest as links to one file
    for picture in pictures_in(film):
        inode = picture.stat().st_ino
        if held is None or held[0] != inode:
            held = inode, cv2.imread(str(picture)).astype(np.float32)
        image = held[1]
        dx, dy = np.array(offset) + rng.integers(-shake, shake + 1, 2)
        if dx or dy:
            move = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
            image = cv2.warpAffine(image, move, (image.shape[1], image.shape[0]),
                                   borderMode=cv2.BORDER_REPLICATE)
        if noise:
            image = image + cv2.randn(np.empty_like(image), (0.0,) * 3, (noise,) * 3)
        taken = np.clip(image, 0, 255).astype(np.uint8)
        if bands:
            taken = banded(taken, bands, number)
        cv2.imwrite(str(into / f"{number:05d}.jpg"), taken, [cv2.IMWRITE_JPEG_QUALITY, quality])
        number += 1
    return number
