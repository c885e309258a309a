"""Where the file a set names lies (a photo ``labels.json`` names, an image's YOLO label
file), found as the system that made the set finds it.

A set labelled on Windows names its photos with backslashes (``images\\IMG_1.jpg``), and
Windows and a Mac find a file whatever the case of its letters (``img_1.jpg`` is
``IMG_1.JPG``); a Mac also keeps an accent apart from its letter (``é`` as ``e`` and a
combining accent) where a name typed on Linux holds it composed. Linux tells all of these
apart: a file named another way is found here, folder by folder, where one file alone
answers to its name so (two that differ in case alone: neither is taken). A tool that writes
each photo's whole path (``C:\\Users\\ana\\dice\\images\\IMG_1.jpg``,
``/home/ana/dice/images/IMG_1.jpg``) names where it lay on the machine that labelled it: the
longest end of that path found under the set's folder is the photo (``images/IMG_1.jpg``).

A file found other than as written is taken only where no other entry of the set finds that
file too (:meth:`FileFinder.shared`): a set made on Linux may hold ``IMG_1.jpg`` and
``img_1.jpg``, and copied through a Mac keep one; a whole path may end in a name another entry
writes (``C:\\...\\val\\IMG_1.jpg`` and ``IMG_1.jpg``). Each would score one photo twice, or
one photo against another's labels.

>>> name_key("Cafe\\u0301.JPG") == name_key("caf\\u00e9.jpg")
True
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence
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
        parts = [part for part in re.split(r"[\\/]", file) if part not in ("", ".")]
        found = self._found(parts)
        if found is None and _whole_path(file):  # where it lay on the machine labelling it
            found = next((end for start in range(1, len(parts))
                          if (end := self._found(parts[start:])) is not None), None)
        return found or written

    def shared(self, found: Sequence[tuple[str, Path]]) -> dict[int, int]:
        """The entries to pass over, of those ``found`` lists (each its file's name as written
        and the file :meth:`path_of` found): each one found other than as written whose file
        another entry finds too, as written or not, with the index of that other entry (one
        found as written first)."""
        finders: dict[str, list[int]] = {}
        for index, (_, path) in enumerate(found):
            finders.setdefault(os.path.normpath(path), []).append(index)
        passed = {}
        for index, (name, path) in enumerate(found):
            others = [i for i in finders[os.path.normpath(path)] if i != index]
            if others and path != self.root / name:
                passed[index] = min(others, key=lambda i: (
                    found[i][1] != self.root / found[i][0], i))
        return passed

    def _found(self, parts: list[str]) -> Path | None:
        """The one file under the root at ``parts`` (each named as written, or the one entry
        of its folder named so another way), else None."""
        at = self.root
        for part in parts:
            if (at / part).exists():
                at = at / part
                continue
            alike = self._listing(at).get(name_key(part), [])
            if len(alike) != 1:
                return None
            at = alike[0]
        return at if at.is_file() else None

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


def _whole_path(file: str) -> bool:
    """Whether ``file`` is a whole path (``/home/ana/...``, ``C:\\Users\\...``), which a set
    made on another machine names as it lay there.

    >>> [_whole_path(f) for f in ("/home/a.jpg", "C:/a.jpg", "c:a.jpg", "images/a.jpg")]
    [True, True, False, False]
    """
    return file.startswith(("/", "\\")) or re.match(r"[A-Za-z]:[\\/]", file) is not None
