"""The buttons on the phones, end to end: gpiozero's mock pins pressed in the process that
serves the table, the score pad in Chromium at phone size, in all four languages; and the
kiosk page for a TV."""

from __future__ import annotations

import io
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page, expect

from device.button_actions import ButtonActions
from device.button_config import ButtonConfig
from device.buttons import TableButtons
from device.journal import Journal
from device.session import TableSession
from dicetable.service import PowerOff
from tests.dicetable.test_service import INHIBITED, UPDATING, catalog_words, stand_in
from tests.web.conftest import served_here, sign_in
from web.app import create_app
from web.server import end_streams
from web.table import table

pytestmark = pytest.mark.browser

STOP, SHOUT = 17, 27
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2}
HOLD_S = 1.0
"""gpiozero's hold timer runs on real time: long enough that a tap (50 ms) or stop then a
shout (100 ms apart) does not straddle it while Chromium loads the machine."""


class PiTable:
    """A table served in this process, with its buttons on mock pins (a Pi 5)."""

    def __init__(self, state: Path, *, power_off: tuple[str, ...] | None = None) -> None:
        """``power_off``: the command a held stop runs to power the Pi off (None: the hold
        does nothing)."""
        self.session = TableSession(Journal(state / "table.db"))
        self.session.start()
        self.app = create_app({"JOURNAL": self.session.journal, "TABLE_SESSION": self.session})
        self._serving = ExitStack()
        self.url = self._serving.enter_context(served_here(self.app))
        self.factory = MockFactory(revision="d04170")
        shutdown = None if power_off is None else PowerOff(
            table(self.app).tell, command=power_off, out=io.StringIO())
        self.buttons = TableButtons(ButtonConfig(stop=STOP, shout=SHOUT, hold_s=HOLD_S),
                                    ButtonActions(self.session, seated=False,
                                                  on_shutdown=shutdown),
                                    factory=self.factory)
        self.buttons.start()

    def tap(self, pin: int) -> None:
        self.factory.pin(pin).drive_low()
        time.sleep(0.05)
        self.factory.pin(pin).drive_high()

    def new_game(self, header: dict[str, object], *lines: dict[str, object]) -> None:
        snap = self.session.new_game(header, base_version=self.session.snapshot().version)
        for line in lines:
            snap = self.session.act(line, base_version=snap.version, source="phone")

    def close(self) -> None:
        self.buttons.stop()
        end_streams(self.app)
        time.sleep(0.5)
        self._serving.close()
        self.session.stop()


@pytest.fixture
def pi(tmp_path: Path) -> Iterator[PiTable]:
    table = PiTable(tmp_path / "state")
    yield table
    table.close()


def phone(browser: Browser, pi: PiTable, lang: str, *, pin: bool = False) -> Page:
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": "lang", "value": lang, "url": pi.url}])
    page = context.new_page()
    page.set_default_timeout(5000)
    page.goto(pi.url + "/")
    if pin:
        sign_in(page, pi.session.journal.pin())
    return page


REFUSED = {
    "en": "Stop button: Ana has not rolled yet",
    "es": "Botón de plantarse: Ana aún no ha tirado",
    "pt": "Botão de parar: Ana ainda não rolou",
    "it": "Pulsante di stop: Ana non ha ancora lanciato",
}


def test_a_refused_press_says_why_in_every_language(browser: Browser, pi: PiTable,
                                                    tmp_path: Path) -> None:
    pi.new_game({"game": "dalek", "players": ["Ana", "Ben"]})
    pages = {lang: phone(browser, pi, lang) for lang in REFUSED}
    for page in pages.values():
        expect(page.locator("#board")).to_contain_text("Ana")
    pi.tap(STOP)
    for lang, page in pages.items():
        expect(page.locator("#toast")).to_contain_text(REFUSED[lang])
        page.screenshot(path=tmp_path / f"refused-{lang}.png")
    pi.tap(SHOUT)
    expect(pages["it"].locator("#moment")).to_have_text("STERMINARE!")
    for page in pages.values():
        page.context.close()


