"""Nearest neighbours over taught examples, answering "not sure" unless one face is clearly closest.

Embeddings are unit vectors (vision.features): the similarity of two is their dot product. A
query's similarity to a label is that of the label's most similar example. The most similar
label wins; a face wins only by at least `margin` over the next face, else the query is a
component whose face is not sure. The background label (no die here) wins when it is the most
similar. Long embeddings may be compared on their `dims` principal axes (faster, same order).
When the examples come as groups of views of one example (seen otherwise: light, blur, a little
off centre), the directions in which views of one example differ are whitened away (their
spread made the same in every direction, a linear map, so reading costs no more): what is left
to compare is what tells faces apart, such as a few small dots.

>>> import numpy as np
>>> examples = np.eye(3, dtype=np.float32)
>>> nn = Neighbours(examples, ("a", "b", "none"), background="none", margin=0.1,
...                 background_margin=0.1)
>>> queries = np.array([[1, 0.1, 0], [0.6, 0.6, 0], [0, 0, 1]], np.float32)
>>> [m.label for m in nn.match(queries / np.linalg.norm(queries, axis=1, keepdims=True))]
['a', None, 'none']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.blas import one_thread

MARGIN = 0.02  # a face's similarity must beat the next face's by this much
BACKGROUND_MARGIN = 0.055  # and the background's by this much
SHRINK = 0.2  # the spread within examples' views is whitened, shrunk this much to the identity


@dataclass(frozen=True)
class Match:
    """One query's answer: label (None = not sure), the most similar label whatever the
    margin, its similarity, and its lead over the next face (0..2)."""

    label: str | None
    nearest: str
    similarity: float
    lead: float


class Neighbours:
    """The examples' embeddings and labels; background is the label meaning "nothing here"
    (None: every label is a face); groups: each example's group (views of one example), whose
    spread within groups is whitened (see the module's docstring)."""

    def __init__(self, vectors: NDArray[np.float32], labels: Sequence[str], *,
                 background: str | None, margin: float = MARGIN,
                 background_margin: float = BACKGROUND_MARGIN,
                 dims: int | None = None, groups: NDArray[np.int64] | None = None,
                 shrink: float = SHRINK) -> None:
        self.names = tuple(sorted(set(labels)))
        index = np.array([self.names.index(x) for x in labels], np.int64)
        order = np.argsort(index, kind="stable")  # each label's examples side by side
        vectors = np.asarray(vectors, np.float32)
        one_thread()  # the same sums whatever OpenBLAS's threads (they share them out), and
        # small products after (see vision.blas)
        self.projection = _principal_axes(vectors, dims) \
            if dims is not None and vectors.shape[1] > dims else None
        if groups is not None:
            self.projection = _whitened(vectors, self.projection, groups, shrink)
        # the examples as columns (each label's side by side): a product with queries' rows
        # reads them in order, twice as fast as through a transposed view
        self._examples = np.ascontiguousarray(self._project(vectors)[order].T)
        self.bounds = np.searchsorted(index[order], np.arange(len(self.names) + 1))
        self.background = background
        self.margin, self.background_margin = margin, background_margin
        self._faces = np.array([k for k, n in enumerate(self.names) if n != background])

    def similarities(self, queries: NDArray[np.float32]) -> NDArray[np.float32]:
        """Each query's similarity to each label's most similar example (N × labels)."""
        s = self._project(np.asarray(queries, np.float32)) @ self._examples
        return np.asarray(np.maximum.reduceat(s, self.bounds[:-1], axis=1), np.float32)

    def match(self, queries: NDArray[np.float32]) -> list[Match]:
        return self.decide_all(self.similarities(queries))

    def decide_all(self, rows: NDArray[np.float32]) -> list[Match]:
        """The answer for each query's label similarities (N × labels, rows of
        similarities()): the most similar face, sure when it leads the next face by the
        margin; the background when it is the most similar label, or when the most similar
        is not the background_margin ahead of it."""
        rows = np.asarray(rows)
        at = np.arange(len(rows))[:, None]
        faces = rows if self.background is None else rows[:, self._faces]
        ranked = np.argsort(-faces, axis=1)[:, :2]  # each row's best face and the next
        top = faces[at, ranked]
        if self.background is not None:
            ranked = self._faces[ranked]
        leads = (top[:, 0] - top[:, 1]).tolist() if len(self._faces) > 1 else [2.0] * len(rows)
        nothing, k, most = [False] * len(rows), 0, top[:, 0]
        if self.background is not None:
            k = self.names.index(self.background)
            best = np.argmax(rows, axis=1)
            most = rows[at[:, 0], best]
            nothing = ((best == k) | (most - rows[:, k] < self.background_margin)).tolist()
        return [Match(self.names[k], self.names[k], m, d) if n
                else Match(self.names[t] if d >= self.margin else None, self.names[t], s, d)
                for t, s, d, m, n in zip(ranked[:, 0].tolist(), top[:, 0].tolist(), leads,
                                         most.tolist(), nothing, strict=True)]

    def decide(self, row: NDArray[np.float32]) -> Match:
        """The answer for one query's label similarities (a row of similarities())."""
        return self.decide_all(np.asarray(row)[None])[0]

    def project(self, vectors: NDArray[np.float32]) -> NDArray[np.float32]:
        """Embeddings as they are compared (a dot product of two: their similarity)."""
        return self._project(np.asarray(vectors, np.float32))

    def _project(self, vectors: NDArray[np.float32]) -> NDArray[np.float32]:
        """Vectors on the principal axes (renormalised), or as they are."""
        if self.projection is None:
            return vectors
        out = vectors @ self.projection
        return np.asarray(out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-6), np.float32)


