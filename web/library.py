"""What the table remembers: games abandoned (to take up again), finished games (their final
sheet, for the result picture) and the statistics and roster of players across them.

``GET /api/abandoned``, ``POST /api/resume``, ``GET /api/games/<id>``, ``GET /api/stats``.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from device.session import SessionError
from engine import Game, RecordError
from web.api import changed, request_body, version_of
from web.auth import require_pin
from web.errors import ApiError
from web.stats import table_stats
from web.table import table

bp = Blueprint("library", __name__, url_prefix="/api")

MAX_ABANDONED = 10

@bp.get("/abandoned")
def abandoned() -> Response:
    """The latest abandoned games that can be taken up again (with at least one action, and
    not already taken up again as a later game): ``id``, ``game``, ``players``, ``actions``,
    ``turn``, ``scores``, ``ended_at``."""
    games = []
    for meta in table().journal.history(status="abandoned"):
        game = _replayed(meta["id"])
        if game is None or not game.actions or table().session.taken_up(meta["id"], game):
            continue
        view = game.view()
        games.append({**meta, "actions": len(game.actions), "turn": view["turn"],
                      "scores": view.get("scores") or {
                          p: t["victory"] for p, t in view.get("tokens", {}).items()}})
        if len(games) == MAX_ABANDONED:
            break
    return jsonify({"games": games})

@bp.post("/resume")
@require_pin
def resume() -> Response:
    """``{"game_id": id, "base_version": n}``: take abandoned game ``id`` up again."""
    body = request_body()
    game_id = body.get("game_id")
    if type(game_id) is not int or game_id < 1:
        raise ApiError(400, "error.field.game_id")
    return changed(table().session.resume(game_id, base_version=version_of(body)))

@bp.get("/games/<int:game_id>")
def finished(game_id: int) -> Response:
    """A finished game's header, final view and its players' colours (for the result
    picture)."""
    game = _replayed(game_id)
    if game is None:
        raise ApiError(404, "error.no_game", game=game_id)
    if not game.over:
        raise ApiError(409, "error.not_over", game=game_id)
    return jsonify({"game_id": game_id, "header": dict(game.header), "view": game.view(),
                    "colours": table().colours.colours_for(game.view()["players"])})

@bp.get("/stats")
def stats() -> Response:
    """Games played, wins, best and average scores per game and player; the roster of
    players (most recent first), each with the colour of their latest game."""
    history = table().journal.history()
    data = table_stats(table().finals(reversed(history)))
    colours: dict[str, int] = {}
    for meta in history:  # newest first: each player's colour in their latest game
        for name, colour in table().colours.colours_for(meta["players"]).items():
            colours.setdefault(name, colour)
    for player in data["players"]:
        player["colour"] = colours[player["name"]]
    return jsonify(data)

def _replayed(game_id: int) -> Game | None:
    try:
        return table().game(game_id)
    except (SessionError, RecordError):
        return None

