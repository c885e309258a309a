"""Exports of a finished game: its record as JSON Lines and its score sheet as CSV.

Only a game that is over is exported: the record of one in progress would show the cards
played face down before the call.
"""

from __future__ import annotations

from flask import Blueprint, Response

from device.session import SessionError
from engine import Game
from engine.record import write_record
from web.errors import ApiError
from web.sheet import sheet_csv
from web.table import table

bp = Blueprint("exports", __name__, url_prefix="/export")


@bp.get("/<int:game_id>.jsonl")
def record_jsonl(game_id: int) -> Response:
    """The game record (RULES.md): the header, then the actions that stand."""
    text = write_record(_finished(game_id))
    return _download(text, f"dicetable-{game_id}.jsonl", "application/x-ndjson")


@bp.get("/<int:game_id>.csv")
def sheet(game_id: int) -> Response:
    """The score sheet: one row per finished turn or round."""
    return _download(sheet_csv(_finished(game_id)), f"dicetable-{game_id}.csv", "text/csv")


def _finished(game_id: int) -> Game:
    try:
        game = table().game(game_id)
    except SessionError:  # no such game
        raise ApiError(404, "error.no_game", game=game_id) from None
    if not game.over:
        raise ApiError(409, "error.not_over", game=game_id)
    return game


def _download(text: str, name: str, mimetype: str) -> Response:
    return Response(text, content_type=f"{mimetype}; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
