"""Watching the table cheaply: is anything moving, and when does a read stand?

:class:`StillnessWatch` compares a small picture of each frame with the previous one, and with
the first one of the current rest (so that a slow slide is noticed too), in a signed type so
that differences do not wrap, and brought to the same light row by row first (a flicker, even
one a rolling shutter shows as bands across the picture, is no motion).
A picture that differs only by a whole shift of up to ``SHAKE`` of a small pixel (a camera
trembling on its arm, a pixel or two of its frame: found by phase correlation) is no motion
either; a larger shift is (a bump).

The picture is YUV (:func:`motion_picture`; on the Pi the camera's own small stream, its colour
at its own half resolution), because a die may be as light as what it lies on and differ only
in colour: a red die put down without a hand on the Dicy tray's grey (0.55) changed 18 to 56
grey pixels in Blender frames, where more than 28.8 are needed, and 30 to 52 by colour.
A small pixel moved when its grey (Y) changed by more than ``PIXEL_CHANGE``, as before, or
either of its colour offsets (U and V from 128) by more than the same. The colour is averaged
over ``COLOUR_SOFTENING`` small pixels, about a die's top: the Pi's stream gives it at its own
160×90, not averaged as a frame's is over 8×8 pixels, and a sensor's colour noise at high gain
(a dim room: σ 8 in U and V, 6 in grey) moved the scene every frame; now up to σ 12 it does not.
Light that grows or fades by a share multiplies the colour offsets by that share, as it does
the grey, so each row's gain of grey applies to them too; a colour cast over most of a row (a
webcam's white balance settling) is taken out as the row's median change of colour for its
grey. Where a row's light changed, a pixel near white in one of its colours may have lost light
to saturation, and the others then seem to change colour: its colour is not compared there.
Comparing blue, green and red each on its own was tried and dropped: a colour saturates on
light paper or glare long before the grey does, and flicker bands then moved hundreds of
pixels. On 24 table renders (Dicy, 17, Dalek) under flicker bands of 0, 5 and 10 %, plain and
with noise and JPEG (288 pairs of frames of one scene), no pixel changed colour by more than
12 (2 by more than 8). A white die on white paper has no colour to show: colour cannot help
it. The colour costs 0.1 ms a frame here from the Pi's small stream (0.14 → 0.25 ms with
bands), 0.2 ms from a 1280×720 frame (0.83 → 1.02 ms).
The watch's resolution is about a die: a die's top is 20 to 31 small pixels in renders of the
table (a 16 mm die, the sheet filling 65 to 93 % of the frame's height), about the 28.8 that
``MOVING_SHARE`` asks for, and a white die's pips darken it in the small picture. So the scene
also moved when a patch of ``DIE_PIXELS`` touching pixels changed by more than twice
``PIXEL_CHANGE`` (none did in the 288 pairs above). A white die put down without a hand on the
grey of a card place or of the Dicy tray was seen in 53 to 57 of 60 renders (20 seeds, plain and
under 5 and 10 % bands; 20 to 22 before), on white paper in 60 of 60; one nudged by its side in
57 of 60 on either. A die nudged without a hand by less than its side may go unseen: by 8 mm,
half its side, it was seen in 42 of 60 renders on white paper and 50 of 60 on the tray. A hand
that moves it is seen.
:class:`Settler` decides when to read: once the scene has been still for ``settle_s``; a read
stands when ``agree`` still frames in a row gave the same read, the last of them ``settle_s``
into the rest; then nothing is read until something moves again. A rest it is told to wait
for (:meth:`Settler.wait`: a hand held over the table, device.reach) is read likewise, only
later into it.

>>> settler = Settler(settle_s=0.3)
>>> [settler.frame(moved=False, at=t / 10) for t in range(3)]
[False, False, True]
>>> settler.read((1, 5, 6))
<Verdict.AGAIN: 'again'>
>>> settler.frame(moved=False, at=0.3), settler.read((1, 5, 6))
(True, <Verdict.STANDS: 'stands'>)
>>> settler.frame(moved=False, at=0.5), settler.frame(moved=True, at=0.6)
(False, False)
"""

from __future__ import annotations

from collections.abc import Hashable
from enum import Enum
from typing import TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Picture = NDArray[np.float32]  # a small picture's planes (grey, colours), signed
Grey = NDArray[np.float32]  # its grey (rows, columns)
Mask = NDArray[np.bool_]  # pixels of a picture
T = TypeVar("T", np.uint8, np.float32)

