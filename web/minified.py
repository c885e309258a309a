"""The pad's scripts and styles served minified: comments and needless whitespace out, nothing
renamed (rJSmin, rCSSmin), while the files in ``web/static`` stay as written.

A file is minified at its first request and kept for the process, again only once it changes
on disk; its ETag is the minified text's digest, its Last-Modified the file's, and it is
revalidated (``no-cache``) as the static route does. Other static files, and a script or style
not in UTF-8, are served as they are.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import rcssmin  # type: ignore[import-untyped]
import rjsmin  # type: ignore[import-untyped]
from flask import Flask, Response, abort, current_app, send_file
from werkzeug.security import safe_join

MINIFIERS: dict[str, Callable[[str], str]] = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


@dataclass(frozen=True)
class Minified:
    """A file's minified text and its digest, and the file's time of change (in ns) and size
    it was made from (``stamp``)."""

    body: bytes
    etag: str
    stamp: tuple[int, int]

    @property
    def modified(self) -> float:
        """The file's time of change, in seconds (its Last-Modified)."""
        return self.stamp[0] / 1e9


class MinifiedStatic:
    """The static route's view: scripts and styles minified once per version of the file."""

    def __init__(self, folder: str) -> None:
        self._folder = folder
        self._made: dict[str, Minified] = {}
        self._lock = threading.Lock()

    def __call__(self, filename: str) -> Response:
        minify = MINIFIERS.get(os.path.splitext(filename)[1])
        if minify is None:
            return current_app.send_static_file(filename)
        path = safe_join(self._folder, filename)
        if path is None or not os.path.isfile(path):
            abort(404)
        try:
            minified = self._minified(Path(path), minify)
        except UnicodeDecodeError:  # not UTF-8: not minified
            return current_app.send_static_file(filename)
        except OSError:  # removed meanwhile
            abort(404)
        return send_file(io.BytesIO(minified.body), download_name=filename, etag=minified.etag,
                         last_modified=minified.modified, conditional=True,
                         max_age=current_app.get_send_file_max_age(filename))

    def _minified(self, path: Path, minify: Callable[[str], str]) -> Minified:
        status = path.stat()
        stamp = (status.st_mtime_ns, status.st_size)
        with self._lock:
            made = self._made.get(str(path))
            if made is None or made.stamp != stamp:
                body = minify(path.read_text(encoding="utf-8")).encode()
                made = Minified(body, hashlib.sha256(body).hexdigest()[:32], stamp)
                self._made[str(path)] = made
            return made


def serve_minified(app: Flask) -> None:
    """Serve ``app``'s static scripts and styles minified."""
    assert app.static_folder is not None
    app.view_functions["static"] = MinifiedStatic(app.static_folder)
