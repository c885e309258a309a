"""Find the printed sheet in a camera frame: its markers, the homography, rectified frames, drift.

calibrate() finds the four corner markers, tells from their ids which game's sheet it is and
fits the homography from frame pixels to sheet millimetres (through a wide lens's barrel
distortion where the markers show one, vision.barrel); when it cannot, it raises
CalibrationError with a message a player can act on (too dark, a marker covered or under a
reflection, too skewed, too far, a camera whose pictures are too small). rectify() warps a
frame to the sheet at a known scale, its colour balanced on the paper; drift() looks for the
markers where they were and says whether the camera moved.

>>> import numpy as np
>>> calibrate(np.full((480, 640, 3), 20, np.uint8))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
vision.calibrate.CalibrationError: The picture is too dark to find the sheet: add light ...
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NoReturn

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.barrel import GRID_PX, Barrel, bent_grid, fit
from vision.errors import VisionError
from vision.paper_balance import balanced
from vision.sheet import CORNERS, DICTIONARY, MARKER_MM, PX_PER_MM, Layout, identify, layout
from vision.sheet_art import PAPER_NAMES

Image = NDArray[np.uint8]
Point = tuple[float, float]

DARK = 45  # mean grey (0..255) under which a frame is too dark
BRIGHT = 235  # mean grey over which it is washed out
GLARE = 240  # median grey over which a corner square is washed out by a reflection
MAX_SKEW_DEG = 25.0  # largest departure of the sheet's corner angles from 90° in the frame
MIN_PX_PER_MM = 1.5  # the sheet must be seen at least this sharp (about 24 px per die)
MAX_FIT_PX = 2.5  # a flat sheet's marker corners fit the homography this well (frame px)...
MAX_FIT_SHARE = 0.035  # ...or this share of a marker's side (0.8 mm), in frames that show more
LENS_NOISE_PX = 0.6  # a barrel is looked for where the sheet's marker corners fit a homography
#                      worse than this (frame px): a straight lens's frames fit it to 0.3-0.45
#                      px, a noisy camera's (σ 16, JPEG q30) to 0.55 once looked at carefully
LENS_GAIN = 0.5  # it is taken where it fits them this share of the homography's misfit or
#                  better: a lens of k1 -0.2 and more fits to 0.15-0.56 of it, -0.25 and more to
#                  0.44 at most; a straight one's noisy corners to 0.59 at best
LENS_SPREAD = 0.5  # and where the homography's misfit is spread over the markers as a lens
#                    spreads it: the second worst marker's at least this share of the worst's
#                    (a lens: 0.59 and more; a folded corner, 20-60°: 0.38 at most)
STRAIGHTENED_KEY = "straightened_homography"  # as_dict()'s homography through a barrel
DRIFT_PX = 3.0  # markers moved more than this (frame pixels): the camera was bumped
_SEARCH_PX = 40  # drift() looks this far around each marker's stored place
CAREFUL_WINDOW_PX = 10  # largest half side of the window detect(careful=True) refines a corner in
CELL_PX = 8  # a marker's cells are read at this many pixels a side: at OpenCV's 4, its 0.13 of a
#              cell's margin left out rounds to no pixel, and a small marker seen askew (34 px,
#              27° from the side) reads its cells' blurred edges and is not found


class CalibrationError(VisionError):
    """The sheet cannot be found or used; the message says why and what to do."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Calibration:
    """Where the sheet lies in the camera's frames: the homography from frame pixels to sheet
    millimetres, the sheet it is, the frame size, and each marker's corners in the frame
    (markers in CORNERS order, corners clockwise from the marker's top-left as the sheet is
    printed). ``mirrored``: the camera mirrors its picture (a front camera, a flip setting);
    the homography and the corners are those of its frames as they come, mirrored.
    ``barrel``: the k1 of a wide lens's distortion (vision.barrel; 0: none): the homography
    is then from the frame's pixels straightened."""

    game: str
    paper: str
    frame_size: tuple[int, int]
    homography: tuple[tuple[float, float, float], ...]
    markers: tuple[tuple[Point, Point, Point, Point], ...]
    mirrored: bool = False
    barrel: float = 0.0

    @property
    def layout(self) -> Layout:
        return layout(self.game, self.paper)

    def matrix(self) -> NDArray[np.float64]:
        return np.array(self.homography, np.float64)

    def lens(self) -> Barrel:
        return Barrel(self.barrel, self.frame_size)

    def to_sheet(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Frame pixels (N×2) to sheet millimetres."""
        return _apply(self.matrix(), self.lens().straighten(points))

    def to_frame(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Sheet millimetres (N×2) to frame pixels."""
        return self.lens().bend(_apply(np.asarray(np.linalg.inv(self.matrix()), np.float64),
                                       points))

    def shifted(self, offset: Point) -> Calibration:
        """The sheet seen ``offset`` (frame pixels, across and down) from where it was (through
        a barrel, as far across and down the straightened frame: the few pixels a camera
        trembles differ there by a tenth of themselves at most)."""
        dx, dy = offset
        if not (dx or dy):
            return self
        back = self.matrix() @ np.array([[1.0, 0.0, -dx], [0.0, 1.0, -dy], [0.0, 0.0, 1.0]])
        return replace(self, homography=tuple((float(r[0]), float(r[1]), float(r[2]))
                                              for r in back),
                       markers=tuple(tuple((x + dx, y + dy) for x, y in m)  # type: ignore[misc]
                                     for m in self.markers))

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready form; from_dict() reads it back. Through a barrel the homography is
        kept as STRAIGHTENED_KEY, not "homography": code older than barrels finds no
        calibration there (and asks for another) rather than taking it from frame pixels."""
        key = STRAIGHTENED_KEY if self.barrel else "homography"
        return {"game": self.game, "paper": self.paper, "frame_size": list(self.frame_size),
                key: [list(r) for r in self.homography],
                "markers": [[list(p) for p in m] for m in self.markers],
                "mirrored": self.mirrored, "barrel": self.barrel}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Calibration:
        """Read as_dict()'s form back; ValueError when it is not that form."""
        try:
            size = data["frame_size"]
            barrel = data.get("barrel", 0.0)  # none in a calibration stored before barrels
            assert isinstance(barrel, (int, float))
            h = data[STRAIGHTENED_KEY if barrel else "homography"]
            markers = data["markers"]
            assert isinstance(size, list) and isinstance(h, list) and isinstance(markers, list)
            cal = cls(str(data["game"]), str(data["paper"]), (int(size[0]), int(size[1])),
                      tuple((float(r[0]), float(r[1]), float(r[2])) for r in h),
                      tuple(tuple((float(p[0]), float(p[1])) for p in m)  # type: ignore[misc]
                            for m in markers), bool(data.get("mirrored", False)),
                      float(barrel))
            layout(cal.game, cal.paper)
        except (KeyError, IndexError, TypeError, ValueError, AssertionError) as err:
            raise ValueError(f"not a calibration: {err}") from err
        if len(cal.homography) != 3 or len(cal.markers) != 4 or any(len(m) != 4
                                                                    for m in cal.markers):
            raise ValueError("not a calibration: wrong number of rows or markers")
        if cal.barrel:
            bent_grid(cal.lens())  # built as it is read, not on the first frame warped
        return cal


@dataclass(frozen=True)
class Drift:
    """Where the markers are now against the calibration: the largest shift (frame pixels) of
    a marker seen, and the corners whose marker was not seen (covered). A marker's shift is
    the median of its corners' shifts: a noisy camera's JPEGs move a corner alone, by up to
    8 px where a corner is found (σ 12 of sensor noise, quality 35), and that is no bump.
    ``offset`` is where the markers seen lie, as one shift across and down: the median of
    their corners' shifts (a camera trembling by a pixel or two, within the tolerance)."""

    shift_px: float | None
    missing: tuple[str, ...]
    tolerance_px: float = DRIFT_PX
    offset: Point = (0.0, 0.0)

    @property
    def moved(self) -> bool:
        """True when a marker seen has moved beyond the tolerance: recalibrate."""
        return self.shift_px is not None and self.shift_px > self.tolerance_px


def detect(frame: Image, *, careful: bool = False) -> dict[int, NDArray[np.float32]]:
    """Every ArUco marker of the sheets' dictionary in the frame: id → 4×2 corners. careful
    refines each corner over a wider window: a corner that a noisy camera's JPEGs put 3-8 px
    off is drawn back where it is (a clean picture's corners move by a few tenths of a pixel,
    which would shift every calibration: hence only for a second look)."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector(careful).detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): np.asarray(c, np.float32).reshape(4, 2) for i, c in zip(ids.ravel(), corners,
                                                                            strict=True)}


def calibrate(frame: Image, *, flipped: bool = True) -> Calibration:
    """Find the sheet in the frame, or raise CalibrationError saying what is wrong. A frame
    showing none of a sheet's markers is looked at again flipped back, as a camera that
    mirrors its picture delivers the sheet (its markers do not read mirrored), unless
    ``flipped`` is False (that look found nothing in this very picture already)."""
    grey, found = _look(frame)
    mirrored = False
    if flipped and not _shows_a_sheet(found):
        unmirrored, found_back = _look(grey, mirrored=True)
        if _shows_a_sheet(found_back):
            grey, found, mirrored = unmirrored, found_back, True
    sheet = _likeliest_sheet(found)
    if sheet is None or len([i for i in found if identify([i]) == sheet]) < 4:
        _explain(found, sheet, grey)
    assert sheet is not None
    sheet_layout = layout(*sheet)
    h, w = grey.shape[:2]
    try:
        homography, lens = _fit_flat(found, sheet_layout, (w, h))
    except CalibrationError:  # a corner found a few pixels off (a noisy camera): look again
        found = detect(grey, careful=True)
        if any(m.id not in found for m in sheet_layout.markers):
            raise
        homography, lens = _fit_flat(found, sheet_layout, (w, h))
    _check_view(homography, sheet_layout, w, h)
    corners = [found[m.id].astype(np.float64) for m in sheet_layout.markers]
    if mirrored:  # from the frame as it comes: flipped back (a barrel is the same flipped,
        homography = homography @ _flip(w)  # its middle the frame's), then onto the sheet
        corners = [_apply(_flip(w), c) for c in corners]
    if lens.k1:
        bent_grid(lens)  # built now, not on the first frame warped (0.05-0.4 s; more on a Pi)
    return Calibration(sheet[0], sheet[1], (w, h),
                       tuple((float(r[0]), float(r[1]), float(r[2])) for r in homography),
                       tuple(tuple((float(x), float(y)) for x, y in c)  # type: ignore[misc]
                             for c in corners), mirrored, lens.k1)


def rectify(frame: Image, calibration: Calibration, *, px_per_mm: float = PX_PER_MM) -> Image:
    """The frame warped onto the sheet (warp()), its colour balanced on the sheet's paper
    measured on this frame (vision.paper_balance: a camera's cast taken out, so that the
    readers and teaching see the colours of the cards and dice in any light; a camera keeps its
    balance from frame to frame, vision.paper_balance.PaperBalance)."""
    flat = warp(frame, calibration, px_per_mm=px_per_mm)
    return balanced(flat, calibration.layout, px_per_mm=px_per_mm)


def warp(frame: Image, calibration: Calibration, *, px_per_mm: float = PX_PER_MM) -> Image:
    """The frame warped onto the sheet: px_per_mm pixels per millimetre, top-left at (0, 0),
    its colour as the camera gave it. Through a barrel, where each pixel of the sheet lies in
    the frame is warped from the lens's bent grid for one pixel in GRID_PX each way (the
    middle of GRID_PX × GRID_PX) and enlarged, and the frame is taken from there: 2.8 ms for a
    720p frame here against 1.3 ms for a homography alone (5.3 ms warped whole)."""
    scale = np.diag([px_per_mm, px_per_mm, 1.0])
    size = calibration.layout.pixel_size(px_per_mm)
    if not calibration.barrel:
        return np.asarray(cv2.warpPerspective(frame, scale @ calibration.matrix(), size,
                                              flags=cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_REPLICATE), np.uint8)
    to_straight, grid = bent_grid(calibration.lens())
    n = GRID_PX  # where is warped one pixel in n each way (the middle of n×n), and enlarged
    coarse = (-(-size[0] // n), -(-size[1] // n))
    to_coarse = np.array([[1 / n, 0, (1 - n) / (2 * n)], [0, 1 / n, (1 - n) / (2 * n)], [0, 0, 1]])
    where = cv2.warpPerspective(grid, to_coarse @ scale @ calibration.matrix() @ to_straight,
                                coarse, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    where = cv2.resize(where, (coarse[0] * n, coarse[1] * n), interpolation=cv2.INTER_LINEAR)
    return np.asarray(cv2.remap(frame, where[:size[1], :size[0]], None, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE), np.uint8)


def drift(frame: Image, calibration: Calibration, *, tolerance_px: float = DRIFT_PX) -> Drift:
    """Look for each marker around where the calibration saw it (cheap: small crops)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = grey.shape[:2]
    shifts: list[float] = []
    moves: list[NDArray[np.float64]] = []
    missing: list[str] = []
    for marker, stored in zip(calibration.layout.markers, calibration.markers, strict=True):
        pts = np.array(stored, np.float64)
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - _SEARCH_PX, 0)
        x1, y1 = np.ceil(pts.max(0)).astype(int) + _SEARCH_PX
        crop = np.ascontiguousarray(grey[y0:min(y1, h), x0:min(x1, w)], np.uint8)
        seen = _find_marker(crop, marker.id, mirrored=calibration.mirrored)
        if seen is None:
            missing.append(marker.corner)
            continue
        corners = seen + np.array([x0, y0]) - pts
        shifts.append(float(np.linalg.norm(np.median(corners, axis=0))))
        moves.append(corners)
    dx, dy = np.median(np.concatenate(moves), axis=0) if moves else (0.0, 0.0)
    return Drift(max(shifts) if shifts else None, tuple(missing), tolerance_px,
                 (float(dx), float(dy)))


