"""The JSON API: the current state, and every change a phone makes to the game.

Each change names ``base_version``, the state version it was made from; the session refuses
a stale one (409 with the current state). Requests are checked here before the session sees
them: a malformed one is a 400 and changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from random import Random
from typing import Any

from flask import Blueprint, Response, jsonify, send_file

from device.session import TEACH_STEPS, Snapshot
from device.teacher import DoubtedPhoto
from engine import IllegalAction
from engine.dicy import draw_interglacial
from engine.game import REFUSED_LATER
from web.auth import authorised, csrf_token, require_pin
from web.body import json_body
from web.colours import PALETTE
from web.errors import ApiError, language, refusal
from web.notices import notices
from web.table import table
from web.wording import engine_text

bp = Blueprint("api", __name__, url_prefix="/api")

_random = Random()


@bp.get("/state")
def state() -> Response:
    """The current state, whether this phone may change it, its CSRF token, and what the host
    must be told (in the phone's language)."""
    snapshot = table().session.snapshot()
    host = authorised()
    return jsonify({"state": table().payload(snapshot), "auth": host,
                    "csrf": csrf_token(), "notices": notices(host)})


@bp.post("/notices/dismiss")
@require_pin
def dismiss_notices() -> Response:
    """The host has read the notices: no phone shows them again, nor any page open."""
    table().read_notices()
    return jsonify({"notices": []})


@bp.get("/record")
def record() -> Response:
    """The standing actions of the game in progress as the table may see them (for the
    corrections list): a face-down card that is still hidden comes without its ``card``; and
    the game told in the phone's language (``log``, :mod:`web.log`)."""
    snapshot, game = table().session.standing()
    if snapshot.game_id is None or game is None:
        return jsonify({"game_id": None, "version": snapshot.version, "actions": []})
    return jsonify({"game_id": snapshot.game_id, "version": snapshot.version,
                    "actions": game.public_record()[1:],
                    "log": table().story(snapshot, game, language())})


@bp.get("/history")
def history() -> Response:
    """The finished games, and how many each player has won."""
    return jsonify({"games": table().session.history(), "wins": table().session.player_wins()})


@bp.post("/game")
@require_pin
def new_game() -> Response:
    """``{"header": {...}, "colours": {name: index}, "draw_first": bool, "abandon_current":
    bool, "base_version": n}``: start a game (the session checks the header).

    ``draw_first`` draws the first player by lot (17); the header then names them, so the
    record replays. ``abandon_current`` abandons the game in progress, only if this one is
    taken. The colours are kept only once the session took the game."""
    body = request_body()
    header = _object(body, "header")
    if header.get("game") == "dicy" and header.get("mode") == "interglacial" \
            and "cards" not in header:
        header = {**header, "cards": _interglacial()}
    if _flag(body, "draw_first") and isinstance(header.get("players"), list) \
            and header["players"]:
        header = {**header, "first": _random.choice(header["players"])}
    colours = _colours(body.get("colours", {}), header)
    return changed(table().start_game(header, colours, base_version=version_of(body),
                                      abandon_current=_flag(body, "abandon_current")))


@bp.post("/action")
@require_pin
def action() -> Response:
    """``{"line": {kind: value}, "base_version": n}``: one action, or ``{"undo": {}}``."""
    body = request_body()
    line = _line(body)
    return changed(table().session.act(line, base_version=version_of(body), source="phone"))


@bp.post("/correct")
@require_pin
def correct() -> Response | tuple[Response, int]:
    """``{"index": i, "line": {...}, "then": [{"index": j, "line": {...}}, ...],
    "drop_from": k, "base_version": n}``: replace standing action ``i`` (and, optionally, the
    later ones ``then`` names; and drop those from ``k`` on), replay the rest.

    A refusal that names a later action the change makes illegal also gives its ``refused``
    ``index``, so that the phone can offer to fix it in turn or to drop it and what follows.
    """
    body = request_body()
    changes = {_index(body): _line(body)}
    then = body.get("then", [])
    if not isinstance(then, list) or not all(isinstance(c, dict) for c in then):
        raise ApiError(400, "error.field.then")
    changes.update((_index(c), _line(c)) for c in then)
    drop_from = body.get("drop_from")
    if drop_from is not None and (type(drop_from) is not int or drop_from < 0):
        raise ApiError(400, "error.field.drop_from")
    try:
        snapshot = table().session.revise(changes, drop_from=drop_from,
                                          base_version=version_of(body))
    except IllegalAction as err:
        if err.template != REFUSED_LATER:
            raise
        index = int(str(err.params["number"])) - 1
        if index in changes:  # the correction itself is refused: nothing later to fix
            return refusal(400, engine_text(language(), err))
        return refusal(400, engine_text(language(), err), refused={"index": index})
    return changed(snapshot)


@bp.post("/abandon")
@require_pin
def abandon() -> Response:
    """``{"base_version": n}``: give up the game in progress (it stays in the journal)."""
    return changed(table().session.abandon(base_version=version_of(request_body())))


@bp.post("/hints")
@require_pin
def hints() -> Response:
    """``{"on": bool, "base_version": n}``: switch the engine's hints on or off."""
    body = request_body()
    if not isinstance(body.get("on"), bool):
        raise ApiError(400, "error.field.on")
    return changed(table().session.set_hints(body["on"], base_version=version_of(body)))


@bp.get("/camera/picture.jpg")
def camera_picture() -> Response:
    """The picture of the camera's last read that stands (JPEG); 404 when there is none."""
    found = table().session.camera_picture()
    if found is None:
        raise ApiError(404, "error.no_picture")
    return Response(found[1], mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera/why")
@require_pin
def camera_why() -> Response:
    """Why the camera is out or ended, with its values (the folder or device it names), for
    the host alone: the state every phone gets has only its key. A camera out because no
    picture came also says for how long as of now (``silent_s``): the pad counts on from it,
    without asking again (its ``seconds``, the wait that found it silent, are the host's
    log's). ``unreadable``: why a picture could not be read (the first of a run of them of one
    reason, told once until a read stands or another reason comes: the picture's name and what
    is wrong with it), or null."""
    camera = table().session.snapshot().camera or {}
    why = camera.get("why")
    if why is not None and why.get("since") is not None:
        why = {"key": why["key"], "params": why["params"],
               "silent_s": max(0, round(time.monotonic() - why["since"]))}
    return jsonify({"why": why, "unreadable": camera.get("unreadable_why")})


@bp.post("/camera/answer")
@require_pin
def camera_answer() -> Response:
    """``{"question": n, "answer": {...}, "base_version": n}``: a phone's one-tap answer to
    the camera's question number n (device/camera_answers.py lists the answers)."""
    body = request_body()
    question = body.get("question")
    if type(question) is not int:
        raise ApiError(400, "error.field.question")
    reply = _object(body, "answer")
    return changed(table().session.answer(question, reply, base_version=version_of(body)))


@bp.post("/camera/recalibrate")
@require_pin
def camera_recalibrate() -> Response:
    """``{"base_version": n}``: calibrate the table anew from the camera's next still frame
    (after the camera or the sheet was moved)."""
    return changed(table().session.recalibrate(base_version=version_of(request_body())))


@bp.post("/camera/teach")
@require_pin
def camera_teach() -> Response | tuple[Response, int]:
    """``{"do": step, "kind": k, "base_version": n}``: one step of teach mode
    (device/teacher.py): ``start`` (with ``kind``, e.g. ``dalek``), ``photo`` (with
    ``"pictures": true``: d6 dice with pictures), ``undo``, ``next``, ``check``, ``save`` or
    ``cancel``; a refused step changes nothing, but for a d6 photo whose dice look like
    another number: refused with ``refused``: ``{"face", "looks"}``, and the state, whose
    lesson asks every phone about it (``doubt``), the photo is held; the same step with
    ``pictures`` keeps it (with none held, ``pictures`` is refused)."""
    body = request_body()
    do = body.get("do")
    if do not in TEACH_STEPS:
        raise ApiError(400, "error.field.do")
    kind = body.get("kind")
    if do == "start" and not isinstance(kind, str):
        raise ApiError(400, "error.field.kind")
    try:
        return changed(table().session.teach(do, kind, base_version=version_of(body),
                                             pictures=body.get("pictures") is True))
    except DoubtedPhoto as doubt:
        return refusal(400, engine_text(language(), doubt),
                       refused={"face": doubt.face, "looks": doubt.looks},
                       state=table().payload(table().session.snapshot()))


@bp.get("/camera/doubted.jpg")
def camera_doubted() -> Response:
    """The picture of the teach photo the phones are asked about (JPEG); 404 when none is."""
    found = table().session.teach_doubted_picture()
    if found is None:
        raise ApiError(404, "error.no_picture")
    return Response(found, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera/profile-<kind>.npz")
def camera_profile(kind: str) -> Response:
    """This table's taught profile of ``kind`` (to share with another table); 404 if none."""
    path = table().session.taught_profile(kind)
    if path is None:
        raise ApiError(404, "error.no_profile")
    return send_file(path, mimetype="application/octet-stream", as_attachment=True,
                     download_name=f"dicetable-profile-{kind}.npz", max_age=0)


def changed(snapshot: Snapshot) -> Response:
    """The answer to an accepted change: the new state."""
    return jsonify({"state": table().payload(snapshot)})


def request_body() -> dict[str, Any]:
    """The POST's JSON object (a 400 if it is none)."""
    body = json_body()
    if not isinstance(body, dict):
        raise ApiError(400, "error.json")
    return body


def version_of(body: Mapping[str, Any]) -> int:
    """The ``base_version`` a change names (a 400 if it is not a version)."""
    version = body.get("base_version")
    if type(version) is not int or version < 0:
        raise ApiError(400, "error.field.base_version")
    return version


def _object(body: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = body.get(key)
    if not isinstance(value, dict):
        raise ApiError(400, f"error.field.{key}")
    return value


def _flag(body: Mapping[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise ApiError(400, f"error.field.{key}")
    return value


def _index(body: Mapping[str, Any]) -> int:
    index = body.get("index")
    if type(index) is not int or index < 0:
        raise ApiError(400, "error.field.index")
    return index


def _line(body: Mapping[str, Any]) -> dict[str, Any]:
    line = _object(body, "line")
    if len(line) != 1:
        raise ApiError(400, "error.field.line")
    return line


def _colours(value: object, header: Mapping[str, Any]) -> dict[str, int]:
    """The chosen colours of the header's players (a bad header is the session's to refuse)."""
    if not isinstance(value, dict):
        raise ApiError(400, "error.field.colours")
    players = header.get("players")
    chosen = {k: v for k, v in value.items() if isinstance(players, list) and k in players}
    if any(type(v) is not int or not 0 <= v < len(PALETTE) for v in chosen.values()) \
            or len(set(chosen.values())) != len(chosen):
        raise ApiError(400, "error.colours")
    return chosen


def _interglacial() -> list[str]:
    return [str(card) for card in draw_interglacial(_random)]
