"""The JSON API through Flask's test client, on a real session and journal."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from device.button_config import button_config, buttons_off
from device.camera_errors import CameraError
from device.config import ConfigError
from device.live import CameraStatus, Seen
from device.notice import Notice
from device.session import TableSession
from vision.observation import Observation
from vision.sheet_seen import PlaceSeen, SeventeenObservation
from web.table import table

if TYPE_CHECKING:
    from flask import Flask

    from tests.web.conftest import Phone

JENNA_TURN = [
    {"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]},
    {"keep": ["H4", "H4", "H4", "D3", "D3", "D3"]},
    {"roll": ["D3", "D2", "EXT"]},
    {"keep": ["D3", "D2"]},
]
"""The golden example's first turn (RULES.md): Jenna scores 17."""
PETER_TURN: list[dict[str, Any]] = [{"roll": ["D3"] * 10}, {"keep": ["D3"]}, {"stop": {}}]
"""Peter stops with nothing."""


def test_anyone_may_watch_the_state(watcher: Phone) -> None:
    state = watcher.state()
    assert state["view"] is None and state["game_id"] is None
    assert watcher.client.get("/api/state").json["auth"] is False  # type: ignore[index]


def test_a_new_game_is_published_with_colours(dalek: Phone) -> None:
    state = dalek.state()
    assert state["header"] == {"game": "dalek", "players": ["Jenna", "Peter"]}
    assert state["view"]["turn"] == "Jenna" and state["view"]["expects"] == ["roll"]
    assert sorted(state["colours"].values()) == [0, 1]


def test_chosen_colours_are_kept_for_the_players(phone: Phone) -> None:
    header = {"game": "dalek", "players": ["Ana", "Ben"]}
    response = phone.change("/api/game", {"header": header, "colours": {"Ana": 6, "Ben": 2}})
    assert response.json["state"]["colours"] == {"Ana": 6, "Ben": 2}  # type: ignore[index]


def test_two_players_cannot_share_a_colour(phone: Phone) -> None:
    header = {"game": "dalek", "players": ["Ana", "Ben"]}
    response = phone.change("/api/game", {"header": header, "colours": {"Ana": 1, "Ben": 1}})
    assert response.status_code == 400
    assert "different colour" in response.json["error"]  # type: ignore[index]
    assert phone.state()["view"] is None


def test_a_whole_turn_scores(dalek: Phone) -> None:
    state = dalek.play(*JENNA_TURN)
    assert state["view"]["scores"] == {"Jenna": 17, "Peter": 0}
    assert state["view"]["turn"] == "Peter"
    assert state["view"]["results"][0]["ending"] == "no-dice"


def test_an_illegal_action_gives_the_engines_reason_and_changes_nothing(dalek: Phone) -> None:
    before = dalek.state()
    response = dalek.act({"keep": ["H4"]})
    assert response.status_code == 400
    assert response.json == {"error": "it is Jenna's turn to roll 10 dice, not to keep"}
    assert dalek.state() == before


def test_a_stale_version_is_refused_with_the_current_state(dalek: Phone) -> None:
    version = dalek.state()["version"]
    first = dalek.post("/api/action", {"line": JENNA_TURN[0], "base_version": version})
    second = dalek.post("/api/action", {"line": JENNA_TURN[0], "base_version": version})
    assert first.status_code == 200 and second.status_code == 409
    body = second.json
    assert body is not None
    assert body["state"]["version"] == first.json["state"]["version"]  # type: ignore[index]
    assert body["state"]["view"]["expects"] == ["keep"]
    assert "Another phone" in body["error"]