NOT_TAKEN = {
    "en": "Stop button and shout button: the table could not take this press",
    "es": "Botón de plantarse y botón de gritar: la mesa no pudo atender esta pulsación",
    "pt": "Botão de parar e botão de gritar: a mesa não atendeu este toque no botão",
    "it": "Pulsante di stop e pulsante del grido: il tavolo non ha accettato questa pressione",
}


def test_a_pin_the_table_cannot_read_names_both_buttons_held(browser: Browser, pi: PiTable,
                                                              tmp_path: Path) -> None:
    """Stop and the shout held to show the PIN, which the journal has lost: the phones say
    that the press of both was not taken (they named the stop button alone)."""
    pi.new_game({"game": "dalek", "players": ["Ana", "Ben"]})
    with sqlite3.connect(pi.session.journal.path) as db:
        db.execute("DELETE FROM settings WHERE key = 'pin'")
    pages = {lang: phone(browser, pi, lang) for lang in NOT_TAKEN}
    for page in pages.values():
        expect(page.locator("#board")).to_contain_text("Ana")
    pi.factory.pin(STOP).drive_low()
    time.sleep(0.1)
    pi.factory.pin(SHOUT).drive_low()
    try:
        for lang, page in pages.items():
            expect(page.locator("#toast")).to_contain_text(NOT_TAKEN[lang])
        pages["es"].screenshot(path=tmp_path / "pin-not-taken-es.png")
    finally:
        pi.factory.pin(SHOUT).drive_high()
        pi.factory.pin(STOP).drive_high()
        for page in pages.values():
            page.context.close()


def test_the_shared_shout_asks_who_called_and_a_tap_calls(browser: Browser, pi: PiTable,
                                                           tmp_path: Path) -> None:
    pi.new_game({"game": "17", "players": ["Ana", "Ben", "Cleo"]},
                {"play": {"card": "3d", "face": "up"}})
    page = phone(browser, pi, "pt", pin=True)
    pi.tap(SHOUT)
    question = page.locator("section.button-news")
    expect(question).to_contain_text("17! Quem disse?")
    page.screenshot(path=tmp_path / "who-pt.png")
    question.get_by_role("button", name="Cleo").click()
    expect(question).to_have_count(0)
    view = pi.session.snapshot().view
    assert view is not None and view["results"][-1]["callers"] == ["Cleo"]
    page.context.close()


def test_the_pin_the_buttons_show_reads_on_a_phone_in_dark_mode(browser: Browser,
                                                                 pi: PiTable) -> None:
    pi.new_game({"game": "dalek", "players": ["Ana", "Ben"]})
    page = phone(browser, pi, "en")
    page.emulate_media(color_scheme="dark")
    pi.factory.pin(STOP).drive_low()
    time.sleep(0.1)
    pi.factory.pin(SHOUT).drive_low()
    try:
        expect(page.locator("section.button-news")).to_contain_text(pi.session.journal.pin())
        found = Axe().run(page, options={"runOnly": ["color-contrast"]}).response["violations"]
        assert [n["target"] for v in found for n in v["nodes"]] == []
    finally:
        pi.factory.pin(SHOUT).drive_high()
        pi.factory.pin(STOP).drive_high()
        page.context.close()


def test_stop_and_shout_held_show_the_pin_and_the_kiosk_shows_it_too(
        browser: Browser, pi: PiTable, tmp_path: Path) -> None:
    pi.new_game({"game": "dalek", "players": ["Ana", "Ben"]})
    page = phone(browser, pi, "es")
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(pi.url + "/kiosk")
    expect(tv.locator("#join svg")).to_be_visible()
    pi.factory.pin(STOP).drive_low()
    time.sleep(0.1)
    pi.factory.pin(SHOUT).drive_low()
    pin = pi.session.journal.pin()
    expect(page.locator("section.button-news")).to_contain_text(f"PIN de la mesa: {pin}")
    expect(tv.locator("section.button-news")).to_contain_text(pin)
    pi.factory.pin(SHOUT).drive_high()
    pi.factory.pin(STOP).drive_high()
    page.screenshot(path=tmp_path / "pin-es.png")
    tv.screenshot(path=tmp_path / "kiosk.png")
    page.context.close()
    tv.context.close()


