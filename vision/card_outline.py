"""Where a card lies in its place on a rectified sheet: its outline, or that the place is empty.

A card lies in its printed place a little shifted and turned. Along short scan lines across
each of the four edges a card of the known size would have, the colour steps are found (the
card against the place's grey fill, but also its own print, its shadow, the place's border).
Each step votes, for a few turns of the card, for where the card's centre lies across that
edge; an outline is where the two opposite edges of both pairs agree, near the place's centre.
The likeliest few outlines are found: the card's look (vision.card_reader) picks among them.
Each is fitted to the steps that voted for it; a place's likeliest at once, the others only
when asked for (a card whose likeliest outline reads clearly needs none of them).
A place whose scan lines cross no step away from its printed border is empty (a step where
the colour changes most along its line: a blurred border's step, only falling away from
the border, is none).

>>> import numpy as np
>>> from vision.sheet import PX_PER_MM, layout
>>> sheet = layout("17")
>>> image = np.full((*reversed(sheet.pixel_size()), 3), 140, np.uint8)
>>> place = sheet.places()[0]
>>> cx, cy = (v * PX_PER_MM for v in place.centre)
>>> w, h = (v * PX_PER_MM for v in sheet.card)
>>> _ = cv2.rectangle(image, (round(cx - w / 2 + 3), round(cy - h / 2)),
...                   (round(cx + w / 2 + 3), round(cy + h / 2)), (250, 250, 250), -1)
>>> found = outlines(image, sheet.places()[:2], sheet.card, PX_PER_MM)
>>> found[1].empty, found[0].empty
(True, False)
>>> [round(float(v)) for v in found[0].quads[0].mean(axis=0) - (cx, cy)]
[3, 0]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.sheet import Zone

LINES = 14  # scan lines across each edge
OUT_MM = 2.6  # a scan line starts this far outside the edge of a card laid straight in place
IN_MM = 2.4  # and ends this far inside it
STEP_PX = 0.5  # samples along a scan line
PEAK_SHARE = 0.2  # a step counts when at least this share of its scan line's strongest
TURNS = np.radians(np.arange(-9.0, 9.01, 0.5))  # the card's turns tried
BIN_PX = 0.5  # votes for the centre are counted in bins this wide
NEAR_MM = 1.5  # outlines far from the place's centre (this many mm) are less likely
OUTLINES = 6  # outlines returned per place
INLIER_PX = 1.5  # steps this close to an outline's edges refine it
BORDER_PX = 3.0  # a place's printed border: steps outside it or this close are not a card's
EMPTY_STEP = 84.0  # weaker steps (colour gradient) than this: no card in the place

Quad = NDArray[np.float64]


@dataclass(frozen=True)
class Outlines:
    """A place's card outlines (4×2 pixels, clockwise from the top-left as the sheet lies):
    the likeliest (None for an empty place), fitted at once; the others, likelier first, are
    fitted when asked for (others_of: a card whose likeliest outline reads clearly needs
    none of them). strength: how strong the place's colour steps are."""

    first: Quad | None
    empty: bool
    strength: float
    _votes: _Votes | None = None
    _poses: NDArray[np.float64] | None = None  # the other outlines' poses, as _refined takes

    @functools.cached_property
    def quads(self) -> tuple[Quad, ...]:
        """Every outline found, the likeliest first (none for an empty place)."""
        return () if self.first is None else (self.first, *others_of([self])[0])


@dataclass(frozen=True)
class _Votes:
    """The colour steps of a sheet's places that voted for outlines, as _refined takes them,
    the places' centres, and the width their steps are fitted in (the same for every outline:
    the same sums, bit for bit, whichever outlines are fitted together)."""

    place: NDArray[np.int64]
    vote: NDArray[np.float64]
    points: NDArray[np.float64]
    weight: NDArray[np.float32]
    edge: NDArray[np.int64]
    across: NDArray[np.bool_]
    half: NDArray[np.float64]
    size: tuple[float, float]
    centres: NDArray[np.float64]
    width: int

    def fitted(self, poses: NDArray[np.float64]) -> NDArray[np.float64]:
        """The outlines of these poses (rows of place, turn, x, y), fitted to their steps and
        placed on the sheet (N × 4 × 2)."""
        quads = _refined(poses, self)
        return np.asarray(quads + self.centres[poses[:, 0].astype(np.int64), None, :],
                          np.float64)


