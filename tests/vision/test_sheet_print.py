"""The sheet's own print is told from what lies on it, in each language it is printed in."""

from __future__ import annotations

import cv2
import pytest

from vision.sheet import PX_PER_MM, layout
from vision.sheet_art import LANGUAGES, draw
from vision.sheet_print import SheetPrint


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_label_is_print_in_each_language_and_a_die_on_it_or_blank_paper_is_not(
        lang: str) -> None:
    """A zone's printed label is the print in every language; the paper in the middle of the
    zone (blank in all of them) and a die lying on the label are not."""
    sheet = layout("dalek")
    printed = SheetPrint(sheet)
    frame = draw(sheet, lang=lang)
    label = sheet.zone("to-roll")
    x, y = round((label.x + 8) * PX_PER_MM), round((label.y + 4) * PX_PER_MM)
    assert printed.shows(frame, x, y, 48.0)
    cx, cy = label.centre
    assert not printed.shows(frame, cx * PX_PER_MM, cy * PX_PER_MM, 48.0)
    cv2.rectangle(frame, (x - 24, y - 24), (x + 24, y + 24), (40, 40, 190), -1)
    for dx, dy in ((-12, -12), (0, 0), (12, 12)):
        cv2.circle(frame, (x + dx, y + dy), 5, (245, 245, 245), -1)
    assert not printed.shows(frame, x, y, 48.0)


def test_places_judged_together_are_each_judged_alone() -> None:
    """shown() of a frame's places is shows() of each: on the print, on blank paper, on a
    die lying on the print, at and beyond the frame's edges."""
    sheet = layout("dalek")
    printed = SheetPrint(sheet)
    frame = draw(sheet, lang="es")
    label = sheet.zone("to-roll")
    x, y = round((label.x + 8) * PX_PER_MM), round((label.y + 4) * PX_PER_MM)
    cv2.rectangle(frame, (x + 60, y - 24), (x + 108, y + 24), (40, 40, 190), -1)
    h, w = frame.shape[:2]
    cx, cy = label.centre
    places = [(float(x), float(y), 48.0), (x + 84.5, float(y), 48.0),
              (cx * PX_PER_MM, cy * PX_PER_MM, 48.0), (0.0, 0.0, 48.0),
              (w - 1.0, h - 1.0, 30.0), (w + 40.0, 10.0, 48.0), (-30.0, -30.0, 48.0),
              (x + 0.5, y + 0.5, 47.0)]
    judged = printed.shown(frame, places)
    assert judged == [printed.shows(frame, *place) for place in places]
    assert judged[0] and not judged[1] and not judged[2]
    assert printed.shown(frame, []) == []