def sheet_in_view(frame: Image, calibration: Calibration) -> bool:
    """Whether any sheet's marker is in the frame, wherever it lies (a camera bumped: the sheet
    still in view; a sheet taken away: none), looked for as the calibrated camera sees."""
    return _shows_a_sheet(_look(frame, mirrored=calibration.mirrored)[1])


def _look(frame: Image, *, mirrored: bool = False
          ) -> tuple[Image, dict[int, NDArray[np.float32]]]:
    """The frame in grey as its markers are looked for (flipped back for a camera that
    mirrors its picture), and the markers found in it."""
    grey = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame,
                      np.uint8)
    if mirrored:
        grey = _unmirror(grey)
    return grey, detect(grey)


def _shows_a_sheet(found: dict[int, NDArray[np.float32]]) -> bool:
    """Whether any of the markers found is a dicetable sheet's."""
    return any(identify([marker]) is not None for marker in found)


def _detector(careful: bool = False) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.perspectiveRemovePixelPerCell = CELL_PX
    if careful:  # ¾ of a marker's cell, not the 0.3 that leaves a corner 3-8 px off in noise
        params.cornerRefinementWinSize = CAREFUL_WINDOW_PX
        params.relativeCornerRefinmentWinSize = 0.75
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def _find_marker(crop: Image, marker_id: int, *, mirrored: bool) -> NDArray[np.float64] | None:
    """A marker's corners in a crop of a frame (a mirrored camera's: found flipped back)."""
    found = detect(_unmirror(crop) if mirrored else crop).get(marker_id)
    if found is None:
        return None
    corners = np.asarray(found, np.float64)
    return _apply(_flip(crop.shape[1]), corners) if mirrored else corners