def others_of(found: Sequence[Outlines]) -> list[tuple[Quad, ...]]:
    """The outlines other than the likeliest of each of these places (found by one call of
    outlines_of), likelier first, all fitted at once."""
    poses = [f._poses for f in found if f._votes is not None and f._poses is not None]
    votes = next((f._votes for f in found if f._votes is not None), None)
    if votes is None or not poses:
        return [() for _ in found]
    if any(f._votes is not None and f._votes is not votes for f in found):
        raise ValueError("outlines of places found apart are fitted apart")
    quads = iter(votes.fitted(np.concatenate(poses)))
    return [tuple(next(quads) for _ in range(0 if f._poses is None else len(f._poses)))
            for f in found]


def outlines(image: NDArray[np.uint8], places: tuple[Zone, ...], card_mm: tuple[float, float],
             px_per_mm: float) -> list[Outlines]:
    """The outlines of the cards in each place of a rectified BGR sheet."""
    smooth = np.asarray(cv2.GaussianBlur(image.astype(np.float32), (0, 0), 0.8), np.float32)
    return outlines_of(smooth, places, card_mm, px_per_mm)


def outlines_of(smooth: NDArray[np.float32], places: tuple[Zone, ...],
                card_mm: tuple[float, float], px_per_mm: float) -> list[Outlines]:
    """outlines() of a rectified sheet already softened (float BGR): every place's scan lines
    and votes at once."""
    w, h = card_mm[0] * px_per_mm, card_mm[1] * px_per_mm
    base, normal, side = _scan_lines(w, h)
    lines = _lines_of(places, card_mm, px_per_mm, smooth.shape[:2])
    profiles = _profiles(smooth, lines)
    strength = np.median((_peaks_along(profiles) * lines.away).max(axis=2), axis=1)
    peaks = _inner_peaks(profiles)
    # a place whose steps peak nowhere inside its scan lines (they only rise to a line's end)
    # gives no outline: it is empty, with its strength
    full = np.nonzero((strength >= EMPTY_STEP) & peaks.any(axis=(1, 2)))[0]
    out = [Outlines(None, True, float(s)) for s in strength]
    if not len(full):
        return out
    poses, votes = _likeliest(profiles[full], peaks[full], lines.steps, base, normal, side, w, h,
                              px_per_mm, lines.centres[full])
    firsts = np.searchsorted(poses[:, 0], np.arange(len(full)))  # each place's likeliest
    ends = np.append(firsts[1:], len(poses))
    for k, (i, quad) in enumerate(zip(full, votes.fitted(poses[firsts]), strict=True)):
        out[i] = Outlines(quad, False, float(strength[i]), votes,
                          poses[firsts[k] + 1:ends[k]])
    return out


@dataclass(frozen=True)
class _Lines:
    """The scan lines of a sheet's places (the same for every frame): their samples' offsets
    along a line, the places' centres (pixels), how many (places, lines, samples); for the lines
    whose normal runs along x, then along y: which lines, the sheet's pixels their gradients
    need (the kept rows' kept columns, see _kept: as indices of the sheet's pixels, row by
    row, and how many rows and columns) and where they sample among those; and which samples
    lie away from their place's printed border. Shared: never written to."""

    steps: NDArray[np.float64]
    centres: NDArray[np.float64]
    shape: tuple[int, int, int]
    axes: tuple[tuple[NDArray[np.bool_], NDArray[np.int64], tuple[int, int],
                      NDArray[np.float32], NDArray[np.float32]], ...]
    away: NDArray[np.bool_]


@functools.lru_cache(maxsize=8)
def _lines_of(places: tuple[Zone, ...], card_mm: tuple[float, float], px_per_mm: float,
              size: tuple[int, int]) -> _Lines:
    """The scan lines of these places on a sheet of this size (pixels, height and width)."""
    base, normal, side = _scan_lines(card_mm[0] * px_per_mm, card_mm[1] * px_per_mm)
    steps = np.arange(-OUT_MM * px_per_mm, IN_MM * px_per_mm + 1e-6, STEP_PX)
    centres = np.array([p.centre for p in places], np.float64) * px_per_mm
    pts = (centres[:, None, None, :] + base[None, :, None, :]
           + normal[None, :, None, :] * steps[None, None, :, None])
    mx = np.ascontiguousarray(pts[..., 0].reshape(-1, len(steps)), np.float32)
    my = np.ascontiguousarray(pts[..., 1].reshape(-1, len(steps)), np.float32)
    axes = []
    for lines in np.tile(normal, (len(places), 1)).T != 0:  # normals along x, then along y
        (rows, y), (cols, x) = _kept(my[lines], size[0]), _kept(mx[lines], size[1])
        pixels = (rows[:, None] * size[1] + cols[None, :]).ravel()
        axes.append((lines, pixels, (len(rows), len(cols)), x, y))
        for kept in (lines, pixels, x, y):
            kept.flags.writeable = False
    room = np.array([((p.w - card_mm[0]) / 2, (p.h - card_mm[1]) / 2) for p in places],
                    np.float64) * px_per_mm
    border = np.where(side[None, :] % 2 == 0, room[:, 1, None], room[:, 0, None])
    away = steps[None, None, :] > BORDER_PX - border[:, :, None]
    for shared in (steps, centres, away):
        shared.flags.writeable = False
    return _Lines(steps, centres, pts.shape[:3], tuple(axes), away)