MOTION_WIDTH = 160  # side of the small colour picture motion is watched on
COLOUR_SOFTENING = (5, 5)  # the colour is averaged over this many small pixels (about a die)
PIXEL_CHANGE = 12  # a small-picture pixel whose grey or colour (U, V) changed by more moved
MOVING_SHARE = 0.002  # the scene moves when more than this share of its pixels moved …
DIE_PIXELS = 5  # … or a patch of this many changed by twice PIXEL_CHANGE (a die)
LIGHT_CHANGE = 0.2  # a change of a row's light up to this share is no motion
WHITE = 230  # a small-picture pixel this bright may have lost its light to saturation …
SATURATION_GAIN = 0.02  # … where its row's light changed by more than this share
SHAKE = 0.4  # a whole-picture shift up to this (small pixels; 3.2 px of a 1280 frame) is shake
SETTLE_S = 0.3  # still this long before the first read
AGREE = 2  # reads in a row that must agree
MAX_READS = 8  # reads of one rest before disagreeing dice are called "not sure"


def motion_picture(image: Image, small: Image | None = None) -> Image:
    """The small YUV picture of a frame motion is watched on: its grey (Y) and its colour (U
    and V, 128 for none), as JPEG's; ``small``: one the camera made itself.
    Softened so that a camera trembling by a fraction of a pixel does not move its sharp
    edges; its colour over ``COLOUR_SOFTENING``, so that a sensor's colour noise is no motion."""
    source = small if small is not None else image
    height, width = source.shape[:2]
    size = (MOTION_WIDTH, max(1, round(height * MOTION_WIDTH / width)))
    picture = cv2.resize(source, size, interpolation=cv2.INTER_AREA)
    if small is None:
        grey, v, u = cv2.split(cv2.cvtColor(picture, cv2.COLOR_BGR2YCrCb))
        picture = cv2.merge((grey, u, v))
    if picture.ndim == 2:
        return np.asarray(cv2.GaussianBlur(picture, (3, 3), 0), np.uint8)
    grey, u, v = cv2.split(picture)
    return np.asarray(cv2.merge((cv2.GaussianBlur(grey, (3, 3), 0),
                                 cv2.blur(u, COLOUR_SOFTENING), cv2.blur(v, COLOUR_SOFTENING))),
                      np.uint8)


class StillnessWatch:
    """Says, frame after frame, whether the scene moved."""

    def __init__(self, *, pixel_change: int = PIXEL_CHANGE,
                 moving_share: float = MOVING_SHARE) -> None:
        self.pixel_change = pixel_change
        self.moving_share = moving_share
        self._previous: Picture | None = None
        self._rest: Picture | None = None

    def moved(self, picture: Image) -> bool:
        """Whether ``picture`` (YUV, or grey alone) differs from the previous picture or from
        the rest's first one (a first picture, or one of another size, starts a rest)."""
        current = _planes(np.atleast_3d(picture))
        if self._previous is None or self._previous.shape != current.shape:
            self._previous = self._rest = current
            return False
        moving = self._differs(current, self._previous) or (
            self._rest is not None and self._differs(current, self._rest))
        self._previous = current
        if moving:
            self._rest = current
        return moving

    def _differs(self, a: Picture, b: Picture) -> bool:
        """Whether ``a`` differs from ``b``, even once ``b`` is shifted onto ``a`` by up to
        SHAKE (the camera trembling) and brought to its light."""
        if not self._changed(a, b):
            return False
        shaken = shaken_onto(np.moveaxis(a, 0, -1), np.moveaxis(b, 0, -1))
        return shaken is None or self._changed(a, np.moveaxis(shaken, -1, 0))

    def _changed(self, a: Picture, b: Picture) -> bool:
        """Whether ``a`` differs from ``b`` in grey or in colour once ``b`` is brought to
        ``a``'s light row by row (the camera's exposure changing, or mains flicker: a rolling
        shutter shows it as bands across the picture that roll from frame to frame): more than
        ``moving_share`` of its pixels changed, or ``DIE_PIXELS`` together changed twice as
        much (a die)."""
        most = self.moving_share * a[0].size
        change = _change(a, b, pixel_change=self.pixel_change, most=most)
        return bool(np.count_nonzero(change > self.pixel_change) > most
                    or _holds_patch(change > 2 * self.pixel_change, DIE_PIXELS))


def light_change(now: Image, before: Image, gains: Grey | None = None) -> Grey:
    """How much each pixel of picture ``now`` (YUV, or grey alone) differs from ``before``, in
    grey or colour (the more of the two), once ``before`` is brought to its light as
    StillnessWatch does (``gains``: :func:`row_gains` of their grey, where worked out)."""
    return _change(_planes(np.atleast_3d(now)), _planes(np.atleast_3d(before)), gains=gains)