def test_a_move_the_camera_made_first_is_told_as_the_cameras(
        phone: Phone, table_session: TableSession) -> None:
    """17: a phone plays a card face down while the camera reads it laid: the refusal says
    the camera read it first (it blamed another phone, and the player played it again)."""
    table_session.watch_camera()
    version = phone.change("/api/game", {"header": {"game": "17", "players": ["Ana", "Ben"]}}
                           ).json["state"]["version"]  # type: ignore[index]
    laid = SeventeenObservation((PlaceSeen("row-1", None, "down", "back", 0.9),), ())
    table_session.camera_seen(Seen(Observation((), 800, 600, table=laid),
                                   np.zeros((2, 2, 3), np.uint8), b"", 0.0, 1))
    late = phone.post("/api/action", {"line": {"play": {"face": "down"}},
                                      "base_version": version})
    assert late.status_code == 409
    assert late.json["error"] == ("The camera read the table first and changed the game; "  # type: ignore[index]
                                  "this is what stands now.")
    assert [card["face"] for card in late.json["state"]["view"]["row"]] == ["down"]  # type: ignore[index]


def test_a_stop_button_pressed_first_is_told_as_the_buttons(
        dalek: Phone, table_session: TableSession) -> None:
    version = dalek.play(*JENNA_TURN[:2])["version"]
    table_session.act({"stop": {}}, base_version=version, source="button")
    late = dalek.post("/api/action", {"line": JENNA_TURN[2], "base_version": version},
                      **{"Accept-Language": "es"})
    assert late.status_code == 409
    assert late.json["error"] == ("Un botón de la mesa cambió la partida antes; esto es lo "  # type: ignore[index]
                                  "que hay ahora.")


def test_a_change_whose_maker_is_not_known_is_told_neutrally(dalek: Phone) -> None:
    version = dalek.state()["version"]
    assert dalek.change("/api/hints", {"on": False}).status_code == 200
    late = dalek.post("/api/action", {"line": JENNA_TURN[0], "base_version": version})
    assert late.status_code == 409
    assert late.json["error"] == ("The game changed before your move reached the table; "  # type: ignore[index]
                                  "this is what stands now.")


def test_undo_goes_back_as_far_as_needed(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN)
    for _ in JENNA_TURN:
        assert dalek.act({"undo": {}}).status_code == 200
    state = dalek.state()
    assert state["view"]["actions"] == 0 and state["view"]["scores"]["Jenna"] == 0
    response = dalek.act({"undo": {}})
    assert response.status_code == 400
    assert "nothing to undo" in response.json["error"]  # type: ignore[index]


def test_a_correction_replays_the_rest(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN)
    response = dalek.change("/api/correct", {"index": 3, "line": {"keep": ["D3"]}})
    assert response.status_code == 200, response.json
    view = response.json["state"]["view"]  # type: ignore[index]
    assert view["turn"] == "Jenna" and view["expects"] == ["stop", "roll"]
    assert view["table"]["pool"] == 1


def test_a_correction_that_makes_a_later_action_illegal_names_it(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN)
    before = dalek.state()
    response = dalek.change("/api/correct", {"index": 1, "line": {"keep": ["H4"]}})
    assert response.status_code == 400
    assert response.json == {  # type: ignore[comparison-overlap]
        "error": "action 3 (Roll 3 Daleks, 2 Daleks, Exterminate!) is refused: Jenna rolls 8 "
                 "dice; this roll has 3", "refused": {"index": 2}}
    assert dalek.state() == before


def test_a_correction_the_rules_refuse_is_said_without_offering_to_fix_it_again(
        dalek: Phone) -> None:
    dalek.play(*JENNA_TURN)
    response = dalek.change("/api/correct", {"index": 1, "line": {"keep": ["DOC"]}})
    assert response.status_code == 400
    assert response.json is not None and "refused" not in response.json
    assert response.json["error"].startswith("action 2 (Keep the Doctor) is refused: ")


