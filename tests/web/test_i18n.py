"""The four languages: complete catalogs, the page's words, and the engine's refusals."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain, combinations
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from device.button_actions import ButtonActions
from device.camera_errors import CameraError, UnreadableFrame
from device.journal import Journal
from device.live import CameraStatus, Seen
from device.session import SessionError, TableSession
from engine import Game, IllegalAction, RecordError, Refusal, read_record
from engine.dicy import parse_presets
from engine.dicy_cards import Card as DicyCard
from engine.errors import Shown, to_json
from engine.selfplay import HEADERS
from engine.seventeen_cards import Card as SeventeenCard
from tests.device.test_session_stop import DALEK as DALEK_STOP
from tests.device.test_session_stop import ROLLED, seen
from tests.held_check import held_check
from vision.dice import DieRead
from vision.observation import Observation
from vision.sheet_observer import SheetObserver
from vision.sheet_seen import DalekObservation, DieSeen
from web.i18n import LANGUAGES, catalog, choose_language, later_words, page_words
from web.wording import engine_text, json_text

if TYPE_CHECKING:
    from tests.web.conftest import Phone

FIELD = re.compile(r"\{(\w+)\}")
STATIC = Path(__file__).parents[2] / "web" / "static"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_has_every_message_with_the_same_fields(lang: str) -> None:
    english = catalog("en")
    assert all(key == text for key, text in english["engine"].items())
    for part in ("ui", "engine"):
        assert catalog(lang)[part].keys() == english[part].keys()
        for key, text in catalog(lang)[part].items():
            source = key if part == "engine" else english[part][key]
            assert set(FIELD.findall(text)) == set(FIELD.findall(source)), (lang, key)


BUTTON_LABELS = {"stop button": "buttons.refused.stop", "shout button": "buttons.refused.shout"}
"""Each button's name, as the pad labels what it refused ("Stop button: {reason}")."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_button_is_named_in_every_message_as_the_pad_labels_it(lang: str) -> None:
    # the host read of a "botón de parar" and a "botón de grito" in the notice of a wrong
    # [buttons] section, and of the "botón de plantarse" and "botón de gritar" on the pad
    english = catalog("en")
    for button, label in BUTTON_LABELS.items():
        name = catalog(lang)["ui"][label].split(":")[0].lower()
        for part in ("ui", "engine"):
            for key, words in catalog(lang)[part].items():
                source = key if part == "engine" else english[part][key]
                if button in source.lower():
                    assert name in words.lower(), (lang, key, words)


def test_the_italian_catalogue_calls_the_host_one_name() -> None:
    # the host is "l'organizzatore" in every Italian message: the Wi-Fi card's refusal said
    # "chi ospita"
    for part in ("ui", "engine"):
        for key, words in catalog("it")[part].items():
            assert "chi ospita" not in words, key


READ_OTHERWISE = {"en": {"six"}, "es": {"par", "pares", "seis"}, "it": {"sei"}, "pt": {"seis"}}
"""Words a card's short form under its points ("12 Seis") would be read as, not as the card: a
number, or "even" (es "pares") beside "Imp." for the odd."""


def abbreviates(short: str, words: str) -> bool:
    """Whether ``short`` ("Pja.") has its letters in order in one of ``words`` ("Pareja")."""
    letters = short.rstrip(".").lower()
    return any(_in_order(letters, word) for word in words.lower().split())


def _in_order(letters: str, word: str) -> bool:
    """Whether ``letters`` are found in ``word``, each after the one before.

    >>> _in_order("pja", "pareja"), _in_order("jap", "pareja")
    (True, False)
    """
    rest = iter(word)
    return all(letter in rest for letter in letters)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_cards_short_form_reads_as_its_card(lang: str) -> None:
    # on a TV's narrow score sheet, Spanish "Par." (a pair) read as "pares" (even) beside
    # "Imp." (odd), "12 Seis" as the number six, and "Paso" for the button's "Saltar"
    words = catalog(lang)["ui"]
    for key, short in words.items():
        if not key.startswith("cardshort."):
            continue
        card = key.removeprefix("cardshort.")
        long = words["act.skip" if card == "skip" else "card." + card]
        for word in short.split():
            assert word.rstrip(".").lower() not in READ_OTHERWISE[lang], (key, short)
            if word.endswith(".") or card == "skip":
                assert abbreviates(word, long), (key, short, long)


def test_a_sheet_too_small_in_the_picture_is_not_told_to_be_printed_larger() -> None:
    # the camera needs pixels per millimetre: a larger paper under the same camera is as small
    printing = {"en": "print", "es": "imprim", "it": "stampa", "pt": "imprim"}
    for lang in LANGUAGES:
        far, small = (catalog(lang)["ui"][key] for key in ("camera.far", "camera.small"))
        assert printing[lang] not in far.lower() and printing[lang] not in small.lower()
        assert "1280×720" in small


def test_every_word_the_page_asks_for_is_in_the_catalog() -> None:
    script = "".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    asked = set(re.findall(r'\bt\("([\w.-]+)"[,)]', script))
    assert asked and asked <= page_words("en").keys() | later_words("en").keys()


