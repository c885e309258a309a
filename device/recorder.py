"""The table's own test set: each settled frame that became an action, with what stood.

Every frame whose read was journalled (a camera roll or reroll) is kept in the state folder's
``recorded/`` as a JPEG, with the reads and the action's place in its game
(``frames.jsonl``). ``labels.json`` (the form of ``../shared/datasets``) is written from them
and from the games as they stand now, so an undo or a correction relabels the frame with the
values that finally stood: ``dicetable eval STATE/recorded`` scores the reader on this table's
own play. A die the final values cannot be pinned on (two dice read wrong) becomes an
``ignore`` region. The oldest frames go once there are more than ``max_frames`` or they take
more than ``max_bytes``.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from device.live import Seen

RECORDED = "recorded"  # the folder of the state folder where frames are kept
MAX_FRAMES = 500
MAX_BYTES = 200 * 1024 * 1024
QUALITY = 90
BOX_SIDES = 1.2  # a die's labelled box spans this many top-face sides (the top and its sides)


@dataclass(frozen=True)
class KeptFrame:
    """One kept frame: its file (relative to the folder), size, game, the index of the action
    it became among the game's standing actions, and the dice as read (value, x, y, side)."""

    file: str
    width: int
    height: int
    game_id: int
    index: int
    dice: tuple[tuple[int | None, float, float, float], ...]


Records = Callable[[int], Sequence[dict[str, Any]] | None]
"""The standing actions of a game by id (None when there is no such game)."""