def test_a_correction_fixes_the_later_actions_it_makes_illegal_in_turn(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN)
    response = dalek.change("/api/correct", {
        "index": 1, "line": {"keep": ["H4", "H4", "H4", "D3", "D3"]},
        "then": [{"index": 2, "line": {"roll": ["D3", "D3", "EXT", "D2"]}},
                 {"index": 3, "line": {"keep": ["D3", "D3", "D2"]}}]})
    assert response.status_code == 200, response.json
    assert response.json["state"]["view"]["scores"]["Jenna"] == 17  # type: ignore[index]
    assert dalek.client.get("/api/record").json["actions"][1:] == [  # type: ignore[index]
        {"keep": ["H4", "H4", "H4", "D3", "D3"]}, {"roll": ["D3", "D3", "EXT", "D2"]},
        {"keep": ["D3", "D3", "D2"]}]


def test_a_correction_drops_the_later_actions_it_makes_illegal(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN)
    response = dalek.change("/api/correct", {"index": 1, "line": {"keep": ["H4"]},
                                             "drop_from": 2})
    assert response.status_code == 200, response.json
    view = response.json["state"]["view"]  # type: ignore[index]
    assert view["actions"] == 2 and view["table"]["pool"] == 8
    for bad in ({"drop_from": -1}, {"drop_from": 9}, {"then": {"index": 2}},
                {"then": [{"index": 0, "line": {"stop": {}}}]}):
        refused = dalek.change("/api/correct", {"index": 1, "line": {"keep": ["H4"]}, **bad})
        assert refused.status_code == 400 and "{" not in refused.json["error"]  # type: ignore


def test_the_game_is_told_in_the_phones_language(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN)
    dalek.client.set_cookie("lang", "es")
    log = dalek.client.get("/api/record").json["log"]  # type: ignore[index]
    assert [entry["player"] for entry in log] == ["Jenna"] * 4
    assert log[0]["text"] == ("Jenna sacó 3 × 4 humanos, 2 × 2 humanos, 3 × 3 Daleks, "
                              "2 Daleks, el Doctor")
    assert log[3] == {"player": "Jenna", "text": "Jenna guardó 3 Daleks, 2 Daleks; sin dados: "
                      "17 puntos", "moment": "Sin dados: +5 → 17"}


def test_the_record_lists_the_standing_actions(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN, {"undo": {}})
    body = dalek.client.get("/api/record").json
    assert body is not None
    assert body["actions"] == JENNA_TURN[:3]


def test_abandon_frees_the_table(dalek: Phone) -> None:
    assert dalek.change("/api/abandon").status_code == 200
    assert dalek.state()["view"] is None


def test_a_new_game_is_refused_while_one_is_played(dalek: Phone) -> None:
    response = dalek.change("/api/game", {"header": {"game": "dalek", "players": ["A", "B"]}})
    assert response.status_code == 400
    assert "abandon" in response.json["error"]  # type: ignore[index]


def test_hints_can_be_switched_off(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN[:2])
    assert dalek.state()["hints"]["stop_points"] == 0
    response = dalek.change("/api/hints", {"on": False})
    assert response.json["state"]["hints"] is None  # type: ignore[index]
    assert response.json["state"]["hints_on"] is False  # type: ignore[index]


def test_a_bad_header_is_refused_with_the_reason(phone: Phone) -> None:
    response = phone.change("/api/game", {"header": {"game": "dalek", "players": ["Ana"]}})
    assert response.status_code == 400
    assert response.json == {"error": "Dalek Dice is for 2 to 8 players, not 1"}


def test_a_header_without_its_game_or_of_a_game_not_played_here_is_refused_in_words(
        phone: Phone) -> None:
    # the engine's words for a record file went to the phone: "a record starts with its
    # header: the game and its players, such as something else" (the example header, shown
    # as any input that is no word), and the games by their ids ("dalek" (Dalek Dice), ...);
    # the engine now words both for a player, in the phone's language
    set_up = ("a game starts with its set-up: the game to play and its players",
              "una partida empieza con su preparación: el juego y sus jugadores")
    unknown = ("this table does not play that game; it plays Dalek Dice, Dicy Cards, 17",
               "esta mesa no juega a ese juego; juega a Dalek Dice, Dicy Cards, 17")
    for header, (english, spanish) in [({"players": ["Ana", "Ben"]}, set_up),
                                       ({"game": "dalek"}, set_up),
                                       ({"game": "chess", "players": ["Ana", "Ben"]}, unknown),
                                       ({"game": 17, "players": ["Ana", "Ben"]}, unknown)]:
        for lang, message in [("en", english), ("es", spanish)]:
            response = phone.post("/api/game", {"header": header, "base_version": 0},
                                  **{"Accept-Language": lang})
            assert (response.status_code, response.json) == (400, {"error": message}), header
    assert phone.state()["view"] is None