def _unmirror(grey: Image) -> Image:
    """A mirrored frame flipped back across (a frame flipped upside down comes back turned,
    which the marker finder reads as it is)."""
    return np.ascontiguousarray(grey[:, ::-1])


def _flip(width: int) -> NDArray[np.float64]:
    """The homography of _unmirror() on a frame ``width`` pixels wide (its own inverse)."""
    return np.array([[-1.0, 0.0, width - 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


def _apply(matrix: NDArray[np.float64], points: NDArray[np.float64]) -> NDArray[np.float64]:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(pts, matrix), np.float64).reshape(-1, 2)


def _likeliest_sheet(found: dict[int, NDArray[np.float32]]) -> tuple[str, str] | None:
    """The sheet most of the markers seen belong to; None when none is, or when two sheets
    show two or more markers each. (A die's face may pass for a stray marker.)"""
    counts: dict[tuple[str, str], int] = {}
    for i in found:
        sheet = identify([i])
        if sheet is not None:
            counts[sheet] = counts.get(sheet, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if not ranked or (len(ranked) > 1 and ranked[1][1] >= 2):
        return None
    return ranked[0][0]


def _explain(found: dict[int, NDArray[np.float32]], sheet: tuple[str, str] | None,
             grey: Image) -> None:
    """Raise the CalibrationError that says why the four markers of one sheet were not found."""
    brightness = float(grey.mean())
    if sheet is not None:
        found = {i: c for i, c in found.items() if identify([i]) == sheet}
    ours = {i for i in found if identify([i]) is not None}
    if sheet is None and len({identify([i]) for i in ours}) > 1:
        raise CalibrationError("mixed", "Markers of different sheets are in view: leave only "
                                        "one dicetable sheet on the table.")
    if not ours:
        if brightness < DARK:
            raise CalibrationError("dark", "The picture is too dark to find the sheet: add "
                                           "light over the table.")
        if brightness > BRIGHT:
            raise CalibrationError("bright", "The picture is washed out: there is too much "
                                             "light or glare on the sheet.")
        raise CalibrationError("no-sheet", "No dicetable sheet is in view: lay the printed sheet "
                                           "flat under the camera with its four corner squares "
                                           f"visible. {_CUT_OFF}the paper it is made for.")
    assert sheet is not None
    side_px = max(float(np.linalg.norm(found[i][0] - found[i][1])) for i in ours)
    if side_px / MARKER_MM < MIN_PX_PER_MM:  # the others are too small to be found
        _too_far(grey.shape[1], grey.shape[0], layout(*sheet))
    seen = {i % 4 for i in ours}
    gone = [CORNERS[c] for c in range(4) if c not in seen]
    where = gone[0] if len(gone) == 1 else ", ".join(gone[:-1]) + " and " + gone[-1]
    if len(gone) == 1 and _glare(grey, found, layout(*sheet), gone[0]):
        raise CalibrationError("glare", f"A reflection hides the square at the {where} corner of "
                                        "the sheet: move the lamp or tilt the sheet.")
    dim = " The picture is also rather dark." if brightness < DARK * 1.5 else ""
    corners = "corners" if len(gone) > 1 else "corner"
    raise CalibrationError("covered", f"The square at the {where} {corners} of the sheet cannot "
                                      f"be seen: uncover it, or move the camera so that the "
                                      f"whole sheet is in view.{dim} {_CUT_OFF}"
                                      f"{PAPER_NAMES[sheet[1]]} paper.")


_CUT_OFF = ("If a square is cut off at the paper's edge, print the sheet again at actual size "
            "(100 %) on ")


def _glare(grey: Image, found: dict[int, NDArray[np.float32]], sheet: Layout,
           corner: str) -> bool:
    """Whether a reflection hides the marker at ``corner``: where the three markers found put
    it, the frame shows no black (its darkest tenth is lighter than halfway from the found
    markers' black to their white) and is mostly near saturation (a hand or a card is not)."""
    seen = [m for m in sheet.markers if m.id in found]
    (gone,) = [m for m in sheet.markers if m.corner == corner]
    to_frame, _ = cv2.findHomography(np.array([p for m in seen for p in m.corners()], np.float64),
                                     np.concatenate([found[m.id] for m in seen]), 0)
    if to_frame is None:
        return False
    quad = _apply(np.asarray(to_frame, np.float64), np.array(gone.corners(), np.float64))
    inside, ours = np.zeros(grey.shape, np.uint8), np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
    for m in seen:
        cv2.fillConvexPoly(ours, np.round(found[m.id]).astype(np.int32), 1)
    there = grey[inside > 0]
    if there.size < 0.5 * cv2.contourArea(quad.astype(np.float32)):  # mostly out of the frame
        return False
    black, white = np.percentile(grey[ours > 0], [5, 95])
    return bool(np.percentile(there, 10) > (black + white) / 2 and np.median(there) >= GLARE)


def _fit_flat(found: dict[int, NDArray[np.float32]], sheet: Layout, frame_size: tuple[int, int]
              ) -> tuple[NDArray[np.float64], Barrel]:
    """The homography from the frame's pixels to the sheet's millimetres that the sheet's four
    markers give, and the lens's barrel it is taken through (vision.barrel; k1 0 unless the
    homography's misfit is over the corner finder's noise and spread over the markers, and a
    barrel fits the corners with LENS_GAIN of it); CalibrationError when their corners do not
    lie on one flat sheet. A fold is a share of the sheet: the tolerance grows with the
    markers' size in the frame (a lens's ordinary 2-3 % distortion is no fold in a 5 MP frame
    either), and is never under the marker finder's own pixel or two. A fold bends one corner
    of the sheet: its misfit is on that corner's marker, and no barrel is looked for."""
    frame_pts = np.concatenate([found[m.id] for m in sheet.markers]).astype(np.float64)
    sheet_pts = np.array([p for m in sheet.markers for p in m.corners()], np.float64)
    fitted, _ = cv2.findHomography(frame_pts, sheet_pts, 0)
    if fitted is None:
        raise CalibrationError("flat", "The sheet's corners do not fit a flat sheet: flatten it "
                                       "and try again.")
    homography: NDArray[np.float64] = np.asarray(fitted, np.float64)
    back = _apply(np.asarray(np.linalg.inv(homography), np.float64), sheet_pts)
    markers = np.sort(np.abs(back - frame_pts).max(axis=1).reshape(-1, 4).max(axis=1))
    misfit, lens = float(markers[-1]), Barrel(0.0, frame_size)
    if misfit > LENS_NOISE_PX and markers[-2] >= LENS_SPREAD * misfit:
        bent, through, bent_misfit = fit(frame_pts, sheet_pts, frame_size)
        if bent_misfit <= LENS_GAIN * misfit:
            homography, lens, misfit = through, bent, bent_misfit
    sides = np.linalg.norm(frame_pts - np.roll(frame_pts.reshape(-1, 4, 2), -1, axis=1)
                           .reshape(-1, 2), axis=1)
    if misfit > max(MAX_FIT_PX, MAX_FIT_SHARE * float(sides.mean())):
        raise CalibrationError("flat", "The sheet does not lie flat (or is bent or folded): "
                                       "flatten it on the table and try again.")
    return homography, lens


def _check_view(homography: NDArray[np.float64], sheet: Layout, width: int, height: int
                ) -> None:
    """Refuse a sheet seen too slanted or too small to read dice and cards on it in a frame
    ``width`` × ``height``."""
    w, h = sheet.width, sheet.height
    quad = _apply(np.asarray(np.linalg.inv(homography), np.float64),
                  np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    worst = 0.0
    for i in range(4):
        a, b, c = quad[i - 1], quad[i], quad[(i + 1) % 4]
        u, v = a - b, c - b
        cos = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
        worst = max(worst, abs(90.0 - float(np.degrees(np.arccos(np.clip(cos, -1, 1))))))
    if worst > MAX_SKEW_DEG:
        raise CalibrationError("skewed", "The camera sees the sheet too much at a slant: put it "
                                         "more straight above the table.")
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    px_per_mm = float(min(sides[0] / w, sides[2] / w, sides[1] / h, sides[3] / h))
    if px_per_mm < MIN_PX_PER_MM:
        _too_far(width, height, sheet)


def _too_far(width: int, height: int, sheet: Layout) -> NoReturn:
    """Say the sheet is too small in the picture: bring the camera closer; or, where a frame
    ``width`` × ``height`` cannot show the whole sheet sharp enough at any distance, that the
    camera's pictures are too small (reason "small")."""
    sharpest = max(min(width / sheet.width, height / sheet.height),
                   min(width / sheet.height, height / sheet.width))
    if sharpest < MIN_PX_PER_MM:
        raise CalibrationError("small", f"The camera's pictures ({width}×{height}) are too small "
                                        "to read the sheet, however close the camera is: set "
                                        "the camera to a larger picture size (resolution), "
                                        "such as 1280×720.")
    raise CalibrationError("far", "The sheet is too small in the picture: bring the camera "
                                  "closer or zoom in, keeping the whole sheet in view.")
