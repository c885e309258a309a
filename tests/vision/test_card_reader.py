"""The card reader on rendered Dicy Cards sheets (development seeds 200000+: neither taught
from nor among the figures' test scenes)."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibrate import calibrate, rectify
from vision.card_outline import outlines
from vision.card_reader import CardReader
from vision.profile import default
from vision.sheet import PX_PER_MM
from vision.table_scene import render_table


def _off(quad: NDArray[np.float64], truth: NDArray[np.float64]) -> float:
    """How far (pixels) a card outline's corners lie from the true ones, either way up."""
    return float(min(np.abs(np.roll(quad, k, 0) - truth).max() for k in (0, 2)))


def test_a_card_the_outlines_miss_is_found_by_its_look() -> None:
    """Seed 200038's card in p1-3 (a "no six", laid nearly straight) has print and shadow
    steps that make every outline found several pixels off: the cut-outs along them look like
    no card, and the card is found again on a grid of poses around its place."""
    scene = render_table(200038, game="dicy")
    jpeg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1]
    image = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)  # as `render` writes it
    found = calibrate(image)
    flat = rectify(image, found)
    sheet = found.layout
    item = next(i for i in scene.items if i.zone == "p1-3")
    truth = found.to_sheet(np.array(item.quad, np.float64)) * PX_PER_MM
    index = [p.name for p in sheet.places()].index("p1-3")
    candidates = outlines(flat, sheet.places(), sheet.card, PX_PER_MM)[index].quads
    assert min(_off(q, truth) for q in candidates) > 3.0  # what the search is for
    read = {r.place: r for r in CardReader(default("dicy-card")).read(flat, sheet)}["p1-3"]
    assert read.face == item.face == "no-six/active"
    assert _off(np.array(read.outline), truth) < 2.0