def test_bad_posts_get_a_400_and_change_nothing(dalek: Phone) -> None:
    before = dalek.state()
    version = before["version"]
    bad_bodies: list[object] = [
        [], "roll", {"line": {"roll": []}}, {"line": "stop", "base_version": version},
        {"line": {"stop": {}, "roll": []}, "base_version": version},
        {"line": {"stop": {}}, "base_version": "1"}, {"line": {"stop": {}}, "base_version": True},
    ]
    for body in bad_bodies:
        response = dalek.post("/api/action", body)
        assert response.status_code == 400, body
        assert response.json["error"]  # type: ignore[index]
    response = dalek.client.post("/api/action", data="{not json",
                                 headers={"X-CSRF-Token": dalek.csrf,
                                          "Content-Type": "application/json"})
    assert response.status_code == 400
    response = dalek.client.post("/api/action", data="x" * 20_000,
                                 headers={"X-CSRF-Token": dalek.csrf,
                                          "Content-Type": "application/json"})
    assert response.status_code == 413
    assert dalek.state() == before


def test_names_are_never_markup(phone: Phone) -> None:
    header = {"game": "dalek", "players": ["<b>Ana</b>", "Ben"]}
    assert phone.change("/api/game", {"header": header}).status_code == 200
    page = phone.client.get("/").get_data(as_text=True)
    assert "<b>Ana</b>" not in page
    assert "\\u003cb\\u003eAna" in page


def test_interglacial_cards_are_drawn_by_the_server(phone: Phone) -> None:
    header = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "interglacial"}
    response = phone.change("/api/game", {"header": header})
    assert response.status_code == 200, response.json
    cards = response.json["state"]["header"]["cards"]  # type: ignore[index]
    assert len(set(cards)) == 5


def test_history_lists_finished_games(phone: Phone) -> None:
    assert phone.client.get("/api/history").json == {"games": [], "wins": {}}
    header = {"game": "dalek", "players": ["Jenna", "Peter"], "target": 20}
    assert phone.change("/api/game", {"header": header}).status_code == 200
    state = phone.play(*JENNA_TURN, *PETER_TURN, *JENNA_TURN)
    assert not state["view"]["over"] and state["wins"] is None
    state = phone.play(*PETER_TURN)
    assert state["view"]["over"] and state["view"]["scores"] == {"Jenna": 34, "Peter": 0}
    assert state["wins"] == {"Jenna": 1}
    body = phone.client.get("/api/history").json
    assert body is not None
    (entry,) = body["games"]
    assert (entry["id"], entry["game"], entry["players"], entry["winners"]) == (
        state["game_id"], "dalek", ["Jenna", "Peter"], ["Jenna"])
    assert entry["ended_at"] >= entry["started_at"]
    assert body["wins"] == {"Jenna": 1}


def test_a_refused_set_up_does_not_recolour_the_game(dalek: Phone) -> None:
    before = dalek.state()["colours"]
    header = {"game": "dalek", "players": ["Jenna", "Peter"]}
    response = dalek.change("/api/game", {"header": header, "colours": {"Jenna": 5, "Peter": 6}})
    assert response.status_code == 400
    assert dalek.state()["colours"] == before


def test_a_stale_set_up_does_not_recolour_anyone(phone: Phone) -> None:
    header = {"game": "dalek", "players": ["Jenna", "Peter"]}
    stale = {"header": header, "colours": {"Jenna": 5, "Peter": 6},
             "base_version": phone.state()["version"] + 1}
    assert phone.post("/api/game", stale).status_code == 409
    response = phone.change("/api/game", {"header": header})
    assert response.json["state"]["colours"] == {"Jenna": 0, "Peter": 1}  # type: ignore[index]


