"""Teach profiles: what each face of a table's own dice or cards looks like, from examples.

A profile keeps its example patches (not features), so it can be rebuilt whenever the
embedding changes and does not depend on any network's weights: die faces cut out upright
(vision.features.DIE_EXAMPLE, one quarter turn of four, with room around), cards along their outline
(vision.features.CARD_VIEW). Labels are faces of vision.components, and for dice NOTHING
(what the table shows that is not a die). A die profile taught on a printed sheet knows the
dice's side in millimetres. Saved as an .npz (no pickles) whose patches are kept as lossless WebP
images, a third the size of the raw pixels compressed.

>>> import numpy as np
>>> p = Profile("dalek", ("H4", "none"), np.zeros((2, 60, 60, 3), np.uint8), side_mm=16.0)
>>> p.counts(), p.taught()
({'H4': 1, 'none': 1}, ('H4',))
"""

from __future__ import annotations

import io
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.components import KINDS, NOTHING, faces, is_card
from vision.errors import VisionError
from vision.features import CARD_VIEW, DIE_EXAMPLE

MODELS = Path(__file__).resolve().parent.parent / "models"
FORMAT = 3
LOSSLESS = [cv2.IMWRITE_WEBP_QUALITY, 101]  # WebP above quality 100 is lossless


class ProfileError(VisionError):
    """A profile file that cannot be used (missing, not a profile, wrong kind)."""


@dataclass(frozen=True)
class Profile:
    """Examples of one kind of component: a label and a patch each; side_mm: the dice's side
    on the sheet (0: not known)."""

    kind: str
    labels: tuple[str, ...]
    patches: NDArray[np.uint8]
    source: str = ""
    side_mm: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ProfileError(f"unknown kind {self.kind!r}")
        shape = patch_shape(self.kind)
        if self.patches.shape[1:] != shape or len(self.patches) != len(self.labels):
            raise ProfileError(f"a {self.kind} profile needs one {shape} patch per label")
        allowed = set(faces(self.kind)) | (set() if is_card(self.kind) else {NOTHING})
        unknown = sorted(set(self.labels) - allowed)
        if unknown:
            raise ProfileError(f"labels not faces of {self.kind}: {', '.join(unknown)}")

    def counts(self) -> dict[str, int]:
        """Examples per label."""
        return dict(Counter(self.labels))

    def taught(self) -> tuple[str, ...]:
        """The faces this profile can read (the background label excluded)."""
        return tuple(f for f in faces(self.kind) if f in set(self.labels))

    def save(self, path: Path) -> None:
        """Write the profile as an .npz file (its patches as lossless WebP images)."""
        buffer = io.BytesIO()
        images = [_encoded(patch) for patch in self.patches]
        np.savez_compressed(buffer, format=np.array(FORMAT), kind=np.array(self.kind),
                            labels=np.array(self.labels), images=np.concatenate(images),
                            ends=np.cumsum([len(i) for i in images]),
                            source=np.array(self.source), side_mm=np.array(self.side_mm))
        path.write_bytes(buffer.getvalue())


def load(path: Path) -> Profile:
    """Read a profile saved by Profile.save; ProfileError when it is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != FORMAT:
                raise ProfileError(f"{path}: a profile of another format "
                                   f"({int(data['format'])}): teach it again")
            kind = str(data["kind"])
            return Profile(kind, tuple(str(s) for s in data["labels"]),
                           _decoded(data["images"], data["ends"], patch_shape(kind)),
                           str(data["source"]), float(data["side_mm"]))
    except FileNotFoundError as err:
        raise ProfileError(f"no profile at {path}") from err
    except (PermissionError, IsADirectoryError) as err:
        raise ProfileError(f"{path} cannot be read ({err.strerror})") from err
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as err:
        raise ProfileError(f"{path} is not a teach profile (it is damaged, or another kind "
                           "of file)") from err


def default(kind: str) -> Profile:
    """The shipped profile of a kind (taught from the rendered classic art)."""
    return load(MODELS / f"profile-{kind}.npz")


def patch_shape(kind: str) -> tuple[int, int, int]:
    """The shape of one example patch of a kind."""
    if is_card(kind):
        return (CARD_VIEW[1], CARD_VIEW[0], 3)
    return (DIE_EXAMPLE, DIE_EXAMPLE, 3)


def _encoded(patch: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """One patch as the bytes of a lossless WebP image."""
    done, data = cv2.imencode(".webp", patch, LOSSLESS)
    if not done:
        raise ProfileError("this OpenCV cannot write WebP images")
    return np.asarray(data, np.uint8).ravel()


def _decoded(images: NDArray[np.uint8], ends: NDArray[np.int64],
             shape: tuple[int, int, int]) -> NDArray[np.uint8]:
    """The patches back from their WebP bytes (ValueError when one is not a patch)."""
    starts = np.concatenate([[0], ends[:-1]]).astype(np.int64)
    out = np.zeros((len(ends), *shape), np.uint8)
    for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
        patch = cv2.imdecode(np.asarray(images[start:end], np.uint8), cv2.IMREAD_COLOR)
        if patch is None or patch.shape != shape:
            raise ValueError(f"example {i} is not a {shape[1]}×{shape[0]} image")
        out[i] = patch
    return out
