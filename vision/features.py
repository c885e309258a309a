"""Small classical embeddings of a die's face or a card, for nearest-neighbour reading.

A die is seen as a DIE_VIEW square patch of its top face, turned so that the face's edges are
upright (die_angle() finds the turn from the edges' directions, up to a quarter turn), so a
die matches an example in one of four quarter turns (quarter_turns()). Its embedding is a HOG
of the grey patch (shapes and strokes, indifferent to contrast) with a coarse layout of
opponent colours. A card is cut out along its outline as a CARD_VIEW patch; its embedding is
the grey patch with its slow shading taken away (light across the table, a shadow), zero-mean
and unit-norm, so that the dot product of two is a normalised cross-correlation of their
details, with a little colour layout. Embeddings are L2-normalised: the dot product of two
says how alike two faces look.

>>> import numpy as np
>>> embed_dice(np.zeros((2, DIE_VIEW, DIE_VIEW, 3), np.uint8)).shape
(2, 1508)
>>> embed_cards(np.zeros((1, CARD_VIEW[1], CARD_VIEW[0], 3), np.uint8)).shape
(1, 1440)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Patches = NDArray[np.uint8]
Vectors = NDArray[np.float32]

DIE_VIEW = 48  # side of a die patch: the top face, upright
DIE_EXAMPLE = 60  # side of a kept die example: the same scale, with room to move it
EMBED_CHUNK = 128  # die patches embedded at once (bounds the memory of a profile's views)
DIE_SHAPE, DIE_DETAILS, COLOUR_WEIGHT = 0.45, 0.35, 0.35  # weights in a die embedding
CARD_VIEW = (32, 44)  # width, height of a card patch: the whole card
CARD_BLUR = 0.7  # a card patch is softened this much (pixels) ...
CARD_SHADING = 6.0  # ... and its shading (a blur of this many pixels) taken away
CARD_COLOUR = 0.15  # share of the colour layout in a card embedding
RING = (0.4, 0.65)  # a die's turn is read from its edges this many sides from its centre
CELL = 8  # HOG cell side in pixels; blocks are 2 × 2 cells, one cell apart
BINS = 9  # HOG orientation bins over 180°
_GREY = np.array([0.114, 0.587, 0.299], np.float32)  # BGR weights


def die_angle(grey: NDArray[np.float32], x: float, y: float, side: float) -> float:
    """The turn (radians, 0 to a quarter turn) of the square top face centred at (x, y): the
    mean direction of the edges on a ring around its centre that holds its outline and not
    what is drawn inside it (a picture's edges, stronger than a pale die's on a pale sheet,
    turned it by up to 45°), quarter turns folded together (each edge's direction times
    four, weighted by the square root of its strength, so a few strong edges, a neighbour's
    or a shadow's, do not outvote the outline, and by how squarely it faces the centre)."""
    r, inner = _ring_size(side)
    gx, gy = _ring_gradients(grey, x, y, r, inner)
    return _turns(gx[None], gy[None], r, inner)[0]


def die_angle_in(image: NDArray[np.uint8], x: float, y: float, side: float) -> float:
    """die_angle() of a die in a BGR image, from the grey levels of the part around it only
    (the part its ring's window reads, two pixels more each way): the turn read from the whole
    image's grey levels to a millionth of a radian, without converting the whole image."""
    return die_angles_in(image, [(x, y, side)])[0]


def die_angles_in(image: NDArray[np.uint8], dice: Sequence[tuple[float, float, float]]
                  ) -> list[float]:
    """die_angle_in() of each die (x, y, side) of a BGR image, the same turns, the votes of
    dice with rings of one size counted together (a few larger numpy steps, not many small)."""
    rings: dict[tuple[int, int], list[int]] = {}
    for i, (_, _, side) in enumerate(dice):
        rings.setdefault(_ring_size(side), []).append(i)
    turns = [0.0] * len(dice)
    h, w = image.shape[:2]
    for (r, inner), members in rings.items():
        gx, gy = [], []
        for i in members:
            x, y, _ = dice[i]
            x0 = min(max(0, math.floor(x) - r - 2), w - 1)
            y0 = min(max(0, math.floor(y) - r - 2), h - 1)
            part = image[y0:max(y0 + 1, math.floor(y) + r + 3),
                         x0:max(x0 + 1, math.floor(x) + r + 3)]
            grey = cv2.cvtColor(part, cv2.COLOR_BGR2GRAY).astype(np.float32)
            a, b = _ring_gradients(grey, x - x0, y - y0, r, inner)
            gx.append(a)
            gy.append(b)
        for i, turn in zip(members, _turns(np.stack(gx), np.stack(gy), r, inner), strict=True):
            turns[i] = turn
    return turns


def _ring_size(side: float) -> tuple[int, int]:
    """The outer and inner radius (pixels) of the ring a die's turn is read from."""
    return max(2, round(RING[1] * side)), round(RING[0] * side)


def _ring_gradients(grey: NDArray[np.float32], x: float, y: float, r: int, inner: int
                    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The grey levels' gradients (x, y) on the ring from inner to r pixels around (x, y)."""
    m = np.array([[1.0, 0.0, r - x], [0.0, 1.0, r - y]])
    window = cv2.warpAffine(grey, m, (2 * r + 1, 2 * r + 1), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    at = _ring(r, inner)[0]
    return (np.asarray(cv2.Sobel(window, cv2.CV_32F, 1, 0, ksize=3).ravel()[at], np.float32),
            np.asarray(cv2.Sobel(window, cv2.CV_32F, 0, 1, ksize=3).ravel()[at], np.float32))


def _turns(gx: NDArray[np.float32], gy: NDArray[np.float32], r: int, inner: int
           ) -> list[float]:
    """The turn voted by each row of ring gradients (N × the ring's pixels)."""
    _, rx, ry = _ring(r, inner)
    # g⁴ · |g|^-3.5 of g = gx + i·gy, in real numbers: g² = a + i·b, g⁴ = a² − b² + 2i·ab;
    # times cos² of the edge's normal to the radius (an outline faces the centre, a stroke
    # drawn out towards it does not)
    a, b = gx * gx - gy * gy, 2 * gx * gy
    strength = gx * gx + gy * gy + np.float32(1e-3)
    weight = strength ** np.float32(-2.75) * (gx * rx + gy * ry) ** 2
    real, imag = ((a * a - b * b) * weight).sum(axis=1), (2 * a * b * weight).sum(axis=1)
    return [float(np.angle(complex(float(u), float(v))) / 4 % (math.pi / 2))
            for u, v in zip(real, imag, strict=True)]


@functools.lru_cache(maxsize=16)
def _ring(r: int, inner: int) -> tuple[NDArray[np.intp], NDArray[np.float32],
                                      NDArray[np.float32]]:
    """The pixels of a (2r+1)-square from inner to r from its centre (flat indices, row by
    row), and the unit vectors (x, y) from the centre to each."""
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    d = xx * xx + yy * yy
    inside = (d <= r * r) & (d >= max(inner, 1) ** 2)
    length = np.sqrt(d[inside]).astype(np.float32)
    return (np.flatnonzero(inside), np.asarray(xx[inside] / length, np.float32),
            np.asarray(yy[inside] / length, np.float32))


def crop_die(image: Image, x: float, y: float, side: float, angle: float = 0.0, *,
             out: int = DIE_VIEW) -> Image:
    """The out×out patch around the top face centred at (x, y), `side` pixels wide, at
    DIE_VIEW pixels a side, turned by -angle so that a face turned by angle comes out upright
    (border repeated). out=DIE_EXAMPLE gives the patch a profile keeps."""
    k = DIE_VIEW / side
    c, s = math.cos(angle) * k, math.sin(angle) * k
    half = out / 2
    m = np.array([[c, s, half - c * x - s * y], [-s, c, half + s * x - c * y]], np.float64)
    flags = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.warpAffine(image, m, (out, out), flags=flags,
                                     borderMode=cv2.BORDER_REPLICATE), np.uint8)


def die_views(examples: Patches, copies: int = 0, *, seed: int = 0) -> Patches:
    """The DIE_VIEW patch of each DIE_EXAMPLE example, then `copies` more of each as a
    camera might see it otherwise (vary()): slightly off centre, turned and scaled."""
    c = DIE_EXAMPLE / 2
    m = np.array([[1.0, 0.0, DIE_VIEW / 2 - c], [0.0, 1.0, DIE_VIEW / 2 - c]])
    views = [np.asarray(cv2.warpAffine(e, m, (DIE_VIEW, DIE_VIEW)), np.uint8) for e in examples]
    rng = np.random.default_rng(seed)
    for _ in range(copies):
        for e in examples:
            turn = rng.normal(0.0, 4.0)
            scale = rng.uniform(0.93, 1.07)
            a = np.asarray(cv2.getRotationMatrix2D((c, c), turn, scale), np.float64)
            a[:, 2] += DIE_VIEW / 2 - c + rng.normal(0.0, 0.04 * DIE_VIEW, 2)
            view = cv2.warpAffine(e, a, (DIE_VIEW, DIE_VIEW), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
            views.append(vary(np.asarray(view, np.uint8), rng))
    return np.stack(views)


def card_views(examples: Patches, copies: int = 0, *, seed: int = 0,
               recolour: bool = False) -> Patches:
    """The card examples, then `copies` more of each as a camera might see them otherwise
    (vary()), cut out a little off their outline; recolour: each copy's colour channels also
    shuffled (cards whose colour is their player's, not their face's)."""
    w, h = CARD_VIEW
    rng = np.random.default_rng(seed)
    views = list(examples)
    for _ in range(copies):
        for e in examples:
            a = np.asarray(cv2.getRotationMatrix2D((w / 2, h / 2), rng.normal(0.0, 1.0),
                                                   rng.uniform(0.98, 1.02)), np.float64)
            a[:, 2] += rng.normal(0.0, 0.5, 2)
            view = cv2.warpAffine(e, a, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
            view = vary(np.asarray(view, np.uint8), rng)
            views.append(view[..., rng.permutation(3)] if recolour else view)
    return np.stack(views)


def vary(patch: Image, rng: np.random.Generator) -> Image:
    """The patch in other light: brighter or darker, another colour cast, softer or noisier."""
    out = patch.astype(np.float32) * np.float32(rng.uniform(0.7, 1.15)) * rng.uniform(
        0.9, 1.1, 3).astype(np.float32)
    blur = rng.uniform(0.0, 1.0)
    if blur > 0.3:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), blur), np.float32)
    out += rng.normal(0.0, rng.uniform(0.0, 4.0), out.shape).astype(np.float32)
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def quarter_turns(patches: Patches) -> Patches:
    """The patches, then the same turned by one, two and three quarter turns."""
    return np.ascontiguousarray(np.concatenate([np.rot90(patches, k, axes=(1, 2))
                                                for k in range(4)]))


def half_turns(patches: Patches) -> Patches:
    """The patches, then the same upside down (a card laid the other way round)."""
    return np.ascontiguousarray(np.concatenate([patches, patches[:, ::-1, ::-1]]))


def crop_cards(image: Image, quads: NDArray[np.float64], room: int = 0) -> Patches:
    """The cards whose corners (N×4×2, clockwise from each card's top-left) are quads, as
    CARD_VIEW patches (with `room` pixels of the same scale around each card), in one
    resampling of the image (pass a slightly blurred image: this samples it, it does not
    average it)."""
    w, h = CARD_VIEW
    u = (np.arange(w + 2 * room, dtype=np.float64) + 0.5 - room) / w
    v = (np.arange(h + 2 * room, dtype=np.float64)[:, None] + 0.5 - room) / h
    # bilinear blend of the four corners (a card seen flat on a rectified sheet): each
    # sample's weights of the corners, 4 × samples
    blend = np.stack([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v]).reshape(4, -1)
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    mx = np.asarray(q[:, :, 0] @ blend, np.float32).reshape(-1, u.size)
    my = np.asarray(q[:, :, 1] @ blend, np.float32).reshape(-1, u.size)
    out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.uint8).reshape(-1, v.size, u.size, 3)