@functools.lru_cache(maxsize=8)
def _scan_lines(w: float, h: float) -> tuple[NDArray[np.float64], NDArray[np.float64],
                                             NDArray[np.int64]]:
    """Where the scan lines cross a straight card's edges (centred at 0), their inward
    normals, and which edge each crosses (0 top, 1 right, 2 bottom, 3 left)."""
    t = (np.arange(LINES) + 0.5) / LINES * 0.84 + 0.08
    edges = [((-w / 2, -h / 2), (w, 0.0), (0.0, 1.0)), ((w / 2, -h / 2), (0.0, h), (-1.0, 0.0)),
             ((-w / 2, h / 2), (w, 0.0), (0.0, -1.0)), ((-w / 2, -h / 2), (0.0, h), (1.0, 0.0))]
    base = np.array([(p[0] + v[0] * s, p[1] + v[1] * s) for p, v, _ in edges for s in t])
    normal = np.array([n for _, _, n in edges for _ in t], np.float64)
    side = np.repeat(np.arange(4), LINES)
    return base, normal, side


def _profiles(smooth: NDArray[np.float32], lines: _Lines) -> NDArray[np.float32]:
    """The colour step across each scan line at each sample: the length of the colour
    gradient's component along the line (places × lines × samples). The scan lines run along
    the image's axes: each needs the gradient along one axis only (its sign, the normal's way,
    drops out of the step's length), and only at the pixels its samples fall between."""
    squares = np.empty((lines.shape[0] * lines.shape[1], lines.shape[2]), np.float64)
    colours = smooth.reshape(-1, smooth.shape[2])  # the sheet's pixels, row by row
    for axis, (mine, pixels, size, x, y) in enumerate(lines.axes):
        kept = colours.take(pixels, 0).reshape(*size, smooth.shape[2])
        gradient = cv2.Sobel(kept, cv2.CV_32F, 1 - axis, axis, ksize=3)
        along = cv2.remap(gradient, x, y, cv2.INTER_LINEAR).astype(np.float64)
        along *= along
        squares[mine] = along[..., 0] + along[..., 1] + along[..., 2]
    return np.asarray(np.sqrt(squares).reshape(lines.shape), np.float32)


def _peaks_along(profiles: NDArray[np.float32]) -> NDArray[np.float32]:
    """The steps of scan lines' profiles (the last axis) where they peak: no higher next to
    them (a line's ends compared with their one neighbour), zero elsewhere. A blurred printed
    border's step only falls away from it: its tail, past BORDER_PX, is no step of a card."""
    peak = np.ones(profiles.shape, bool)
    peak[..., 1:] &= profiles[..., 1:] >= profiles[..., :-1]
    peak[..., :-1] &= profiles[..., :-1] >= profiles[..., 1:]
    return np.where(peak, profiles, np.float32(0))


def _kept(at: NDArray[np.float32], size: int) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """The pixels (along one axis of an image `size` long) that a bilinear sample at these
    coordinates and a 3-pixel gradient there need, and the coordinates among those pixels
    alone. Each coordinate only moves towards 0 by a whole number of pixels: the same float,
    its fraction exact, so the samples are the same, bit for bit."""
    pixel = np.floor(at).astype(np.int64)
    low, high = pixel.min(axis=1) - 1, pixel.max(axis=1) + 2  # a line's pixels, ± the kernel's
    need = np.zeros(size + 1, np.int64)
    np.add.at(need, np.clip(low, 0, size), 1)
    np.add.at(need, np.clip(high + 1, 0, size), -1)
    kept = np.cumsum(need[:-1]) > 0
    dropped = np.cumsum(~kept)  # pixels left out before each pixel (and itself)
    shift = dropped[np.clip(pixel, 0, size - 1)].astype(np.float32)
    return np.nonzero(kept)[0], at - shift


