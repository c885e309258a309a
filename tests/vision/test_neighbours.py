"""Neighbours: the spread of each example's views whitened, so what tells faces apart counts."""

import numpy as np

from vision.neighbours import Neighbours


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
