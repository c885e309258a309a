"""The demo's frames: a plan (:mod:`device.demo_plan`) filmed into a folder of pictures.

The folder holds ``00000.jpg``, ``00001.jpg``, … played in name order at the plan's frame rate
by a folder source, and ``demo.json`` (the plan). A rest's still frame is written once and
linked for as long as the rest lasts (a folder source decodes a linked frame once), so a
two-minute game takes some 40 MB. Writing is seeded: the same seed gives the same frames.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import cv2

from device.demo_plan import DIE_SIDE, HEIGHT, WIDTH, Plan
from vision.film import FilmDie, Rest, film

PLAN_FILE = "demo.json"
QUALITY = 85
_FRAME = re.compile(r"\d{5}\.jpg")


class DemoFolderError(ValueError):
    """The demo's frames cannot go in the folder named (it holds something else, or cannot be
    written); nothing of what it holds was deleted."""


def write_film(plan: Plan, folder: Path, *, seed: int = 1) -> int:
    """Render ``plan`` into ``folder`` (an earlier film there is deleted first; a folder that
    holds anything else is refused with DemoFolderError); returns the number of frames."""
    try:
        _clear(folder)
        return _write(plan, folder, seed)
    except OSError as err:
        raise DemoFolderError(f"cannot write the demo's frames in {folder}: "
                              f"{err.strerror or err}") from err


def _write(plan: Plan, folder: Path, seed: int) -> int:
    """Film ``plan`` into the empty ``folder``; returns the number of frames."""
    rests = [Rest(tuple(FilmDie(d.value, d.x, d.y, d.angle, DIE_SIDE, d.look) for d in r.dice),
                  hand=r.hand) for r in plan.rests]
    holds = iter(plan.hold(r) for r in plan.rests)
    number = 0
    for image, still in film(rests, width=WIDTH, height=HEIGHT, seed=seed):
        first = folder / f"{number:05d}.jpg"
        if not cv2.imwrite(str(first), image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY]):
            raise OSError(f"the frame {first.name} could not be written (is the disk full?)")
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


def _clear(folder: Path) -> None:
    """``folder`` made, or emptied of an earlier film; DemoFolderError, with nothing deleted,
    when it is a file or holds anything but a film's frames and plan (a state folder, photos)."""
    if folder.exists() and not folder.is_dir():
        raise DemoFolderError(f"{folder} is a file, not a folder for the demo's frames")
    folder.mkdir(parents=True, exist_ok=True)
    others = sorted(p.name for p in folder.iterdir()
                    if p.name != PLAN_FILE and not (_FRAME.fullmatch(p.name) and p.is_file()))
    if others:
        raise DemoFolderError(f"{folder} holds other files, such as {others[0]}: the demo's "
                              "frames go in an empty folder of their own")
    for frame in folder.iterdir():
        frame.unlink()


def _link(source: Path, target: Path) -> None:
    """``target`` the same file as ``source`` (a hard link; a copy where links fail)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
