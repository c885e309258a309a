"""The table's calibration, kept in the state folder as ``calibration.json``.

It holds what vision.calibrate found (the sheet, the homography, where each marker was, a wide
lens's barrel) and, for whoever reads the file, each zone of the sheet in millimetres and in
rectified pixels. It is written to a temporary file and renamed, so a power cut leaves the old
calibration or the new one, never half of one.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> load(folder) is None
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from vision.calibrate import Calibration
from vision.sheet import PX_PER_MM

CALIBRATION_FILE = "calibration.json"


class CalibrationFileError(Exception):
    """The calibration file is there but cannot be read; the message says how to fix it."""


def path(state: Path) -> Path:
    return state / CALIBRATION_FILE


def save(state: Path, calibration: Calibration) -> Path:
    """Write the calibration (and the sheet's zones) into the state folder; returns the file."""
    sheet = calibration.layout
    doc = {**calibration.as_dict(), "px_per_mm": PX_PER_MM,
           "rectified_size": list(sheet.pixel_size()),
           "zones": [{"name": z.name, "kind": z.kind, "turned": z.turned,
                      "mm": [z.x, z.y, z.w, z.h],
                      "px": [round(v * PX_PER_MM, 1) for v in (z.x, z.y, z.w, z.h)]}
                     for z in sheet.zones]}
    state.mkdir(parents=True, exist_ok=True)
    target = path(state)
    tmp = target.with_suffix(".json.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)
    return target


def load(state: Path) -> Calibration | None:
    """The stored calibration, None when the table was never calibrated."""
    target = path(state)
    try:
        doc = json.loads(target.read_text(encoding="utf-8"))
        if not isinstance(doc, dict):
            raise ValueError("not an object")
        return Calibration.from_dict(doc)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        raise CalibrationFileError(f"{target} cannot be read ({err}): calibrate the table "
                                   f"again with dicetable calibrate") from err
