"""Pages left open across an upgrade of the table (a TV's kiosk, never reloaded; a phone): the
real ``dicetable serve`` stopped and started again on other code, a copy of this one whose
page script differs, as ``dicetable`` upgraded and restarted by systemd."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from device.journal import Journal
from device.state_dir import journal_path
from dicetable.child import ServedTable

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("dicetable", "device", "engine", "vision", "web")
HEADER = {"game": "dalek", "players": ["Ana", "Ben"], "target": 10_000}
NEW_CODE = '\ndocument.documentElement.dataset.upgraded = "yes";\n'
"""What the upgraded page script does more: a page that runs it was loaded again."""


def upgraded_copy(folder: Path) -> Path:
    """This code copied into ``folder``, its page script with :data:`NEW_CODE` at its end."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "models").symlink_to(ROOT / "models")
    with (folder / "web" / "static" / "pad.js").open("a", encoding="utf-8") as script:
        script.write(NEW_CODE)
    return folder


def opened(browser: Browser, url: str, *, kiosk: bool) -> Page:
    """The kiosk at a TV's size or the score pad at a phone's, marked: a page loaded again
    loses the mark."""
    size = {"width": 1280, "height": 720} if kiosk else {"width": 360, "height": 740}
    page = browser.new_context(viewport=size).new_page()
    page.goto(url + ("/kiosk" if kiosk else "/"))
    expect(page.locator("#board")).to_contain_text("Ana")
    page.evaluate("window.mark = 'open since before'")
    return page


def sees_upgrade(page: Page) -> None:
    """Wait until ``page`` has a state of another build than its own, or was loaded again
    (a page's CSP forbids the script Page.wait_for_function would run)."""
    deadline = time.monotonic() + 10
    while not page.evaluate("S.state.build !== BUILD || !window.mark"):
        assert time.monotonic() < deadline, "the page never got the upgraded table's state"
        page.wait_for_timeout(100)


def asked_pin(phone: Page) -> None:
    """The PIN dialog opened from the menu."""
    phone.locator("#menu-button").click()
    phone.locator("#menu button.primary").click()


def test_pages_open_across_an_upgrade_load_again_once_nothing_typed_is_lost(
        browser: Browser, tmp_path: Path) -> None:
    """The kiosk loads the new scripts as soon as it sees the upgraded table; a phone with
    half a PIN typed keeps it, and the host's phone the dice it began to enter, and each loads
    again once what it typed is sent; all go on with the game."""
    state = tmp_path / "state"
    journal = Journal(journal_path(state))
    journal.start_game(HEADER)
    journal.close()
    code = upgraded_copy(tmp_path / "code")
    table = ServedTable(state).start()
    pin = table.pin
    pages = []
    try:
        kiosk = opened(browser, table.url, kiosk=True)
        phone = opened(browser, table.url, kiosk=False)
        host = opened(browser, table.url, kiosk=False)
        pages = [kiosk, phone, host]
        asked_pin(host)
        host.locator("#pin-input").fill(pin)
        host.locator("#pin-ok").click()
        keys = host.locator(".picker .keys button")
        for _ in range(3):
            keys.first.click()
        asked_pin(phone)
        phone.locator("#pin-input").fill(pin[:2])
        table.stop()
        table.env = {"PYTHONPATH": str(code), "PYTHONSAFEPATH": "1"}  # (not this folder's)
        table.start()
        expect(kiosk.locator("html")).to_have_attribute("data-upgraded", "yes")
        expect(kiosk.locator("#board")).to_contain_text("Ana")
        assert kiosk.evaluate("window.mark") is None
        for page in (phone, host):
            sees_upgrade(page)  # it knows, and waits
        phone.wait_for_timeout(2500)
        for page in (phone, host):
            assert page.evaluate("window.mark") == "open since before"
        expect(phone.locator("#pin-input")).to_have_value(pin[:2])
        expect(host.locator(".picker .tray button")).to_have_count(3)
        while keys.first.is_enabled():
            keys.first.click()
        host.locator(".picker + .row button.primary").click()  # the roll, sent
        expect(host.locator("html")).to_have_attribute("data-upgraded", "yes")
        assert host.evaluate("window.mark") is None
        assert host.evaluate("S.state.view.expects").count("roll") == 0  # the roll went in
        phone.locator("#pin-input").fill(pin)
        phone.locator("#pin-ok").click()
        expect(phone.locator("html")).to_have_attribute("data-upgraded", "yes")
        assert phone.evaluate("window.mark") is None
        assert phone.evaluate("S.auth") is True  # the PIN typed went in before
        expect(phone.locator("#board")).to_contain_text("Ana")
        for page in pages:
            assert page.evaluate("S.state.build === BUILD")
    finally:
        for page in pages:
            page.context.close()
        table.stop()