def test_a_power_off_an_update_holds_back_is_told_on_every_phone_and_the_kiosk(
        browser: Browser, tmp_path: Path) -> None:
    """Stop held alone while a program blocks shutdown: the phones, open since before, and
    the TV say in their language that the Pi stayed on and why, over the game that goes on,
    until the host has read it ("Got it" on one phone): then on none, nor the TV, without a
    reload."""
    pi = PiTable(tmp_path / "state", power_off=stand_in(tmp_path, INHIBITED, 1))
    try:
        pi.new_game({"game": "dalek", "players": ["Ana", "Ben"]})
        updating = catalog_words(UPDATING)
        pages = {lang: phone(browser, pi, lang, pin=lang == "en") for lang in updating}
        tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        tv.goto(pi.url + "/kiosk")
        for page in [*pages.values(), tv]:
            expect(page.locator("#board")).to_contain_text("Ana")
        pi.factory.pin(STOP).drive_low()
        time.sleep(HOLD_S + 0.3)
        pi.factory.pin(STOP).drive_high()
        for lang, page in pages.items():
            expect(page.locator("section.notices p")).to_have_text(updating[lang])
            expect(page.locator("#toast")).to_be_hidden()  # "shutting down" went
            expect(page.locator("#board")).to_contain_text("Ana")
        expect(tv.locator("section.notices p")).to_have_text(updating["en"])
        pages["pt"].screenshot(path=tmp_path / "power-off-refused-pt.png")
        tv.screenshot(path=tmp_path / "power-off-refused-kiosk.png")
        pages["en"].locator("section.notices").get_by_role("button", name="Got it").click()
        for page in [*pages.values(), tv]:  # read on one phone: gone from every page open
            expect(page.locator("section.notices")).to_have_count(0)
            expect(page.locator("#board")).to_contain_text("Ana")
        for page in [*pages.values(), tv]:
            page.context.close()
    finally:
        pi.close()


def test_a_refusal_told_while_the_pi_is_asked_to_power_off_stays_once_it_stayed_on(
        browser: Browser, tmp_path: Path) -> None:
    """Stop tapped with no turn to stop while the Pi is slow to answer the power-off: its
    refusal, shown over "shutting down", stays on the phone once the Pi stayed on (the toast
    shown was hidden, whatever it said)."""
    answer = tmp_path / "answer"
    pi = PiTable(tmp_path / "state", power_off=stand_in(tmp_path, INHIBITED, 1, until=answer))
    try:
        pi.new_game({"game": "dalek", "players": ["Ana", "Ben"]})
        page = phone(browser, pi, "en")
        expect(page.locator("#board")).to_contain_text("Ana")
        pi.factory.pin(STOP).drive_low()
        time.sleep(HOLD_S + 0.3)
        pi.factory.pin(STOP).drive_high()
        expect(page.locator("#toast")).to_be_visible()  # "shutting down"
        shutting_down = page.locator("#toast").text_content()
        time.sleep(0.2)  # a press within the bounce of stop's letting go is none
        pi.tap(STOP)
        expect(page.locator("#toast")).to_contain_text(REFUSED["en"])
        answer.touch()
        expect(page.locator("section.notices p")).to_have_text(catalog_words(UPDATING)["en"])
        expect(page.locator("#toast")).to_contain_text(REFUSED["en"])
        expect(page.locator("#toast")).to_be_visible()
        assert shutting_down and REFUSED["en"] not in shutting_down
        page.context.close()
    finally:
        answer.touch()
        pi.close()