def shaken_onto(now: NDArray[T], before: NDArray[T], *,
                shake: float = SHAKE) -> NDArray[T] | None:
    """Picture ``before`` (its planes last, grey first) shifted onto ``now`` (a camera
    trembling), where that shift is at most ``shake`` pixels; None where it is more (a bump:
    no pixel can be compared)."""
    shift = _trembling(np.ascontiguousarray(now[..., 0], np.float32),
                       np.ascontiguousarray(before[..., 0], np.float32), shake)
    return None if shift is None else _shifted(before, shift)


def _change(a: Picture, b: Picture, *, gains: Grey | None = None,
            pixel_change: float = PIXEL_CHANGE, most: float | None = None) -> Grey:
    """How much each pixel of ``a`` differs from ``b`` brought to its light (``gains``, where
    worked out), in grey or colour; the colour not looked at where the grey of more than
    ``most`` pixels changed by more than ``pixel_change`` already (the picture moved)."""
    if gains is None:
        gains = row_gains(a[0], b[0])
    change = _grey_change(a[0], b[0], gains)
    if len(a) == 3 and (most is None or np.count_nonzero(change > pixel_change) <= most):
        change = np.maximum(change, _colour_change(a, b, gains, pixel_change))
    return change


def _trembling(now: Grey, before: Grey, shake: float) -> NDArray[np.float64] | None:
    """The shift of grey ``before`` onto ``now`` (found by phase correlation) as an affine
    matrix, where it is at most ``shake`` pixels; None where it is more, or none is found
    (NaN)."""
    (dx, dy), _ = cv2.phaseCorrelate(before, now)
    if not max(abs(dx), abs(dy)) <= shake:
        return None
    return np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])


def _shifted(picture: NDArray[T], shift: NDArray[np.float64]) -> NDArray[T]:
    """``picture`` (its planes last) moved by ``shift`` (its edges repeated)."""
    moved = cv2.warpAffine(np.ascontiguousarray(picture), shift,
                           (picture.shape[1], picture.shape[0]),
                           flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(moved, picture.dtype).reshape(picture.shape)  # (one plane kept)


def _planes(picture: Image) -> Picture:
    """A picture as planes of grey and, for a YUV one, of its colour offsets (U and V from
    128), in a signed type."""
    planes = np.moveaxis(picture, 2, 0).astype(np.float32, order="C")
    planes[1:] -= 128.0
    return planes


def _grey_change(a: Grey, b: Grey, gains: Grey) -> Grey:
    """How much grey ``a`` differs from ``b`` brought to its light, pixel by pixel; nothing
    where a pixel near white may have lost light to saturation in a row whose light changed:
    a may be brighter where b was near white, darker where a is."""
    brighter = a - np.minimum(b * gains, 255.0)  # white stays white
    dimmer, lighter = gains < 1.0 - SATURATION_GAIN, gains > 1.0 + SATURATION_GAIN
    saturated = (((brighter > 0) & (b >= WHITE) & dimmer)
                 | ((brighter < 0) & (a >= WHITE) & lighter))
    return np.asarray(np.where(saturated, 0.0, np.abs(brighter)), np.float32)


def _colour_change(a: Picture, b: Picture, gains: Grey, least: float) -> Grey:
    """How much ``a``'s colour differs from ``b``'s brought to its light (a colour's offsets
    grow and fade with the light, as its grey does) and from its row's colour cast as well (a
    webcam's white balance settling: the median change of the row's colour for its grey, which
    a die, a card or a hand over less than half a row leaves be), pixel by pixel: the more of U
    and V, each the less of the two. Changes up to ``least`` are not looked at further; one
    is nothing where a pixel near white in a row whose light changed may have lost light in
    one of its colours (the others then seem to change colour)."""
    change = a[1:] - b[1:] * gains
    seen = np.abs(change) > least
    if not seen.any():
        return np.zeros(a.shape[1:], np.float32)
    light = a[0] + 1.0
    middle = light.shape[1] // 2
    cast = np.partition(change / light, middle, axis=2)[..., middle:middle + 1]
    recoloured = np.minimum(np.abs(change), np.abs(change - cast * light)).max(axis=0)
    rows, columns = np.nonzero(recoloured > least)
    saturated = (np.abs(gains[rows, 0] - 1.0) > SATURATION_GAIN) & (
        (_brightest(a[:, rows, columns]) >= WHITE) | (_brightest(b[:, rows, columns]) >= WHITE))
    recoloured[rows[saturated], columns[saturated]] = 0.0
    return np.asarray(recoloured, np.float32)


def _holds_patch(mask: Mask, size: int) -> bool:
    """Whether ``mask`` holds a patch of ``size`` pixels touching (by a corner too)."""
    if np.count_nonzero(mask) < size:
        return False
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.view(np.uint8), connectivity=8)
    return bool(count > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= size)