def embed_dice(patches: Patches) -> Vectors:
    """Embeddings of DIE_VIEW die patches: HOG, the grey details (as for cards) at half size,
    and a 4 × 4 colour layout; EMBED_CHUNK patches at a time, so that a profile's thousands
    of views never take more memory than that many."""
    if len(patches) <= EMBED_CHUNK:
        return _embed_dice(patches)
    return np.concatenate([_embed_dice(patches[i:i + EMBED_CHUNK])
                           for i in range(0, len(patches), EMBED_CHUNK)])


def _embed_dice(patches: Patches) -> Vectors:
    p = patches.astype(np.float32)
    grey = p @ _GREY
    shape = hog(grey)
    shape /= np.linalg.norm(shape, axis=1, keepdims=True) + 1e-6
    half = DIE_VIEW // 2
    # halved all at once, the patches stacked (each 2 × 2 block lies in one patch)
    small = np.asarray(cv2.resize(grey.reshape(-1, DIE_VIEW), (half, half * len(p)),
                                  interpolation=cv2.INTER_AREA), np.float32)
    details = _all_details(small.reshape(len(p), half, half), 0.5, 4.0).reshape(len(p), -1)
    details -= details.mean(axis=1, keepdims=True)
    details /= np.linalg.norm(details, axis=1, keepdims=True) + 1e-6
    v = np.concatenate([shape * DIE_SHAPE, details * DIE_DETAILS,
                        _colour_layout(p, 4) * COLOUR_WEIGHT], 1)
    return np.asarray(v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6), np.float32)


