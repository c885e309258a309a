"""The Dicy and Dalek sheets' readers on rendered frames (development seeds 200000+)."""

from __future__ import annotations

import threading

import cv2
from threadpoolctl import threadpool_info  # type: ignore[import-untyped]

from vision.calibrate import calibrate, rectify
from vision.table_reads import DalekTableReader, DicyTableReader
from vision.table_scene import PlacedDie, render_still, render_table


def _blas_threads() -> list[int]:
    return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]


def test_dicy_dice_are_read_beside_the_cards_as_on_one_thread() -> None:
    """With two threads the dice are read on a second thread while the cards are read: the
    same reads as one thread gives, and numpy's BLAS threads are as they were afterwards."""
    beside, alone = DicyTableReader(threads=2), DicyTableReader(threads=1)
    blas = _blas_threads()
    for seed in (200005, 200006):
        scene = render_table(seed, game="dicy")
        found = calibrate(scene.image)
        flat = rectify(scene.image, found)
        seen = beside.read(flat, found.layout)
        assert seen == alone.read(flat, found.layout)
        assert len(seen.dice) == 6 and all(d.face is not None for d in seen.dice)
    assert any(t.name.startswith("dicy-dice") for t in threading.enumerate())
    assert _blas_threads() == blas


def test_a_dalek_sheet_reads_alike_whatever_opencvs_threads_and_leaves_them_alone() -> None:
    """The same reads whether the caller's OpenCV has one thread or two, and the reader never
    sets OpenCV's threads (the setting is the process's, and OpenCV documents changing it
    while other threads use OpenCV as unsafe: the live loop's camera and motion do)."""
    scene = render_table(200007, game="dalek", dice=10)
    found = calibrate(scene.image)
    flat = rectify(scene.image, found)
    reader = DalekTableReader(threads=2)
    before = cv2.getNumThreads()
    try:
        seen = {}
        for threads in (1, 2):
            cv2.setNumThreads(threads)
            seen[threads] = reader.read(flat, found.layout)
            assert cv2.getNumThreads() == threads
    finally:
        cv2.setNumThreads(before)
    assert seen[1] == seen[2]
    assert len(seen[2].dice) == 10 and all(d.face is not None for d in seen[2].dice)


def test_a_die_across_the_dice_areas_line_is_read_whole_or_not_at_all() -> None:
    """A die lying on the line of the dice area was read from its part inside: a 6 as a 3,
    sure of it. Read whole, it gives its value, or is missed (the phones then say a die is
    missing), never another value."""
    reader = DicyTableReader(threads=1)
    glacial = ["two-dice", "no-six", "odd", "straight", "two-pairs"]
    cards = {f"p{p}-{i + 1}": f"{c}/active" for p in (1, 2) for i, c in enumerate(glacial)}
    ones = tuple(PlacedDie("1", 60.0 + 30 * i, 100.0, 0.35 * i, i) for i in range(5))
    read = wrong = 0
    for seed in (200023, 200024):
        found = calibrate(render_still(seed, game="dicy", cards=cards).image)
        for face in "23456":
            for y in (121.0, 123.0):  # its centre within 2 mm of the line (at 123 mm)
                on_line = PlacedDie(face, 220.0, y, 1.75, 5)
                frame = render_still(seed, game="dicy", dice=(*ones, on_line), cards=cards)
                seen = reader.read(rectify(frame.image, found), found.layout)
                faces = sorted(d.face or "?" for d in seen.dice if d.x > 205)
                read += faces == [face]
                wrong += faces not in ([face], [])
    assert wrong == 0 and read >= 15  # of 20