def _whitened(vectors: NDArray[np.float32], projection: NDArray[np.float32] | None,
              groups: NDArray[np.int64], shrink: float) -> NDArray[np.float32]:
    """The projection followed by a whitening of the spread within groups (views of one
    example: how one face varies), shrunk towards the identity by `shrink`."""
    p = projection if projection is not None else np.eye(vectors.shape[1], dtype=np.float32)
    x = vectors @ p
    x = x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-6)
    _, inverse = np.unique(groups, return_inverse=True)
    means = np.zeros((inverse.max() + 1, x.shape[1]), np.float64)
    np.add.at(means, inverse, x)
    means /= np.bincount(inverse)[:, None]
    d = x - means[inverse]
    within = d.T @ d / len(d)
    within = (1 - shrink) * within + shrink * np.trace(within) / len(within) * np.eye(len(within))
    size, turn = np.linalg.eigh(within)
    w = turn / np.sqrt(np.maximum(size, 1e-12)) @ turn.T
    return np.asarray(p @ w, np.float32)


def _principal_axes(vectors: NDArray[np.float32], dims: int) -> NDArray[np.float32]:
    """The `dims` principal axes (D × dims) of the vectors, about zero, the longest first: by
    subspace iteration (only products of matrices, which stay fast where a full
    eigendecomposition would not). Each axis points the way a fixed direction leans (an
    eigenvector's sign is the rounding's choice: the same examples summed in another order
    gave 13 of 128 axes the other way; their largest components cannot choose, as a die's
    quarter turns make them tie in pairs). Reads do not depend on it, comparing axes does.
    """
    x = np.asarray(vectors, np.float32)
    scatter = x.T @ x
    basis = np.random.default_rng(0).standard_normal((x.shape[1], dims + 16)).astype(np.float32)
    for _ in range(4):
        basis = _orthonormal(np.asarray(scatter @ basis, np.float32))
    _, turn = np.linalg.eigh(basis.T @ scatter @ basis)  # ascending
    axes = basis @ turn[:, ::-1][:, :dims]
    leaning = np.random.default_rng(1).standard_normal(x.shape[1]) @ axes
    return np.ascontiguousarray(axes * np.where(leaning < 0, -1, 1), np.float32)


def _orthonormal(m: NDArray[np.float32]) -> NDArray[np.float32]:
    """An orthonormal basis of m's columns (through the small matrix of their products)."""
    size, turn = np.linalg.eigh(m.T @ m)
    return np.asarray(m @ (turn / np.sqrt(np.maximum(size, 1e-12))), np.float32)