def _all_details(patches: NDArray[np.float32], blur: float, shading: float
                 ) -> NDArray[np.float32]:
    """N grey (N×H×W) or colour (N×H×W×C) patches, each softened by blur, less its shading
    (a blur of `shading` pixels), all at once."""
    soft = _blurred(patches, blur) if blur else patches
    return np.asarray(soft - _blurred(soft, shading), np.float32)


def _blurred(patches: NDArray[np.float32], sigma: float) -> NDArray[np.float32]:
    """N patches (N×H×W, or N×H×W×C) each blurred as cv2.GaussianBlur(patch, (0, 0), sigma)
    does (to float rounding), all at once: a product with a matrix along every patch row (its
    colours kept apart), then each patch by itself down its columns. No copy turns the patches'
    axes: the rows' product takes each row's colours as they lie."""
    n, h, w = patches.shape[:3]
    c = patches.shape[3] if patches.ndim == 4 else 1
    across = patches.reshape(n * h, w * c) @ _along_rows(w, c, sigma)
    down = np.matmul(_blur_matrix(h, sigma), across.reshape(n, h, w * c))
    return np.ascontiguousarray(down.reshape(patches.shape), np.float32)


@functools.lru_cache(maxsize=16)
def _along_rows(w: int, c: int, sigma: float) -> NDArray[np.float32]:
    """The matrix that blurs rows of w pixels of c colours each (w·c values a row, the colours
    of a pixel side by side) along the row, each colour by itself: a right-hand factor."""
    return np.ascontiguousarray(np.kron(_blur_matrix(w, sigma), np.eye(c, dtype=np.float32)).T,
                                np.float32)


