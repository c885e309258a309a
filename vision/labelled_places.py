"""The card places a photo of a sheet labels (vision.table_dataset), checked against its sheet.

A card without a ``zone`` is in the place its centre lies in; a place the sheet does not have,
a card on no place and a place labelled twice are refused naming the photo, as ``dicetable
eval`` and ``dicetable teach`` both say them.
"""

from __future__ import annotations

import numpy as np

from vision.calibrate import Calibration
from vision.components import EMPTY
from vision.datasets import DatasetError
from vision.table_dataset import Labelled, TablePhoto


def place_labels(photo: TablePhoto, kind: str, found: Calibration) -> dict[str, str]:
    """Each labelled card place's face (EMPTY for an empty one); DatasetError, naming the
    photo, for a place the sheet does not have, a card on no place or a place labelled
    twice."""
    places = [p.name for p in found.layout.places()]
    spelled = f"{places[0]} … {places[-1]}"
    labels: dict[str, str] = {}
    for name, face in [(place_of(i, found), i.face) for i in photo.of_kind(kind)] + [
            (name, EMPTY) for name in photo.empty]:
        if name is None:
            raise DatasetError(f"{photo.file}: a {kind} labelled {face!r} lies on no card "
                               f"place; name its place (zone: {spelled})")
        if name not in places:
            raise DatasetError(f"{photo.file}: {name!r} is not a card place of the "
                               f"{found.game} sheet ({spelled})")
        if name in labels:
            raise DatasetError(f"{photo.file}: place {name} is labelled twice "
                               f"({labels[name]!r} and {face!r})")
        labels[name] = face
    return labels


def place_of(item: Labelled, found: Calibration) -> str | None:
    """The card place a labelled card names, else the one its centre lies in (None: none)."""
    if item.zone:
        return item.zone
    x, y = found.to_sheet(np.array([item.centre]))[0]
    zone = found.layout.zone_at(float(x), float(y))
    return zone.name if zone is not None and zone.kind == "place" else None
