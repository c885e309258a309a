"""The pad's build: a digest of what an open page is made of (its scripts and styles, its
template and its words, as they lie in ``web``). A page keeps the build it was served with, in
its first state, and loads again once the table it talks to serves another: an upgrade, whose
server an old page's scripts may no longer understand (``static/pad.js``, reloadWhenUpgraded).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask

PARTS = ("static", "templates", "i18n")
"""The folders of ``web`` a page is made from."""


def build_of(app: Flask) -> str:
    """A digest of the files a page of ``app`` is made from: their names and their bytes."""
    root = Path(app.root_path)
    digest = hashlib.sha256()
    for path in sorted(p for part in PARTS for p in (root / part).rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
