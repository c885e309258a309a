"""17: the row, the specials, the calls, the tokens, the end, the records and every refusal."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from engine import Game, IllegalAction, read_record, write_record

RECORDS = Path(__file__).parent / "records"
THREE = ("Ana", "Ben", "Cleo")
FOUR = ("Ana", "Ben", "Cleo", "Dai")


def start(players: tuple[str, ...] = THREE, **options: Any) -> Game:
    return Game.start({"game": "17", "players": list(players), **options})


def play(lines: list[dict[str, Any]], players: tuple[str, ...] = THREE,
         **options: Any) -> Game:
    game = start(players, **options)
    for line in lines:
        game = game.play_json(line)
    return game


def up(card: str) -> dict[str, Any]:
    return {"play": {"card": card, "face": "up"}}


def down(card: str | None = None) -> dict[str, Any]:
    return {"play": {"face": "down", **({} if card is None else {"card": card})}}


def call(*names: str) -> dict[str, Any]:
    return {"call": list(names)}


def replay(name: str) -> dict[str, Any]:
    lines = (RECORDS / name).read_text(encoding="utf-8").splitlines()
    view: dict[str, Any] = read_record(lines).view()
    return view


def tokens(view: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {p: (t["victory"], t["penalty"]) for p, t in view["tokens"].items()}


def given(result: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(m["player"], m["token"], m["for"]) for m in result["given"]]


# The records ---------------------------------------------------------------------------------


def test_golden_record_ana_ben_cleo() -> None:
    view = replay("seventeen-ana-ben-cleo.jsonl")
    assert tokens(view) == {"Ana": (0, 0), "Ben": (0, 0), "Cleo": (1, 0)}
    (result,) = view["results"]
    assert result["caller"] == "Ana" and result["callers"] == ["Ana", "Ben"]
    assert result["last_player"] == "Cleo"
    assert result["row"] == ["3d", "4", "trap"] and result["total"] == 7
    assert not result["reached_17"]
    # Cleo's face-down trap: Cleo a victory, the caller a penalty; then 7 < 17: the caller's
    # second penalty discards both; Cleo's victory for the total is her second this round.
    assert given(result) == [("Ana", "penalty", "trap"), ("Ana", "penalty", "total"),
                             ("Cleo", "victory", "trap")]
    assert result["not_given"] == [{"player": "Cleo", "token": "victory", "for": "total",
                                    "why": "one victory token a round"}]
    assert result["discarded"] == [{"player": "Ana", "penalty": 2, "victory": 0}]
    assert result["starts_next"] == "Cleo" and view["turn"] == "Cleo"
    assert view["round"] == 2 and view["row"] == [] and view["expects"] == ["play"]
    assert view["box"] == {"victory": 13, "penalty": 10}
    assert not view["over"] and view["winners"] == []


def test_undo_lines_take_back_plays_calls_and_reveals() -> None:
    view = replay("seventeen-undo.jsonl")
    golden = replay("seventeen-ana-ben-cleo.jsonl")
    assert view == golden
    exported = write_record(read_record((RECORDS / "seventeen-undo.jsonl").read_text()
                                        .splitlines()))
    assert exported == (RECORDS / "seventeen-ana-ben-cleo.jsonl").read_text()


def test_record_reverse_trash_of_a_reverse_and_calls_in_both_directions() -> None:
    view = replay("seventeen-reverse-and-calls.jsonl")
    first, second = view["results"]
    # Round 1 ends clockwise: after Ana comes Ben, then Cleo; Cleo beats Dai.
    assert (first["caller"], first["callers"], first["last_player"]) == (
        "Cleo", ["Dai", "Cleo"], "Ana")
    assert first["row"] == ["5", "reverse", "3"] and first["total"] == 8
    # Round 2 ends counterclockwise: after Ana comes Dai, who beats Ben and Cleo.
    assert (second["caller"], second["last_player"], second["total"]) == ("Dai", "Ana", 17)
    assert given(second) == [("Ana", "penalty", "total"), ("Dai", "victory", "total")]
    assert tokens(view) == {"Ana": (1, 1), "Ben": (0, 0), "Cleo": (0, 1), "Dai": (1, 0)}
    assert view["turn"] == "Dai" and view["direction"] == "counterclockwise"


def test_record_x2_two_in_a_row_trashed_x2_and_the_call_cancels_it() -> None:
    view = replay("seventeen-x2.jsonl")
    (result,) = view["results"]
    assert result["row"] == ["x2", "5d", "x2", "5d", "5", "3d", "x2", "1", "x2"]
    assert result["total"] == 19 and result["caller"] == "Cleo"
    assert tokens(view) == {"Ana": (0, 0), "Ben": (0, 1), "Cleo": (1, 0)}
    # Cleo owed 2 cards when she called; her new round started with 1.
    assert [c["card"] for c in view["row"]] == ["4"]
    assert view["turn"] == "Ana" and view["plays_left"] == 1


def test_record_trash_first_card_and_face_down_card_then_a_single_winner() -> None:
    view = replay("seventeen-trash-to-the-end.jsonl")
    first = view["results"][0]
    # The trashed face-down card is never revealed: the round is scored at the call.
    assert first["row"] == ["5d", "4"] and first["total"] == 9
    assert [r["starts_next"] for r in view["results"]] == ["Ana", "Ana", "Ana"]
    assert view["results"][1]["discarded"] == [{"player": "Ben", "penalty": 2, "victory": 0}]
    assert tokens(view) == {"Ana": (3, 0), "Ben": (0, 1)}
    assert view["over"] and view["winners"] == ["Ana"]
    assert view["turn"] is None and view["expects"] == [] and view["row"] == []


def test_record_traps_one_victory_a_round_and_the_callers_double_penalty() -> None:
    view = replay("seventeen-traps.jsonl")
    first, second, third = view["results"]
    # Ana's two face-down traps and the total: one victory token.
    assert given(first) == [("Ben", "penalty", "trap"), ("Ben", "penalty", "trap"),
                            ("Ben", "penalty", "total"), ("Ana", "victory", "trap")]
    assert [m["why"] for m in first["not_given"]] == ["one victory token a round"] * 2
    # Ana calls wrong over Ben's trap: two penalties cost her the victory she had.
    assert second["discarded"] == [{"player": "Ana", "penalty": 2, "victory": 1}]
    # Cleo calls over her own face-down trap: a victory and a penalty for her, and the
    # victory of the total (17) is one too many.
    assert third["total"] == 17 and third["caller"] == "Cleo"
    assert given(third) == [("Cleo", "penalty", "trap"), ("Ana", "penalty", "total"),
                            ("Cleo", "victory", "trap")]
    assert tokens(view) == {"Ana": (0, 1), "Ben": (1, 1), "Cleo": (2, 1)}
    assert view["turn"] == "Cleo"


def test_record_token_box_runs_out_and_fewer_penalties_break_the_tie() -> None:
    view = replay("seventeen-token-box.jsonl")
    last = view["results"][-1]
    assert last["not_given"] == [{"player": "Finn", "token": "victory", "for": "total",
                                  "why": "the box is out of victory tokens"}]
    assert view["box"]["victory"] == 0
    assert tokens(view) == {"Ana": (3, 0), "Ben": (3, 0), "Cleo": (2, 0), "Dai": (3, 0),
                            "Eva": (3, 1), "Finn": (0, 0)}
    assert view["over"] and view["winners"] == ["Ana", "Ben", "Dai"]
    told = read_record((RECORDS / "seventeen-token-box.jsonl").read_text().splitlines())
    assert told.describe().splitlines()[1:] == [  # the terminal's words (replay), plainly
        "  tokens (victory/penalty): Ana 3/0   Ben 3/0   Cleo 2/0   Dai 3/0   Eva 3/1   Finn 0/0",
        "  Winners: Ana, Ben and Dai"]


def test_record_fewer_penalties_win() -> None:
    view = replay("seventeen-fewer-penalties-win.jsonl")
    assert tokens(view) == {"Ana": (0, 1), "Ben": (2, 0), "Cleo": (2, 1)}
    assert view["winners"] == ["Ben"] and view["over"]


def test_record_shared_win() -> None:
    view = replay("seventeen-shared-win.jsonl")
    assert view["winners"] == ["Ana", "Ben"] and view["target"] == 1


# Playing cards -------------------------------------------------------------------------------


def test_the_row_shows_public_cards_and_hides_plain_backs_face_down() -> None:
    game = play([down("3d"), down(), down("trap"), up("trap"), up("4d")], players=FOUR)
    row = game.view()["row"]
    assert row[0] == {"position": 1, "face": "down", "card": "3d", "value": 3,
                      "hidden": False, "player": "Ana"}
    for hidden in row[1:3]:
        assert hidden["card"] is None and hidden["value"] is None and hidden["hidden"]
    assert row[3] == {"position": 4, "face": "up", "card": "trap", "value": 0, "hidden": False,
                      "player": "Dai"}
    assert row[4]["value"] == 4 and row[4]["player"] == "Ana"
    assert game.view()["seen"] == {"4d": 1, "3d": 1, "trap": 1}
    assert "trap" not in json.dumps(game.view()["row"][2])


def test_a_named_face_down_card_never_shows_before_the_call() -> None:
    named = play([up("2"), down("5"), up("trap")])
    unknown = play([up("2"), down(), up("trap")])
    assert named.view() == unknown.view()
    assert named.hints() == unknown.hints()
    assert "5" not in named.describe().split("row:")[1].replace("[??]", "")
    # At the call the named card is turned over; the unknown one awaits the reveal.
    called = named.play_json(call("Ana"))
    assert called.view()["expects"] == ["play"] and called.view()["round"] == 2
    waiting = unknown.play_json(call("Ana"))
    assert waiting.view()["expects"] == ["reveal"]
    assert waiting.view()["call"] == {"caller": "Ana", "callers": ["Ana"],
                                      "last_player": "Cleo", "to_reveal": [2]}
    assert waiting.view()["turn"] is None


def test_a_refused_correction_does_not_name_a_card_still_face_down() -> None:
    game = play([up("2"), down("trap")], deck={"trap": 1})
    # With the only trap played face up first, Ben's face-down trap no longer fits the deck.
    with pytest.raises(IllegalAction) as refused:
        game.correct(0, game.parse(up("trap")))
    assert str(refused.value) == ('action 2 ({"play": {"face": "down"}}) is refused: the reason '
                                  "would give away a card that is still face down")
    # A card the table can see is named, and so is the reason.
    seen = play([up("2"), up("trap")], deck={"trap": 1})
    with pytest.raises(IllegalAction, match=r'action 2 \(\{"play": \{"card": "trap", "face": '
                       r'"up"\}\}\) is refused: the deck has only 1 trap card'):
        seen.correct(0, seen.parse(up("trap")))


def test_reveal_shows_named_cards_at_the_call_and_waits_for_the_unknown_ones() -> None:
    game = play([down("trap"), down(), down("1"), call("Ana")])
    row = game.view()["row"]
    assert [c["card"] for c in row] == ["trap", None, "1"]
    assert [c["hidden"] for c in row] == [False, True, False]
    game = game.play_json({"reveal": ["5"]})
    assert game.view()["results"][0]["row"] == ["trap", "5", "1"]


def test_reverse_turns_the_direction_and_it_carries_over_to_the_next_round() -> None:
    game = play([up("reverse")], players=FOUR)
    assert game.view()["turn"] == "Dai" and game.view()["direction"] == "counterclockwise"
    game = game.play_json(up("reverse"))
    assert game.view()["turn"] == "Ana" and game.view()["direction"] == "clockwise"
    game = play([up("reverse"), up("1"), call("Ana")], players=FOUR)
    assert game.view()["turn"] == "Dai"
    assert game.view()["direction"] == "counterclockwise"


def test_face_down_specials_have_no_effect() -> None:
    game = play([down("reverse"), down("x2"), down("trash")], players=FOUR)
    view = game.view()
    assert view["direction"] == "clockwise" and view["turn"] == "Dai"
    assert view["plays_left"] == 1 and len(view["row"]) == 3


def test_x2_makes_the_next_player_play_two_with_no_call_between() -> None:
    game = play([up("x2")])
    view = game.view()
    assert view["turn"] == "Ben" and view["plays_left"] == 2
    game = game.play_json(up("1"))
    view = game.view()
    assert view["turn"] == "Ben" and view["plays_left"] == 1
    assert view["expects"] == ["play"] and not view["call_allowed"] and view["may_call"] == []
    with pytest.raises(IllegalAction, match=r"Ben is in the middle of an x2 turn \(1 more card"):
        game.play_json(call("Cleo"))
    game = game.play_json(up("2"))
    assert game.view()["turn"] == "Cleo" and game.view()["plays_left"] == 1


def test_two_x2_in_one_turn_do_not_add_up() -> None:
    game = play([up("x2"), up("x2"), up("x2")])
    assert game.view()["turn"] == "Cleo" and game.view()["plays_left"] == 2


def test_trash_keeps_the_effect_of_the_reverse_it_discards() -> None:
    game = play([up("5"), up("reverse"), up("trash")], players=FOUR)
    view = game.view()
    # Ana, Ben (reverse: now counterclockwise), Ana trashes it: next is Dai.
    assert [c["card"] for c in view["row"]] == ["5"]
    assert view["direction"] == "counterclockwise" and view["turn"] == "Dai"
    assert [c["card"] for c in view["trashed"]] == ["reverse", "trash"]
    assert view["seen"] == {"5": 1, "reverse": 1, "trash": 1}


def test_trash_of_a_face_down_card_keeps_it_hidden() -> None:
    game = play([up("1"), down("trap"), up("trash")])
    view = game.view()
    assert [c["card"] for c in view["row"]] == ["1"]
    assert view["trashed"][0]["hidden"] and view["trashed"][0]["card"] is None
    game = game.play_json(call("Ana"))
    assert game.view()["results"][0]["row"] == ["1"]
    # A trashed trap is out of the row: no trap victory for Ben.
    assert tokens(game.view())["Ben"] == (0, 0)


def test_trash_as_the_first_card_goes_alone_and_the_row_may_be_called_empty() -> None:
    game = play([up("trash")])
    view = game.view()
    assert view["row"] == [] and len(view["trashed"]) == 1 and view["call_allowed"]
    game = game.play_json(call("Ben"))
    result = game.view()["results"][0]
    assert result["total"] == 0 and result["starts_next"] == "Ana"


def test_a_face_up_trap_does_nothing() -> None:
    game = play([up("trap"), up("5"), call("Cleo")])
    assert given(game.view()["results"][0]) == [("Cleo", "penalty", "total"),
                                                ("Ben", "victory", "total")]


def test_face_down_numbers_count_and_face_down_specials_are_worth_nothing() -> None:
    game = play([down("5"), down(), down("x2"), down("4d"), down(), call("Ben")],
                players=FOUR)
    game = game.play_json({"reveal": ["3", "reverse"]})
    result = game.view()["results"][0]
    assert result["row"] == ["5", "3", "x2", "4d", "reverse"] and result["total"] == 12


def test_the_total_decides_who_wins_and_who_starts_next() -> None:
    at_17 = play([up("5"), up("5"), up("5"), up("2"), call("Cleo")], players=FOUR)
    result = at_17.view()["results"][0]
    assert result["reached_17"] and result["starts_next"] == "Cleo"
    assert given(result) == [("Dai", "penalty", "total"), ("Cleo", "victory", "total")]
    under = play([up("5"), up("5"), up("5"), up("1"), call("Cleo")], players=FOUR)
    result = under.view()["results"][0]
    assert result["starts_next"] == "Dai" and under.view()["turn"] == "Dai"


def test_a_second_penalty_discards_both_and_one_victory() -> None:
    game = play([up("1"), call("Ben"),            # 1 < 17: Ana a victory, Ben a penalty
                 up("1"), up("1"), call("Ana"),   # Ben a victory, Ana a penalty
                 up("1"), call("Ana"),            # Ben a victory, Ana a second penalty
                 ], players=("Ana", "Ben"), target=4)
    view = game.view()
    assert tokens(view) == {"Ana": (0, 0), "Ben": (2, 1)}
    assert view["results"][2]["discarded"] == [{"player": "Ana", "penalty": 2, "victory": 1}]
    assert view["box"] == {"victory": 12, "penalty": 9}


def test_the_call_goes_to_the_caller_nearest_after_the_last_player() -> None:
    lines = [up("1"), up("1")]               # Ana, Ben: Ben played last
    game = play([*lines, call("Ana", "Dai", "Cleo")], players=FOUR)
    assert game.view()["results"][0]["caller"] == "Cleo"
    game = play([up("reverse"), up("1"), call("Ana", "Cleo")], players=FOUR)
    # Counterclockwise: Ana, Dai (last); after Dai comes Cleo.
    assert game.view()["results"][0]["caller"] == "Cleo"
    assert game.view()["results"][0]["last_player"] == "Dai"


def test_the_view_says_who_may_call_and_when() -> None:
    view = start().view()
    assert view["expects"] == ["play"] and not view["call_allowed"]
    assert view["last_player"] is None and view["call"] is None
    view = play([up("1")]).view()
    assert view["expects"] == ["play", "call"] and view["call_allowed"]
    assert view["may_call"] == ["Ben", "Cleo"] and view["last_player"] == "Ana"
    assert view["cards_left"] == 69 and view["deck"]["trap"] == 5


def test_round_cards_are_limited_by_the_deck() -> None:
    with pytest.raises(IllegalAction, match="the deck has only 5 trap cards"):
        play([up("trap")] * 6)
    # Face down, the five traps are unseen: a sixth face up is refused only at the call.
    game = play([down("trap")] * 5).play_json(up("trap"))
    with pytest.raises(IllegalAction, match="the deck has only 5 trap cards"):
        game.play_json(call("Ana"))
    game = play([down()] * 2, deck={"trap": 1})
    with pytest.raises(IllegalAction, match=r"the deck has only 1 trap card$"):
        game.play_json(call("Ana")).play_json({"reveal": ["trap", "trap"]})
    with pytest.raises(IllegalAction, match="the deck has no x2 cards"):
        play([up("x2")], deck={"x2": 0})


ONE_FIVE = {**dict.fromkeys(["1", "2", "3", "4", "5", "1d", "2d", "3d", "4d", "5d", "reverse",
                             "x2", "trash", "trap"], 0), "5": 1, "trash": 1, "1d": 2}
"""A deck of 4 cards: one 5, one trash, two 1d."""


def test_a_trashed_card_shuffled_back_into_the_draw_pile_is_played_again() -> None:
    # The 5 is trashed to the discard pile; the draw pile runs out, the discard pile becomes
    # the draw pile, and Cleo draws the 5 and plays it in the same round.
    trashed = play([up("5"), up("trash")], deck=ONE_FIVE)
    assert trashed.view()["cards_left"] == 4 and trashed.view()["expects"] == ["play", "call"]
    again = trashed.play_json(up("5"))
    view = again.view()
    assert [c["card"] for c in view["row"]] == ["5"]
    assert [c["card"] for c in view["trashed"]] == ["5", "trash"]
    assert view["seen"] == {"5": 2, "trash": 1} and view["cards_left"] == 3
    assert again.play_json(call("Ana")).view()["results"][0]["row"] == ["5"]
    # Face down, it fits the deck at the call too.
    called = trashed.play_json(down("5")).play_json(call("Ana"))
    assert called.view()["results"][0]["row"] == ["5"]


def test_a_row_holding_more_cards_than_the_deck_is_still_refused() -> None:
    again = play([up("5"), up("trash"), up("5")], deck=ONE_FIVE)
    for card in (up("5"), down("5")):
        with pytest.raises(IllegalAction, match=r"the deck has only 1 5 card$"):
            again.play_json(card)
    hidden = play([up("5"), up("trash"), down("5"), up("5")], deck=ONE_FIVE)
    with pytest.raises(IllegalAction, match=r"do not fit the deck \(the deck has only 1 5 card"):
        hidden.play_json(call("Ben"))
    # The whole deck in the row: someone calls.
    whole = play([up("5"), up("trash"), up("1d"), up("1d"), down(), up("5")], deck=ONE_FIVE)
    assert whole.view()["cards_left"] == 0 and whole.view()["expects"] == ["call"]
    with pytest.raises(IllegalAction, match="every card of the deck is in the row already"):
        whole.play_json(up("trash"))


def test_random_actions_may_take_back_a_trashed_card() -> None:
    # The hidden card may be the 5 or the trash, both back from the discard pile.
    game = play([up("5"), up("trash"), down(), call("Ana")], deck=ONE_FIVE)
    revealed = {game.play(game.rules.random_action(game.state, Random(seed)))
                .view()["results"][0]["row"][0] for seed in range(20)}
    assert revealed == {"5", "trash"}
    trashed = play([up("5"), up("trash")], deck=ONE_FIVE)
    plays = {json.dumps(trashed.rules.action_to_json(trashed.rules.random_action(
        trashed.state, Random(seed)))) for seed in range(40)}
    assert '{"play": {"card": "5", "face": "up"}}' in plays


def test_unknown_face_down_cards_use_up_the_plain_backs() -> None:
    plain_zero = {c: 0 for c in ["1", "2", "3", "4", "5", "reverse", "x2", "trash", "trap"]}
    game = play([down()], deck={**plain_zero, "4": 1})
    with pytest.raises(IllegalAction, match=r"every plain-back card of the deck \(1\) is in "
                                            "the row already"):
        game.play_json(up("4"))
    assert game.play_json(down("4d")).view()["row"][1]["value"] == 4


def test_when_the_deck_is_all_in_the_round_the_turn_ends_and_someone_calls() -> None:
    deck = {c: 0 for c in ["1", "2", "3", "4", "5", "1d", "2d", "3d", "4d", "5d", "reverse",
                           "trash", "trap"]}
    game = play([up("x2")], deck={**deck, "x2": 1, "1": 1})
    game = game.play_json(up("1"))
    view = game.view()
    assert view["cards_left"] == 0 and view["expects"] == ["call"]
    assert view["turn"] == "Cleo" and view["last_player"] == "Ben"
    assert "a call" in game.describe()
    with pytest.raises(IllegalAction, match="every card of the deck is in the row already"):
        game.play_json(up("1"))
    game = game.play_json(call("Ana"))
    assert game.view()["expects"] == ["play"] and game.view()["cards_left"] == 2


# Refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lines", "message"), [
    ([{"pass": {}}], "a 17 action must be one of play, call, reveal, not \"pass\""),
    ([{"play": {"card": "3"}}], "play needs a face: up or down"),
    ([{"play": {"face": "up"}}], "a card played face up must be named"),
    ([{"play": {"card": "3", "face": "side"}}], "face must be one of up, down, not \"side\""),
    ([{"play": {"card": "6", "face": "up"}}], "a card must be one of 1, 2, 3, 4, 5, 1d"),
    ([{"play": {"card": 5, "face": "up"}}],
     'the number 5 must be written as text, in quotes: "5"$'),
    ([{"play": {"card": 6, "face": "up"}}], "a card must be one of 1, 2, 3, 4, 5, 1d"),
    ([{"play": {"card": "3", "face": "up", "by": "Ana"}}], 'play does not take "by"'),
    ([{"play": "3"}], "write play with its details in curly brackets, not \"3\""),
    ([{"call": "Ana"}], "write call as a list in square brackets, not \"Ana\""),
    ([{"call": []}], "call names at least one player"),
    ([{"call": [1]}], "call needs the names of the players who called, not [1]"),
    ([up("1"), {"call": ["Ben", "Ben"]}], "Ben is named twice in the call"),
    ([up("1"), call("Zed")], '"Zed" is not playing; the players are Ana, Ben, Cleo'),
    ([call("Ben")], "nobody has played yet in round 1; 17 is called after a turn"),
    ([up("1"), call("Ben", "Ana")], "Ana played last and may not call 17"),
    ([{"reveal": ["3"]}], "nobody has called 17; there is nothing to reveal"),
    ([up("5"), call("Ben"), {"reveal": []}],
     "round 1 was scored at the call; no card waits to be revealed"),
    ([up("1"), down(), call("Ana"), up("1")],
     "Ana called 17; the reveal of the 1 face-down card in the row comes first"),
    ([up("1"), down(), call("Ana"), call("Cleo")], "Ana called 17; the reveal of the 1"),
    ([up("1"), down(), call("Ana"), {"reveal": ["3", "4"]}],
     r"the row has 1 face-down card to reveal \(at 2\); this reveal names 2"),
    ([down(), down(), call("Ana"), {"reveal": []}],
     r"the row has 2 face-down cards to reveal \(at 1, 2\); this reveal names 0"),
    ([up("1"), down(), call("Ana"), {"reveal": ["4d"]}],
     "a face-down 4d shows its 4 on the back; a reveal names only plain-back cards"),
    ([up("1"), down(), call("Ana"), {"reveal": ["joker"]}], "a card must be one of"),
    ([up("1"), down(), call("Ana"), {"reveal": [4.0]}],
     'the number 4 must be written as text, in quotes: "4"$'),
    ([up("1"), down(), call("Ana"), {"reveal": "3"}],
     "write reveal as a list in square brackets, not \"3\""),
])
def test_refusals_say_why_and_change_nothing(lines: list[dict[str, Any]], message: str) -> None:
    game = play(lines[:-1])
    with pytest.raises(IllegalAction, match=message.replace("[", r"\[")):
        game.play_json(lines[-1])
    assert play(lines[:-1]).view() == game.view()


def test_no_action_once_the_game_is_over() -> None:
    game = play([up("1"), call("Ben")], players=("Ana", "Ben"), target=1)
    assert game.over and game.view()["winners"] == ["Ana"]
    for line in (up("1"), call("Ben"), {"reveal": []}):
        with pytest.raises(IllegalAction, match="the game is over; no more actions"):
            game.play_json(line)
    assert game.hints() == {}
    assert "over after round 1" in game.describe()


@pytest.mark.parametrize(("header", "message"), [
    ({"players": ["Ana"]}, "17 is for 2 to 6 players, not 1"),
    ({"players": list("ABCDEFG")}, "17 is for 2 to 6 players, not 7"),
    ({"first": "Zed"}, '"Zed" is not playing; the players are Ana, Ben, Cleo'),
    ({"target": 6}, r"with 3 players the target is 1 to 5 victory tokens \(the box holds 14\)"),
    ({"target": 0}, "the target is 1 to 5 victory tokens"),
    ({"target": True}, "not true"),
    ({"target": 2.5}, r"with 3 players the target is 1 to 5 victory tokens \(the box holds 14\), "
                      "not 2.5"),
    ({"deck": 3}, "write deck with its details in curly brackets, not 3"),
    ({"deck": {"joker": 2}}, 'deck does not take "joker"'),
    ({"deck": {"trap": -1}}, "the count of trap cards shows 0 to 99, not -1"),
    ({"deck": {"trap": "5"}}, '"5" must be a number, written without quotes: 5'),
    ({"deck": dict.fromkeys(["1", "2", "3", "4", "5", "1d", "2d", "3d", "4d", "5d",
                             "reverse", "x2", "trash", "trap"], 0)},
     "the deck needs at least one card"),
    ({"mode": "glacial"}, '17 does not take "mode" in its header'),
])
def test_header_options_are_checked(header: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        Game.start({"game": "17", "players": list(THREE), **header})


def test_header_defaults_and_first_player() -> None:
    view = start().view()
    assert view["turn"] == "Ana" and view["target"] == 3 and view["round"] == 1
    assert sum(view["deck"].values()) == 70
    assert view["deck"] == {"1": 3, "2": 3, "3": 3, "4": 3, "5": 3, "1d": 7, "2d": 7, "3d": 7,
                            "4d": 7, "5d": 7, "reverse": 5, "x2": 5, "trash": 5, "trap": 5}
    assert start(first="Cleo").view()["turn"] == "Cleo"
    assert start(("A", "B", "C", "D", "E", "F"), target=3).view()["target"] == 3
    assert start(("Ana", "Ben"), target=7).view()["target"] == 7


def test_a_target_written_as_a_whole_number_with_a_point_is_that_number() -> None:
    # as the deck's counts and the other games' targets are read: 3.0 in JSON is 3
    written = read_record(['{"game": "17", "players": ["Ana", "Ben"], "target": 3.0}'])
    assert written.view()["target"] == 3 and written.view() == start(("Ana", "Ben")).view()


def test_describe_shows_hidden_cards_as_question_marks() -> None:
    text = play([up("3"), down("trap"), down("2d")]).describe()
    assert "row: 3 [??] [2d]" in text and "trap" not in text
    assert "Ana to play (1 card) or a call" in text
    text = play([up("3"), down(), call("Ana")]).describe()
    assert "Ana called 17, the reveal" in text
    assert "Ben to play (2 cards)" in play([up("x2")]).describe()


# Records and random play ---------------------------------------------------------------------


def test_records_round_trip_through_the_export() -> None:
    game = play([up("x2"), down(), down("trap"), up("1"), call("Ana", "Ben"),
                 {"reveal": ["trash"]}])
    again = read_record(write_record(game).splitlines())
    assert again.state == game.state and again.view() == game.view()
    assert game.record()[2] == {"play": {"face": "down"}}
    assert game.record()[3] == {"play": {"card": "trap", "face": "down"}}


def test_random_play_always_finishes_with_tokens_inside_the_box() -> None:
    headers: list[dict[str, Any]] = [
        {"players": ["A", "B"]},
        {"players": list("ABCDEF"), "target": 3, "deck": {"trap": 20, "x2": 20}},
        {"players": list("ABC"), "deck": dict.fromkeys(
            ["1", "2", "3", "4", "5", "1d", "2d", "3d", "4d", "5d", "reverse", "trap"], 0)},
    ]
    for number, header in enumerate(headers):
        for seed in range(40):
            rng = Random(seed * 10 + number)
            game = Game.start({"game": "17", **header})
            while not game.over:
                assert len(game.actions) < 5_000
                game = game.play(game.rules.random_action(game.state, rng))
                view = game.view()
                assert 0 <= view["box"]["victory"] <= 14 and 0 <= view["box"]["penalty"] <= 10
                assert all(t["penalty"] <= 1 for t in view["tokens"].values())
            assert game.view()["winners"]


def test_the_public_record_hides_face_down_cards_until_the_call() -> None:
    game = Game.start({"game": "17", "players": ["Ana", "Ben", "Cleo"]})
    for line in [{"play": {"card": "trap", "face": "down"}},
                 {"play": {"card": "4d", "face": "down"}}, {"play": {"card": "2", "face": "up"}}]:
        game = game.play_json(line)
    assert game.public_record()[1:] == [{"play": {"face": "down"}},
                                        {"play": {"card": "4d", "face": "down"}},
                                        {"play": {"card": "2", "face": "up"}}]
    called = game.play_json({"call": ["Ana"]})
    assert called.public_record() == called.record()
    # The next round's hidden cards are hidden again; the called round's stay shown.
    after = called.play_json({"play": {"card": "5", "face": "down"}})
    assert after.public_record()[1:-1] == called.record()[1:]
    assert after.public_record()[-1] == {"play": {"face": "down"}}


def test_a_trashed_face_down_card_stays_hidden_after_the_call() -> None:
    game = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    for line in [{"play": {"card": "trap", "face": "down"}},
                 {"play": {"card": "trash", "face": "up"}},
                 {"play": {"card": "x2", "face": "down"}}, {"call": ["Ben"]}]:
        game = game.play_json(line)
    assert game.public_record()[1:] == [
        {"play": {"face": "down"}}, {"play": {"card": "trash", "face": "up"}},
        {"play": {"card": "x2", "face": "down"}}, {"call": ["Ben"]}]


def test_a_trashed_face_down_card_is_not_shown_while_the_reveal_is_awaited() -> None:
    def called(card: str | None) -> Game:  # Ana names her face-down card on her phone, or not
        return play([down(card), up("trash"), down(), call("Ana")])

    named, unnamed = called("trap"), called(None)
    assert named.view()["trashed"][0]["hidden"]
    assert named.view() == unnamed.view()
    assert named.describe() == unnamed.describe()
    assert named.hints() == unnamed.hints()


def test_a_trashed_face_down_card_is_not_counted_at_the_call() -> None:
    # The trashed card was named a 5, and a 5 came up later: the table never saw the first.
    game = play([down("5"), up("trash"), up("5"), call("Ben")], players=("Ana", "Ben"),
                deck={"5": 1})
    assert game.view()["results"][0]["row"] == ["5"]


def test_face_down_cards_that_do_not_fit_the_deck_at_the_call_say_how_to_go_on() -> None:
    game = play([down("5"), down("5")], players=("Ana", "Ben"), deck={"5": 1})
    with pytest.raises(IllegalAction, match=r"the face-down cards, turned over, do not fit the "
                       r"deck \(the deck has only 1 5 card\): correct the one entered wrong"):
        game.play_json(call("Ana"))
    fixed = game.correct(1, game.parse(down("4")))  # the wrong one corrected, the call goes on
    assert fixed.play_json(call("Ana")).view()["results"][0]["row"] == ["5", "4"]
