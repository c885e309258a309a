"""The printed sheets, one tap away on the phone: a PDF per game and paper, in the phone's
language or the one asked for; an unknown sheet is refused in words."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from vision.sheet import GAMES


@pytest.mark.parametrize("game", GAMES)
def test_each_game_sheet_is_a_pdf_on_a4_and_letter(client: FlaskClient, game: str) -> None:
    for paper in ("a4", "letter"):
        response = client.get(f"/print/{game}-{paper}.pdf")
        assert response.status_code == 200
        assert response.mimetype == "application/pdf"
        assert response.data.startswith(b"%PDF-")
        assert f"dicetable-{game}-{paper}.pdf" in response.headers["Content-Disposition"]


def test_the_sheet_speaks_the_language_asked_for_else_the_phones(client: FlaskClient) -> None:
    italian = client.get("/print/dalek-a4.pdf?lang=it").data
    assert b"Da lanciare" in italian and b"To roll" not in italian
    spanish = client.get("/print/dalek-a4.pdf", headers={"Accept-Language": "es-ES"}).data
    assert b"Para tirar" in spanish
    assert b"To roll" not in spanish
    english = client.get("/print/dalek-a4.pdf?lang=xx").data
    assert b"To roll" in english


def test_an_unknown_sheet_is_refused_in_words(client: FlaskClient) -> None:
    for path in ("/print/chess-a4.pdf", "/print/dalek-a5.pdf"):
        response = client.get(path, headers={"Accept-Language": "pt-PT"})
        assert response.status_code == 404
        assert response.json == {"error": "Não há nenhuma folha assim para imprimir."}
