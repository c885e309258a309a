"""Read the card places of a rectified sheet: empty, or which card and which side.

Each place's likeliest outlines are found (vision.card_outline); the card is cut out along
the likeliest, embedded (vision.features) and compared with the profile's examples, kept upright
and upside down. When that cut-out reads clearly (very like an example, one face well ahead and
told apart from the faces alike as that face) the outline is the card's; else the card is cut
out along every outline found, and the one whose cut-out looks most like an example is (when none
looks much like one, the outlines found missed the card: it is then looked for by its look
alone, cut out on a grid of shifts and turns around its place, then nudged); its face is the
most similar example's, unless another face is nearly as similar: then the card is read "not
sure" (face None). A place with no card is read "empty".

Faces alike but for a small mark (a number on a card's back) are told apart where they differ:
when other faces are nearly as similar as the best, the card is compared with each face's mean
look, pixel by pixel, weighted by how much the faces' means differ there against how much each
face's examples vary there (a Fisher weighting); the closest face wins if clearly closer, else
the card is "not sure". A profile taught from few examples a face knows how they vary from
their rendered variations (light, blur, a little off the outline; a Dicy card's active side in
other players' colours), which vary less than real photos: only faces very nearly as similar
are told apart this way, each face's look turned the way up that matches the card (its
examples are aligned with each other, not with other faces'), and the closest wins by less.

A profile compared in rendered variations (fewer than VIEWS examples a face) has the ways
views of one example differ whitened away (vision.neighbours), and picks a card's outline by
how its cut-out looks against how alike each face's own examples look: a face whose examples
look little alike (an `ink` 17 card's hatched back, under a glossy sleeve) is not outdone by
an outline a few pixels off that looks a little more like a face whose examples all look
alike. With fewer than KNOWN examples a face, a card whose outlines' cut-outs all look little
like an example (the finder missed a hatched card) is also cut out along them fitted to its
edges (vision.card_edges), its outline picked by how its edges stand out too; and a read is
then checked by the card's look where it lies
(vision.card_looks): matched, shifted and either way up, with the mean look of every face of
the side read (a Dicy card's sides differ by colour, which its grey look leaves out), a face
that fits well and clearly best overturns a read along an outline a few pixels off.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import card_edges
from vision.card_looks import CardLooks
from vision.card_outline import Outlines, others_of, outlines_of
from vision.components import EMPTY
from vision.features import CARD_VIEW, card_details, card_views, crop_cards, embed_cards, half_turns
from vision.neighbours import Match, Neighbours
from vision.profile import Profile
from vision.sheet import PX_PER_MM, Layout, Zone

MARGIN = 0.008  # a card's face must beat the next one's similarity by this much
DIMS = 160  # cards are compared on this many principal axes of the examples
DOUBT = 0.06  # a likeliest outline's read must lead the next face by this to read clearly;
# a card read with less lead is cut out again, nudged (in at most NUDGES rounds) ...
NUDGE = 0.03  # ... or less than this, with a profile of faces each taught KNOWN times or more
NUDGES = 2
VIEWS = 24  # a face taught from fewer examples is also compared as seen otherwise, to this many
ALIKE = 0.2  # faces this close in similarity to the best are told apart where they differ
CLOSER = 0.8  # the closest face's weighted distance must be under this share of the next's
KNOWN = 10  # a face taught from fewer examples is known by its variations, and then
FEW_ALIKE, FEW_CLOSER = 0.07, 0.9  # these stand for ALIKE and CLOSER
SHRINK = 0.7  # a profile's examples seen otherwise: their spread is whitened, shrunk this much
USUAL = 0.5  # an outline's cut-out is judged by its similarity to a face plus this share of
# how much less alike the face's examples look to each other (a hatched back: about 0.5)
SOFT_MM = 10.0  # the sheet is softened this far around its places (outlines, cut-outs) ...
SOFTEN = 0.8  # ... by a Gaussian blur of this many pixels
LOST = 0.9  # a card whose outlines' cut-outs all look less like an example than this is
LOST_SPREAD = 0.03  # (or less for a face whose examples look less alike, see _lost_below)
CLEAR = 0.95  # a place's likeliest outline is the card's when its cut-out is this similar (and
# reads clearly, see CardReader._ahead); else every outline found is cut out and compared
FAINT_STEP = 50.0  # an empty place with colour steps this strong is looked at too (a card
# in a washed-out frame); a card found there by its look must be this similar: LOST
SEARCH_PX = (-8.0, -4.0, 0.0, 4.0, 8.0)  # looked for at these shifts (both ways) ...
SEARCH_DEG = (-4.0, 0.0, 4.0)  # ... and turns of a card lying straight in its place,
SEARCH_NUDGE = 2.0  # then nudged this many pixels and degrees; kept if it then looks like one
MISSED = 0.7  # a few examples' card whose outlines' cut-outs all look less like an example
# than this is cut out along them fitted to its edges too (vision.card_edges), and ...
EDGES = 0.004  # ... its outline judged by its likeness plus this share of its
# weakest edge's contrast (vision.card_edges; grey levels, 20-100 along a card's true outline)
FISHER_KEPT = 256  # sets of alike faces whose Fisher weights are kept for the next card
SOFT_KEPT = 4  # frame sizes and sets of places whose softened sheets' buffers are kept


_Pick = tuple[NDArray[np.float64], NDArray[np.float32], NDArray[np.uint8]]
"""A card's outline, its similarities to the faces and its cut-out."""


