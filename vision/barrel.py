"""A wide lens's barrel distortion, as OpenCV models it: one radial coefficient k1 about the
frame's centre, the focal length taken as the frame's longer side.

A wide-angle camera (a Raspberry Pi Camera Module 3 Wide, a cheap webcam) bends straight lines
outwards from the middle of its pictures: its k1 is some -0.05 to -0.35 at that focal length
(a corner of the frame drawn 2-17 % in). straighten() takes frame pixels to where a lens
without distortion would have put them, bend() back; fit() finds the k1 that best lets the
sheet's marker corners lie on one flat sheet; bent_grid() is bend() over the straightened
frame, for warping whole frames.

>>> lens = Barrel(-0.2, (1280, 720))
>>> corner = np.array([[0.0, 0.0]])
>>> bool(np.abs(lens.bend(lens.straighten(corner)) - corner).max() < 1e-3)
True
>>> [round(float(v)) for v in lens.straighten(corner)[0]]
[-53, -30]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

COARSE = np.round(np.linspace(-0.4, 0.0, 9), 2)  # the barrels fit() tries first, 0.05 apart
#                                                  (to -0.4: straighten() does not converge
#                                                  beyond -0.45, a corner 33-303 px off)...
FINE = np.round(np.linspace(-0.04, 0.04, 9), 2)  # ...then these about the best, 0.01 apart
GRID_PX = 4  # bent_grid() gives one point every this many straightened pixels
_SOLVED = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-6)


@dataclass(frozen=True)
class Barrel:
    """A lens's radial distortion k1 (negative: barrel) in frames of ``frame_size``."""

    k1: float
    frame_size: tuple[int, int]

    def camera(self) -> NDArray[np.float64]:
        w, h = self.frame_size
        f = float(max(w, h))
        return np.array([[f, 0.0, (w - 1) / 2], [0.0, f, (h - 1) / 2], [0.0, 0.0, 1.0]])

    def coefficients(self) -> NDArray[np.float64]:
        return np.array([self.k1, 0.0, 0.0, 0.0, 0.0])

    def straighten(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Frame pixels (N×2) to where a lens without distortion puts them."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        if not self.k1 or not len(pts):
            return pts.reshape(-1, 2)
        k = self.camera()
        out = cv2.undistortPoints(pts, k, self.coefficients(), R=None, P=k, criteria=_SOLVED)
        return np.asarray(out, np.float64).reshape(-1, 2)

    def bend(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Straightened pixels (N×2) back to where this lens puts them in its frame."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if not self.k1 or not len(pts):
            return pts
        k = self.camera()
        centre, focal = k[:2, 2], k[0, 0]
        rays = (pts - centre) / focal  # OpenCV's projection with k1 alone, 10× as fast
        bent = rays * (1 + self.k1 * (rays ** 2).sum(1, keepdims=True))
        return np.asarray(centre + focal * bent, np.float64)


def fit(frame_pts: NDArray[np.float64], sheet_pts: NDArray[np.float64],
        frame_size: tuple[int, int]) -> tuple[Barrel, NDArray[np.float64], float]:
    """The barrel (k1 from -0.4 to 0, to 0.01) under which the frame's points best fit a
    homography onto the sheet's: the barrel, that homography (straightened pixels to sheet
    millimetres) and the largest distance (straightened pixels) of a point from where it puts
    it. A lens the points show straight is told after two tries (the misfit grows from k1 0
    on); else every COARSE barrel is tried, then FINE ones about the best."""
    def tried(k1: float) -> tuple[Barrel, NDArray[np.float64], float]:
        lens = Barrel(round(float(np.clip(k1, COARSE[0], 0.0)), 2), frame_size)
        straight = lens.straighten(frame_pts)
        fitted, _ = cv2.findHomography(straight, sheet_pts, 0)
        if fitted is None:
            return lens, np.eye(3), np.inf
        homography = np.asarray(fitted, np.float64)
        back = cv2.perspectiveTransform(sheet_pts.reshape(-1, 1, 2),
                                        np.linalg.inv(homography)).reshape(-1, 2)
        return lens, homography, float(np.abs(back - straight).max())

    straight, nearly = tried(0.0), tried(COARSE[-2])
    if nearly[2] >= straight[2]:
        return straight
    best = min((tried(k1) for k1 in COARSE[:-2]), key=lambda t: t[2], default=nearly)
    best = min([best, nearly], key=lambda t: t[2])
    return min((tried(best[0].k1 + step) for step in FINE), key=lambda t: t[2])


@lru_cache(maxsize=4)
def bent_grid(lens: Barrel) -> tuple[NDArray[np.float64], NDArray[np.float32]]:
    """Where the lens puts the straightened frame's points, one every GRID_PX pixels over all
    that its frame shows: the homography from grid cells to straightened pixels, and the
    frame pixel of each cell (rows × columns × 2)."""
    w, h = lens.frame_size
    edge = np.array([[x, y] for x in np.linspace(0, w - 1, 9) for y in (0, h - 1)]
                    + [[x, y] for y in np.linspace(0, h - 1, 9) for x in (0, w - 1)], np.float64)
    straight = lens.straighten(edge)
    (x0, y0), (x1, y1) = np.floor(straight.min(0)), np.ceil(straight.max(0))
    cols, rows = int((x1 - x0) // GRID_PX) + 2, int((y1 - y0) // GRID_PX) + 2
    yy, xx = np.mgrid[0:rows, 0:cols].astype(np.float64)
    cells = np.column_stack([xx.ravel() * GRID_PX + x0, yy.ravel() * GRID_PX + y0])
    to_straight = np.array([[GRID_PX, 0.0, x0], [0.0, GRID_PX, y0], [0.0, 0.0, 1.0]])
    return to_straight, lens.bend(cells).reshape(rows, cols, 2).astype(np.float32)
