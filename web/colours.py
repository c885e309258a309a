"""Player colours: a colour-blind-safe palette and each player's remembered choice.

The palette is Okabe and Ito's; a player keeps the colour chosen at set-up from game to game
(by name). The game record does not carry colours (they are presentation): they are kept as
one setting of the journal.

>>> book = ColourBook(None)
>>> book.remember({"Ana": 1, "Ben": 1})
>>> book.colours_for(["Ana", "Ben", "Cleo"])
{'Ana': 1, 'Ben': 0, 'Cleo': 2}
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from typing import Protocol

PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
           "#000000")
"""Okabe–Ito: orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, black."""

SETTING = "web.colours"
MAX_REMEMBERED = 200


class Settings(Protocol):
    """Where the choices are kept (the journal's settings)."""

    def setting(self, key: str) -> str | None:
        """A stored setting, or None."""

    def set_setting(self, key: str, value: str) -> int:
        """Store a setting."""


class ColourBook:
    """Each player's palette index by name, kept in ``settings`` (or in memory if None)."""

    def __init__(self, settings: Settings | None) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._chosen = _parse(settings.setting(SETTING) if settings else None)

    def colours_for(self, players: Iterable[str]) -> dict[str, int]:
        """A distinct palette index for every player: the remembered one unless taken earlier
        in the list, else the first free one."""
        with self._lock:
            chosen = dict(self._chosen)
        taken: set[int] = set()
        result: dict[str, int] = {}
        for name in players:
            index = chosen.get(name)
            if index is None or index in taken:
                index = next((i for i in range(len(PALETTE)) if i not in taken), 0)
            taken.add(index)
            result[name] = index
        return result

    def remember(self, choices: Mapping[str, int]) -> None:
        """Store new choices (the caller checks the indexes)."""
        with self._lock:
            for name in choices:
                self._chosen.pop(name, None)
            self._chosen.update(choices)
            while len(self._chosen) > MAX_REMEMBERED:
                del self._chosen[next(iter(self._chosen))]
            if self._settings is not None:
                self._settings.set_setting(SETTING, json.dumps(self._chosen, ensure_ascii=False))


def _parse(text: str | None) -> dict[str, int]:
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items()
            if isinstance(k, str) and type(v) is int and 0 <= v < len(PALETTE)}
