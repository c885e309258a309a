"""The four languages: complete catalogs, the page's words, and the engine's refusals."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from device.session import SessionError
from engine import Game, IllegalAction
from web.i18n import LANGUAGES, catalog, choose_language, engine_text

if TYPE_CHECKING:
    from tests.web.conftest import Phone

FIELD = re.compile(r"\{(\w+)\}")
STATIC = Path(__file__).parents[2] / "web" / "static"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_has_every_message_with_the_same_fields(lang: str) -> None:
    english = catalog("en")
    for part in ("ui", "engine"):
        assert catalog(lang)[part].keys() == english[part].keys()
        for key, text in catalog(lang)[part].items():
            source = key if part == "engine" else english[part][key]
            assert set(FIELD.findall(text)) == set(FIELD.findall(source)), (lang, key)


def test_every_word_the_page_asks_for_is_in_the_catalog() -> None:
    script = "".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    asked = set(re.findall(r'\bt\("([\w.-]+)"[,)]', script))
    assert asked and asked <= catalog("en")["ui"].keys()


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
    assert engine_text("it", err) == "«Dispari» accetta solo dadi dispari (1, 3, 5), non 6"

    seventeen = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    seventeen = seventeen.play_json({"play": {"card": "3", "face": "up"}})
    err = refusal(seventeen, {"call": ["Ana"]})
    assert engine_text("pt", err) == "Ana jogou a última carta e não pode dizer 17"


def test_a_replayed_refusal_translates_its_reason() -> None:
    game = Game.start({"game": "dalek", "players": ["Jenna", "Peter"]})
    game = game.play_json({"roll": ["H4"] * 9 + ["DOC"]}).play_json({"keep": ["H4"]})
    with pytest.raises(IllegalAction) as caught:
        game.correct(1, game.parse({"keep": ["D3"]}))
    assert engine_text("es", caught.value) == (
        'la acción 2 {"keep": ["D3"]} no es válida: la tirada muestra '
        "H4 H4 H4 H4 H4 H4 H4 H4 H4 DOC; no tiene D3 para guardar")


def test_session_refusals_and_unknown_messages() -> None:
    busy = SessionError("a game is being played; finish or abandon it first")
    assert engine_text("it", busy) == "c'è una partita in corso; finiscila o abbandonala prima"
    assert engine_text("es", ValueError("something new")) == "something new"


def test_the_api_answers_in_the_phones_language(dalek: Phone) -> None:
    response = dalek.client.post(
        "/api/action", json={"line": {"stop": {}}, "base_version": dalek.state()["version"]},
        headers={"X-CSRF-Token": dalek.csrf, "Accept-Language": "es-ES,es;q=0.9"})
    assert response.json == {
        "error": "Jenna aún no ha tirado; plantarse viene después de tirar y guardar"}
    dalek.client.set_cookie("lang", "it")
    response = dalek.post("/api/action", {"line": {"stop": {}}, "base_version": 0})
    assert response.status_code == 409
    assert response.json["error"].startswith("Un altro telefono")  # type: ignore[index]


def test_the_page_switches_catalogs(dalek: Phone) -> None:
    assert dalek.client.get("/i18n/pt.json").json["menu.new"] == "Nova partida"  # type: ignore
    assert dalek.client.get("/i18n/xx.json").status_code == 404
    page = dalek.client.get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert '<html lang="it">' in page and "Nuova partita" in page


def test_a_templated_refusal_is_translated_by_its_template() -> None:
    err = IllegalAction("it is {name}'s turn to keep, not to {act}", name="Ana", act="roll")
    assert engine_text("es", err) == "le toca a Ana guardar dados, no tirar"
    other = IllegalAction("it is {who}'s turn to keep, not to {what}", who="Ana", what="stop")
    assert engine_text("it", other) == "tocca a Ana tenere dei dadi, non fermarsi"