def test_every_message_the_server_gives_is_in_the_catalog() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in STATIC.parent.glob("*.py"))
    keys = set(re.findall(r'ApiError\(\d+, "([\w.]+)"', source))
    keys |= {f"error.field.{field}"
             for field in re.findall(r'_(?:object|flag)\(body, "(\w+)"\)', source)}
    assert {"error.field.on", "error.field.header", "error.field.draw_first"} <= keys
    assert keys <= catalog("en")["ui"].keys()


def test_a_phone_gets_its_language_or_english() -> None:
    assert choose_language(None, "es-AR,es;q=0.9,en;q=0.5") == "es"
    assert choose_language("it", "pt-BR") == "it"
    assert choose_language("xx", "de-DE,fr;q=0.7") == "en"


def refusal(game: Game, line: dict[str, object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.play_json(line)
    return caught.value


def test_engine_refusals_are_translated_with_their_details() -> None:
    dalek = Game.start({"game": "dalek", "players": ["Jenna", "Peter"]})
    err = refusal(dalek, {"keep": ["H4"]})
    assert engine_text("en", err) == "it is Jenna's turn to roll 10 dice, not to keep"
    assert engine_text("es", err) == "le toca a Jenna tirar 10 dados, no guardar"
    assert engine_text("pt", err) == "é a vez de Jenna rolar 10 dados, não de guardar"
    assert engine_text("it", err) == "tocca a Jenna lanciare 10 dadi, non tenere"

    dicy = Game.start({"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"})
    dicy = dicy.play_json({"roll": [6, 6, 5, 2, 1, 1]})
    err = refusal(dicy, {"score": {"card": "odd", "dice": [6, 5]}})
    assert engine_text("it", err) == "Dispari accetta solo dadi dispari (1, 3, 5), non 6"

    seventeen = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    seventeen = seventeen.play_json({"play": {"card": "3", "face": "up"}})
    err = refusal(seventeen, {"call": ["Ana"]})
    assert engine_text("pt", err) == "Ana jogou a última carta e não pode dizer 17"


def test_a_card_id_written_as_a_number_is_told_to_be_written_as_text() -> None:
    seventeen = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    err = refusal(seventeen, {"play": {"card": 5, "face": "up"}})
    assert [engine_text(lang, err) for lang in LANGUAGES] == [
        "the number 5 must be written as text, in quotes: “5”",
        "el número 5 se escribe como texto, entre comillas: «5»",
        "o número 5 escreve-se como texto, entre aspas: “5”",
        "il numero 5 va scritto come testo, tra virgolette: «5»"]


def test_a_die_written_as_text_is_told_to_be_written_as_a_number() -> None:
    dicy = Game.start({"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"})
    err = refusal(dicy, {"roll": [6, 6, 5, 2, 1, "1"]})
    assert [engine_text(lang, err) for lang in LANGUAGES] == [
        "“1” must be a number, written without quotes: 1",
        "«1» debe ser un número, escrito sin comillas: 1",
        "“1” tem de ser um número, escrito sem aspas: 1",
        "«1» dev'essere un numero, scritto senza virgolette: 1"]


def test_a_refused_correction_translates_its_reason() -> None:
    game = Game.start({"game": "dalek", "players": ["Jenna", "Peter"]})
    game = game.play_json({"roll": ["H4"] * 9 + ["DOC"]}).play_json({"keep": ["H4"]})
    with pytest.raises(IllegalAction) as caught:
        game.correct(1, game.parse({"keep": ["D3"]}))
    assert engine_text("es", caught.value) == (
        "la acción 2 (Guardar 3 Daleks) no es válida: la tirada muestra "
        "9 × 4 humanos, el Doctor; no tiene 3 Daleks para guardar")


def test_a_bad_record_line_translates_its_reason() -> None:
    with pytest.raises(RecordError) as caught:
        read_record(['{"game": "dicy", "players": ["Ana", "Ben"]}'])
    assert engine_text("it", caught.value) == (
        "riga 1: una partita a Dicy Cards richiede una modalità o le sue 5 carte")


def test_a_dicy_wait_is_translated_inside_the_refusal() -> None:
    game = Game.start({"game": "dicy", "players": ["Ana", "Ben", "Cleo"], "mode": "glacial"})
    game = game.play_json({"roll": [6, 6, 5, 2, 1, 1]})
    game = game.play_json({"score": {"card": "two-dice", "dice": [6, 6]}})
    err = refusal(game, {"effect": {"player": "Ana", "card": "odd"}})
    assert engine_text("pt", err) == (
        "Ana não tem de escolher agora; à espera de que Ben e Cleo congelem uma carta (Dois dados)")


def test_session_refusals_and_unknown_messages() -> None:
    busy = SessionError("a game is being played; finish or abandon it first")
    assert engine_text("it", busy) == "c'è una partita in corso; finiscila o abbandonala prima"
    assert engine_text("es", SessionError("there is no game {game}", game=7)) == (
        "no existe la partida 7")
    assert engine_text("es", ValueError("something new")) == "something new"
    assert engine_text("pt", IllegalAction("a new {thing}", thing="refusal")) == "a new refusal"


def test_the_api_answers_in_the_phones_language(dalek: Phone) -> None:
    response = dalek.client.post(
        "/api/action", json={"line": {"stop": {}}, "base_version": dalek.state()["version"]},
        headers={"X-CSRF-Token": dalek.csrf, "Accept-Language": "es-ES,es;q=0.9"})
    assert response.json == {
        "error": "Jenna aún no ha tirado; plantarse viene después de tirar y guardar"}
    dalek.client.set_cookie("lang", "it")
    response = dalek.post("/api/action", {"line": {"stop": {}}, "base_version": 0})
    assert response.status_code == 409
    assert response.json["error"].startswith("La partita è cambiata")  # type: ignore[index]


def test_the_page_switches_catalogs(dalek: Phone) -> None:
    assert dalek.client.get("/i18n/pt.json").json["menu.new"] == "Nova partida"  # type: ignore
    assert dalek.client.get("/i18n/xx.json").status_code == 404
    page = dalek.client.get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert '<html lang="it">' in page and "Nuova partita" in page


def boot_block(phone: Phone, lang: str) -> str:
    """The JSON the page is drawn with, as the first load carries it."""
    page = phone.client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    found = re.search(r'<script id="boot" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return found.group(1)


def test_the_first_load_carries_no_words_of_the_screens_of_the_menu(dalek: Phone) -> None:
    # the phone's first load has a budget (test_browser): the words of the screens of the menu
    # (set-up, games kept, statistics, rules) come later, with setup.js, as the camera's do
    words = json.loads(boot_block(dalek, "es"))["ui"]
    assert words["menu.new"] == "Nueva partida"
    menu_screens = ("setup.", "colour.", "seventeen.", "history.", "resume.", "stats.", "rules.")
    assert [key for key in words if key.startswith(menu_screens)] == []
    later = dalek.client.get("/i18n/es/later.json").json
    assert later is not None
    assert {"setup.title", "colour.0", "seventeen.deck", "history.title", "resume.title",
            "stats.title", "rules.title", "camera.title"} <= later.keys()
    assert later["setup.title"] == catalog("es")["ui"]["setup.title"]


def test_the_first_loads_json_has_no_space_between_its_items(dalek: Phone) -> None:
    outside_strings = re.sub(r'"(?:\\.|[^"\\])*"', '""', boot_block(dalek, "es"))
    assert not re.search(r"\s", outside_strings)  # none after a comma or a colon


# Every refusal the engine and the session raise has its template in every catalog ----------

DICY_CARDS = [c.value for c in DicyCard]
SEVENTEEN_CARDS = [c.value for c in SeventeenCard]
SMALL_DECK = {**dict.fromkeys(SEVENTEEN_CARDS, 0), "1": 2, "2": 1, "3": 1, "4d": 2, "5d": 1,
              "trap": 1, "x2": 1, "reverse": 1, "trash": 1}
TINY_DECK = {**dict.fromkeys(SEVENTEEN_CARDS, 0), "1": 2, "x2": 1, "2d": 1}
GAME_HEADERS: list[dict[str, Any]] = [
    *HEADERS.values(),
    {"game": "dalek", "players": ["Ana", "Ben"], "target": 20},
    {"game": "dicy", "players": ["Ana", "Ben", "Cleo", "Dai"],
     "cards": ["sixes", "pair", "lowest-three", "distinct-x4", "distinct-sum"]},
    {"game": "dicy", "players": ["Ana", "Ben"], "mode": "interglacial",
     "cards": ["forty-minus", "same-x5", "odd", "two-pairs", "sixes"]},
    {"game": "17", "players": ["Ana", "Ben", "Cleo"], "deck": SMALL_DECK},
    {"game": "17", "players": ["Ana", "Ben"], "target": 7, "deck": TINY_DECK},
]
GAMES_EACH = 2
BAD_HEADERS: list[Any] = [
    ["dalek"],
    {"game": "chess", "players": ["Ana", "Ben"]},
    {"players": ["Ana", "Ben"]},
    {"game": "dalek", "players": "Ana Ben"},
    {"game": "dalek", "players": ["Ana", "B\nen"]},
    {"game": "dalek", "players": ["Ana", " Ben"]},
    {"game": "dalek", "players": ["Ana", ""]},
    {"game": "dalek", "players": ["Ana", "B" * 25]},
    {"game": "dalek", "players": ["Ana", "Ana"]},
    {"game": "dalek", "players": ["Ana"]},
    {"game": "dalek", "players": ["Ana", "Ben"], "mode": "glacial"},
    {"game": "dalek", "players": ["Ana", "Ben"], "target": 0},
    *({"game": "dicy", "players": ["Ana", "Ben"], **options} for options in [
        {}, {"mode": "interglacial"}, {"mode": "B"}, {"mode": "glacial", "target": 0},
        {"mode": "glacial", "cards": ["sixes", "pair", "lowest-three", "odd", "straight"]},
        {"cards": ["pair", "odd", "sixes", "straight"]},
        {"cards": ["pair", "odd", "pair", "sixes", "straight"]},
        {"cards": ["pair", "odd", "joker", "sixes", "straight"]}, {"cards": "pair"}]),
    *({"game": "17", "players": ["Ana", "Ben"], **options} for options in [
        {"first": "Zed"}, {"deck": 3}, {"deck": {"joker": 2}}, {"deck": {"trap": -1}},
        {"deck": dict.fromkeys(SEVENTEEN_CARDS, 0)}, {"target": 99}]),
]
BAD_PRESETS: list[object] = [["B"], {"glacial": DICY_CARDS[:5]}, {"B": ["pair"]}]
BAD_RECORDS = [[], ["{oops"], ['{"game": "dalek", "players": ["Ana", "Ben"]}', '{"stop": {}}'],
               ['{"game": "dalek", "players": ["Ana", "Ben"]}', '{"undo": {}}'],
               ['{"game": "dalek", "players": ["Ana", "Ben"]}', '{"stop": []}'],
               ["[" * 10_000 + "]" * 10_000], ['{"stop": {}, "stop": {}}'], ["9" * 5000],
               ['{"game": "dalek", "players": ["\\udc00", "B"]}'],
               ['{"game": "dalek", "players": ["Ana", "Ben"]}'] * 2]
NEEDS_THE_BOX_PRESETS = {
    "there is no mode {mode}; the modes are {modes}; or leave out mode and name the 5 cards"}
"""Raised only once engine/data/dicy_presets.json names the box's presets."""


def templates(err: Refusal) -> set[str]:
    """The template of a refusal and of every refusal among its params."""
    inner = [templates(v) for v in err.params.values() if isinstance(v, Refusal)]
    return {err.template}.union(*inner)


def refused_by(attempts: Iterable[Callable[[], object]]) -> Iterator[Refusal]:
    for attempt in attempts:
        try:
            attempt()
        except Refusal as err:
            yield err


def selections(dice: list[int]) -> set[tuple[int, ...]]:
    return {tuple(sorted(c, reverse=True)) for n in range(7) for c in combinations(dice, n)}


def dalek_lines(view: dict[str, Any]) -> Iterator[Any]:
    table = view["table"] or {"pool": 10, "rolled": None}
    pool, rolled = table["pool"], table["rolled"] or ["H4"]
    yield from [{"roll": ["H4"] * pool}, {"roll": ["D3"] * (pool + 1)}, {"roll": ["H5"]},
                {"roll": "H4"}, {"keep": ["DOC"]}, {"keep": []}, {"keep": ["D2"] * 11},
                {"keep": [f for f in rolled if f not in ("DOC", "EXT")][:1]}, {"keep": 3},
                {"stop": {}}, {"stop": {"now": True}}, {"stop": 1}]


def dicy_lines(view: dict[str, Any]) -> Iterator[Any]:
    cards, players = view["cards"], view["players"]
    table = view["table"] or {"dice": None}
    dice = table["dice"] or [1, 2, 3, 4, 5, 6]
    scoring = {"score", "reroll"} & set(view["expects"])
    for card in [*cards, next(c for c in DICY_CARDS if c not in cards)]:
        yield {"reroll": {"freeze": card, "dice": [6, 5, 4, 3, 2, 1]}}
        for selected in selections(dice) if scoring else [dice[:2]]:
            yield {"score": {"card": card, "dice": list(selected)}}
        for player in players:
            yield {"effect": {"player": player, "card": card}}
    yield from [{"roll": [1, 2, 3, 4, 5, 6]}, {"roll": [1, 2, 3]}, {"roll": []},
                {"roll": [1, 2, 3, 4, 5, 7]}, {"roll": [1, 2, 3, 4, 5, "6"]},
                {"roll": "123456"}, {"skip": {}}, {"skip": {"now": True}},
                {"reroll": {"dice": [1] * 6}}, {"reroll": {"freeze": "joker", "dice": [1] * 6}},
                {"reroll": {"freeze": cards[0], "dice": [1, 2]}}, {"reroll": 3},
                {"reroll": {"freeze": cards[0], "dice": [1] * 6, "keep": []}},
                {"score": {"card": cards[0]}}, {"score": {"card": cards[0], "dice": 66}},
                {"score": {"card": cards[0], "dice": [6] * 6}},
                {"effect": {"player": 1, "card": cards[0]}}, {"effect": ["Ben", "odd"]},
                {"effect": {"player": "Zed", "card": cards[0]}},
                {"effect": {"player": players[0], "card": "joker"}}]


def seventeen_lines(view: dict[str, Any]) -> Iterator[Any]:
    players = view["players"]
    hidden = len(view["call"]["to_reveal"]) if view["call"] else 1
    for card in SEVENTEEN_CARDS:
        yield from ({"play": {"card": card, "face": face}} for face in ("up", "down"))
    yield from ({"call": [player]} for player in players)
    yield from ({"reveal": ["3"] * n} for n in (hidden - 1, hidden, hidden + 1))
    yield from [{"play": {"face": "down"}}, {"play": {"face": "up"}}, {"play": {"card": "3"}},
                {"play": {"card": "6", "face": "up"}}, {"play": {"card": 5, "face": "up"}},
                {"play": {"card": "3", "face": "side"}},
                {"play": "3"}, {"play": {"card": "3", "face": "up", "by": "Ana"}},
                {"call": players}, {"call": []}, {"call": [1]}, {"call": "Ana"},
                {"call": ["Ana", "Ana"]}, {"call": ["Zed"]}, {"reveal": ["4d"] * hidden},
                {"reveal": ["joker"]}, {"reveal": "3"}]


def wrong_lines(game: Game) -> Iterator[Any]:
    """Lines of every kind for the game, most of them refused in its state."""
    yield from [{"jump": {}}, {"stop": {}, "roll": []}, [1, 2], {"undo": {"now": True}},
                {"undo": {}}]
    view = game.view()
    lines = {"dalek": dalek_lines, "dicy": dicy_lines, "17": seventeen_lines}[view["game"]]
    yield from lines(view)


def corrections(game: Game, rng: Random) -> Iterator[Callable[[], object]]:
    """Corrections of a finished game: past its end, and with another legal action."""
    yield lambda: game.correct(len(game.actions), game.actions[0])
    for index in rng.sample(range(len(game.actions)), min(10, len(game.actions))):
        before = game.replayed(game.actions[:index]).state
        yield partial(game.correct, index, game.rules.random_action(before, rng))


def games_and_corrections(rng: Random) -> Iterator[Callable[[], object]]:
    """Wrong lines at every state of random games of every game, then corrections."""
    for header in GAME_HEADERS:
        for _ in range(GAMES_EACH):
            game = Game.start(header)
            while True:
                yield from (partial(game.play_json, line) for line in wrong_lines(game))
                if game.over:
                    break
                game = game.play(game.rules.random_action(game.state, rng))
            yield from corrections(game, rng)


def hidden_card_correction() -> Iterator[Callable[[], object]]:
    """A correction that makes a later face-down card illegal: its reason stays hidden."""
    game = Game.start({"game": "17", "players": ["Ana", "Ben"], "deck": {"trap": 1}})
    for line in ({"play": {"card": "2", "face": "up"}}, {"play": {"card": "trap", "face": "down"}}):
        game = game.play_json(line)
    yield partial(game.correct, 0, game.parse({"play": {"card": "trap", "face": "up"}}))
    # Two face-down cards named the same, one beyond the deck: the call that turns them over
    misnamed = Game.start({"game": "17", "players": ["Ana", "Ben"], "deck": {"5": 1}})
    for line in ({"play": {"card": "5", "face": "down"}}, {"play": {"card": "5", "face": "down"}}):
        misnamed = misnamed.play_json(line)
    yield partial(misnamed.play_json, {"call": ["Ana"]})


def session_refusals(journal: Journal) -> Iterator[Callable[[], object]]:
    session = TableSession(journal, stop_waits_s=0.05)
    header = {"game": "dalek", "players": ["Ana", "Ben"]}
    yield lambda: session.act({"stop": {}}, base_version=0, source="phone")
    session.start()
    try:
        yield lambda: session.act({"stop": {}}, base_version=0, source="phone")
        yield lambda: session.abandon(base_version=0)
        yield lambda: session.record(99)
        yield lambda: session.recalibrate(base_version=0)
        yield lambda: session.new_game(header, base_version=0)
        yield lambda: session.new_game(header, base_version=1)
        yield from camera_refusals(session)
        yield lambda: session.abandon(base_version=session.snapshot().version)
        yield lambda: session.resume(99, base_version=session.snapshot().version)
        session.new_game({**header, "target": 20}, base_version=session.snapshot().version)
        won = ["H4"] * 4 + ["D3"] * 6
        for line in ({"roll": won}, {"keep": won}, {"roll": ["H4"] * 10}, {"keep": ["H4"]},
                     {"stop": {}}):
            session.act(line, base_version=session.snapshot().version, source="phone")
        yield lambda: session.abandon(base_version=session.snapshot().version)  # it is over
        over = session.snapshot().game_id
        yield lambda: session.resume(over or 0, base_version=session.snapshot().version)
        session.new_game(header, base_version=session.snapshot().version)
        session.act({"roll": won}, base_version=session.snapshot().version, source="phone")
        left = session.snapshot().game_id or 0
        session.abandon(base_version=session.snapshot().version)
        session.resume(left, base_version=session.snapshot().version)
        session.abandon(base_version=session.snapshot().version)
        yield lambda: session.resume(left, base_version=session.snapshot().version)  # again
    finally:
        session.stop()


def camera_refusals(session: TableSession) -> Iterator[Callable[[], object]]:
    """Answers to a camera question that is gone, and ones that do not fit it."""
    session.abandon(base_version=session.snapshot().version)
    session.watch_camera()
    yield lambda: session.answer(1, {"ignore": True}, base_version=session.snapshot().version)
    session.new_game({"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"},
                     base_version=session.snapshot().version)
    dice = tuple(DieRead(v, 100.0 * i, 50.0, 0.9, 40.0) for i, v in enumerate([1, 2, 3, 4, 5]))
    unsure = Observation((*dice, DieRead(None, 600.0, 50.0, 0.3, 40.0)), 800, 200)
    session.camera_seen(Seen(unsure, np.zeros((2, 2, 3), np.uint8), b"", 0.0, 1))
    question = session.snapshot().camera["ask"]["id"]  # type: ignore[index]
    for reply in ({"values": [7]}, {"card": "odd"}):
        yield lambda reply=reply: session.answer(question, reply,
                                                 base_version=session.snapshot().version)
    session.abandon(base_version=session.snapshot().version)
    session.new_game({"game": "dalek", "players": ["Ana", "Ben"]},
                     base_version=session.snapshot().version)
    rolled = DalekObservation(tuple(DieSeen("H4", "to-roll", 20.0 * i, 150.0, 0.9)
                                    for i in range(10)))
    session.camera_seen(Seen(Observation((), 800, 600, table=rolled),
                             np.zeros((2, 2, 3), np.uint8), b"", 0.0, 2))
    session.camera_moved()  # a hand over the sheet, and no read at rest after it
    yield lambda: session.act({"stop": {}}, base_version=session.snapshot().version,
                              source="phone")
    unsure = DalekObservation((DieSeen(None, "kept-humans", 20.0, 60.0, 0.3),
                               *rolled.dice[1:]))  # a die set aside, its face not sure
    session.camera_seen(Seen(Observation((), 800, 600, table=unsure),
                             np.zeros((2, 2, 3), np.uint8), b"", 0.0, 3))
    yield lambda: session.act({"stop": {}}, base_version=session.snapshot().version,
                              source="phone")
    session.camera_moved()  # her hand leaves, and the camera goes out as the stop waits
    out = CameraStatus("out", CameraError("camera.why.stalled", seconds="5"))
    yield lambda: session.act({"stop": {}}, base_version=session.snapshot().version,
                              source="phone", waiting=lambda: session.camera_status(out))


def sheet(game: str, *, dice: tuple[Any, ...] = (), cards: dict[str, str] | None = None
          ) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The camera's picture of ``game``'s sheet with these dice (vision.table_scene.PlacedDie)
    and cards, at 960×540: the teacher finds the sheet and refuses each step as at 1280×720,
    in the same words, for two thirds of the work."""
    from vision.table_scene import render_still

    return render_still(1, game=game, dice=dice, cards=cards, width=960, height=540).image


def teach_refusals(state: Path) -> Iterator[Callable[[], object]]:
    """Every step of teach mode refused: no camera, no lesson, no frame, no sheet, another
    game's sheet, no die in the box, d6 dice showing another face or thrown, the same frame
    twice, too many photos, out of order, no photo to take back."""
    from device.teacher import Teacher
    from vision.table_scene import PlacedDie

    session = TableSession(Journal(state / "table.db"))
    session.start()

    def teach(do: str, kind: str | None = None) -> Callable[[], object]:
        return lambda: session.teach(do, kind, base_version=session.snapshot().version)

    def show(frame: np.ndarray[Any, np.dtype[np.uint8]]) -> None:
        session.camera_seen(Seen(Observation((), 2, 2), frame, b"", 0.0, 1))

    try:
        yield teach("start", "dalek")
        session.teacher = Teacher(state, lambda profile: None, SheetObserver(None).pips)
        session.watch_camera()
        yield teach("start", "chess")
        yield teach("photo")
        session.teach("start", "dalek", base_version=session.snapshot().version)
        yield teach("photo")
        yield teach("next")
        yield teach("check")
        yield teach("save")
        show(np.full((120, 160, 3), 128, np.uint8))
        yield teach("photo")
        show(sheet("17"))
        yield teach("photo")
        show(sheet("dalek"))
        yield teach("photo")
        yield unreadable_photo(session)  # (the next picture shown reads again)
        dice = tuple(PlacedDie("H4", 60.0 + 40 * i, 160.0, 0.3, i) for i in range(5))
        frame = sheet("dalek", dice=dice)
        yield from photos_too_many(session, show, frame)
        for _ in range(5):
            session.teach("next", base_version=session.snapshot().version)
            show(frame)
            session.teach("photo", base_version=session.snapshot().version)
        session.teach("next", base_version=session.snapshot().version)
        yield teach("next")
        show(frame)
        yield checked_meanwhile(session)
        yield from card_refusals(session, show)
        session.teach("start", "d6", base_version=session.snapshot().version)
        show(sheet("dicy"))
        yield teach("photo")  # no die in the dice box
        fives = tuple(PlacedDie("5", 60.0 + 35 * i, 105.0, 0.3, i) for i in range(6))
        show(sheet("dicy", dice=fives))
        yield teach("photo")  # the dice show 5, not 1
        thrown = tuple(PlacedDie(str(n + 1), 60.0 + 35 * n, 105.0, 0.3, n) for n in range(6))
        show(sheet("dicy", dice=thrown))
        yield teach("photo")  # the dice show every number but 1
        yield teach("undo")  # no photo to take back
        for _ in range(5):
            session.teach("next", base_version=session.snapshot().version)
        yield teach("next")  # no face taught at all
    finally:
        session.stop()


def checked_meanwhile(session: TableSession) -> Callable[[], object]:
    """The check, outdated by another phone's cancel while it was being worked out."""
    def check() -> None:
        session.teach("check", base_version=session.snapshot().version)

    def attempt() -> None:
        failed: list[BaseException] = []
        with held_check() as (begun, go_on):
            thread = threading.Thread(target=lambda: _kept(check, failed))
            thread.start()
            assert begun.wait(60), "the check did not begin"
            session.teach("cancel", base_version=session.snapshot().version)
            go_on.set()
            thread.join()
        if failed:
            raise failed[0]
    return attempt


def _kept(call: Callable[[], object], failed: list[BaseException]) -> None:
    try:
        call()
    except BaseException as err:  # handed to the battery's thread
        failed.append(err)


def photos_too_many(session: TableSession, show: Callable[[Any], None], frame: Any
                    ) -> Iterator[Callable[[], object]]:
    """A step's photos refused: the same picture taken twice, then a fourth photo."""
    def photo() -> object:
        return session.teach("photo", base_version=session.snapshot().version)

    show(frame)
    photo()
    yield photo  # the same picture again
    for _ in range(2):
        show(frame)
        photo()
    show(frame)
    yield photo  # a fourth photo


def unreadable_photo(session: TableSession) -> Callable[[], object]:
    """A photo asked once the camera sent a picture that cannot be read."""
    session.camera_status(CameraStatus("ok", unreadable_why=UnreadableFrame(
        "camera.why.picture_unreadable", name="IMG_0001.jpg")))
    return lambda: session.teach("photo", base_version=session.snapshot().version)


def card_refusals(session: TableSession, show: Callable[[Any], None]
                  ) -> Iterator[Callable[[], object]]:
    """Teaching cards refused: a place with no card, a card left from the step before, the
    same picture twice, too many photos, out of order."""
    from vision.teach_sheet import steps

    def teach(do: str, kind: str | None = None) -> Callable[[], object]:
        return lambda: session.teach(do, kind, base_version=session.snapshot().version)

    first = dict(steps("dicy-card")[0])
    session.teach("start", "dicy-card", base_version=session.snapshot().version)
    yield unreadable_photo(session)
    yield teach("next")  # no photo yet
    yield teach("check")  # not every step taken
    show(sheet("dicy", cards=dict(list(first.items())[:4])))
    yield teach("photo")  # place 5 of player 1's row is empty
    laid = sheet("dicy", cards=first)
    yield from photos_too_many(session, show, laid)
    session.teach("next", base_version=session.snapshot().version)
    show(laid)
    yield teach("photo")  # the cards of the step before
    for step in steps("dicy-card")[1:]:
        show(sheet("dicy", cards=dict(step)))
        session.teach("photo", base_version=session.snapshot().version)
        session.teach("next", base_version=session.snapshot().version)
    yield teach("photo")  # every step has its photos
    session.teach("start", "17-card", base_version=session.snapshot().version)
    show(sheet("17"))
    yield teach("photo")  # place 1 of the row is empty


def button_refusals(journal: Journal) -> Iterator[Callable[[], object]]:
    """Presses the table refuses: told to the phones as news, raised here."""
    session = TableSession(journal)
    session.start()
    seated, shared = ButtonActions(session, seated=True), ButtonActions(session, seated=False)
    try:
        session.new_game({"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"},
                         base_version=0)
        yield told(session, seated.stop)
        yield told(session, lambda: seated.shout([1]))
        session.abandon(base_version=session.snapshot().version)
        session.new_game({"game": "17", "players": ["Ana", "Ben"]},
                         base_version=session.snapshot().version)
        yield told(session, lambda: seated.shout([3]))
        yield told(session, lambda: shared.shout([None]))
        session.abandon(base_version=session.snapshot().version)
        yield told(session, broken_camera_stop(session, shared))
    finally:
        session.stop()


def broken_camera_stop(session: TableSession, actions: ButtonActions) -> Callable[[], None]:
    """A Dalek stop the table fails to take: the camera fails as the stop has it look."""
    def failing_look(timeout: float) -> bool:
        raise RuntimeError("the camera's driver crashed")

    session.watch_camera()
    session.new_game(DALEK_STOP, base_version=session.snapshot().version)
    session.camera_seen(seen(ROLLED, 1))
    session.camera_status(CameraStatus("ok"))
    session.look_now = failing_look

    def press() -> None:  # the stop's thread tells the phones once its look failed
        before = session.snapshot().buttons
        actions.stop()
        deadline = time.monotonic() + 10.0
        while session.snapshot().buttons == before and time.monotonic() < deadline:
            time.sleep(0.01)
    return press


def told(session: TableSession, press: Callable[[], None]) -> Callable[[], object]:
    def attempt() -> None:
        press()
        news = session.snapshot().buttons
        if news is not None and news["kind"] == "refused":
            raise Refusal(news["reason"]["template"], **news["reason"]["params"])
    return attempt


@pytest.fixture(scope="module")
def refusals(tmp_path_factory: pytest.TempPathFactory) -> list[Refusal]:
    """Every refusal of the battery (one of each text): bad headers, presets and records,
    wrong and malformed lines at every state of random games, corrections (one of them hiding
    its reason), undo with nothing, and the session's refusals."""
    attempts = chain(
        (partial(Game.start, header) for header in BAD_HEADERS),
        (partial(parse_presets, data) for data in BAD_PRESETS),
        (partial(read_record, lines) for lines in BAD_RECORDS),
        games_and_corrections(Random(17)),
        hidden_card_correction(),
        session_refusals(Journal(tmp_path_factory.mktemp("refusals") / "table.db")),
        button_refusals(Journal(tmp_path_factory.mktemp("buttons") / "table.db")),
        teach_refusals(tmp_path_factory.mktemp("teach")),
    )
    return list({str(err): err for err in refused_by(attempts)}.values())


@pytest.fixture(scope="module")
def raised(refusals: list[Refusal]) -> set[str]:
    """Every template the battery raised, inner ones included."""
    return set().union(*(templates(err) for err in refusals))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_raised_is_in_the_catalog(raised: set[str], lang: str) -> None:
    assert raised - catalog(lang)["engine"].keys() == set()


def test_every_template_of_the_catalogs_is_raised(raised: set[str]) -> None:
    assert catalog("en")["engine"].keys() - raised == NEEDS_THE_BOX_PRESETS


DICY_IDS = re.compile(r"\b(?:" + "|".join(re.escape(c) for c in DICY_CARDS if "-" in c) + r")\b")
CODE = re.compile(r"[`{}\[\]]|\('|'\)|\b(?:True|False|None|true|false|null)\b|\b\d+\.\d+\b"
                  r"|\b(?:H4|H2|D3|D2|DOC|EXT|[1-5]d)\b|\b(?:trash|trap|reverse|x2)\b")
"""What a player should never read: code syntax, record ids of cards and faces."""
QUOTED = re.compile(r"“[^”]*”|«[^»]*»")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_reads_as_the_page_does(refusals: list[Refusal], lang: str) -> None:
    assert len(refusals) > 500
    texts = {engine_text(lang, err) for err in refusals}
    unquoted = {text: QUOTED.sub("", text) for text in texts}  # a bad input as it was typed
    leaks = {text for text, rest in unquoted.items() if CODE.search(rest) or DICY_IDS.search(rest)}
    assert sorted(leaks)[:5] == []


def test_a_refusal_sent_as_json_reads_the_same(refusals: list[Refusal]) -> None:
    for err in refusals[::7]:
        sent = json.loads(json.dumps(to_json(err)))
        assert [json_text(lang, sent) for lang in LANGUAGES] == [
            engine_text(lang, err) for lang in LANGUAGES]


def test_a_refusal_showing_a_long_value_sent_as_json_reads_the_same() -> None:
    # A value shown cut short travelled as the cut text, which is no JSON.
    err = IllegalAction("players must be a list of names, not {value}",
                        value=Shown([["Anastasia", "Bento"]] * 8))
    sent = json.loads(json.dumps(to_json(err)))
    assert [json_text(lang, sent) for lang in LANGUAGES] == [
        engine_text(lang, err) for lang in LANGUAGES]


ARTEFACTS = re.compile(r"'s (?:the|a|an)\b|\b(?:the dice|cards) needs\b|  |\{\w*\}"
                       r"|\b(?:None|dict|list\[|JSON|objects?|objetos?|oggett[oi]"
                       r"|keys?|claves?|chiavi|chiave|chaves?)\b")
"""What a sentence built from a field's name or a type name must not read as: a possessive
put before the article of the field's words ("score's the card"), a plural told it "needs",
a doubled space, a field left unfilled, or the words of code (an object, a key, JSON)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_reads_as_a_sentence(refusals: list[Refusal], lang: str) -> None:
    texts = {engine_text(lang, err) for err in refusals}
    broken = {text for text in texts if ARTEFACTS.search(QUOTED.sub("“…”", text))}
    assert sorted(broken) == []


MOVES = ("roll", "keep", "stop", "reroll", "score", "skip", "effect", "call", "reveal")
"""The moves of the three games (RULES.md), none a move of all three; not 17's play, which es,
it and pt name with their word for any move (jugada, giocata, jogada)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pads_refusal_of_a_line_names_no_move_of_one_game(lang: str) -> None:
    # It is shown in every game: "such as a roll or a stop" read so in 17, which has neither.
    words = catalog(lang)["ui"]
    named = [kind for kind in MOVES
             if re.search(rf"\b{re.escape(words[f'key.{kind}'])}\b", words["error.field.line"],
                          re.IGNORECASE)]
    assert named == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_line_of_two_moves_in_17_is_told_without_another_games_moves(lang: str) -> None:
    words = catalog(lang)["ui"]
    with pytest.raises(RecordError) as refused:
        read_record(['{"game": "17", "players": ["Ana", "Ben"]}',
                     '{"play": {"face": "down"}, "call": ["Ana"]}'])
    told = engine_text(lang, refused.value)
    named = [kind for kind in MOVES if kind not in ("call", "reveal")
             and re.search(rf"\b{re.escape(words[f'key.{kind}'])}\b", told, re.IGNORECASE)]
    assert named == [], told


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pads_refusals_of_a_request_read_as_sentences(lang: str) -> None:
    refusals = {key: words for key, words in catalog(lang)["ui"].items()
                if key.startswith("error.")}
    assert {key: words for key, words in refusals.items()
            if ARTEFACTS.search(FIELD.sub("…", words))} == {}
