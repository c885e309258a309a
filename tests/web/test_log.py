"""The game told in plain words (web/log.py): who did what, what came of it, and the moments."""

from __future__ import annotations

from typing import Any

from engine import Game
from web.log import game_log, tell_on


def told(header: dict[str, Any], lines: list[dict[str, Any]], lang: str = "en") -> list[Any]:
    game = Game.start(header)
    for line in lines:
        game = game.play_json(line)
    return game_log(game, lang)


def test_the_doctor_and_a_stop_with_too_few_daleks() -> None:
    log = told({"game": "dalek", "players": ["Jenna", "Peter"]}, [
        {"roll": ["H4"] * 9 + ["D3"]}, {"keep": ["H4", "D3"]}, {"stop": {}},
        {"roll": ["DOC"] + ["H2"] * 9}, {"keep": ["H2"]}, {"roll": ["DOC"] + ["H2"] * 7},
        {"keep": ["H2"]}, {"roll": ["DOC"] + ["H2"] * 5}])
    assert log[2] == {"player": "Jenna", "text": "Jenna stopped: Daleks 3 < humans 4, 0 points",
                      "moment": None}
    assert log[-1]["text"].endswith("; the Doctor intervenes: 0 points")
    assert log[-1]["moment"] == "The Doctor intervenes: 0"


def test_exterminate_with_no_dice_left_shows_its_bonus() -> None:
    log = told({"game": "dalek", "players": ["Jenna", "Peter"]}, [
        {"roll": ["EXT"] + ["H4"] * 9}, {"keep": ["H4"] * 7}, {"roll": ["EXT", "H4"]},
        {"keep": []}, {"roll": ["EXT"]}, {"keep": []}])
    assert log[-1]["moment"] == "EXTERMINATE! ×2, no dice left +5 → 61"
    few = told({"game": "dalek", "players": ["Jenna", "Peter"]}, [  # no dice left, few humans
        {"roll": ["H2"] + ["D3"] * 9}, {"keep": ["H2"] + ["D3"] * 9}])
    assert few[-1]["moment"] == "No dice left: +5 → 7"


def test_a_score_with_its_effects_owed_a_skip_and_the_choices() -> None:
    header = {"game": "dicy", "players": ["Ana", "Ben", "Cleo"], "mode": "glacial"}
    log = told(header, [
        {"roll": [5, 5, 4, 4, 2, 1]}, {"reroll": {"freeze": "odd", "dice": [5, 5, 4, 4, 6, 6]}},
        {"score": {"card": "two-dice", "dice": [6, 6]}},
        {"effect": {"player": "Cleo", "card": "straight"}},
        {"effect": {"player": "Ben", "card": "odd"}},
        {"roll": [1, 2, 3, 4, 5, 6]}, {"skip": {}}], "it")
    assert [entry["player"] for entry in log] == ["Ana", "Ana", "Ana", "Cleo", "Ben", "Ben", "Ben"]
    assert log[1]["text"] == "Ana ha congelato Dispari e rilanciato: 5 5 4 4 6 6"
    assert log[2]["text"] == ("Ana ha fatto Due dadi (6 6): 12; Ben deve congelare una carta; "
                              "Cleo deve congelare una carta")
    assert log[3]["text"] == "Cleo ha congelato Scala; Ben deve congelare una carta"
    assert log[6]["text"] == ("Ben ha passato: tutte le carte di Ben tornano attive; "
                              "Cleo deve ripristinare una carta; Ana deve ripristinare una carta")


def test_a_hidden_card_is_told_only_once_17_is_called() -> None:
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana"}
    plays = [{"play": {"card": "5d", "face": "down"}}, {"play": {"card": "trap", "face": "down"}},
             {"play": {"card": "x2", "face": "up"}}]
    before = told(header, plays, "pt")
    assert [entry["text"] for entry in before] == [
        "Ana jogou 5 ⇅ virada para baixo", "Ben jogou uma carta virada para baixo",
        "Cleo jogou ×2 virada para cima"]
    log = told(header, [*plays, {"call": ["Ben", "Ana"]}], "pt")
    assert log[1]["text"] == "Ben jogou Armadilha virada para baixo"
    assert log[3]["player"] == "Ana"
    assert log[3]["text"] == "Ana disse 17!; 5 < 17 → Ana ✖✖, Ben ★, Cleo ★"
    assert log[3]["moment"] == "5 < 17 → Ana ✖✖, Ben ★, Cleo ★"


def test_17s_tokens_told_as_pictures_are_also_told_in_words_for_a_screen_reader() -> None:
    # a screen reader said "Ana heavy multiplication x heavy multiplication x, Ben black star"
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana"}
    plays = [{"play": {"card": "5d", "face": "down"}}, {"play": {"card": "trap", "face": "down"}},
             {"play": {"card": "x2", "face": "up"}}, {"call": ["Ben", "Ana"]}]
    tokens = {"en": "Ana: 2 penalty tokens, Ben: 1 victory token, Cleo: 1 victory token",
              "es": ("Ana: 2 fichas de penalización, Ben: 1 ficha de victoria, "
                     "Cleo: 1 ficha de victoria"),
              "it": "Ana: 2 penalità, Ben: 1 gettone vittoria, Cleo: 1 gettone vittoria",
              "pt": ("Ana: 2 fichas de penalização, Ben: 1 ficha de vitória, "
                     "Cleo: 1 ficha de vitória")}
    for lang, words in tokens.items():
        log = told(header, plays, lang)
        assert log[3]["moment_said"] == f"5 < 17 → {words}"
        assert log[3]["said"] == log[3]["text"].replace("Ana ✖✖, Ben ★, Cleo ★", words)
        assert "said" not in log[2] and "moment_said" not in log[2], "no pictures, said as shown"


def test_a_story_told_on_is_the_story_told_whole() -> None:
    """After each action, after an undo, and in 17 when a call turns a face-down card over
    (the earlier entries change: it is told anew)."""
    game = Game.start({"game": "17", "players": ["Ana", "Ben", "Cleo"]})
    told = None
    for line in [{"play": {"card": "3", "face": "up"}}, {"play": {"card": "trap", "face": "down"}},
                 {"play": {"card": "5", "face": "up"}}, {"undo": {}},
                 {"play": {"card": "4", "face": "up"}}, {"call": ["Ana"]}]:
        game = game.play_json(line)
        told = tell_on(game, "es", told)
        assert told.entries == game_log(game, "es")


def test_a_player_given_both_kinds_of_token_in_a_round_is_named_once() -> None:
    # a screen reader said "Ana: 2 penalty tokens, Ana: 1 victory token"
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana", "target": 4}
    plays = [{"play": {"face": "down"}}, {"play": {"face": "down"}}, {"call": ["Ana"]},
             {"reveal": ["trap", "3"]}]
    tokens = {"en": "Ana: 2 penalty tokens and 1 victory token, Ben: 1 victory token",
              "es": ("Ana: 2 fichas de penalización y 1 ficha de victoria, "
                     "Ben: 1 ficha de victoria"),
              "it": "Ana: 2 penalità e 1 gettone vittoria, Ben: 1 gettone vittoria",
              "pt": ("Ana: 2 fichas de penalização e 1 ficha de vitória, "
                     "Ben: 1 ficha de vitória")}
    for lang, words in tokens.items():
        log = told(header, plays, lang)
        assert log[-1]["moment"] == "3 < 17 → Ana ✖✖★, Ben ★"
        assert log[-1]["moment_said"] == f"3 < 17 → {words}"