def _inner_peaks(g: NDArray[np.float32]) -> NDArray[np.bool_]:
    """Where the scan lines' profiles (places × lines × samples) peak between their ends, at
    least PEAK_SHARE of their line's strongest step (places × lines × samples − 2: the steps
    that vote for outlines)."""
    inner = g[:, :, 1:-1]
    return np.asarray((inner > g[:, :, :-2]) & (inner >= g[:, :, 2:]) & (
        inner >= PEAK_SHARE * g.max(axis=2, keepdims=True)), np.bool_)


def _likeliest(g: NDArray[np.float32], peak: NDArray[np.bool_], steps: NDArray[np.float64],
               base: NDArray[np.float64], normal: NDArray[np.float64], side: NDArray[np.int64],
               w: float, h: float, px_per_mm: float, centres: NDArray[np.float64]
               ) -> tuple[NDArray[np.float64], _Votes]:
    """The likeliest outlines' poses from the places' scan lines (places × lines × samples)
    and their _inner_peaks (each place some), every place's votes counted at once: rows of
    place, turn, centre x, y (from the place's centre, not yet fitted), each place's likelier
    first; and the votes to fit them to."""
    place, line, at = np.nonzero(peak)
    at = at + 1
    left, mid, right = g[place, line, at - 1], g[place, line, at], g[place, line, at + 1]
    curve = left - 2 * mid + right
    shift = np.where(curve < 0, 0.5 * (left - right) / np.where(curve < 0, curve, -1.0), 0.0)
    depth = steps[0] + (at + np.clip(shift, -0.5, 0.5)) * STEP_PX
    points = base[line] + normal[line] * depth[:, None]
    weight = np.sqrt(mid)
    edge = side[line]
    across = edge % 2 == 0  # top and bottom edges place the centre's y
    half = np.array([h / 2, -w / 2, -h / 2, w / 2])[edge]  # the centre's way from each edge
    slope = np.tan(TURNS)[:, None]
    # across: y + half − slope·x; else x + half + slope·y (turns × steps)
    vote = np.where(across, points[:, 1], points[:, 0]) + half \
        + slope * np.where(across, -points[:, 0], points[:, 1])
    reach = (OUT_MM + 2.0) * px_per_mm
    bins = int(2 * reach / BIN_PX) + 1
    turns = len(TURNS)
    cell = vote + reach
    cell /= BIN_PX
    np.clip(np.rint(cell, out=cell), 0, bins - 1, out=cell)
    # each vote's bin among all places', turns', edges' (whole numbers, exact as floats)
    cell += (((place * turns) * 4 + edge) * bins)[None, :] + (np.arange(turns) * 4 * bins)[:, None]
    counts = np.bincount(cell.astype(np.int64).ravel(), np.tile(weight.astype(np.float64), turns),
                         len(g) * turns * 4 * bins)
    hist = np.asarray(cv2.GaussianBlur(counts.reshape(-1, bins), (5, 1), 1.0),
                      np.float64).reshape(len(g), turns, 4, bins)
    offsets = np.arange(bins) * BIN_PX - reach
    near = np.exp(-0.5 * (offsets / (NEAR_MM * px_per_mm)) ** 2)
    along_x = np.minimum(hist[:, :, 3], hist[:, :, 1]) * near  # left and right edges agree
    along_y = np.minimum(hist[:, :, 0], hist[:, :, 2]) * near  # top and bottom edges agree
    score = along_x.max(axis=2) + along_y.max(axis=2)
    best = np.argsort(-score, axis=1)[:, :OUTLINES]  # places × turns tried
    along_x = np.take_along_axis(along_x, best[:, :, None], 1)
    along_y = np.take_along_axis(along_y, best[:, :, None], 1)
    xs, ys = _peaks(along_x), _peaks(along_y)  # places × turns × 2
    both = (np.take_along_axis(along_x, np.maximum(xs, 0), 2)[:, :, :, None]
            + np.take_along_axis(along_y, np.maximum(ys, 0), 2)[:, :, None, :])
    real = (xs >= 0)[:, :, :, None] & (ys >= 0)[:, :, None, :]
    both = both.reshape(len(g), -1)  # poses in the order turn, x peak, y peak
    order = np.argsort(-both, axis=1, kind="stable")
    pose_turn = np.broadcast_to(best[:, :, None, None], real.shape).reshape(len(g), -1)
    pose_x = np.broadcast_to(offsets[xs][:, :, :, None], real.shape).reshape(len(g), -1)
    pose_y = np.broadcast_to(offsets[ys][:, :, None, :], real.shape).reshape(len(g), -1)
    real = real.reshape(len(g), -1)
    # poses too alike to both be kept, as a bit mask of the other poses for each pose
    clash = ((np.abs(pose_turn[:, :, None] - pose_turn[:, None, :]) <= 2)
             & (np.abs(pose_x[:, :, None] - pose_x[:, None, :]) < 1.5)
             & (np.abs(pose_y[:, :, None] - pose_y[:, None, :]) < 1.5))
    masks = (clash.astype(np.int64) << np.arange(clash.shape[2])).sum(axis=2).tolist()
    chosen: list[tuple[int, int, float, float]] = []
    for p in range(len(g)):
        taken, kept = 0, 0
        for k in order[p][real[p][order[p]]].tolist():
            if not masks[p][k] & taken:  # the likeliest pose unlike every pose kept
                taken |= 1 << k
                chosen.append((p, int(pose_turn[p, k]), float(pose_x[p, k]),
                               float(pose_y[p, k])))
                kept += 1
                if kept == OUTLINES:
                    break
    poses = np.array(chosen, np.float64).reshape(-1, 4)
    # the steps of the places with an outline: a fit pads each outline's to the most of them
    count = np.bincount(place, minlength=len(g))[np.unique(poses[:, 0].astype(np.int64))]
    return poses, _Votes(place, vote, points, weight, edge, across, half, (w, h), centres,
                         max(1, int(count.max(initial=0))))


