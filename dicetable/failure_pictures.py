"""The folder ``dicetable eval --save-failures`` writes its pictures into (vision.failures):
made before anything is read, each picture named after the image it shows."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray


class PictureError(Exception):
    """The folder or a picture cannot be written; the message says which and why."""


class FailurePictures:
    """Pictures written into one folder: ``images/a.jpg``'s as ``images__a.jpg`` (``-2``,
    ``-3`` when two images share a name)."""

    def __init__(self, folder: Path) -> None:
        """Make the folder (PictureError when it cannot be)."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise PictureError(f"cannot create {folder}: {err.strerror or err}") from err
        self.folder = folder
        self._taken: set[str] = set()

    def name_for(self, file: str) -> str:
        """A name not yet given for the picture of the image ``file``."""
        stem = Path(file.replace("/", "__")).stem
        name, n = f"{stem}.jpg", 1
        while name in self._taken:
            n += 1
            name = f"{stem}-{n}.jpg"
        self._taken.add(name)
        return name

    def save(self, name: str, picture: NDArray[np.uint8]) -> None:
        """Write the picture as ``name`` (its type by its suffix); PictureError when it cannot
        be."""
        path = self.folder / name
        ok, data = cv2.imencode(path.suffix, picture)
        try:
            if not ok:
                raise OSError(f"cannot encode {path.suffix}")
            path.write_bytes(data.tobytes())
        except OSError as err:
            raise PictureError(f"cannot write {path}: {err.strerror or err}") from err