def _brightest(picture: Picture) -> Grey:
    """The brightest of each pixel's blue, green and red (JPEG's YUV turned back)."""
    y, u, v = picture
    return np.asarray(np.maximum(np.maximum(y + 1.772 * u, y + 1.402 * v),
                                 y - 0.344 * u - 0.714 * v), np.float32)


def row_gains(a: Grey, b: Grey) -> Grey:
    """The gain that brings each row of grey ``b`` to ``a``'s light: the median of the row's
    ratios (a die, a card or a hand over less than half a row leaves it be), held within
    LIGHT_CHANGE (a hand over a whole row changes it by more than a light does)."""
    ratios = (a + 1.0) / (b + 1.0)
    middle = ratios.shape[1] // 2
    median = np.partition(ratios, middle, axis=1)[:, middle:middle + 1]
    return np.asarray(np.clip(median, 1.0 - LIGHT_CHANGE, 1.0 + LIGHT_CHANGE), np.float32)


class Verdict(Enum):
    """What a read of a still frame comes to."""

    AGAIN = "again"  # read the next still frame too
    STANDS = "stands"  # the read stands: hand it on
    UNSETTLED = "unsettled"  # the reads keep disagreeing: hand on the last, doubting


class Settler:
    """When to read a frame, and when a read stands.

    A rest starts with the frame the first still frame matched (the one before it). Reads
    start half-way through the settle time, so that by the time the scene has been still for
    ``settle_s`` a read can agree with an earlier one and stand at once.
    """

    def __init__(self, *, settle_s: float = SETTLE_S, agree: int = AGREE,
                 max_reads: int = MAX_READS) -> None:
        self.settle_s, self.agree, self.max_reads = settle_s, agree, max_reads
        self._still_since: float | None = None
        self._last_at: float | None = None
        self._at = 0.0
        self._done = False
        self._reads: list[Hashable] = []
        self._wait_s = 0.0  # how long this rest was told to wait (see wait)
        self._asked = False  # a frame of this rest was asked for
        self._fresh = False  # … the one asked for now first

    def frame(self, *, moved: bool, at: float) -> bool:
        """Whether to read the frame taken at ``at`` (seconds)."""
        previous, self._last_at, self._at = self._last_at, at, at
        if moved:
            self._new_rest()
            return False
        if self._still_since is None:
            self._still_since = at if previous is None else previous
        ask = not self._done and at - self._still_since >= \
            self._rest_s - self.settle_s / 2 - 1e-6
        self._fresh, self._asked = ask and not self._asked, self._asked or ask
        return ask

    @property
    def fresh(self) -> bool:
        """Whether the frame :meth:`frame` just asked for is the first its rest asked for."""
        return self._fresh

    def wait(self, still_s: float) -> None:
        """Read this rest only once it has been still for ``still_s`` (a read can stand then),
        not ``settle_s``: something lies over the table that may leave (a hand)."""
        self._wait_s = max(self._wait_s, still_s)

    @property
    def waits_s(self) -> float:
        """The longest this rest was told to :meth:`wait` (0: it was not)."""
        return self._wait_s

    @property
    def _rest_s(self) -> float:
        """How long this rest is to be still before a read of it stands."""
        return max(self.settle_s, self._wait_s)

    @property
    def stood(self) -> bool:
        """Whether a read of this rest stood (none is asked for until something moves)."""
        return self._done

    def read(self, key: Hashable) -> Verdict:
        """Take the read of the frame :meth:`frame` asked for."""
        self._reads.append(key)
        settled = self._still_since is not None and \
            self._at - self._still_since >= self._rest_s - 1e-6
        recent = self._reads[-self.agree:]
        if settled and len(recent) == self.agree and all(k == recent[0] for k in recent):
            self._done = True
            return Verdict.STANDS
        if len(self._reads) >= self.max_reads and settled:
            self._done = True
            return Verdict.UNSETTLED
        return Verdict.AGAIN

    def forget(self) -> None:
        """Read the scene again once it is still (e.g. after a camera came back)."""
        self._last_at = None
        self._new_rest()

    def _new_rest(self) -> None:
        """Forget the rest: the next still frame starts a new one."""
        self._still_since, self._done, self._reads = None, False, []
        self._wait_s, self._asked, self._fresh = 0.0, False, False