def _peaks(v: NDArray[np.float64], n: int = 2) -> NDArray[np.int64]:
    """The n highest local maxima along v's last axis, highest first (-1: fewer maxima; the
    highest value where there is none)."""
    inner = v[..., 1:-1]
    top = (inner >= v[..., :-2]) & (inner >= v[..., 2:]) & (inner > 0)
    value = np.where(top, inner, -np.inf)
    order = np.argsort(-value, axis=-1, kind="stable")[..., :n]
    out = np.where(np.isfinite(np.take_along_axis(value, order, -1)), order + 1, -1)
    none = ~top.any(axis=-1)
    out[none, 0] = np.argmax(v, axis=-1)[none]
    return np.asarray(out, np.int64)


def _refined(chosen: NDArray[np.float64], votes: _Votes) -> NDArray[np.float64]:
    """The outlines (rows of place, turn, centre x, y) fitted by weighted least squares to the
    steps of their place that voted for them, where those lie on all four edges (their turn
    and centre; the card's size is known): N × 4 × 2 corners, about their place's centre."""
    place, vote, points, weight = votes.place, votes.vote, votes.points, votes.weight
    edge, across, half = votes.edge, votes.across, votes.half
    w, h = votes.size
    where, turn = chosen[:, 0].astype(np.int64), chosen[:, 1].astype(np.int64)
    ox, oy = chosen[:, 2].copy(), chosen[:, 3].copy()
    slope = np.tan(TURNS[turn])
    # each outline against the steps of its own place (padded to the most a place has)
    start = np.searchsorted(place, where)
    count = np.searchsorted(place, where, side="right") - start
    step = start[:, None] + np.arange(votes.width)[None, :]
    mine = step < (start + count)[:, None]
    step = np.minimum(step, len(place) - 1)
    a = across[step]
    inlier = mine & (np.abs(vote[turn[:, None], step] - np.where(a, oy[:, None], ox[:, None]))
                     < INLIER_PX)
    sides = edge[step]
    fit = np.all([(inlier & (sides == e)).any(axis=1) for e in range(4)], axis=0)
    p = points[step]
    design = np.stack([np.where(a, p[..., 0], -p[..., 1]), ~a, a], axis=-1).astype(np.float64)
    target = np.where(a, p[..., 1], p[..., 0]) + half[step]
    mass = inlier * weight.astype(np.float64)[step] ** 2
    weighted = design * mass[..., None]
    normal = weighted.transpose(0, 2, 1) @ design
    right = (weighted * target[..., None]).sum(axis=1)
    solvable = fit & (np.abs(np.linalg.det(normal)) > 1e-9)
    if solvable.any():
        slope[solvable], ox[solvable], oy[solvable] = np.linalg.solve(
            normal[solvable], right[solvable][:, :, None])[:, :, 0].T
    angle = np.arctan(slope)
    c, s = np.cos(angle), np.sin(angle)
    turned = np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], 1)  # N × 2 × 2
    corners = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
    return np.asarray(corners @ turned + np.stack([ox, oy], -1)[:, None, :], np.float64)
