"""A teach check held once it has begun (at its teaching) until let go: a test acts on the
table meanwhile (another phone's change), however fast the check would have been."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from device import teacher
from vision.profile import Profile


@contextmanager
def held_check() -> Iterator[tuple[threading.Event, threading.Event]]:
    """Within: (begun, go_on); a check that begins sets ``begun`` and waits for ``go_on``."""
    begun, go_on = threading.Event(), threading.Event()
    taught = teacher.teach

    def held(*args: Any, **kwargs: Any) -> Profile:
        begun.set()
        go_on.wait(60)
        return taught(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(teacher, "teach", held)
        try:
            yield begun, go_on
        finally:
            go_on.set()
