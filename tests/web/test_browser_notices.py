"""The host's notices on pages that stay open: phones at phone size and the kiosk of a TV,
never reloaded, across a restart of the real ``dicetable serve``, in all four languages."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from device.journal import Journal
from device.notice import Notice
from device.state_dir import journal_path
from dicetable.child import ServedTable
from engine.selfplay import random_lines
from tests.web.conftest import Phone as HostPhone
from tests.web.conftest import served_here
from web.client import Phone
from web.table import table

pytestmark = pytest.mark.browser

HEADER = {"game": "dalek", "players": ["Ana", "Ben"], "target": 10_000}
LOST = {  # how many: those of the start that went (test_journal_faults counts them)
    "en": re.compile(r"^The table lost its last \d+ saved changes"),
    "es": re.compile(r"^La mesa perdió sus últimos \d+ cambios guardados"),
    "it": re.compile(r"^Il tavolo ha perso le ultime \d+ modifiche salvate"),
    "pt": re.compile(r"^A mesa perdeu as últimas \d+ alterações guardadas"),
}
SEEN = [("en", False), ("es", False), ("it", True), ("pt", True)]
"""The pages open: phones in English and Spanish, TVs (the kiosk) in Italian and Portuguese."""
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2}
TV = {"viewport": {"width": 1280, "height": 720}}


def opened(browser: Browser, url: str, lang: str, *, kiosk: bool) -> Page:
    """The score pad (or the kiosk's) in ``lang``, opened on its own browser context."""
    context = browser.new_context(**(TV if kiosk else PHONE))
    context.add_cookies([{"name": "lang", "value": lang, "url": url}])
    page = context.new_page()
    page.goto(url + ("/kiosk" if kiosk else "/"))
    return page


def test_pages_open_across_a_restart_show_what_the_new_start_tells(
        browser: Browser, tmp_path: Path) -> None:
    """The table loses its last saved changes to a power cut (its write-ahead log gone): the
    phones and the TVs open since before it went say so in their language once it is back,
    without a reload (they read the notices only as the page loaded, or came back to the
    front)."""
    state = tmp_path / "state"
    journal = Journal(journal_path(state))  # the PIN and the game in table.db, as after a
    journal.new_pin()  # clean stop
    journal.start_game(HEADER)
    journal.close()
    with ServedTable(state) as table:
        phone = Phone(table.url, pin=table.pin)
        pages = {(lang, kiosk): opened(browser, table.url, lang, kiosk=kiosk)
                 for lang, kiosk in SEEN}
        try:
            for page in pages.values():
                expect(page.locator("#board")).to_contain_text("Ana")
            version = phone.get("/api/state")[1]["state"]["version"]
            for line in random_lines(HEADER, 3, Random(4)):
                status, body = phone.post("/api/action", {"line": line,
                                                          "base_version": version})
                assert status == 200, body
                version = body["state"]["version"]
            phone.close()
            table.stop(kill=True)
            journal_path(state).with_name("table.db-wal").unlink()
            table.start()
            for (lang, kiosk), page in pages.items():
                expect(page.locator("section.notices p")).to_have_text(LOST[lang])
                expect(page.locator("#board")).to_contain_text("Ana")  # the game goes on
                page.screenshot(path=tmp_path / f"lost-{'kiosk' if kiosk else 'phone'}-{lang}.png")
        finally:
            for page in pages.values():
                page.context.close()


def test_the_notices_are_read_from_the_sofa_on_a_tv_and_as_they_were_on_a_phone(
        browser: Browser, app: Flask, dalek: HostPhone) -> None:
    # on the kiosk at a TV's floor of 1/40 of its height at least (18 px at 720p, 27 px at
    # 1080p: test_browser_kiosk), in the game's narrow column; a phone's at the page's size
    with app.app_context():
        table().tell(Notice("notice.power_off.inhibited"))
    size = ("(e) => [parseFloat(getComputedStyle(e).fontSize),"
            " parseFloat(getComputedStyle(document.body).fontSize)]")
    with served_here(app) as url:
        for width, height, kiosk in ((1280, 720, True), (1920, 1080, True), (360, 740, False)):
            context = browser.new_context(viewport={"width": width, "height": height})
            try:
                page = context.new_page()
                page.goto(url + ("/kiosk" if kiosk else "/"))
                words, body = page.locator("section.notices p").evaluate(size)
                if kiosk:
                    assert words >= height / 40 - .5, f"{width}×{height}: {words} px"
                else:
                    assert words == body, f"{width}×{height}: {words} px, the page's {body} px"
            finally:
                context.close()


def test_a_page_asks_the_state_once_when_it_brings_a_notice_told(
        browser: Browser, app: Flask, dalek: HostPhone) -> None:
    # a page back online asks the state, which brings the notices told meanwhile: it asked
    # again, as if the notices had moved since (the live stream held off: it is asked alone)
    with served_here(app) as url:
        context = browser.new_context(viewport={"width": 360, "height": 740})
        try:
            context.route("**/events", lambda route: route.abort())
            page = context.new_page()
            page.goto(url + "/")
            page.wait_for_load_state("networkidle")
            asked: list[str] = []
            page.on("request", lambda r: asked.append(r.url) if "/api/state" in r.url else None)
            context.set_offline(True)
            with app.app_context():
                table().tell(Notice("notice.power_off.inhibited"))
            context.set_offline(False)
            expect(page.locator("section.notices p")).to_have_count(1)
            page.wait_for_timeout(500)
            assert len(asked) == 1, asked
        finally:
            context.close()
