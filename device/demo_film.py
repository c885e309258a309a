"""The demo's frames: a plan (:mod:`device.demo_plan`) filmed into a folder of pictures.

The folder holds ``00000.jpg``, ``00001.jpg``, … played in name order at the plan's frame rate
by a folder source, and ``demo.json`` (the plan). A rest's still frame is written once and
linked for as long as the rest lasts (a folder source decodes a linked frame once), so a
two-minute game takes some 40 MB. Writing is seeded: the same seed gives the same frames.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import cv2

from device.demo_plan import DIE_SIDE, HEIGHT, WIDTH, Plan
from vision.film import FilmDie, Rest, film

PLAN_FILE = "demo.json"
QUALITY = 85


def write_film(plan: Plan, folder: Path, *, seed: int = 1) -> int:
    """Render ``plan`` into ``folder`` (emptied first); returns the number of frames."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    rests = [Rest(tuple(FilmDie(d.value, d.x, d.y, d.angle, DIE_SIDE, d.look) for d in r.dice),
                  hand=r.hand) for r in plan.rests]
    holds = iter(plan.hold(r) for r in plan.rests)
    number = 0
    for image, still in film(rests, width=WIDTH, height=HEIGHT, seed=seed):
        first = folder / f"{number:05d}.jpg"
        cv2.imwrite(str(first), image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        number += 1
        for _ in range(next(holds) - 1 if still else 0):
            _link(first, folder / f"{number:05d}.jpg")
            number += 1
    (folder / PLAN_FILE).write_text(json.dumps(plan.to_json(), indent=1) + "\n", "utf-8")
    return number


def read_plan(folder: Path) -> Plan | None:
    """The plan of the film in ``folder``; None when there is none (or it is damaged)."""
    try:
        return Plan.from_json(json.loads((folder / PLAN_FILE).read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _link(source: Path, target: Path) -> None:
    """``target`` the same file as ``source`` (a hard link; a copy where links fail)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
