"""The card places a photo of a sheet labels (vision.table_dataset), checked against its sheet.

A card without a ``zone`` is in the place its centre lies in; one that lies on no place (a
discard or draw pile beside the row) has no place to be scored by, and is told apart. A place
the sheet does not have and a place labelled twice are refused naming the photo, as
``dicetable eval`` and ``dicetable teach`` both say them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.calibrate import Calibration
from vision.components import EMPTY
from vision.datasets import DatasetError
from vision.table_dataset import Labelled, TablePhoto


@dataclass(frozen=True)
class PlaceLabels:
    """Each labelled card place's face (EMPTY for an empty one), the cards labelled without
    a place that lie on none, and each other card's place."""

    faces: dict[str, str]
    off_places: tuple[Labelled, ...]
    placed: dict[Labelled, str]


def place_labels(photo: TablePhoto, kind: str, found: Calibration) -> PlaceLabels:
    """The photo's card places of ``kind``; DatasetError, naming the photo, for a place the
    sheet does not have or a place labelled twice."""
    places = [p.name for p in found.layout.places()]
    spelled = f"{places[0]} … {places[-1]}"
    faces: dict[str, str] = {}
    named = [(place_of(i, found), i) for i in photo.of_kind(kind)]
    for name, face in [(name, i.face) for name, i in named if name is not None] + [
            (name, EMPTY) for name in photo.empty]:
        if name not in places:
            raise DatasetError(f"{photo.file}: {name!r} is not a card place of the "
                               f"{found.game} sheet ({spelled})")
        if name in faces:
            raise DatasetError(f"{photo.file}: place {name} is labelled twice "
                               f"({faces[name]!r} and {face!r})")
        faces[name] = face
    return PlaceLabels(faces, tuple(i for name, i in named if name is None),
                       {i: name for name, i in named if name is not None})


def place_of(item: Labelled, found: Calibration) -> str | None:
    """The card place a labelled card names, else the one its centre lies in (None: none)."""
    if item.zone:
        return item.zone
    x, y = found.to_sheet(np.array([item.centre]))[0]
    zone = found.layout.zone_at(float(x), float(y))
    return zone.name if zone is not None and zone.kind == "place" else None
