"""Pictures of reads of every kind (``vision.failures``), drawn on a plain image."""

from __future__ import annotations

import numpy as np

from vision.failures import BANNER, GREEN, GREY, MAGENTA, ORANGE, RED, KindScored, draw_kinds
from vision.kind_eval import Tally


def test_each_label_and_read_is_drawn_in_the_colour_of_what_it_came_to() -> None:
    image = np.zeros((200, 400, 3), np.uint8)
    places = Tally("17-card").add_places({"row-1": "3", "row-2": "5", "row-3": None},
                                         {"row-1": "3", "row-2": "4", "row-3": "back"})
    dice = Tally("dalek").add_dice([("H4", 70.0, 150.0, 0.9), ("EXT", 300.0, 150.0, 0.8),
                                    ("H2", 380.0, 150.0, 0.7)],
                                   [("H4", (50.0, 130.0, 90.0, 170.0)),
                                    ("D2", (150.0, 130.0, 190.0, 170.0))],
                                   ignore=[(360.0, 130.0, 399.0, 170.0)])
    picture = draw_kinds(image, [(360.0, 130.0, 399.0, 170.0)], [
        KindScored("17-card", ((10.0, 10.0, 60.0, 90.0), (110.0, 10.0, 160.0, 90.0),
                               (210.0, 10.0, 260.0, 90.0)), places),
        KindScored("dalek", ((50.0, 130.0, 90.0, 170.0), (150.0, 130.0, 190.0, 170.0)), dice,
                   (("H4", 70.0, 150.0, 0.9), ("EXT", 300.0, 150.0, 0.8),
                    ("H2", 380.0, 150.0, 0.7)))])

    def at(x: int, y: int) -> tuple[int, ...]:
        return tuple(int(c) for c in picture[BANNER + y, x])

    assert picture.shape == (200 + BANNER, 400, 3)
    assert at(10, 50) == GREEN and at(110, 50) == RED and at(210, 50) == ORANGE  # card places
    assert at(50, 150) == GREEN and at(150, 150) == ORANGE  # a die read right, one missed
    assert at(70, 150) == GREEN and at(300, 150) == MAGENTA and at(380, 150) == GREY  # reads
    assert at(135, 50) == RED  # what the place read wrong shows, at its centre
    assert at(35, 50) == (0, 0, 0)  # a place read right has nothing written on it
