"""The printed sheets, one tap away on the phone: a PDF per game and paper, in the phone's
language or the one asked for; an unknown sheet is refused in words; the host's card of the
Pi's own Wi-Fi."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from playwright.sync_api import Browser, BrowserContext, Page, expect
from werkzeug.test import TestResponse

from device.hotspot import hotspot
from device.journal import Journal
from tests.web.conftest import PHONE, Phone, served_here, sign_in
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


def _said_on_a_page(response: TestResponse, status: int, words: str, way_back: str) -> None:
    """``response`` is a page (the pad opened the address in a tab of its own) saying ``words``
    with a link back to the score pad: no JSON, nothing a person cannot read."""
    assert response.status_code == status and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert f"<p>{escape(words)}</p>" in page
    assert f'<a class="button primary" href="/">{escape(way_back)}</a>' in page
    assert "{" not in page.split("<body>")[1]


def test_an_unknown_sheet_is_refused_in_words(client: FlaskClient) -> None:
    for path in ("/print/chess-a4.pdf", "/print/dalek-a5.pdf"):
        response = client.get(path, headers={"Accept-Language": "pt-PT"})
        _said_on_a_page(response, 404, "Não há nenhuma folha assim para imprimir.",
                        "Folha de pontuação")


INSTALL = Path(__file__).parents[2] / "systemd" / "install"


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None or shutil.which("systemctl") is None,
                    reason="systemd's tools are not installed (Debian package systemd)")
def test_the_host_prints_the_card_of_the_wifi_the_installer_set_up(
        app: Flask, phone: Phone, watcher: Phone, tmp_path: Path) -> None:
    root = tmp_path / "pi"
    root.mkdir()
    subprocess.run([str(INSTALL), "--root", str(root), "--no-apt", "--no-pip", "--wifi-setup"],
                   capture_output=True, check=True, timeout=120)
    app.config["COMITUP_CONF"] = root / "etc/comitup.conf"
    spot = hotspot(root / "etc/comitup.conf")
    assert spot is not None and spot.name.startswith("dicetable-")
    card = phone.client.get("/print/wifi-card.pdf?lang=pt",
                            environ_overrides={"SERVER_PORT": "8017"})
    assert card.status_code == 200 and card.mimetype == "application/pdf"
    assert f"({spot.name})".encode() in card.data and f"({spot.password})".encode() in card.data
    assert b"(Palavra-passe)" in card.data and b"(http://10.41.0.1:8017/)" in card.data
    # a table served on another port (dicetable serve --port) is there on the hotspot too
    elsewhere = phone.client.get("/print/wifi-card.pdf", environ_overrides={"SERVER_PORT": "8123"})
    assert b"(http://10.41.0.1:8123/)" in elsewhere.data
    assert watcher.client.get("/print/wifi-card.pdf").status_code == 401  # the host's only


def own_wifi(app: Flask, folder: Path) -> Path:
    """A comitup.conf in ``folder`` that gives the Pi its own Wi-Fi, as the app reads it."""
    conf = folder / "comitup.conf"
    conf.write_text("ap_name: dicetable-4821\nap_password: kqzmtwpaxe\n")
    app.config["COMITUP_CONF"] = conf
    return conf


def test_a_card_refused_for_want_of_the_pin_says_so_on_a_page_in_the_pads_language(
        app: Flask, watcher: Phone, tmp_path: Path) -> None:
    # a phone that never entered the PIN, or whose grant ended: the card opens in a new tab
    own_wifi(app, tmp_path)
    response = watcher.client.get("/print/wifi-card.pdf?lang=it",
                                  headers={"Accept-Language": "en"})
    _said_on_a_page(response, 401, "Solo l'organizzatore stampa il cartoncino Wi-Fi: inserisci il "
                    "PIN del tavolo nel segnapunti, poi stampalo dal menu.", "Segnapunti")
    assert b"kqzmtwpaxe" not in response.data


def test_a_pi_without_its_own_wifi_has_no_card_and_says_so(
        app: Flask, phone: Phone, tmp_path: Path) -> None:
    app.config["COMITUP_CONF"] = tmp_path / "comitup.conf"  # comitup never set up
    response = phone.client.get("/print/wifi-card.pdf", headers={"Accept-Language": "es"})
    _said_on_a_page(response, 404, "La Pi aún no tiene una wifi propia: «At a friend's house» "
                                   "en el README explica cómo dársela.", "Hoja de puntuación")
    # a name comitup fills in itself is not known here: no card with a wrong name on it
    (tmp_path / "comitup.conf").write_text("ap_name: dicetable-<nnnn>\nap_password: abcdefgh\n")
    assert phone.client.get("/print/wifi-card.pdf").status_code == 404



@pytest.fixture
def open_pad(app: Flask, journal: Journal, browser: Browser) -> Iterator[Callable[..., Page]]:
    """Opens the score pad of the fixtures' table (served by waitress in this process) on a new
    phone (360 px wide, or as ``options`` say), that entered the PIN or not, its menu open."""
    with served_here(app) as address:
        contexts: list[BrowserContext] = []

        def open_page(pin: bool, **options: Any) -> Page:
            contexts.append(browser.new_context(**{**PHONE, **options}))
            page = contexts[-1].new_page()
            page.goto(f"{address}/")
            if pin:
                sign_in(page, journal.pin())
            page.click("#menu-button")
            expect(page.locator("#menu")).to_be_visible()
            return page

        yield open_page
        for context in contexts:
            context.close()


@pytest.mark.browser
def test_the_host_finds_the_wifi_card_in_the_menu_where_the_pi_has_its_own_wifi(
        app: Flask, open_pad: Callable[..., Page], tmp_path: Path) -> None:
    conf = own_wifi(app, tmp_path)
    host = open_pad(True)
    link = host.locator("#menu").get_by_role("link", name="Print the Wi-Fi card")
    expect(link).to_be_visible()
    with host.context.expect_event("response", lambda r: "/print/wifi-card.pdf" in r.url) as got:
        link.click()
    assert got.value.status == 200 and got.value.headers["content-type"] == "application/pdf"
    expect(host.locator("#menu")).to_be_hidden()
    # a phone without the PIN is not offered the card (its password is the host's)
    watcher = open_pad(False)
    expect(watcher.locator("#menu").get_by_role("button", name="Enter PIN")).to_be_visible()
    expect(watcher.locator("#menu").get_by_text("Wi-Fi card")).to_have_count(0)
    # a Pi without its own Wi-Fi has no card to offer, not even to the host
    conf.unlink()
    host = open_pad(True)
    expect(host.locator("#menu").get_by_role("button", name="Lock this phone")).to_be_visible()
    expect(host.locator("#menu").get_by_text("Wi-Fi card")).to_have_count(0)


@pytest.mark.browser
def test_the_wifi_card_is_one_line_in_the_menu_of_a_320_px_phone_in_every_language(
        app: Flask, open_pad: Callable[..., Page], tmp_path: Path) -> None:
    # Italian's "Stampa il cartoncino del Wi-Fi" broke as "… del Wi-" over "Fi"
    own_wifi(app, tmp_path)
    for lang in ("en", "es", "it", "pt"):
        menu = open_pad(True, viewport={"width": 320, "height": 568}, locale=lang).locator("#menu")
        card = menu.locator("a[href^='/print/wifi-card.pdf']")
        expect(card).to_be_visible()
        one_line = menu.get_by_role("button").first.evaluate("(e) => e.offsetHeight")
        assert card.evaluate("(e) => e.offsetHeight") == one_line, f"{lang}: {card.text_content()}"
