"""Exports of a game: its record as JSON Lines and its score sheet as CSV."""

from __future__ import annotations

import json

from flask import Blueprint, Response

from device.session import SessionError
from web.errors import ApiError
from web.sheet import sheet_csv
from web.table import table

bp = Blueprint("exports", __name__, url_prefix="/export")


@bp.get("/<int:game_id>.jsonl")
def record_jsonl(game_id: int) -> Response:
    """The game record (RULES.md): the header, then the actions that stand."""
    lines = _record(game_id)
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    return _download(text, f"dicetable-{game_id}.jsonl", "application/x-ndjson")


@bp.get("/<int:game_id>.csv")
def sheet(game_id: int) -> Response:
    """The score sheet: one row per finished turn or round."""
    return _download(sheet_csv(_record(game_id)), f"dicetable-{game_id}.csv", "text/csv")


def _record(game_id: int) -> list[dict[str, object]]:
    try:
        lines = table().session.record(game_id)
    except (SessionError, KeyError, LookupError):
        raise ApiError(404, "error.no_game", game=game_id) from None
    if not lines:
        raise ApiError(404, "error.no_game", game=game_id)
    return lines


def _download(text: str, name: str, mimetype: str) -> Response:
    return Response(text, mimetype=f"{mimetype}; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
