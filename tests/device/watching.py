"""A folder of pictures watched as ``dicetable serve --camera DIR`` watches it, for tests."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from device.session import TableSession
from dicetable.live_table import camera_for


def watch(session: TableSession, folder: Path, state: Path,
          first: Callable[[], object] | None = None) -> None:
    """The folder watched as serve --camera DIR does (unpaced), until its pictures have
    played; ``state``: the table's state folder; ``first`` is done once the camera is there,
    before it plays (a recording plays only while a game is played or the camera taught)."""
    ended = threading.Event()
    camera = camera_for(session, source=str(folder), paced=False, state=state,
                        on_ended=ended.set)
    assert camera is not None
    if first is not None:
        first()
    camera.start()
    try:
        assert ended.wait(timeout=120)
    finally:
        camera.stop()