@functools.lru_cache(maxsize=16)
def _blur_matrix(size: int, sigma: float) -> NDArray[np.float32]:
    """The size × size matrix of OpenCV's Gaussian blur along one axis of `size` pixels
    (its kernel for float images, the border reflected as BORDER_REFLECT_101)."""
    kernel = cv2.getGaussianKernel(round(sigma * 8 + 1) | 1, sigma, cv2.CV_64F).ravel()
    reach = len(kernel) // 2
    out = np.zeros((size, size), np.float64)
    for i in range(size):
        for k, weight in enumerate(kernel):
            out[i, cv2.borderInterpolate(i + k - reach, size, cv2.BORDER_REFLECT_101)] += weight
    return np.asarray(out, np.float32)


def embed_cards(patches: Patches) -> Vectors:
    """Embeddings (N×1440) of CARD_VIEW card patches: the grey patch softened, less its
    shading, zero-mean and unit-norm, with a 4 × 4 colour layout."""
    p = patches.astype(np.float32)
    grey = p @ _GREY
    flat = _all_details(grey, CARD_BLUR, CARD_SHADING).reshape(len(p), -1)
    flat -= flat.mean(axis=1, keepdims=True)
    flat /= np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6
    v = np.concatenate([flat * (1 - CARD_COLOUR), _colour_layout(p, 4) * CARD_COLOUR], 1)
    return np.asarray(v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6), np.float32)


def card_details(patches: Patches) -> Vectors:
    """Each card patch's colour details (each channel softened, less its shading), flattened,
    zero-mean and unit-norm: where two faces differ, pixel by pixel."""
    p = patches.astype(np.float32)
    flat = _all_details(p, CARD_BLUR, CARD_SHADING).reshape(len(p), -1)
    flat -= flat.mean(axis=1, keepdims=True)
    return np.asarray(flat / (np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6), np.float32)


def colour_details(patches: Patches) -> NDArray[np.float32]:
    """The colour details (N×H×W×3) of die or card patches of any size, as card_details()
    takes them but kept as images: matched turned and shifted (vision.alike_faces)."""
    return _all_details(patches.astype(np.float32), CARD_BLUR, CARD_SHADING)


def grey_details(patches: Patches) -> NDArray[np.float32]:
    """The grey details (N×H×W) of patches of any size, as colour_details() gives them in colour
    (cards whose colour is their player's are matched in grey, vision.card_looks)."""
    return _all_details(patches.astype(np.float32) @ _GREY, CARD_BLUR, CARD_SHADING)