def test_a_bad_header_with_colours_gets_the_engines_reason(phone: Phone) -> None:
    response = phone.change("/api/game", {"header": {"game": "dalek", "players": "Ana"},
                                          "colours": {"Ana": 2}})
    assert response.status_code == 400
    assert "players must be a list of names" in response.json["error"]  # type: ignore[index]


def test_the_first_player_of_17_is_drawn_by_lot(phone: Phone) -> None:
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"]}
    drawn = set()
    for _ in range(20):
        state = phone.change("/api/game", {"header": header, "draw_first": True}).json
        assert state is not None
        first = state["state"]["header"]["first"]
        assert state["state"]["view"]["turn"] == first
        record = phone.client.get(f"/export/{state['state']['game_id']}.jsonl")
        assert record.status_code == 409
        drawn.add(first)
        assert phone.change("/api/abandon").status_code == 200
    assert drawn <= {"Ana", "Ben", "Cleo"} and len(drawn) > 1


def test_drawing_the_first_player_is_a_yes_or_no(phone: Phone) -> None:
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"]}
    response = phone.change("/api/game", {"header": header, "draw_first": "yes"})
    assert response.status_code == 400
    assert response.json == {
        "error": "Drawing the first player by lot is either on or off; nothing was changed."}
    assert phone.state()["view"] is None


def test_each_bad_field_is_named_in_words(dalek: Phone) -> None:
    version = dalek.state()["version"]
    bad = {
        "/api/hints": ({"on": "yes", "base_version": version},
                       "Hints can only be switched on or off; nothing was changed."),
        "/api/correct": ({"index": -1, "line": {"stop": {}}, "base_version": version},
                         "The correction does not say which action it replaces; "
                         "nothing was changed."),
        "/api/action": ({"line": {"stop": {}}},
                        "The request does not say which state of the game it was made "
                        "from; nothing was changed."),
        "/api/game": ({"header": [], "base_version": version},
                      "A new game needs its set-up (the game and its players); "
                      "nothing was changed."),
    }
    for path, (body, message) in bad.items():
        response = dalek.post(path, body)
        assert (response.status_code, response.json) == (400, {"error": message}), path
    spanish = dalek.post("/api/hints", bad["/api/hints"][0], **{"Accept-Language": "es"})
    assert spanish.json == {
        "error": "Los consejos solo pueden activarse o desactivarse; no se ha cambiado nada."}


def test_a_number_too_long_to_read_is_named_as_such_in_the_phones_language(
        dalek: Phone) -> None:
    # Past Python's 4300 digits, JSON's parser refuses an integer: it was answered "must be
    # a JSON object", as if the phone had sent no object at all
    before = dalek.state()
    huge = "9" * 5000
    bodies = {"/api/action": f'{{"line": {{"roll": [{huge}]}}, "base_version": {huge}}}',
              "/auth/pin": f'{{"pin": {huge}}}'}
    for path, text in bodies.items():
        for lang, message in [
                ("en", "The request holds a number far too long for any entry; nothing was "
                       "changed."),
                ("es", "La petición lleva un número demasiado largo para cualquier dato; no se "
                       "ha cambiado nada.")]:
            response = dalek.client.post(path, data=text, headers={
                "X-CSRF-Token": dalek.csrf, "Content-Type": "application/json",
                "Accept-Language": lang})
            assert (response.status_code, response.json) == (400, {"error": message}), path
    assert dalek.state() == before