class Recorder:
    """Keeps frames in ``folder`` (made when the first one is kept); ``records`` gives the
    standing actions of a game the recorder has not been told of since it started."""

    def __init__(self, folder: Path, records: Records, *, max_frames: int = MAX_FRAMES,
                 max_bytes: int = MAX_BYTES) -> None:
        self.folder = folder
        self.max_frames = max_frames
        self.max_bytes = max_bytes
        self._records = records
        self._standing: dict[int, Sequence[dict[str, Any]] | None] = {}
        self._frames = self._load()
        self._labels_written = False  # labels.json holds the frames' values as they stand

    @property
    def games(self) -> set[int]:
        """The games that have kept frames."""
        return {f.game_id for f in self._frames}

    def keep(self, seen: Seen, game_id: int, index: int,
             actions: Sequence[dict[str, Any]]) -> None:
        """Keep ``seen``'s frame as standing action ``index`` of game ``game_id``, whose
        standing actions are now ``actions`` (only a roll of d6 dice: the set is of d6)."""
        if _final_dice(actions, index) is None:
            return
        images = self.folder / "images"
        images.mkdir(parents=True, exist_ok=True)
        name = f"game{game_id}-action{index + 1}-frame{seen.number}.jpg"
        if not cv2.imwrite(str(images / name), seen.frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY]):
            return  # a full disk must not stop the game: the frame is simply not kept
        height, width = seen.frame.shape[:2]
        frame = KeptFrame(f"images/{name}", width, height, game_id, index,
                          tuple((d.value, d.x, d.y, d.size) for d in seen.observation.dice))
        self._frames = [f for f in self._frames if (f.game_id, f.index) != (game_id, index)]
        self._frames.append(frame)
        self._trim()
        self._save()
        self._standing[game_id] = list(actions)
        self._write_labels()

    def relabel(self, game_id: int, actions: Sequence[dict[str, Any]]) -> None:
        """Game ``game_id`` now stands as ``actions``: ``labels.json`` is written again when
        the values of one of its kept frames changed (an undo, a correction), not for each
        action played on."""
        before = self._standing.get(game_id)
        self._standing[game_id] = list(actions)
        if self._labels_written and before is not None and all(
                _final_dice(before, f.index) == _final_dice(actions, f.index)
                for f in self._frames if f.game_id == game_id):
            return
        self._write_labels()

    def _write_labels(self) -> None:
        """Write ``labels.json`` from the kept frames and their games as they stand (the
        games whose frames all went are forgotten)."""
        images = []
        for frame in self._frames:
            if frame.game_id not in self._standing:
                self._standing[frame.game_id] = self._records(frame.game_id)
            final = _final_dice(self._standing[frame.game_id], frame.index)
            if final is not None:
                images.append(_entry(frame, final))
        kept = self.games
        self._standing = {game: actions for game, actions in self._standing.items()
                          if game in kept}
        # one image a line, each written by json's fast encoder (an indented whole took
        # 130 ms for 500 frames, on the session's thread, at every roll)
        text = "".join(['{"images": [\n', ",\n".join(map(json.dumps, images)), "\n]}\n"])
        self._labels_written = _write_text(self.folder / "labels.json", text)

    def _trim(self) -> None:
        while len(self._frames) > self.max_frames or (
                len(self._frames) > 1 and self._bytes() > self.max_bytes):
            oldest = self._frames.pop(0)
            (self.folder / oldest.file).unlink(missing_ok=True)

    def _bytes(self) -> int:
        total = 0
        for frame in self._frames:
            try:
                total += (self.folder / frame.file).stat().st_size
            except OSError:
                continue
        return total

    def _load(self) -> list[KeptFrame]:
        try:
            lines = (self.folder / "frames.jsonl").read_text("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []
        frames = []
        for line in lines:
            try:
                data = json.loads(line)
                frames.append(KeptFrame(data["file"], int(data["width"]), int(data["height"]),
                                        int(data["game_id"]), int(data["index"]),
                                        tuple(tuple(d) for d in data["dice"])))
            except (ValueError, KeyError, TypeError):
                continue  # a damaged line loses that frame only
        return [f for f in frames if (self.folder / f.file).is_file()]

    def _save(self) -> None:
        text = "".join(json.dumps(vars(f)) + "\n" for f in self._frames)
        _write_text(self.folder / "frames.jsonl", text)


def _final_dice(actions: Sequence[dict[str, Any]] | None, index: int) -> list[int] | None:
    """The d6 values of standing action ``index`` when it is a roll or reroll of d6 dice,
    else None (another action, or a roll of Dalek faces)."""
    if actions is None or index >= len(actions):
        return None
    line = actions[index]
    values = line["reroll"]["dice"] if "reroll" in line else line.get("roll")
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        return None
    return values


def label_dice(read: Sequence[int | None], final: Sequence[int]) -> list[int | None]:
    """The value each read die gets from the final values: its own where the final values
    hold it, the one left over where a single die was read wrong, else None (unknown).

    >>> label_dice([5, 3, 3, None], [5, 3, 3, 6])
    [5, 3, 3, 6]
    >>> label_dice([1, 2, 2], [1, 4, 5])
    [1, None, None]
    """
    left = Counter(final)
    labels: list[int | None] = []
    for value in read:
        if value is not None and left[value] > 0:
            left[value] -= 1
            labels.append(value)
        else:
            labels.append(None)
    rest = list(left.elements())
    unknown = [i for i, v in enumerate(labels) if v is None]
    if len(unknown) == 1 and len(rest) == 1:
        labels[unknown[0]] = rest[0]
    return labels


def _entry(frame: KeptFrame, final: Sequence[int]) -> dict[str, Any]:
    labels = label_dice([d[0] for d in frame.dice], final)
    dice, ignore = [], []
    for (_, x, y, side), value in zip(frame.dice, labels, strict=True):
        half = BOX_SIDES * (side or 40.0) / 2
        box = [round(x - half, 1), round(y - half, 1), round(x + half, 1), round(y + half, 1)]
        if value is None:
            ignore.append(box)
        else:
            dice.append({"value": value, "bbox": box})
    return {"file": frame.file, "width": frame.width, "height": frame.height, "split": "test",
            "dice": dice, "ignore": ignore}


def _write_text(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then a rename);
    False when it could not be written."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(text, "utf-8")
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        return False
    return True

