"""Read special dice (Dalek faces, d6 with pictures) by nearest neighbours over a profile.

The die finder (vision.dice_finder) finds the dice and the centres of their top faces, whatever
the faces show; each face is cut out turned upright (vision.features.die_angle), embedded and
compared with the profile's examples, each in its four quarter turns, so a die is read at any
rotation. A die read doubtfully is cut out again on a grid of places around where it was
found, then a little off, while that makes it look more like a face (the centre head is off by
a few pixels on art it never saw, up to 9 px of a 49 px die with small dots, where it then
looks like another face; a die still "not sure" then is looked for on a grid twice as wide:
a `pop` die's bold cross can draw the centre head a quarter of a side off). Examples are compared
through their rendered views with the spread of each example's views whitened away
(vision.neighbours), so a small mark that tells two faces apart counts (whitening only for a
profile taught from few examples a face, nudges for any but the shipped ones: with many
examples, they made a few wrong reads). A die nearest to the profile's "none" examples is not a
die, nor is one with less ink than FAINT of the profile's faintest face or SHADOW_INK,
whichever is less (vision.die_ink: a die's shadow, a die long under a high lamp, is paper with
nothing drawn on it; it looked more like a face than like the "none" examples, printed marks,
and was read a die). With a profile taught from few examples, a die whose faces are nearly as
similar as each other is then told apart by its look at full size, matched with each alike face
where it fits best (vision.alike_faces: faces alike but for a few dots 5 px wide, which the
embeddings barely tell apart). A die whose face is not clearly nearest is read "not sure" (face
None).

On a rectified sheet the dice's side is known (the profile's side in millimetres), and the
locator looks at the sheet shrunk so that the shipped profile's dice are about LOCATOR_SIDE
pixels wide (less work than its usual scale for dice that large; the sheet's sides cut to
whole blocks) and the die finder centres them with its lighter network made for them;
elsewhere each die's side is the locator's guess. For d6 dice, a profile that
teaches only some faces (a logo on the one) reads those, and the ordinary pip reader reads
the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from vision.alike_faces import FaceLooks
from vision.components import NOTHING, faces
from vision.dice import DieRead
from vision.dice_finder import DieFinder
from vision.die_ink import ink
from vision.features import crop_die, die_angles_in, die_views, embed_dice, quarter_turns
from vision.locate import SCALE, Candidate
from vision.neighbours import Match, Neighbours
from vision.profile import Profile
from vision.reader import DiceReader, check_image

SAME_DIE = 0.8  # reads closer than this many sides are one die (top faces of two dice lie a
# side apart or more; off a sheet, a side is the locator's guess, up to a third too large)
DIMS = 128  # faces are compared on this many principal axes of the examples
VIEWS = 48  # a face taught from fewer examples is also compared as seen otherwise, to this many
ROOM = 48  # pixels of image read around an area where the dice's side is not known
GRID = 0.06  # a die is cut out again on a 5 × 5 grid of places this share of its side apart,
WIDE = 0.12  # (a die still "not sure" after: this share apart; the centre head may put one a
# quarter of its side off, towards its side face)
NUDGE = 0.04  # then this share of its side off in each direction, ...
NUDGES = 3  # ... in at most this many rounds in all, while that makes it look more like a face,
DOUBT = 0.1  # ... when its face leads the next by less than this
NEAR = 0.05  # ... or it was read "no die" by less than this
ALIKE = 0.2  # faces this close in similarity to the best are told apart by their look
HEAT = 0.15  # locator score a candidate needs (dice with pictures, blurred, score 0.2 and up)
LOCATOR_SIDE = 10  # where the dice's side is known, the locator sees the shipped profile's
# dice about this many pixels wide (its input shrunk more than usual for large dice: 48 px
# dice, 5 times, a run on 0.64 of the pixels; with art it never saw, taught at a table, its
# scores are weaker there: a few more reads where no die is)
RECHECK = 0.7  # a die on a sheet centred by the lighter network and read with less
# confidence is centred again by the classifier's centre head and read again
KNOWN = 10  # a profile whose faces were each taught this often is read without whitening,
SHIPPED = 20  # ... and this often (the shipped profiles: rendered scenes) without nudges nor
# telling alike faces apart by their look
FAINT = 0.4  # a die shows at least this share of the ink of the profile's faintest face (the
# median of that face's examples: one blank example taught by mistake does not set the bar)...
SHADOW_INK = 0.09  # ...and never needs more than this: shadows and bare paper read as dice
# showed 0.062 and less; 1,897 Dalek dice read right on renders and Blender frames 0.146 and up
# (dice washed out by glare), 99 % 0.229 and up; a profile taught from crisp photos (faintest
# face 0.4) would otherwise ask washed-out dice for 0.166 and drop them


@dataclass(frozen=True)
class FaceRead:
    """One die: its face (None = not sure), its top face's centre and side in image pixels,
    and a confidence 0..1 (the face's lead over the next one)."""

    face: str | None
    x: float
    y: float
    size: float
    confidence: float

    @property
    def sure(self) -> bool:
        return self.face is not None


class FaceReader:
    """Reads the dice a profile teaches in BGR images; one instance serves any number of reads.

    pips: for a d6 profile that does not teach every face, the ordinary reader for the rest
    (default: the shipped one).
    """

    def __init__(self, profile: Profile, *, finder: DieFinder | None = None,
                 pips: DiceReader | None = None, threads: int | None = None) -> None:
        if profile.kind not in ("dalek", "d6"):
            raise ValueError(f"a face reader reads dice, not {profile.kind}")
        self.profile = profile
        self.finder = finder or DieFinder(threads=threads)
        fewest = _fewest(profile)
        copies = max(0, -(-VIEWS // fewest) - 1)  # other views of each example compared too
        views = die_views(profile.patches, copies)
        labels = profile.labels * (copies + 1)
        n, turned = len(profile.labels), np.arange(4 * len(views))
        example = turned // len(views) * n + turned % n  # views of one example, one way up
        whiten = fewest < KNOWN  # a face taught often has shown how the camera sees it
        self.neighbours = Neighbours(embed_dice(quarter_turns(views)), labels * 4,
                                     background=NOTHING, dims=DIMS,
                                     groups=example if whiten else None)
        taught = fewest < SHIPPED  # a profile taught at a table, not a shipped one
        self.shipped = not taught
        self.nudges = NUDGES if taught else 0
        self.looks = FaceLooks(*_faces_only(profile)) if taught else None
        self._face_columns = [k for k, n in enumerate(self.neighbours.names) if n != NOTHING]
        self.least_ink = _least_ink(profile.labels, views[:n])  # (each example's own view)
        untaught = set(faces(profile.kind)) - set(profile.labels)
        self.pips = None
        if profile.kind == "d6" and untaught:
            self.pips = pips or DiceReader(threads=threads)

    def read(self, image_bgr: NDArray[np.uint8], *, px_per_mm: float | None = None,
             skip: Callable[[list[tuple[float, float, float]]], Sequence[bool]] | None = None,
             area: tuple[int, int, int, int] | None = None) -> tuple[FaceRead, ...]:
        """Every die found, surest first; px_per_mm: the image's scale when it is a rectified
        sheet (the dice's side is then known from the profile); skip([(x, y, side), ...]): whether
        each candidate die is known to be none (the sheet's print), so it is not read; area:
        (x0, y0, x1, y1) pixels, only the dice centred there, looked for with a die's side of
        the image around it (the locator misses dice at an image's edge)."""
        image = check_image(image_bgr)
        side = self.profile.side_mm * px_per_mm if px_per_mm and self.profile.side_mm else None
        x0 = y0 = 0
        if area is not None:
            room = round(side or ROOM)
            x0, y0 = max(0, area[0] - room), max(0, area[1] - room)
            image = np.ascontiguousarray(image[y0:area[3] + room, x0:area[2] + room])
        found = self.finder.candidates(*self.looked_at(image, side), threshold=HEAT)
        if skip is not None:
            none = skip([(c.x + x0, c.y + y0, side or c.size) for c in found])
            found = [c for c, no in zip(found, none, strict=True) if not no]
        sheet = self._on_sheet(side)
        found = self.finder.centred(image, found, side, sheet=sheet)
        reads = self._read_all(image, found)
        if sheet:
            reads = self._checked(image, reads, side)
        if self.pips is not None:
            reads = self._with_pips(image, reads)
        if area is not None:
            reads = [replace(r, x=r.x + x0, y=r.y + y0) for r in reads
                     if area[0] <= r.x + x0 < area[2] and area[1] <= r.y + y0 < area[3]]
        return _distinct(reads)

    def looked_at(self, image: NDArray[np.uint8], side: float | None
                   ) -> tuple[NDArray[np.uint8], int]:
        """The image the locator looks at and how many times it shrinks it: with the shipped
        profile where the dice's side is known, the dice shown about LOCATOR_SIDE pixels wide,
        the image's sides cut to multiples of that (whole blocks averaged, quickly)."""
        if not side or not self.shipped:
            return image, SCALE
        scale = max(SCALE, round(side / LOCATOR_SIDE))
        h, w = image.shape[:2]
        return image[:h - h % scale, :w - w % scale], scale

    def _on_sheet(self, side: float | None) -> bool:
        """Whether the dice are the shipped Dalek dice on a rectified sheet (their side known),
        which the die finder's lighter centre network was distilled for."""
        return bool(side) and self.shipped and self.profile.kind == "dalek"

    def _checked(self, image: NDArray[np.uint8], reads: list[FaceRead], side: float | None
                 ) -> list[FaceRead]:
        """Reads centred by the lighter network, those read with less than RECHECK confidence
        centred again by the classifier's centre head from where they were read, and read
        again (about one die in a hundred: a pale die, or the side of one seen tall)."""
        doubtful = [r for r in reads if r.confidence < RECHECK]
        if not doubtful:
            return reads
        again = self.finder.centred(image, [Candidate(r.x, r.y, r.size, r.confidence)
                                            for r in doubtful], side)
        return [r for r in reads if r.confidence >= RECHECK] + self._read_all(image, again)

    def _read_all(self, image: NDArray[np.uint8], found: list[Candidate]) -> list[FaceRead]:
        if not found:
            return []
        place = np.array([(c.x, c.y) for c in found], np.float64)
        angles = die_angles_in(image, [(c.x, c.y, c.size) for c in found])
        cut = np.stack([crop_die(image, x, y, c.size, a)
                        for (x, y), c, a in zip(place, found, angles, strict=True)])
        rows = self.neighbours.similarities(embed_dice(cut))
        cuts = _Cuts(place, cut, rows, self._face_similarity(rows))
        cuts = self._moved(image, found, angles, [i for i, row in enumerate(rows)
                                                  if self.nudges and self._doubtful(row)],
                           GRID, cuts)
        inked = (ink(cuts.cut) >= self.least_ink).tolist()
        reads = [self._decided(image, c, cuts.place[i], cuts.rows[i], angles[i], m, inked[i])
                 for i, (c, m) in enumerate(zip(found, self.neighbours.decide_all(cuts.rows),
                                                strict=True))]
        unsure = [i for i, r in enumerate(reads) if self.nudges and r and r.face is None]
        if unsure:  # searched wider: the centre head may have put it a quarter side off
            cuts = self._moved(image, found, angles, unsure, WIDE, cuts)
            inked_now = (ink(cuts.cut[unsure]) >= self.least_ink).tolist()
            for i, m, drawn in zip(unsure, self.neighbours.decide_all(cuts.rows[unsure]),
                                   inked_now, strict=True):
                reads[i] = self._decided(image, found[i], cuts.place[i], cuts.rows[i], angles[i],
                                         m, drawn)
        return [r for r in reads if r is not None]

    def _decided(self, image: NDArray[np.uint8], found: Candidate, place: NDArray[np.float64],
                 row: NDArray[np.float32], angle: float, m: Match, inked: bool
                 ) -> FaceRead | None:
        """The read of a die cut out at this place (None: no die): its similarities row,
        decided as m; inked: whether the cut shows a face's ink."""
        if m.label == NOTHING or not inked:
            return None
        x, y = float(place[0]), float(place[1])
        face, confidence = m.label, min(1.0, max(0.0, m.lead * 5))
        if self.looks is not None and len(alike := self._alike(row)) > 1:
            face, confidence = self.looks.told_apart(image, x, y, found.size, angle, alike)
        return FaceRead(face, x, y, found.size, confidence)

    def _moved(self, image: NDArray[np.uint8], found: list[Candidate], angles: list[float],
               moving: list[int], step: float, cuts: _Cuts) -> _Cuts:
        """The candidates' cuts with these dice cut out again on a 5 × 5 grid of places `step`
        sides apart, then nudged, while that makes them look more like a face (the cuts given
        are left as they are)."""
        if not moving:
            return cuts
        place, cut, rows, best = (cuts.place.copy(), cuts.cut.copy(), cuts.rows.copy(),
                                  cuts.best.copy())
        for done in range(self.nudges):
            if not moving:
                break
            moves, size = (_MOVES, NUDGE) if done else (_GRID, step)
            tries = [(i, place[i, 0] + dx * size * found[i].size,
                      place[i, 1] + dy * size * found[i].size)
                     for i in moving for dx, dy in moves]
            again_cut = np.stack([crop_die(image, x, y, found[i].size, angles[i])
                                  for i, x, y in tries])
            again = self.neighbours.similarities(embed_dice(again_cut))
            score = self._face_similarity(again).reshape(len(moving), len(moves))
            still = []
            for n, i in enumerate(moving):
                k = int(np.argmax(score[n]))
                if score[n, k] > best[i]:
                    j = n * len(moves) + k
                    place[i] = tries[j][1:]
                    cut[i], rows[i], best[i] = again_cut[j], again[j], score[n, k]
                    still.append(i)
            moving = still
        return _Cuts(place, cut, rows, best)

    def _alike(self, row: NDArray[np.float32]) -> list[str]:
        """The faces to tell apart by their look: those whose similarity (a row of
        similarities()) is within ALIKE of the best face's."""
        names, near = self.neighbours.names, row[self._face_columns]
        return [names[k] for k, s in zip(self._face_columns, near, strict=True)
                if s >= near.max() - ALIKE]

    def _doubtful(self, row: NDArray[np.float32]) -> bool:
        """Whether a candidate's read (a row of similarities) is worth cutting out again: not
        clearly "no die" and not clearly one face."""
        m = self.neighbours.decide(row)
        names = self.neighbours.names
        if m.label == NOTHING and NOTHING in names:
            face = float(self._face_similarity(row[None])[0])
            return face > float(row[names.index(NOTHING)]) - NEAR
        return m.lead < DOUBT

    def _face_similarity(self, rows: NDArray[np.float32]) -> NDArray[np.float32]:
        """Each row's similarity to its most similar face (not the background)."""
        return np.asarray(rows[:, self._face_columns].max(axis=1), np.float32)

    def _with_pips(self, image: NDArray[np.uint8], reads: list[FaceRead]) -> list[FaceRead]:
        """Taught faces read sure win; elsewhere the pip reader's reads stand."""
        assert self.pips is not None
        taught = [r for r in reads if r.sure]
        out = list(taught)
        for pip in self.pips.read(image):
            if not any(_near(pip.x, pip.y, r) for r in taught):
                out.append(_from_pips(pip, reads))
        return out


class _Cuts(NamedTuple):
    """Candidates as cut out, row for row: their places (x, y), cut-outs, similarities rows and
    similarity to their most similar face."""

    place: NDArray[np.float64]
    cut: NDArray[np.uint8]
    rows: NDArray[np.float32]
    best: NDArray[np.float32]


_MOVES = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))  # a nudge's directions
_GRID = tuple((float(a), float(b)) for a in range(-2, 3) for b in range(-2, 3)
              if a or b)  # the first round's places around a die, GRID sides apart


def _fewest(profile: Profile) -> int:
    """The fewest examples any face of the profile was taught from."""
    return min(n for label, n in profile.counts().items() if label != NOTHING)


def _least_ink(labels: tuple[str, ...], views: NDArray[np.uint8]) -> float:
    """The ink a read needs to be a die (see FAINT and SHADOW_INK), from the view of each of
    the profile's examples."""
    named = np.array(labels)
    faces = named != NOTHING
    inks, named = ink(views[faces]), named[faces]
    faintest = min(float(np.median(inks[named == face])) for face in set(named))
    return min(FAINT * faintest, SHADOW_INK)


def _faces_only(profile: Profile) -> tuple[tuple[str, ...], NDArray[np.uint8]]:
    """The profile's face examples (not its "none" ones): labels and patches."""
    keep = [i for i, label in enumerate(profile.labels) if label != NOTHING]
    return tuple(profile.labels[i] for i in keep), profile.patches[keep]


def _from_pips(pip: DieRead, reads: list[FaceRead]) -> FaceRead:
    size = next((r.size for r in reads if _near(pip.x, pip.y, r)), pip.size)
    return FaceRead(str(pip.value) if pip.value is not None else None, pip.x, pip.y, size,
                    pip.confidence)


def _near(x: float, y: float, read: FaceRead) -> bool:
    return (x - read.x) ** 2 + (y - read.y) ** 2 < (SAME_DIE * max(read.size, 8.0)) ** 2


def _distinct(reads: list[FaceRead]) -> tuple[FaceRead, ...]:
    """Drop a second read of one die (sure reads first, then the more confident)."""
    kept: list[FaceRead] = []
    for r in sorted(reads, key=lambda r: (not r.sure, -r.confidence)):
        if not any(_near(r.x, r.y, k) or _near(k.x, k.y, r) for k in kept):
            kept.append(r)
    return tuple(kept)