def test_a_deeply_nested_body_is_a_400_everywhere(dalek: Phone) -> None:
    before = dalek.state()
    deep = "[" * 7000 + "]" * 7000
    posts = {path: "The table could not read what was sent; nothing was changed." for path in
             ("/api/action", "/api/game", "/api/correct", "/api/abandon", "/api/hints")}
    posts["/auth/pin"] = "Enter the table's PIN."
    for path, message in posts.items():
        for text in (deep, '{"pin": ' + deep + "}"):
            response = dalek.client.post(path, data=text, headers={
                "X-CSRF-Token": dalek.csrf, "Content-Type": "application/json"})
            assert (response.status_code, response.json) == (400, {"error": message}), path
    nested = "[" * 900 + "]" * 900
    text = f'{{"line": {{"roll": {nested}}}, "base_version": {before["version"]}}}'
    response = dalek.client.post("/api/action", data=text, headers={
        "X-CSRF-Token": dalek.csrf, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json["error"].startswith("a die must be one of")  # type: ignore[index]
    assert dalek.state() == before


def test_why_the_camera_is_out_names_the_hosts_folder_only_to_the_host(
        phone: Phone, watcher: Phone, table_session: TableSession) -> None:
    # an unauthenticated GET /api/state (or the page, or the live stream) showed the folder
    # the host keeps their photos in, though the pad hid it from a phone without the PIN
    folder = "/home/pi/Private photos"
    table_session.watch_camera()
    table_session.camera_status(CameraStatus("out", CameraError("camera.why.heic",
                                                                folder=folder)))
    deadline = time.monotonic() + 5
    while watcher.state()["camera"]["status"] != "out" and time.monotonic() < deadline:
        time.sleep(0.02)
    stream = watcher.client.get("/events", buffered=False)
    seen = [watcher.client.get("/").get_data(as_text=True),
            json.dumps(watcher.client.get("/api/state").json),
            next(iter(cast(Iterable[bytes], stream.response))).decode()]
    stream.close()
    assert all("camera.why.heic" in text for text in seen[1:])  # told, without its values
    assert not [text for text in seen if "Private photos" in text]
    assert watcher.state()["camera"]["why"]["key"] == "camera.why.heic"
    assert watcher.client.get("/api/camera/why").status_code == 401
    assert phone.client.get("/api/camera/why").json == {
        "why": {"key": "camera.why.heic", "params": {"folder": folder}}, "unreadable": None}


def test_a_silent_cameras_why_tells_the_seconds_as_of_now_once_and_the_logs_wait_as_is(
        phone: Phone, table_session: TableSession) -> None:
    # its params' seconds were overwritten with the silence as of now, given again beside them
    # as silent_s: the wait that found it silent, the host's log's, was not told as it is
    table_session.watch_camera()
    table_session.camera_status(CameraStatus("out", CameraError("camera.why.stalled",
                                                                seconds="5"),
                                             since=time.monotonic() - 12))
    deadline = time.monotonic() + 5
    while phone.state()["camera"]["status"] != "out" and time.monotonic() < deadline:
        time.sleep(0.02)
    why = phone.client.get("/api/camera/why").json["why"]
    assert why["params"] == {"seconds": "5"}
    assert 12 <= why["silent_s"] <= 14


def test_the_state_tells_when_why_the_camera_is_out_says_new_values_for_the_same_reason(
        phone: Phone, table_session: TableSession) -> None:
    # the pad kept the words it fetched for the reason's key: the picture 00002.jpg gone, then
    # 00003.jpg, it went on naming 00002.jpg
    table_session.watch_camera()

    def out_because(name: str) -> dict[str, Any]:
        table_session.camera_status(CameraStatus("out", CameraError(
            "camera.why.picture_gone", name=name, folder="/home/pi/fotos")))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            why = phone.state()["camera"]["why"]
            if why is not None and phone.client.get("/api/camera/why").json[
                    "why"]["params"]["name"] == name:
                return cast(dict[str, Any], why)
            time.sleep(0.02)
        raise AssertionError(name)

    first, again, second = (out_because("00002.jpg"), out_because("00002.jpg"),
                            out_because("00003.jpg"))
    assert first["key"] == second["key"] == "camera.why.picture_gone"
    assert first == again  # the same words: nothing to ask again
    assert second["values"] != first["values"]  # new words: the pad asks for them
    assert "0000" not in json.dumps(second) and "fotos" not in json.dumps(second)


def test_a_word_not_understood_is_quoted_cut_short_and_escaped_in_every_language(
        dalek: Phone) -> None:
    # the word was quoted whole (a 15 KB die gave a 15 KB refusal, a die of 4000 digits one
    # of 4 KB) and as it came: a mark that turns the text round, or a line break, went into
    # the phone's message
    before = dalek.state()
    many_digits = dalek.client.post("/api/action", data=f'{{"line": {{"roll": [{"9" * 4000}]}}, '
                                    f'"base_version": {before["version"]}}}', headers={
                                        "X-CSRF-Token": dalek.csrf,
                                        "Content-Type": "application/json"})
    assert many_digits.status_code == 400
    assert many_digits.json["error"].endswith(f"not {'9' * 79}…")  # type: ignore[index]
    quotes = {"en": "“”", "es": "«»", "it": "«»", "pt": "“”"}
    for lang, (left, right) in quotes.items():
        long = dalek.post("/api/action", {"line": {"roll": ["x" * 15_000]},
                                          "base_version": before["version"]},
                          **{"Accept-Language": lang})
        assert long.status_code == 400
        assert long.json["error"].endswith(f"{left}{'x' * 79}…{right}")  # type: ignore[index]
        marked = dalek.post("/api/action", {"line": {"roll": ["\u202eAna\n"]},
                                            "base_version": before["version"]},
                            **{"Accept-Language": lang})
        assert marked.status_code == 400
        assert marked.json["error"].endswith(  # type: ignore[index]
            f"{left}\\u202eAna\\u000a{right}")
    assert dalek.state() == before


def test_a_notice_told_or_read_moves_the_state_so_every_open_page_asks_again(
        app: Flask, phone: Phone, watcher: Phone) -> None:
    # an open page asks for the notices again when the state's notices_version moves (or its
    # run does): a notice told while the table runs, the notices read on one phone; a notice
    # told again while shown, or nothing left to read, moves nothing
    before = watcher.state()["notices_version"]
    with app.app_context():
        table().tell(Notice("notice.power_off.inhibited"))
        told = watcher.state()["notices_version"]
        table().tell(Notice("notice.power_off.inhibited"))
    assert told > before
    assert watcher.state()["notices_version"] == told
    notices = watcher.client.get("/api/state").json["notices"]  # type: ignore[index]
    assert [text[:25] for text in notices] == ["The Pi did not power off:"]
    assert phone.post("/api/notices/dismiss", {}).status_code == 200
    read = watcher.state()["notices_version"]
    assert read > told
    assert watcher.client.get("/api/state").json["notices"] == []  # type: ignore[index]
    assert phone.post("/api/notices/dismiss", {}).status_code == 200
    assert watcher.state()["notices_version"] == read


def test_the_buttons_off_notice_names_the_file_and_its_settings_to_the_host_alone(
        app: Flask, phone: Phone, watcher: Phone) -> None:
    # the file's path and settings are the host's, as why the camera is out is; a guest reads
    # that the buttons are off
    try:
        button_config({"stop": 40}, "[buttons]")
    except ConfigError as err:
        with app.app_context():
            table().notices.append(buttons_off(err, "/etc/dicetable/config.toml"))
    told = {name: each.client.get("/api/state").json["notices"]  # type: ignore[index]
            for name, each in (("host", phone), ("guest", watcher))}
    assert "/etc/dicetable/config.toml: stop = 40" in told["host"][0]
    assert told["guest"] == ["The table's buttons are off until the host fixes the config file "
                             "and restarts the table; a phone with the PIN shows what is wrong."]
    page = watcher.client.get("/").get_data(as_text=True)
    assert "stop = 40" not in page and "/etc/dicetable" not in page
    assert "stop = 40" in phone.client.get("/").get_data(as_text=True)
