"""A game's score sheet as CSV: one row per finished turn (or round, in 17).

Each entry of the view's ``results`` becomes a row, its nested values flattened (an object's
keys as ``key.sub``, a list of objects as ``Ana penalty trap; ...``), with each player's
running total where the game keeps scores.
Text cells that a spreadsheet would take for a formula are quoted with an apostrophe.

>>> from engine.record import replay
>>> record = [{"game": "dalek", "players": ["Jenna", "Peter"]},
...           {"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]},
...           {"keep": ["H4", "H4", "H4", "D3", "D3", "D3"]},
...           {"roll": ["D3", "D2", "EXT"]}, {"keep": ["D3", "D2"]}]
>>> print(sheet_csv(replay(enumerate(record, start=1))), end="")
player,round,points,ending,humans,daleks,total
Jenna,1,17,no-dice,12,14,17
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from engine import Game

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def sheet_csv(game: Game) -> str:
    """The CSV text of ``game``'s score sheet."""
    view = game.view()
    rows = [_flat(result) for result in view.get("results", [])]
    if "scores" in view:
        totals: dict[str, int] = {}
        for row in rows:
            player = str(row.get("player"))
            totals[player] = totals.get(player, 0) + int(row.get("points", 0))
            row["total"] = totals[player]
    columns = _columns(rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column, "")) for column in columns])
    return out.getvalue()


def _flat(value: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, item in value.items():
        name = f"{prefix}{key}"
        if isinstance(item, Mapping):
            flat.update(_flat(item, f"{name}."))
        elif isinstance(item, list) and any(isinstance(i, Mapping) for i in item):
            flat[name] = "; ".join(" ".join(str(v) for v in i.values()) for i in item)
        elif isinstance(item, list):
            flat[name] = " ".join(str(i) for i in item)
        else:
            flat[name] = item
    return flat


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    return list(columns)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    if isinstance(value, str) and text.startswith(FORMULA_STARTS):
        return "'" + text
    return text
