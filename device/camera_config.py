"""The ``[camera]`` section of the config file: which camera the table watches (``source``,
as ``--camera`` names it) and how fast a recording plays (``fps``). Light to load: the serve
command reads it before the camera's libraries load, so that a wrong file is said at once.

>>> camera_source({"source": 0}, "[camera]"), camera_source({"source": "picamera2"}, "[camera]")
('0', 'picamera2')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device.config import typed

CAMERA_KEYS = ("source", "fps")
DEFAULT_FPS = 15.0  # a folder's pictures a second, and a video's whose file gives no sane rate


def camera_source(settings: Mapping[str, Any], where: str) -> str | None:
    """The config file's camera: text, or a camera's number written as a number (0)."""
    number = settings.get("source")
    if isinstance(number, int) and not isinstance(number, bool) and number >= 0:
        return str(number)
    return typed(settings, "source", str, "", where) or None
