"""Where the file a set names lies (a photo ``labels.json`` names, an image's YOLO label
file), found as the system that made the set finds it.

A set labelled on Windows names its photos with backslashes (``images\\IMG_1.jpg``), and
Windows and a Mac find a file whatever the case of its letters (``img_1.jpg`` is
``IMG_1.JPG``); a Mac also keeps an accent apart from its letter (``é`` as ``e`` and a
combining accent) where a name typed on Linux holds it composed. Linux tells all of these
apart: a file named another way is found here, folder by folder, where one file alone
answers to its name so (two that differ in case alone: neither is taken).

>>> name_key("Cafe\\u0301.JPG") == name_key("caf\\u00e9.jpg")
True
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path


def name_key(name: str) -> str:
    """A file name as Windows and a Mac compare names: accents composed, case folded."""
    return unicodedata.normalize("NFC", name).casefold()


class FileFinder:
    """Finds a set's files under its folder, listing each folder looked into once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._listed: dict[Path, dict[str, list[Path]]] = {}

    def path_of(self, file: str) -> Path:
        """The file ``file`` names: as written when it is there, else the one file named so
        another way (see the module's note), else as written (told missing when read)."""
        written = self.root / file
        if written.exists():
            return written
        at = self.root
        for part in re.split(r"[\\/]", file):
            if part in ("", "."):
                continue
            if (at / part).exists():
                at = at / part
                continue
            alike = self._listing(at).get(name_key(part), [])
            if len(alike) != 1:
                return written
            at = alike[0]
        return at if at.is_file() else written

    def _listing(self, folder: Path) -> dict[str, list[Path]]:
        if folder not in self._listed:
            listing: dict[str, list[Path]] = {}
            try:
                for path in folder.iterdir():
                    listing.setdefault(name_key(path.name), []).append(path)
            except OSError:
                pass  # not a folder, or not open to this user: nothing named so here
            self._listed[folder] = listing
        return self._listed[folder]