def _colour_layout(patches: NDArray[np.float32], grid: int) -> NDArray[np.float32]:
    """Opponent colours (red−green, yellow−blue) on a grid × grid layout, unit-norm (a grey
    patch keeps a small colour part)."""
    n, h, w, _ = patches.shape
    rows = patches.reshape(n, grid, h // grid, w * 3).sum(axis=2)  # summed down, then across
    small = rows.reshape(n, grid, grid, w // grid, 3).sum(axis=3) / np.float32(
        h // grid * (w // grid))
    b, g, r = small[..., 0], small[..., 1], small[..., 2]
    colour = np.stack([(r - g) * 0.7071, (r + g - 2 * b) * 0.4082], -1).reshape(n, -1)
    return np.asarray(colour / np.maximum(np.linalg.norm(colour, axis=1, keepdims=True), 20.0),
                      np.float32)


_PI = np.float32(np.pi)


def _unsigned(angle: NDArray[np.float32]) -> NDArray[np.float32]:
    """Angles in [-π, π] (float32) as ``angle % π`` gives them, several times faster.

    >>> a = np.array([-_PI, -1.0, -0.0, 0.0, 2.0, _PI], np.float32)
    >>> bool(np.array_equal(_unsigned(a), a % np.pi))
    True
    """
    turned = np.where(angle < 0, angle + _PI, angle)
    return np.asarray(np.where(np.abs(angle) == _PI, np.float32(0.0), turned), np.float32)


def hog(grey: NDArray[np.float32]) -> NDArray[np.float32]:
    """Histograms of oriented gradients of N×H×W grey patches (H, W multiples of CELL):
    unsigned orientations in BINS bins shared linearly between the two nearest, summed over
    CELL × CELL cells, each 2 × 2 block of cells L2-normalised (clipped at 0.2, renormalised).

    >>> hog(np.zeros((1, 16, 24), np.float32)).shape
    (1, 72)
    """
    n, h, w = grey.shape
    gx, gy = _edge_differences(grey, 2), _edge_differences(grey, 1)
    magnitude = np.hypot(gx, gy)
    position = _unsigned(np.arctan2(gy, gx)) / (np.pi / BINS) - 0.5
    low = np.floor(position)
    frac = (position - low).astype(np.float32)
    # position lies in [-0.5, BINS - 0.5]: low + 1 (0..BINS) picks its bins below and above
    turn = (low + 1).astype(np.intp)
    ch, cw = h // CELL, w // CELL
    base = (np.arange(n)[:, None, None] * (ch * cw) + _cells(h, w)) * BINS
    size = n * ch * cw * BINS
    cells = (np.bincount((base + _BELOW[turn]).ravel(), (magnitude * (1 - frac)).ravel(), size)
             + np.bincount((base + _ABOVE[turn]).ravel(), (magnitude * frac).ravel(),
                           size)).astype(np.float32).reshape(n, ch, cw, BINS)
    blocks = np.concatenate([cells[:, :-1, :-1], cells[:, :-1, 1:], cells[:, 1:, :-1],
                             cells[:, 1:, 1:]], axis=3).reshape(n, -1, 4 * BINS)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3
    return np.asarray(blocks.reshape(n, -1), np.float32)


def _edge_differences(grey: NDArray[np.float32], axis: int) -> NDArray[np.float32]:
    """Central differences of N×H×W patches along an axis (1: down, 2: across), the edges
    repeated beyond the border (as np.pad's "edge" mode gives them)."""
    g = np.moveaxis(grey, axis, -1)
    out = np.empty_like(g)
    out[..., 1:-1] = g[..., 2:] - g[..., :-2]
    out[..., 0] = g[..., 1] - g[..., 0]
    out[..., -1] = g[..., -1] - g[..., -2]
    return np.moveaxis(out, -1, axis)


# a pixel's orientation bins below and above its position, by the bin below plus one
_BELOW = np.array([BINS - 1, *range(BINS)], np.intp)  # position under 0: the last bin
_ABOVE = (_BELOW + 1) % BINS  # position over BINS - 1: the first bin


@functools.lru_cache(maxsize=4)
def _cells(h: int, w: int) -> NDArray[np.intp]:
    """Each pixel's HOG cell (row by row) in an H×W patch. Kept: read-only."""
    cells = np.asarray((np.arange(h)[:, None] // CELL) * (w // CELL)
                       + np.arange(w)[None, :] // CELL, np.intp)
    cells.flags.writeable = False
    return cells