@dataclass(frozen=True)
class CardRead:
    """One card place: its name, the face seen (None = not sure; "empty" = no card), the
    outline found (4×2 rectified pixels, clockwise from the card's top-left as the sheet lies;
    empty for an empty place), and a confidence 0..1."""

    place: str
    face: str | None
    outline: tuple[tuple[float, float], ...]
    confidence: float

    @property
    def empty(self) -> bool:
        return self.face == EMPTY

    @property
    def sure(self) -> bool:
        return self.face is not None


class CardReader:
    """Reads the card places of one kind ("dicy-card" or "17-card") with a profile, one frame
    at a time (it keeps the buffers of the sheet it softens from frame to frame)."""

    def __init__(self, profile: Profile) -> None:
        if profile.kind not in ("dicy-card", "17-card"):
            raise ValueError(f"a card reader reads cards, not {profile.kind}")
        self.profile = profile
        fewest = min(profile.counts().values())
        copies = max(0, -(-VIEWS // fewest) - 1)
        views = card_views(profile.patches, copies, recolour=profile.kind == "dicy-card")
        labels = profile.labels * (copies + 1)
        # views of one example (either way up) are a group: how they differ is whitened away
        both = np.arange(2 * len(views))
        groups = both % len(profile.patches) + len(profile.patches) * (both >= len(views))
        vectors = embed_cards(half_turns(views))
        self.neighbours = Neighbours(vectors, labels * 2, background=None, margin=MARGIN,
                                     dims=DIMS, groups=groups if copies else None,
                                     shrink=SHRINK)
        self.lost = _lost_below(self.neighbours, profile)
        self.usual = _usual(self.neighbours, vectors, labels * 2,
                            groups % len(profile.patches)) if copies \
            else np.ones(len(self.neighbours.names), np.float32)
        self.few = few = fewest < KNOWN
        self.alike, self.closer = (FEW_ALIKE, FEW_CLOSER) if few else (ALIKE, CLOSER)
        self.nudge_below = DOUBT if few else NUDGE
        known, known_labels = (views, labels) if few else (profile.patches, profile.labels)
        self.looks = {face: _look(known[[x == face for x in known_labels]])
                      for face in profile.counts()}
        # the looks as rows of arrays (float64: variances come as differences of squares)
        self._known = {face: k for k, face in enumerate(self.looks)}
        size = CARD_VIEW[0] * CARD_VIEW[1] * 3
        self._means = np.array([m for m, _ in self.looks.values()], np.float64).reshape(-1, size)
        self._spreads = np.array([s for _, s in self.looks.values()],
                                 np.float64).reshape(-1, size)
        # and each turned upside down too (2 × faces × size): a face's examples are aligned
        # with each other, not with other faces' (a card may be taught either way up)
        self._turns = np.stack([self._means, _turned(self._means)])
        self._turned_spreads = np.stack([self._spreads, _turned(self._spreads)])
        self._fisher = functools.lru_cache(maxsize=FISHER_KEPT)(self._fisher_weights)
        self._softened = _Softened()
        # a place's likeliest outline may be enough where every face was taught often (the
        # shipped profiles): a few examples' outlines are judged by their usual likeness too
        self.first_clear = not copies
        # a few examples' reads are checked by the card's look where it lies (vision.card_looks)
        self.looks_checked = CardLooks(profile.labels, profile.patches,
                                       recoloured=profile.kind == "dicy-card") if few else None

    def read(self, rectified: NDArray[np.uint8], sheet: Layout, *,
             px_per_mm: float = PX_PER_MM) -> tuple[CardRead, ...]:
        """Every card place of the sheet, in the sheet's reading order."""
        return self.read_places(rectified, sheet.places(), sheet.card, px_per_mm=px_per_mm)

    def read_places(self, rectified: NDArray[np.uint8], places: tuple[Zone, ...],
                    card_mm: tuple[float, float], *, px_per_mm: float = PX_PER_MM
                    ) -> tuple[CardRead, ...]:
        """The card in each of these places."""
        smooth, soft = self._softened(rectified, places, px_per_mm)
        found = outlines_of(smooth, places, card_mm, px_per_mm)
        # place → its card's outline, similarities, cut-out; and the places read clearly
        picks, clear = self._picked(smooth, soft, found)
        lost = [i for i, (_, row, _) in picks.items() if row.max() < self.lost[row.argmax()]]
        faint = [i for i, f in enumerate(found) if f.empty and f.strength >= FAINT_STEP]
        again = self._searched(soft, [places[i] for i in lost + faint], card_mm, px_per_mm)
        for i, pick in zip(lost + faint, self._nudged(soft, again, SEARCH_NUDGE), strict=True):
            similarity = pick[1].max()
            if similarity >= (max(self.lost[pick[1].argmax()], picks[i][1].max())
                              if i in picks else LOST):  # found looking like a card
                picks[i] = pick
        if not picks:
            return tuple(CardRead(p.name, EMPTY, (), 1.0) for p in places)
        order = sorted(picks)
        matches = dict(zip(order, self.neighbours.decide_all(np.stack([picks[i][1]
                                                                       for i in order])),
                           strict=True))
        doubtful = [i for i in order if matches[i].lead < self.nudge_below or i in lost]
        nudged = self._nudged(soft, [picks[i] for i in doubtful])
        for i, pick, match in zip(doubtful, nudged, self.neighbours.decide_all(
                np.stack([row for _, row, _ in nudged])) if nudged else [], strict=True):
            picks[i], matches[i] = pick, match
        unsettled = [i for i in order if i not in clear]  # clear ones were told apart
        details = dict(zip(unsettled, card_details(np.stack([picks[i][2] for i in unsettled]))
                           if unsettled else [], strict=True))
        out = []
        for i, place in enumerate(places):
            if i not in picks:
                out.append(CardRead(place.name, EMPTY, (), 1.0))
                continue
            quad, row, _ = picks[i]
            face = matches[i].label if i in clear else self._told_apart(
                details[i], row, matches[i].label)
            if self.looks_checked is not None:  # among the faces of the side read
                face = self.looks_checked.checked(soft, quad, face, [
                    f for f in self.neighbours.names if face is None or _side(f) == _side(face)])
            out.append(CardRead(place.name, face,
                                tuple((float(x), float(y)) for x, y in quad),
                                min(1.0, max(0.0, matches[i].lead * 10))))
        return tuple(out)

    def _picked(self, smooth: NDArray[np.float32], soft: NDArray[np.uint8],
                found: list[Outlines]) -> tuple[dict[int, _Pick], set[int]]:
        """Each place with a card (by its index): its likeliest outline when that one's
        cut-out already reads clearly (see _ahead), else the outline whose cut-out looks most
        like an example (see MISSED for a few examples' card); its similarities and the
        cut-out. And the places read clearly."""
        full = [i for i, f in enumerate(found) if f.first is not None]
        if not full:
            return {}, set()
        first = self._cut(soft, [q for i in full if (q := found[i].first) is not None])
        picks = {}
        if self.first_clear:  # those like enough and ahead, if told apart as read too
            ahead = [(i, j, match) for j, (i, match) in enumerate(zip(
                full, self.neighbours.decide_all(np.stack([row for _, row, _ in first])),
                strict=True)) if self._ahead(first[j][1], match)]
            if ahead:
                details = card_details(np.stack([first[j][2] for _, j, _ in ahead]))
                picks = {i: first[j] for (i, j, match), seen in zip(ahead, details, strict=True)
                         if self._told_apart(seen, first[j][1], match.label) == match.label}
        unclear = [(i, j) for j, i in enumerate(full) if i not in picks]
        more = others_of([found[i] for i, _ in unclear])  # fitted only where needed
        others = self._cut(soft, [q for quads in more for q in quads])
        k, tries, missed = 0, {}, []
        for (i, j), quads in zip(unclear, more, strict=True):
            tries[i] = [first[j], *others[k:k + len(quads)]]
            k += len(quads)
        if self.few:  # a card whose outlines all missed it: fitted to its edges too
            missed = [i for i, tried in tries.items()
                      if max(row.max() for _, row, _ in tried) < MISSED]
            fitted = self._cut(soft, card_edges.fitted(smooth, [
                q for i in missed for q, _, _ in tries[i]]))
            for i in missed:
                n = len(tries[i])
                tries[i] += fitted[:n]
                fitted = fitted[n:]
        for i, tried in tries.items():
            score = self._likeness(np.stack([row for _, row, _ in tried]))
            if i in missed:  # and judged by how its edges stand out
                score += EDGES * card_edges.contrast(
                    smooth, np.stack([q for q, _, _ in tried])).min(axis=1)
            picks[i] = tried[int(np.argmax(score))]
        return picks, set(full) - {i for i, _ in unclear}

    def _cut(self, soft: NDArray[np.uint8], quads: list[NDArray[np.float64]]) -> list[_Pick]:
        """The cards cut out along these outlines: each outline, its similarities, cut-out."""
        if not quads:
            return []
        cut = crop_cards(soft, np.stack(quads))
        rows = self.neighbours.similarities(embed_cards(cut))
        return list(zip(quads, rows, cut, strict=True))

    def _likeness(self, rows: NDArray[np.float32]) -> NDArray[np.float64]:
        """How much each cut-out (its row of similarities) looks like a card: its best
        similarity as usual for each face (a face whose examples look less alike, such as a
        hatched back, is not outdone)."""
        return np.asarray((rows + USUAL * (1 - self.usual)).max(axis=1), np.float64)

    def _ahead(self, row: NDArray[np.float32], match: Match) -> bool:
        """Whether a cut-out with these similarities (read as match) may read clearly: as
        like an example as a card found must be (not lost) and at least CLEAR, leading the
        next face by DOUBT (it reads clearly when the faces alike tell it apart as that same
        face too: then no other outline of its place needs cutting out)."""
        return bool(row.max() >= max(CLEAR, self.lost[row.argmax()]) and match.lead >= DOUBT)

    def _told_apart(self, seen: NDArray[np.float32], row: NDArray[np.float32],
                    read: str | None) -> str | None:
        """The face of a card (its cut-out's card_details) told apart from the faces nearly as
        similar as the best (see the module's docstring; None when it cannot be), or as read
        when no other face is."""
        names = self.neighbours.names
        order = np.argsort(-row)
        alike = [names[k] for k in order[row[order] >= row.max() - self.alike]]
        if len(alike) < 2:
            return read
        index = tuple(self._known[f] for f in alike)
        rows = list(index)
        if self.few:  # each face's look turned the way up that matches the card
            way = np.argmax(self._turns[:, rows] @ seen.astype(np.float64), axis=0)
            means = self._turns[way, rows]
            weight, squares = _fisher(means, self._turned_spreads[way, rows])
            card = seen.astype(np.float64)
        else:  # the card the way up that matches the likeliest face
            means, weight, squares, turned = self._fisher(index)
            card = seen.astype(np.float64)
            if card @ turned > card @ means[0]:  # the card turned matches it better
                card = _turned(card[None])[0]
        # each face's weighted distance Σ w·(card − mean)², its square multiplied out
        distance = float(weight @ card ** 2) - 2 * (means @ (weight * card)) + squares
        first, second = np.argsort(distance)[:2]
        return alike[first] if distance[first] <= self.closer * distance[second] else None

    def _fisher_weights(self, index: tuple[int, ...]) -> tuple[
            NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """These faces' looks (rows of the looks) and their _fisher, upright, and the first
        face's look upside down: they depend on the faces alone, so they are kept for the next
        card with the same alike faces."""
        means = self._means[list(index)]
        return (means, *_fisher(means, self._spreads[list(index)]), _turned(means[:1])[0])

    def _searched(self, soft: NDArray[np.uint8], places: list[Zone], card_mm: tuple[float, float],
                  px_per_mm: float) -> list[_Pick]:
        """The cards of these places looked for by their look alone: cut out at every pose
        of a grid around a card lying straight in its place (the outlines found were none
        like a card), the pose most like an example each."""
        if not places:
            return []
        poses = _search_poses(card_mm[0] * px_per_mm, card_mm[1] * px_per_mm)
        out = []
        for place in places:  # a place at a time (the cut-outs of one remap stay small)
            tries = poses + np.array(place.centre) * px_per_mm
            cut = crop_cards(soft, tries)
            rows = self.neighbours.similarities(embed_cards(cut))
            best = int(np.argmax(rows.max(axis=1)))
            out.append((tries[best], rows[best], cut[best]))
        return out

    def _nudged(self, soft: NDArray[np.uint8], picks: list[_Pick], scale: float = 1.0
                ) -> list[_Pick]:
        """Doubtful cards (each its outline, similarities and cut-out) cut out again a pixel
        off or a degree turned, while that makes each look more like an example: all of them
        at once, round by round."""
        picks = list(picks)
        active = list(range(len(picks)))
        moves = card_edges.NUDGES
        for _ in range(NUDGES):
            if not active:
                break
            now = np.stack([picks[i][0] for i in active])  # each card's moves side by side
            tries = np.stack([card_edges.moved(now, *(scale * np.array(n))) for n in moves],
                             axis=1).reshape(-1, 4, 2)
            cut = crop_cards(soft, tries)
            again = self.neighbours.similarities(embed_cards(cut))
            still = []
            for j, i in enumerate(active):
                mine = slice(j * len(moves), (j + 1) * len(moves))
                best = j * len(moves) + int(np.argmax(again[mine].max(axis=1)))
                if again[best].max() > picks[i][1].max():
                    picks[i] = (tries[best], again[best], cut[best])
                    still.append(i)
            active = still
        return picks


@functools.lru_cache(maxsize=8)
def _search_poses(w: float, h: float) -> NDArray[np.float64]:
    """The outlines a card w × h pixels is looked for at (see CardReader._searched), about
    its place's centre. Kept: read-only."""
    straight = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
    poses = np.stack([card_edges.moved(straight, dx, dy, a) for dx in SEARCH_PX
                      for dy in SEARCH_PX for a in SEARCH_DEG])
    poses.flags.writeable = False
    return poses


def _side(face: str) -> str:
    """A Dicy card face's side ("active" of "odd/active"; "" for a 17 card): the sides differ
    by their colour, which a card's grey look (vision.card_looks) leaves out."""
    return face.partition("/")[2]


def _lost_below(neighbours: Neighbours, profile: Profile) -> NDArray[np.float32]:
    """For each face (in neighbours.names' order), the similarity under which a card read
    most like it is looked for again: LOST, or less for a face taught from KNOWN examples or
    more whose examples look less alike (a tenth of them less like the face's other examples,
    either way up, than this plus LOST_SPREAD: a 17 card's fine hatched back). Faces taught
    from fewer keep LOST (a few photos tell too little of how alike they look)."""
    vectors = neighbours.project(embed_cards(half_turns(profile.patches)))
    n = len(profile.patches)
    alike = vectors[:n] @ vectors.T
    labels = np.array(profile.labels * 2)
    out = np.full(len(neighbours.names), LOST, np.float32)
    for k, face in enumerate(neighbours.names):
        mine = np.nonzero(labels[:n] == face)[0]
        if len(mine) < KNOWN:
            continue
        others = alike[mine][:, labels == face]
        rows = np.arange(len(mine))
        others[rows, rows] = others[rows, rows + len(mine)] = -1.0  # not itself, nor turned
        out[k] = min(LOST, float(np.percentile(others.max(axis=1), 10)) - LOST_SPREAD)
    return out


def _usual(neighbours: Neighbours, vectors: NDArray[np.float32], labels: Sequence[str],
           examples: NDArray[np.int64]) -> NDArray[np.float32]:
    """For each face (in neighbours.names' order), how alike its examples look: each
    example's similarity to the most similar view of another example of the face (either
    way up), the mean over its examples; 1 for a face taught once. vectors: the examples
    as taught first, then their views; examples: each vector's example."""
    seen = neighbours.project(vectors)
    names = np.array(labels)
    n = int(examples.max()) + 1
    alike = seen[:n] @ seen.T
    out = np.ones(len(neighbours.names), np.float32)
    for k, face in enumerate(neighbours.names):
        near = [float(alike[e][others].max()) for e in range(n) if names[e] == face
                for others in [(names == face) & (examples != e)] if others.any()]
        if near:
            out[k] = np.mean(near)
    return out


class _Softened:
    """The sheet slightly blurred, as floats and as bytes, where the places are (with
    SOFT_MM around them; zero elsewhere, which nothing reads). Its two frame-sized buffers are
    kept from frame to frame (made and zeroed once per frame size and places, each frame's
    blur written over the same part): the next read overwrites what the last one returned."""

    def __init__(self) -> None:
        self._kept: dict[tuple[tuple[int, ...], tuple[int, int, int, int]],
                         tuple[NDArray[np.float32], NDArray[np.uint8]]] = {}

    def __call__(self, rectified: NDArray[np.uint8], places: tuple[Zone, ...],
                 px_per_mm: float) -> tuple[NDArray[np.float32], NDArray[np.uint8]]:
        h, w = rectified.shape[:2]
        x0 = max(0, int((min(p.x for p in places) - SOFT_MM) * px_per_mm))
        y0 = max(0, int((min(p.y for p in places) - SOFT_MM) * px_per_mm))
        x1 = min(w, int((max(p.x + p.w for p in places) + SOFT_MM) * px_per_mm) + 1)
        y1 = min(h, int((max(p.y + p.h for p in places) + SOFT_MM) * px_per_mm) + 1)
        key = (rectified.shape, (x0, y0, x1, y1))
        if key not in self._kept:
            if len(self._kept) >= SOFT_KEPT:
                self._kept.clear()
            self._kept[key] = (np.zeros(rectified.shape, np.float32),
                               np.zeros(rectified.shape, np.uint8))
        smooth, soft = self._kept[key]
        # cv2.GaussianBlur's blur (its kernel for floats), straight from the bytes: no float copy
        kernel = _soft_kernel()
        cv2.sepFilter2D(rectified[y0:y1, x0:x1], cv2.CV_32F, kernel, kernel,
                        dst=smooth[y0:y1, x0:x1], borderType=cv2.BORDER_REFLECT_101)
        # a blur of bytes stays within 0..255: cut to whole grey levels
        np.copyto(soft[y0:y1, x0:x1], smooth[y0:y1, x0:x1], casting="unsafe")
        return smooth, soft


@functools.cache
def _soft_kernel() -> NDArray[np.float32]:
    """The Gaussian kernel cv2.GaussianBlur uses for a float image at SOFTEN pixels."""
    return np.asarray(cv2.getGaussianKernel(round(SOFTEN * 8 + 1) | 1, SOFTEN, cv2.CV_32F),
                      np.float32)


def _fisher(means: NDArray[np.float64], spreads: NDArray[np.float64]
            ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The Fisher weights that tell these faces apart pixel by pixel (how their looks' means
    differ over how each face's examples spread), and each face's mean squared and weighted."""
    squares = means ** 2
    share = np.full(len(means), 1 / len(means))  # their means over faces, as products
    mean, spread = share @ means, share @ spreads
    variance = np.maximum(share @ squares - mean * mean, 0.0)
    weight = variance / (spread + 1e-5 * float(spread.mean()))
    return weight, squares @ weight


def _look(patches: NDArray[np.uint8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """A face's mean look, the way up most of its examples were taught, and how they vary,
    pixel by pixel (card_details), each example taken the way up that matches the others (a
    card may be taught upside down)."""
    both = card_details(half_turns(patches))
    details, turned = both[:len(patches)], both[len(patches):]
    mean = details[0]
    for _ in range(3):
        upright = (details @ mean) >= (turned @ mean)
        aligned = np.where(upright[:, None], details, turned)
        mean = aligned.mean(axis=0)
    if 2 * upright.sum() < len(upright):  # aligned with a first example taught upside down
        mean, aligned = _turned(mean[None])[0], _turned(aligned)
    return np.asarray(mean, np.float32), np.asarray(aligned.var(axis=0), np.float32)


def _turned(rows: NDArray[np.floating]) -> NDArray[np.floating]:
    """Flattened CARD_VIEW colour patches (N × size), each turned upside down."""
    w, h = CARD_VIEW
    return np.ascontiguousarray(rows.reshape(-1, h, w, 3)[:, ::-1, ::-1].reshape(len(rows), -1))


