"""A Dicy sheet printed "fit to page" (shrunk), read by the camera's observer (development
seeds 200040+)."""

from __future__ import annotations

from vision.sheet_observer import SheetObserver
from vision.sheet_seen import DicyObservation
from vision.table_scene import render_still

CARDS = {f"p{p}-{i + 1}": face for p in (1, 2, 3) for i, face in enumerate(
    ["sixes/active", "two-dice/frozen", "odd/active", "straight/active", "two-pairs/frozen"])}


def _cards(observer: SheetObserver, seed: int, print_scale: float) -> dict[str, str | None]:
    """The cards the observer reads on a frame of CARDS on a sheet printed at print_scale."""
    seen = observer.observe(render_still(seed, game="dicy", cards=CARDS,
                                         print_scale=print_scale).image).table
    assert isinstance(seen, DicyObservation)
    return {p.place: p.face for p in seen.places if not p.empty}


def test_a_dicy_sheet_printed_at_90_percent_has_its_cards_read_right() -> None:
    """Printed "fit to page" at 90 %, the sheet's real cards look bigger than its layout's:
    read at the layout's size, active sixes were read as frozen sixes and active straights as
    frozen ones, sure of it. The cards' size on the print is chosen by their look on the first
    frame that shows them."""
    for seed in (200040, 200041):
        assert _cards(SheetObserver(None, threads=1), seed, 0.9) == CARDS


def test_a_table_calibrated_anew_chooses_its_prints_card_size_anew() -> None:
    """A shrunk print's card size is kept until the table is calibrated again: then a sheet
    printed at 100 % has its cards read at the layout's size."""
    observer = SheetObserver(None, threads=1)
    assert _cards(observer, 200042, 0.9) == CARDS
    assert _cards(observer, 200042, 0.9) == CARDS  # the size chosen is kept
    observer.recalibrate()
    assert _cards(observer, 200043, 1.0) == CARDS
