"""Neighbours: the spread of each example's views whitened, so what tells faces apart counts."""

import numpy as np

from vision.components import NOTHING
from vision.face_reader import DIMS
from vision.features import die_views, embed_dice, quarter_turns
from vision.neighbours import Neighbours
from vision.profile import default


def _unit(v: np.ndarray) -> np.ndarray:
    return np.asarray(v / np.linalg.norm(v, axis=-1, keepdims=True), np.float32)


def test_whitened_views_lead_by_the_mark_that_tells_faces_apart() -> None:
    rng = np.random.default_rng(0)
    # two faces alike but for a mark (axis 2); each example seen in views that vary a lot
    # along axis 1 (light, a little off centre) and a little everywhere
    base = np.array([[1.0, 0.0, 0.2, 0.0], [1.0, 0.0, -0.2, 0.0]])
    views = _unit(np.concatenate([base + rng.normal(0, [0.01, 0.6, 0.01, 0.01], (2, 4))
                                  for _ in range(30)]))
    labels, groups = ("a", "b") * 30, np.tile([0, 1], 30)
    plain = Neighbours(views, labels, background=None)
    whitened = Neighbours(views, labels, background=None, groups=groups)
    for face, query in (("a", [1.0, 1.5, 0.2, 0.0]), ("b", [1.0, -1.5, -0.2, 0.0])):
        seen = _unit(np.array([query]))
        before, after = plain.match(seen)[0], whitened.match(seen)[0]
        assert after.label == face
        assert after.lead > 1.5 * before.lead


def test_rows_decided_together_are_decided_as_one_by_one() -> None:
    """decide_all answers each row of similarities as decide() does, ties and near ties
    included, with and without a background label."""
    rng = np.random.default_rng(1)
    examples = _unit(rng.normal(size=(60, 8)))
    queries = _unit(rng.normal(size=(400, 8)))
    for background in (None, "f0"):
        nn = Neighbours(examples, [f"f{i % 12}" for i in range(60)], background=background,
                        margin=0.02)
        rows = nn.similarities(queries)
        rows[:40, 3] = rows[:40, 7]  # two faces exactly as similar
        rows[40:80, 5] = rows[40:80].max(axis=1) - 0.01  # a face just behind the best
        assert nn.decide_all(rows) == [nn.decide(row) for row in rows]
        assert {m.label for m in nn.decide_all(rows)} >= {None, "f1"}


def test_the_axes_are_the_same_whatever_order_the_examples_are_summed_in() -> None:
    """An eigenvector's sign is the rounding's choice: the shipped Dalek examples in another
    order (sums rounded otherwise, as on another machine or with other BLAS threads) gave
    13 of 128 principal axes pointing the other way (0.69 apart). They now point the same
    way, within the rounding; the reads never depended on it."""
    profile = default("dalek")
    vectors = embed_dice(quarter_turns(die_views(profile.patches, 0)))
    labels = profile.labels * 4
    shuffled = np.random.default_rng(1).permutation(len(labels))
    axes = [Neighbours(v, lab, background=NOTHING, dims=DIMS).projection
            for v, lab in ((vectors, labels), (vectors[shuffled],
                                               tuple(labels[i] for i in shuffled)))]
    assert axes[0] is not None and axes[1] is not None
    assert np.abs(axes[0] - axes[1]).max() < 1e-3
