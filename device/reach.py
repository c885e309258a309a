"""A hand held still over the table: something reaching over the sheet's edge.

A player's hand held still over the sheet (hovering while thinking, a forearm resting across
it) makes a rest as still as the dice, and read then it hides the dice under it: a keep taken
then (a stop pressed meanwhile) is short of them. An arm that reaches over the table crosses
the sheet's edge, where no die or card lies: the margin, the paper's first ``EDGE_MM`` in from
its edge (the zones and markers begin 7 mm in). A die is 16 mm across, a wrist 50 mm or more.

:class:`EdgeWatch` compares the margin of a rest's frame with the frame of the last read that
stood, and with that of the last read not held for something over the edge: a rest that
differs from both, along the same run of ``REACH_MM`` of the edge (and over at most
``MOST_OF_EDGE`` of it: a light switched or a camera bumped changes all of it) is something
new over the edge, not read at once. The hand goes (a motion), and the rest after it is read
as any other. Still there after ``REACH_WAIT_S`` (a hand resting over the dice as a player
stops), the phones ask for hands off the table, and the rest is read once still
``REACH_MOST_S`` (10 s), as it lies: the bound for what is not a hand, a cup or a phone left
on the margin, a lamp switched on beside the table, which is then part of the table as last
read, so that the rests after it are read at once, and so is the rest once it is taken away
before the table is read again (the table as read before it; taken away later, it is new, and
waited for as an arm is). A hand held there that long is read with the dice it hides, as the
table: the limit of this look. A change of the margin that is only the paper dimmed or
brightened, its grey by at most ``SHADE`` (a flicker's bands taken out) and its colour by the
same share (within ``SHADE_COLOUR``), is a shadow (a player leaning over a lit table), no arm:
skin and coloured or dark sleeves change colour or darken more.

On renders of the three sheets (8 seeds each), two rests of other dice and cards under
flicker bands of 0, 5 and 10 %, plain or as a cheap camera takes them (noise σ 12, JPEG 35),
still or trembling by a pixel either way: no rest held of 288. The test films' arm (about
70 mm wide) over the second rest at three places along its way: 858 held of 864, as before
shadows were told apart; the 6 left (1 on the Dalek sheet, 5 on 17's white sheet) were
under a trembling camera (the arm pulls the shift phase correlation finds past SHAKE, and
nothing is compared). A soft shadow (its edge blurred over 5, 15 or 30 mm) dimming the
paper by 5, 10, 20, 30 or 40 % over 70 to 120 mm of the margin (its near or far edge, a side
or a corner), cast over the second rest or gone from it, in those 288 pairs: none held of
1440 (1059 before: 196 of 288 at 10 %, all from 20 %). What is as neutral as a shadow is
taken as one: dice on the margin changed 22 to 24 mm of it alone, 40 mm two side by side
and 58 mm three in a row (held before), of which 0 to 4 mm now count; the test's arm in
other colours over paper of grey 163: black, navy, denim, beige, white were held at its three
places, as before, a mid grey (120, as neutral as a shadow) at 2 (3 before), the paper's own
grey at none (as before). The look costs 2 to 3 ms a rest here (7 to 9 ms with an arm or a
shadow over the sheet), and 1 ms a read that stands.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from device.motion import (
    MOTION_WIDTH,
    PIXEL_CHANGE,
    SHAKE,
    light_change,
    row_gains,
    shaken_onto,
)
from vision.calibrate import Calibration

Image = NDArray[np.uint8]

EDGE_WIDTH = 320  # side of the picture the margin is compared on (twice the motion picture's)
EDGE_MM = (1.5, 3.0, 4.5)  # depths into the paper the margin is looked at (its 7 mm: markers)
STEP_MM = 2.0  # the margin is looked at every this many millimetres along the paper's edge
REACH_MM = 45.0  # a run of changed margin this long along the edge is an arm, not dice
MOST_OF_EDGE = 0.5  # a change over more of the edge is the light or the camera, not an arm
REACH_WAIT_S = 3.0  # a rest with something over the edge is waited for this long, then …
REACH_MOST_S = 10.0  # … the phones ask for hands off, and it is read as it lies after this
SHADE = 0.45  # paper dimmed by up to this share, or brightened as much back, is a shadow …
SHADE_COLOUR = PIXEL_CHANGE / 2  # … where its colour changed no more than that with its grey

Margin = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]
"""The margin's points in an edge picture, a row a step along the edge and a column a depth:
their rows, their columns, and whether each lies in the picture."""


def edge_picture(image: Image) -> Image:
    """The YUV picture (as motion_picture's, EDGE_WIDTH wide) a frame's margin is compared
    on: each plane softened over 3×3 pixels only, so that a card's colour beside the margin
    does not reach it."""
    height, width = image.shape[:2]
    size = (EDGE_WIDTH, max(1, round(height * EDGE_WIDTH / width)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    grey, v, u = cv2.split(cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb))
    return np.asarray(cv2.GaussianBlur(cv2.merge((grey, u, v)), (3, 3), 0), np.uint8)


class EdgeWatch:
    """Whether a still rest has something new left over the sheet's edge since the table was
    read."""

    def __init__(self) -> None:
        self._read: Image | None = None  # the margin's picture at the last read that stood
        self._clear: Image | None = None  # … and at the last one nothing lay over it
        self._margin: tuple[Calibration, Margin] | None = None  # where, for the sheet last seen

    def reaching(self, image: Image, lies: Calibration | None) -> bool:
        """Whether the frame ``image`` has something over the margin of the sheet that
        ``lies`` there, along a run of it where it differs from the last read and from the
        last read with nothing over it both (False with no sheet, or no read yet): what a
        read held lay elsewhere (a cup, then an arm that left) is nothing new."""
        height, width = image.shape[:2]
        if lies is None or self._read is None or lies.frame_size != (width, height):
            return False
        now = edge_picture(image)
        margin = self._margin_of(lies, now.shape)
        clear = () if self._clear is None or self._clear is self._read else (self._clear,)
        new = np.ones(len(margin[0]), np.bool_)
        for before in (self._read, *clear):
            changed = _changed_from(now, before, margin)
            if changed is None:
                return False
            new &= changed
        return _long_run(new)

    def read(self, image: Image, *, reaching: bool) -> None:
        """A read of ``image`` stood (``reaching``: held for something over the margin, it
        was read with it there)."""
        self._read = edge_picture(image)
        if not reaching:
            self._clear = self._read

    def _margin_of(self, lies: Calibration, shape: tuple[int, ...]) -> Margin:
        """The margin's points in an edge picture of ``shape`` (kept while the sheet lies
        where it lay)."""
        if self._margin is None or self._margin[0] != lies:
            sheet = lies.layout
            points = lies.to_frame(_margin_points(sheet.width, sheet.height).reshape(-1, 2))
            xy = np.rint(points * shape[1] / lies.frame_size[0]).astype(np.int64)
            x, y = xy[:, 0].reshape(-1, len(EDGE_MM)), xy[:, 1].reshape(-1, len(EDGE_MM))
            inside = (x >= 0) & (y >= 0) & (x < shape[1]) & (y < shape[0])
            self._margin = lies, (np.where(inside, y, 0), np.where(inside, x, 0), inside)
        return self._margin[1]


def _changed_from(now: Image, before: Image, margin: Margin) -> NDArray[np.bool_] | None:
    """For each step along the paper's edge, whether the margin of ``now`` differs from
    ``before``'s there; None where it differs over no run of REACH_MM (looked at first
    without a camera's trembling taken out, which only takes change away), over more than
    MOST_OF_EDGE (the light, or the camera), or the camera was bumped."""
    if now.shape != before.shape or not _long_run(_changed_along(light_change(now, before),
                                                                 margin)):
        return None
    shaken = shaken_onto(now, before, shake=SHAKE * EDGE_WIDTH / MOTION_WIDTH)
    if shaken is None:  # the camera was bumped
        return None
    gains = row_gains(now[..., 0].astype(np.float32), shaken[..., 0].astype(np.float32))
    changed = _changed_along(light_change(now, shaken, gains), margin,
                             _shaded(now, shaken, margin, gains))
    return changed if changed.mean() <= MOST_OF_EDGE and _long_run(changed) else None


def _changed_along(change: NDArray[np.float32], margin: Margin,
                   shaded: NDArray[np.bool_] | None = None) -> NDArray[np.bool_]:
    """For each step along the paper's edge: whether most of the margin there (its depths
    in the picture) changed by more than PIXEL_CHANGE (and, given ``shaded``, not only
    by a shadow)."""
    rows, columns, inside = margin
    moved = (change[rows, columns] > PIXEL_CHANGE) & inside
    if shaded is not None:
        moved &= ~shaded
    return np.asarray(moved.sum(axis=1) * 2 > len(EDGE_MM), np.bool_)


def _shaded(now: Image, before: Image, margin: Margin, gains: NDArray[np.float32]
            ) -> NDArray[np.bool_]:
    """For each of the margin's points: whether ``now`` is ``before`` only dimmed or
    brightened (a shadow cast over the paper, or gone): its grey by at most SHADE (once a
    flicker's bands are taken out: the :func:`row_gains` of their grey, ``gains``), its colour
    offsets (U and V from 128) by the same share within SHADE_COLOUR. A hand or a sleeve
    changes colour, or darkens more."""
    rows, columns, _ = margin
    a = now[rows, columns].astype(np.float32)
    b = before[rows, columns].astype(np.float32)
    ratio = (a[..., 0] + 1.0) / (b[..., 0] + 1.0)
    recoloured = np.abs((a[..., 1:] - 128.0) - (b[..., 1:] - 128.0) * ratio[..., None])
    shade = ratio / gains[rows, 0]  # (a flicker's bands taken out)
    return np.asarray((shade >= 1.0 - SHADE) & (shade <= 1.0 / (1.0 - SHADE))
                      & (recoloured.max(axis=-1) <= SHADE_COLOUR), np.bool_)


def _margin_points(width: float, height: float) -> NDArray[np.float64]:
    """The margin's points (mm): for each step along the paper's edge (clockwise from its
    top-left corner), one at each depth of EDGE_MM in."""
    corners = np.array([(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)])
    sides = []
    for side in range(4):
        start, end = corners[side], corners[(side + 1) % 4]
        length = float(np.linalg.norm(end - start))
        along = (end - start) / length
        inward = np.array([-along[1], along[0]])  # clockwise on the sheet: in is to the right
        steps = np.arange(0.0, length, STEP_MM)[:, None, None]
        depths = np.asarray(EDGE_MM)[None, :, None]
        sides.append(start + along * steps + inward * depths)
    return np.concatenate(sides)


def _long_run(flags: NDArray[np.bool_]) -> bool:
    """Whether ``flags`` (round the paper's edge, STEP_MM apart) hold a run of True of
    REACH_MM, its end joined to its start."""
    if flags.all():
        return True
    start = int(np.argmin(flags))  # a False: no run crosses it
    best = run = 0
    for flag in np.roll(flags, -start):
        run = run + 1 if flag else 0
        best = max(best, run)
    return best * STEP_MM >= REACH_MM
