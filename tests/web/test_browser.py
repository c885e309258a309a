"""End to end: two phones (Chromium, 360 px wide) on one table served by ``dicetable serve``."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect

from device.journal import Journal
from device.state_dir import journal_path
from engine.selfplay import random_lines
from tests.web.conftest import log_out_a_copy, sign_in, type_pin
from web.client import Phone
from web.i18n import catalog

if TYPE_CHECKING:
    from dicetable.child import ServedTable

pytestmark = pytest.mark.browser

PAGE_WEIGHT_LIMIT = 100 * 1024
FACES = {"H4": "4 humans", "H2": "2 humans", "D3": "3 Daleks", "D2": "2 Daleks",
         "DOC": "the Doctor", "EXT": "Exterminate!"}


class Pad:
    """The score pad on one phone, driven by taps."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on("console", lambda message: self.errors.append(message.text)
                if "Content Security Policy" in message.text else None)

    def menu(self, item: str) -> None:
        self.page.click("#menu-button")
        self.page.locator("#menu").get_by_role("button", name=item, exact=True).click()

    def enter_pin(self, pin: str) -> None:
        self.menu("Enter PIN")
        type_pin(self.page, pin)

    def i_am(self, name: str) -> None:
        self.page.click("#menu-button")
        self.page.select_option("#me", name)
        self.page.click("#menu-button")

    def set_up(self, game: str, players: list[str], target: int | None = None,
               first: str | None = None) -> None:
        """Fill the new game's form (not started)."""
        self.menu("New game")
        self.page.locator(".choices").get_by_role("radio", name=game).click()
        rows = self.page.locator(".player-row")
        while rows.count() < len(players):
            self.page.get_by_role("button", name="Add a player").click()
        for i, name in enumerate(players):
            rows.nth(i).locator("input").fill(name)
        if target is not None:
            self.page.locator(".options input[type=number]").fill(str(target))
        if first is not None:
            self.page.locator(".options select").select_option(label=first)

    def new_game(self, game: str, players: list[str], target: int | None = None,
                 first: str | None = None) -> None:
        self.set_up(game, players, target, first)
        self.page.get_by_role("button", name="Start", exact=True).click()
        try:
            expect(self.page.locator(".scores li")).to_have_count(len(players))
        except AssertionError as failure:
            raise AssertionError(f"{failure}\nThe page's last message: {self.last_message()!r}; "
                                 f"its errors: {self.errors}") from failure

    def last_message(self) -> str:
        """The last message the page put up (it may have gone since; '' if none)."""
        return self.page.locator("#toast").text_content() or ""

    def tap(self, *labels: str) -> None:
        keys = self.page.locator(".keys")
        for label in labels:
            keys.get_by_role("button", name=label, exact=True).click()

    def button(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()

    def choose(self, name: str) -> None:
        self.page.get_by_role("radio", name=name, exact=True).click()

    def roll(self, *faces: str) -> None:
        self.tap(*(FACES[f] for f in faces))
        self.button(f"Roll {len(faces)} dice")

    def keep(self, *positions: int) -> None:
        toggles = self.page.locator(".entry .toggle")
        for position in positions:
            toggles.nth(position).click()
        self.button(f"Keep {len(positions)}")

    def expect_area(self, text: str) -> None:
        expect(self.page.locator(".area")).to_contain_text(text)

    def score_of(self, player: str) -> str:
        row = self.page.locator(".scores li", has_text=player)
        return row.locator(".total").inner_text()


def test_two_phones_follow_a_whole_dalek_turn_live(open_phone: Callable[..., Page],
                                                   served: ServedTable) -> None:
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    expect(peter.page.locator("#board div.turn")).to_contain_text("Jenna's turn")
    peter.i_am("Peter")

    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    peter.expect_area("Rolled")
    expect(peter.page.locator(".area .line", has_text="Rolled").locator(".die")).to_have_count(10)

    jenna.keep(0, 1, 2, 5, 6, 7)
    peter.expect_area("Humans 12")
    peter.expect_area("Daleks 9")
    expect(peter.page.locator(".area .top .f-DOC:not(.empty)")).to_have_count(1)

    jenna.roll("D3", "D2", "EXT")
    peter.expect_area("Rolled")
    jenna.keep(0, 1)

    expect(peter.page.locator("#board div.turn")).to_have_text("Your turn, Peter!")
    expect(peter.page.locator(".scores li", has_text="Jenna").locator(".total")).to_have_text("17")
    expect(peter.page.locator(".grid tbody td").first).to_contain_text("17 +5")
    expect(jenna.page.locator("#board div.turn")).to_have_text("Peter's turn")
    expect(peter.page.locator("#moment")).to_have_text("No dice left: +5 → 17")
    expect(peter.page.locator(".story li").first).to_have_text(
        "Jenna kept 3 Daleks, 2 Daleks; no dice left: 17 points")
    assert jenna.errors == [] and peter.errors == []


def test_undo_reaches_the_other_phone(open_phone: Callable[..., Page],
                                      served: ServedTable) -> None:
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 5)
    peter.expect_area("Humans 4")
    jenna.button("Undo")
    expect(peter.page.locator(".area .line", has_text="Rolled")).to_be_visible()
    peter.expect_area("Humans 0")
    jenna.button("Undo")
    expect(peter.page.locator(".area .line", has_text="Rolled")).to_have_count(0)
    expect(peter.page.locator(".actions summary")).to_have_text("Actions (0)")


SLOW_ANSWERS = """() => {
    const send = window.fetch;
    window.fetch = async (url, init) => {
        const answer = await send(url, init);
        if (init && init.method === "POST") await new Promise((done) => setTimeout(done, 2000));
        return answer;
    };
}"""  # every POST's answer reaches the page 2 s late; the live stream is not slowed


def test_a_tap_on_what_the_stream_shows_goes_through_while_the_last_answer_is_slow(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    """A phone on a slow network: the live stream shows the roll before the roll's own answer
    arrives; the keep tapped on it waits for that answer and then goes, it is not lost."""
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.page.evaluate(SLOW_ANSWERS)
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 1, 2, 5, 6, 7)  # drawn from the stream while the roll's answer is held
    jenna.expect_area("Humans 12")
    jenna.expect_area("Daleks 9")
    expect(jenna.page.locator(".actions summary")).to_have_text("Actions (2)")
    jenna.page.get_by_role("button", name="Undo", exact=True).dblclick()  # a double tap: one undo
    expect(jenna.page.locator(".actions summary")).to_have_text("Actions (1)")
    jenna.page.wait_for_timeout(4000)  # a second undo would be answered by now
    expect(jenna.page.locator(".actions summary")).to_have_text("Actions (1)")
    jenna.expect_area("Humans 0")
    assert jenna.errors == []


def test_a_tap_held_while_another_phone_changes_the_game_is_answered_not_lost(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    """Jenna's finger is on Undo when Peter's keep arrives: her tap still counts, and since it
    was made on the screen before the keep, the table refuses it and says why."""
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    peter.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    peter.expect_area("Rolled")
    jenna.page.get_by_role("button", name="Undo", exact=True).hover()
    jenna.page.mouse.down()
    peter.keep(0, 5)
    peter.expect_area("Humans 4")
    jenna.page.wait_for_timeout(1000)  # Peter's keep reaches Jenna's phone while she presses
    jenna.page.mouse.up()
    expect(jenna.page.locator("#toast")).to_have_text(
        "Another phone changed the game first; this is what stands now.")
    jenna.expect_area("Humans 4")
    expect(peter.page.locator(".actions summary")).to_have_text("Actions (2)")
    assert jenna.errors == [] and peter.errors == []


def test_an_illegal_correction_says_which_action_and_changes_nothing(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 1, 2, 5, 6, 7)
    jenna.roll("D3", "D2", "EXT")
    jenna.page.locator(".actions summary").click()
    jenna.page.locator(".lines li").nth(1).get_by_role("button", name="Correct").click()
    corrector = jenna.page.locator(".corrector")
    for _ in range(5):
        corrector.locator(".tray .pick").last.click()
    expect(corrector.locator(".tray .pick")).to_have_count(1)
    corrector.get_by_role("button", name="Replace").click()
    refused = corrector.locator(".refused")
    expect(refused).to_contain_text("Action 3 (Roll 3 Daleks, 2 Daleks, Exterminate!) is refused: "
                                    "Jenna rolls 8 dice; this roll has 3")
    expect(refused.locator("li")).to_have_text(["Jenna rolled 3 Daleks, 2 Daleks, Exterminate!"])
    jenna.expect_area("Humans 12")

    refused.get_by_role("button", name="Drop action 3 and the ones after it").click()
    expect(jenna.page.locator("#toast")).to_contain_text("Action 2 corrected")
    jenna.expect_area("Humans 4")
    expect(jenna.page.locator(".lines li")).to_have_count(2)


def correcting_the_keep(open_phone: Callable[..., Page], served: ServedTable) -> tuple[Pad, Pad]:
    """Jenna and Peter, both with the PIN: Jenna rolled, kept, and opened the correction of
    her keep."""
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    for pad in (jenna, peter):
        pad.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 1, 2, 5, 6, 7)
    jenna.page.locator(".actions summary").click()
    jenna.page.locator(".lines li").nth(1).get_by_role("button", name="Correct").click()
    return jenna, peter


def test_a_correction_open_while_another_phone_undoes_closes_and_replaces_nothing(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna, peter = correcting_the_keep(open_phone, served)
    expect(jenna.page.locator(".corrector")).to_be_visible()
    peter.expect_area("Humans 12")
    peter.button("Undo")  # the keep Jenna is correcting is taken back, and made anew
    peter.keep(0, 5)
    expect(jenna.page.locator(".corrector")).to_have_count(0)
    expect(jenna.page.locator("#toast")).to_contain_text(
        "The game changed while the correction was open; nothing was replaced")
    for pad in (jenna, peter):
        pad.expect_area("Humans 4")


SLOW_SENDS = """() => {
    const send = window.fetch;
    window.fetch = async (url, init) => {
        if (init && init.method === "POST") await new Promise((done) => setTimeout(done, 2000));
        return send(url, init);
    };
}"""  # every POST leaves the page 2 s late (a phone on a weak signal)


def test_a_correction_sent_as_another_phone_undoes_its_action_closes_and_replaces_nothing(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna, peter = correcting_the_keep(open_phone, served)
    peter.expect_area("Humans 12")
    jenna.page.evaluate(SLOW_SENDS)
    jenna.page.locator(".corrector").get_by_role("button", name="Replace").click()
    peter.button("Undo")  # reaches the table first: Jenna's Replace is refused as stale
    expect(jenna.page.locator(".corrector")).to_have_count(0)
    expect(jenna.page.locator("#toast")).to_contain_text(
        "The game changed while the correction was open; nothing was replaced")
    peter.keep(0, 5)
    for pad in (jenna, peter):
        pad.expect_area("Humans 4")


def test_both_phones_come_back_after_the_server_is_killed(open_phone: Callable[..., Page],
                                                         served: ServedTable) -> None:
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 1, 2, 5, 6, 7)
    for pad in (jenna, peter):  # the story comes after the state, in a request of its own
        expect(pad.page.locator("#screen")).to_contain_text("Jenna kept 3 × 4 humans, 3 × 3 Daleks")
    before = {pad: pad.page.locator("#screen").inner_text() for pad in (jenna, peter)}

    served.stop(kill=True)
    for pad in (jenna, peter):
        expect(pad.page.locator("#conn")).to_have_class("conn off", timeout=10_000)
    served.start()
    for pad in (jenna, peter):
        expect(pad.page.locator("#conn")).to_have_class("conn on", timeout=15_000)
    for pad in (jenna, peter):
        assert pad.page.locator("#screen").inner_text() == before[pad]

    jenna.roll("D3", "D2", "EXT")
    peter.expect_area("Rolled")


CLOCK_BEHIND = Path(__file__).parent / "clock_behind"


def test_phones_follow_a_table_that_starts_again_with_its_clock_behind(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 1, 2, 5, 6, 7)
    expect(peter.page.locator("#screen")).to_contain_text("Jenna kept 3 × 4 humans, 3 × 3 Daleks")

    served.stop(kill=True)  # a power cut: the Pi has no clock battery and starts 10 min behind
    served.env = {"PYTHONPATH": str(CLOCK_BEHIND), "DICETABLE_TEST_CLOCK_BEHIND_S": "600"}
    served.start()
    for pad in (jenna, peter):
        expect(pad.page.locator("#conn")).to_have_class("conn on", timeout=15_000)
    jenna.roll("D3", "D2", "EXT")  # her phone is still let in, and sees its roll taken
    for pad in (jenna, peter):
        pad.expect_area("Rolled")


def test_the_first_load_is_light_and_fits_a_small_phone(open_phone: Callable[..., Page],
                                                        served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    weights = {}
    for lang in ("en", "es", "pt", "it"):
        page = open_phone(locale=lang)
        expect(page.locator(".scores li")).to_have_count(2)
        assert page.evaluate("document.documentElement.lang") == lang
        weights[lang] = page.evaluate("""() => {
            const nav = performance.getEntriesByType("navigation")[0];
            return performance.getEntriesByType("resource")
                .reduce((sum, r) => sum + r.decodedBodySize, nav.decodedBodySize);
        }""")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    print(f"\nscore pad first load, bytes uncompressed: {weights}")
    assert max(weights.values()) <= PAGE_WEIGHT_LIMIT


KEYS_SHOWN = """() => {
  const KEY = /\\b(?:setup|colour|seventeen|history|resume|stats|rules|camera|teach)\\.[a-z_0-9]+/g;
  window.keysShown = [];
  window.blanks = 0;
  const look = () => {
    const labels = [...document.querySelectorAll("[aria-label], [title], [placeholder]")].map((e) =>
      ["aria-label", "title", "placeholder"].map((a) => e.getAttribute(a) || "").join(" "));
    window.keysShown.push(...([document.body.innerText, ...labels].join(" ").match(KEY) || []));
    const main = document.getElementById("screen");
    if (!main.hidden && !main.textContent.trim()) window.blanks += 1;
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true,
    characterData: true, attributes: true});
}"""
"""Watches the page for catalog keys of the words loaded later, shown as text or labels, and for
the screen drawn blank."""


def held_until(page: Page, held: list[Route], count: int) -> None:
    """Wait until ``count`` requests are held."""
    for _ in range(200):
        if len(held) >= count:
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"{len(held)} requests held, not {count}")


def release(held: list[Route]) -> None:
    while held:
        held.pop().continue_()


@pytest.mark.parametrize("lang", ["en", "es", "pt", "it"])
def test_a_screen_of_the_menu_opened_on_a_slow_connection_shows_its_words(
        open_phone: Callable[..., Page], served: ServedTable, lang: str) -> None:
    # setup.js and the words of the menu's screens come after the first load: the screen
    # opens with both, and the pad stays as it was while they come
    words = catalog(lang)["ui"]
    page = open_phone(locale=lang)
    pad = Pad(page)
    pad.menu(words["menu.pin"])
    page.fill("#pin-input", served.pin)
    page.click("#pin-ok")
    page.evaluate(KEYS_SHOWN)
    held: list[Route] = []
    page.route("**/static/setup.js", lambda route: held.append(route))
    page.route("**/i18n/*/later.json", lambda route: held.append(route))
    pad.menu(words["menu.new"])
    held_until(page, held, 2)  # both: one let through before the other is held would hang it
    page.wait_for_timeout(200)
    expect(page.locator(".welcome h2")).to_have_text(words["pad.no_game"])
    release(held)
    expect(page.locator(".setup h2")).to_have_text(words["setup.title"])
    expect(page.get_by_role("button", name=words["setup.add"])).to_be_visible()
    page.locator(".player-row .swatch-button").first.click()
    expect(page.locator(".palette button").first).to_have_attribute("aria-label", words["colour.0"])
    pad.menu(words["menu.stats"])
    expect(page.locator("#screen h2").first).to_have_text(words["stats.title"])
    assert page.evaluate("[window.keysShown, window.blanks]") == [[], 0]
    assert pad.errors == []


def test_a_screen_of_the_menu_opened_as_the_language_switches_shows_the_new_ones_words(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    page = open_phone(locale="es")
    pad = Pad(page)
    page.evaluate(KEYS_SHOWN)
    held: list[Route] = []
    page.route("**/i18n/*/later.json", lambda route: held.append(route))
    pad.menu("Estadísticas")
    held_until(page, held, 1)  # the Spanish words, held as the phone switches to Italian
    page.select_option("#lang", "it")
    expect(page.locator(".welcome h2")).to_have_text(catalog("it")["ui"]["pad.no_game"])
    release(held)
    page.wait_for_timeout(300)  # the Italian ones: the screen waits for them, and says so
    assert page.evaluate("[window.keysShown, window.blanks]") == [[], 0]
    expect(page.locator("#screen")).to_have_text("Caricamento…")
    held_until(page, held, 1)
    release(held)
    expect(page.locator("#screen h2").first).to_have_text("Statistiche")
    page.select_option("#lang", "pt")  # on the screen: its words come with the page's
    held_until(page, held, 1)
    page.wait_for_timeout(200)
    expect(page.locator("#screen h2").first).to_have_text("Statistiche")
    release(held)
    expect(page.locator("#screen h2").first).to_have_text("Estatísticas")
    assert page.evaluate("[window.keysShown, window.blanks]") == [[], 0]
    assert pad.errors == []


def test_17_names_of_five_players_are_whole_on_a_small_phone(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    host = Phone(served.url, pin=served.pin)
    names = ["Ana", "Bento", "Clara", "Anastasia", "Massimiliano"]
    status, body = host.post("/api/game", {"header": {"game": "17", "players": names},
                                           "base_version": 0})
    assert status == 200, body
    for lang in ("en", "es", "pt", "it"):
        page = open_phone(viewport={"width": 360, "height": 740}, locale=lang)
        expect(page.locator(".scores li")).to_have_count(5)
        cut = page.evaluate("""() => [...document.querySelectorAll('.scores .name')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
        assert cut == [], f"{lang}: names cut beside the tokens"


@pytest.mark.parametrize("lost", [None, "static/setup.js", "i18n/*/later.json",
                                  "static/later.css"])
def test_the_join_code_has_its_title_and_a_way_back(open_phone: Callable[..., Page],
                                                    lost: str | None) -> None:
    # Also when what the menu's other screens need does not come (``lost``): the join code
    # came with setup.js and the later words, and one not fetched, the Menu's "Join code (QR)"
    # showed nothing and said nothing
    pad = Pad(open_phone())
    if lost is not None:
        pad.page.route("**/" + lost, lambda route: route.abort())
    pad.menu("Join code (QR)")
    join = pad.page.locator("#join")
    expect(join.get_by_role("heading")).to_have_text(
        "Scan this code with a phone to join the table")
    expect(join.locator("svg")).to_be_visible()
    join.get_by_role("button", name="Back").click()
    expect(join).to_be_hidden()
    if lost is None:
        pad.menu("Join code (QR)")  # drawn once, however often it is opened
        expect(join.get_by_role("heading")).to_have_count(1)
    else:
        pad.menu("Statistics")  # a screen that needs them says why it does not open
        expect(pad.page.locator("#toast")).to_have_text(
            "The table cannot be reached. Check the Wi-Fi.")


def join_code_by_keyboard(page: Page) -> Locator:
    """The join code's screen opened from the menu by the keyboard: its heading, which has
    the keyboard."""
    page.focus("#menu-button")
    page.keyboard.press("Enter")
    page.locator("#menu").get_by_role("button", name="Join code (QR)", exact=True).focus()
    page.keyboard.press("Enter")
    heading = page.locator("#join").get_by_role("heading")
    expect(heading).to_be_focused()
    return heading


def test_the_join_codes_heading_keeps_the_keyboard_as_the_game_changes(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # Its heading was drawn anew at each state the table sent, and the keyboard fell off it
    page = open_phone()
    heading = join_code_by_keyboard(page)
    host = Phone(served.url, pin=served.pin)
    status, body = host.post("/api/game", {"header": {"game": "dalek", "players": ["Ana", "Bo"]},
                                           "base_version": 0})
    assert status == 200, body
    page.wait_for_function("S.state.view !== null")  # the pad drawn again, under the join code
    expect(heading).to_be_focused()


def test_the_kiosk_shows_the_end_of_an_eight_player_game_beside_a_whole_join_code(
        browser: Browser, served: ServedTable) -> None:
    host = Phone(served.url, pin=served.pin)
    header = {"game": "dalek", "players": ["Maximiliano", "Anastasia", "Fabrizio", "João",
                                           "Iñaki", "Hélène", "Zoë", "Ben"], "target": 30}
    _, body = host.post("/api/game", {"header": header, "base_version": 0})
    for line in random_lines(header, 100_000, Random(3)):
        _, body = host.post("/api/action", {"line": line, "base_version": body["state"]["version"]})
    assert body["state"]["view"]["over"]
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    try:
        tv.goto(served.url + "/kiosk")
        expect(tv.locator(".summary li")).to_have_count(8)
        expect(tv.get_by_role("button", name="Result picture (PNG)")).to_be_hidden()  # it watches
        code = tv.locator("#join svg").bounding_box()
        assert code is not None
        on_top = tv.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('#join') !== null",
            [code["x"] + 4, code["y"] + 4])
        assert on_top, "the join code's corner is under the score board"
        sheet = tv.locator(".scroll")  # a TV cannot scroll: the score sheet is never cut
        widths = sheet.evaluate("(e) => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1] + 1, f"the score sheet is cut: {widths}"
        box = sheet.bounding_box()
        assert box is not None and box["x"] + box["width"] <= code["x"]
        assert box["y"] + box["height"] <= 720, "the score sheet runs off the TV"
    finally:
        tv.context.close()


def test_a_17_round_with_a_hidden_card_and_a_reveal(open_phone: Callable[..., Page],
                                                    served: ServedTable) -> None:
    ana, ben = Pad(open_phone()), Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.new_game("17", ["Ana", "Ben", "Cleo"])
    row = ben.page.locator(".area .card17")

    ana.choose("Face down")
    ana.tap("3 ⇅")
    expect(row).to_have_count(1)
    expect(row.first).to_contain_text("3 ⇅")
    ana.choose("Face down")
    ana.button("Face down, not known yet")
    expect(row).to_have_count(2)
    expect(row.nth(1)).to_have_class("card17 down hidden")
    expect(row.nth(1).locator("b")).to_have_text("?")
    ana.tap("5")
    expect(row).to_have_count(3)

    ana.page.locator(".entry .tray").get_by_role("button", name="Ana").click()
    ana.button("17!")
    expect(ben.page.locator("#moment")).to_have_text("17! — Ana")
    expect(ben.page.locator(".area")).to_contain_text("Ana called 17!")
    expect(row.nth(1).locator("b")).to_have_text("?")

    ana.tap("4")
    ana.button("Reveal")
    moment = ben.page.locator("#moment")  # shown in signs, said in words
    expect(moment.locator("[aria-hidden=true]")).to_have_text("12 < 17 → Ana ✖, Cleo ★")
    expect(moment.locator(".sr")).to_have_text(
        "12 < 17 → Ana: 1 penalty token, Cleo: 1 victory token")
    expect(ben.page.locator(".grid tbody tr")).to_have_count(1)
    expect(ben.page.locator(".grid tbody td").nth(1)).to_have_text("12 < 17")
    expect(ben.page.locator(".scores li", has_text="Cleo").locator(".total")).to_have_text("★1 ✖0")
    expect(ben.page.locator(".scores li", has_text="Ana").locator(".total")).to_have_text("★0 ✖1")
    expect(ben.page.locator("#board div.turn")).to_have_text("Cleo's turn")
    assert ana.errors == [] and ben.errors == []


def test_a_face_down_card_stays_hidden_in_the_list_and_is_corrected_anew(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    ana, ben = Pad(open_phone()), Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.new_game("17", ["Ana", "Ben", "Cleo"], first="drawn by lot")
    first = ben.page.evaluate("S.state.header.first")
    assert first in ("Ana", "Ben", "Cleo")
    expect(ben.page.locator("#board div.turn")).to_have_text(f"{first}'s turn")
    ana.choose("Face down")
    ana.tap("Trap")
    row = ben.page.locator(".area .card17")
    expect(row.locator("b")).to_have_text(["?"])

    ben.page.locator(".actions summary").click()
    expect(ben.page.locator(".lines li")).to_have_text([f"{first} played a card face down"])
    ana.page.locator(".actions summary").click()
    ana.page.locator(".lines li").first.get_by_role("button", name="Correct").click()
    corrector = ana.page.locator(".corrector")
    expect(corrector).to_contain_text("still hidden: enter it again")
    replace = corrector.get_by_role("button", name="Replace")
    expect(replace).to_be_disabled()
    corrector.get_by_role("button", name="Face up").click()
    expect(replace).to_be_disabled()
    corrector.locator(".keys").get_by_role("button", name="5", exact=True).click()
    replace.click()
    expect(row.locator("b")).to_have_text(["5"])
    expect(ben.page.locator(".lines li")).to_have_text([f"{first} played 5 face up"])
    assert ana.errors == [] and ben.errors == []


def test_a_dicy_turn_with_a_reroll_a_score_and_an_effect(open_phone: Callable[..., Page],
                                                         served: ServedTable) -> None:
    ana, ben = Pad(open_phone()), Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.new_game("Dicy Cards", ["Ana", "Ben"])
    ana.tap("6", "6", "5", "2", "1", "1")
    ana.button("Roll 6 dice")
    expect(ben.page.locator(".area .pip")).to_have_count(6)

    ana.page.get_by_role("tab", name="Reroll").click()
    ana.page.locator(".entry .tray").first.get_by_role("button", name="Odd").click()
    toggles = ana.page.locator(".entry button.toggle.bare")
    toggles.nth(3).click()
    toggles.nth(4).click()
    ana.tap("3", "4")
    ana.button("Reroll")
    expect(ben.page.locator(".area")).to_contain_text("Rerolls: 1 (frozen: Odd)")

    ana.page.get_by_role("tab", name="Score").click()
    ana.page.locator(".entry .tray").first.get_by_role("button", name="Two dice · 12").click()
    ana.button("Score Two dice with 2 dice")
    expect(ben.page.locator(".area")).to_contain_text("Ben freezes a card (Two dice)")
    ana.page.locator(".entry").get_by_role("button", name="Straight").click()
    expect(ben.page.locator("#board div.turn")).to_have_text("Ben's turn")
    expect(ben.page.locator(".scores li", has_text="Ana").locator(".total")).to_have_text("12")
    expect(ben.page.locator(".cards-row", has_text="Ben").locator(".frozen b")).to_have_text(
        ["Straight"])
    expect(ben.page.locator(".story li").nth(1)).to_have_text(
        "Ana scored Two dice (6 6) for 12; Ben must freeze a card")


def test_the_end_of_a_game_shows_the_winner_and_offers_a_rematch(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna = Pad(open_phone(viewport={"width": 360, "height": 480}))  # a small screen
    peter = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"], target=10)
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 1, 2, 5, 6, 7)
    jenna.roll("D3", "D2", "EXT")
    jenna.keep(0, 1)
    jenna.roll(*["D3"] * 10)
    jenna.keep(0)
    jenna.page.locator(".actions summary").click()  # the story open: a long page
    jenna.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    jenna.button("Stop: bank 0")

    for pad in (jenna, peter):
        expect(pad.page.locator("#board div.turn.winner")).to_have_text("Jenna wins!")
        expect(pad.page.locator(".summary")).to_contain_text("Game over")
    # Jenna's page was scrolled down to the entry; the end brings the result to the top, not
    # under the sticky score board.
    expect(jenna.page.get_by_role("button", name="Rematch")).to_be_in_viewport()
    assert jenna.page.evaluate("window.scrollY") == 0
    links = peter.page.locator(".summary a")
    expect(links).to_have_count(2)
    assert links.first.get_attribute("href", timeout=1000) == "/export/1.csv"
    expect(peter.page.locator(".summary")).to_contain_text("games won: 1")

    with peter.page.expect_download() as download:
        peter.button("Result picture (PNG)")
    picture = cv2.imdecode(np.frombuffer(Path(download.value.path()).read_bytes(), np.uint8),
                           cv2.IMREAD_COLOR)
    assert download.value.suggested_filename == "dicetable-1.png"
    assert picture is not None and picture.shape[1] == 720 and picture.shape[0] > 200

    jenna.button("Rematch")
    expect(peter.page.locator("#board div.turn")).to_have_text("Jenna's turn")
    expect(peter.page.locator(".scores li .total")).to_have_text(["0", "0"])


def test_a_phone_switches_to_spanish_and_hears_the_engine_in_spanish(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.page.select_option("#lang", "es")
    expect(jenna.page.locator("#board div.turn")).to_have_text("Turno de Jenna")
    expect(jenna.page.locator(".entry h3")).to_have_text("¿Qué han sacado los 10 dados?")
    jenna.page.evaluate("act({stop: {}})")
    expect(jenna.page.locator("#toast")).to_have_text(
        "Jenna aún no ha tirado; plantarse viene después de tirar y guardar")
    jenna.page.reload()
    expect(jenna.page.locator("#board div.turn")).to_have_text("Turno de Jenna")
    jenna.page.evaluate("act({stop: {}})")
    expect(jenna.page.locator("#toast")).to_be_visible()
    jenna.page.select_option("#lang", "en")  # the Spanish message goes with the Spanish page
    expect(jenna.page.locator("#board div.turn")).to_have_text("Jenna's turn")
    assert jenna.page.locator("#toast").is_hidden()  # gone with the redraw, not 8 s later


def test_a_language_whose_words_do_not_come_leaves_the_page_as_it_was_and_says_why(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.page.route("**/i18n/it.json", lambda route: route.abort())
    jenna.page.select_option("#lang", "it")
    expect(jenna.page.locator("#toast")).to_have_text(
        "The table cannot be reached. Check the Wi-Fi.")
    expect(jenna.page.locator("#lang")).to_have_value("en")


def test_exterminate_is_shouted_on_every_phone(open_phone: Callable[..., Page],
                                               served: ServedTable) -> None:
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("EXT", *["H4"] * 9)
    jenna.keep(1)
    jenna.roll("EXT", *["D3"] * 7)
    jenna.keep(1)
    jenna.roll("EXT", *["H2"] * 5)
    jenna.button("Keep 0")
    expect(peter.page.locator("#moment")).to_have_text("EXTERMINATE! ×2 → 8")
    expect(peter.page.locator(".grid tbody td.end-exterminate")).to_have_text("8")


def test_a_roll_with_nothing_to_keep_asks_only_to_go_on(open_phone: Callable[..., Page],
                                                        served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("EXT", *["H4"] * 8, "D3")
    jenna.keep(*range(1, 9))
    jenna.tap(FACES["EXT"])  # the last die: to the top, nothing to choose
    jenna.button("Roll 1 die")
    expect(jenna.page.locator(".entry h3")).to_have_text("No human or Dalek to keep")
    expect(jenna.page.locator(".entry button")).to_have_text(["Go on", "Undo"])
    jenna.button("Go on")
    expect(jenna.page.locator("#board div.turn")).to_have_text("Peter's turn")


@pytest.mark.parametrize(("lang", "told"), [
    ("en", "That was too large for the table to take; nothing was changed."),
    ("pt", "Isso era grande demais para a mesa aceitar; nada foi alterado.")])
def test_a_request_too_large_for_the_web_server_is_told_so_in_the_phones_language(
        open_phone: Callable[..., Page], served: ServedTable, lang: str, told: str) -> None:
    # waitress refuses a body over the limit with a page of its own, before the app sees it
    page = open_phone(locale=lang)
    page.wait_for_function("S.state")
    page.evaluate("post('/api/action', {line: {stop: {}}, note: 'x'.repeat(20000)})")
    expect(page.locator("#toast")).to_have_text(told)


def test_the_host_is_told_on_the_page_when_the_journal_was_damaged(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    served.stop()
    journal = journal_path(served.state)
    journal.write_bytes(b"\x00not a database" * 500)
    # and its write-ahead log gone with it: pages the stopped server left in the log would
    # otherwise still make a whole journal (SQLite reads them before the file's own)
    for suffix in ("-wal", "-shm"):
        journal.with_name(journal.name + suffix).unlink(missing_ok=True)
    served.start()
    host = Pad(open_phone())
    notices = host.page.locator(".notices")
    expect(notices).to_contain_text("The table's saved games were damaged")
    expect(notices).to_contain_text("The table has a new PIN")
    expect(notices.get_by_role("button")).to_have_count(0)  # only a phone with the PIN
    host.enter_pin(served.pin)
    notices.get_by_role("button", name="Got it").click()
    expect(notices).to_have_count(0)
    host.page.reload()
    expect(host.page.locator("main")).to_contain_text("No game on the table")
    expect(notices).to_have_count(0)
    assert host.errors == []


def test_a_phone_that_enters_the_pin_reads_the_buttons_off_notice_in_full(
        open_phone: Callable[..., Page], served: ServedTable, tmp_path: Path) -> None:
    # the config file's path and settings are the host's: a guest reads that the buttons are
    # off, and the same page with the PIN entered reads what is wrong without a reload (the
    # PIN's answer brings them: the whole state was asked anew for them), a guest's words
    # again once locked (the lock's answer brings them) and once the table asks for the PIN
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\nstop = 40\n")
    served.stop()
    served.args = ("--config", str(config))
    served.env = {"GPIOZERO_PIN_FACTORY": "mock"}
    served.start()
    host = Pad(open_phone())
    notices = host.page.locator(".notices")
    expect(notices).to_contain_text("The table's buttons are off until the host fixes")
    expect(notices).not_to_contain_text(str(config))
    asked: list[str] = []
    host.page.on("request", lambda request: asked.append(request.url))
    host.enter_pin(served.pin)
    expect(notices).to_contain_text(f"In the config file {config}: stop = 40: there is no GPIO")
    host.menu("Lock this phone")
    expect(notices).to_contain_text("The table's buttons are off until the host fixes")
    expect(notices).not_to_contain_text(str(config))
    host.enter_pin(served.pin)
    expect(notices).to_contain_text(f"In the config file {config}: stop = 40: there is no GPIO")
    assert [url for url in asked if url.endswith("/api/state")] == []
    # the PIN's grant gone (logged out on a copy of the phone): the host's words go with it
    log_out_a_copy(host.page, served.url)
    host.set_up("Dalek Dice", ["Jenna", "Peter"], None, None)
    host.button("Start")
    expect(host.page.locator("#pin-dialog")).to_be_visible()
    host.page.click("#pin-cancel")
    host.menu("Score pad")
    expect(notices).to_contain_text("The table's buttons are off until the host fixes")
    expect(notices).not_to_contain_text(str(config))
    assert host.errors == []


def test_the_first_player_list_follows_the_names_typed(open_phone: Callable[..., Page],
                                                       served: ServedTable) -> None:
    ana = Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.new_game("Dalek Dice", ["Jenna", "Peter"])
    ana.menu("New game")
    ana.page.locator(".choices").get_by_role("radio", name="17").click()
    ana.page.get_by_role("button", name="Add a player").click()
    rows = ana.page.locator(".player-row input")
    for i, name in enumerate(["Ana", "Ben", "Cleo"]):
        rows.nth(i).fill(name)
    first = ana.page.locator("#first option")
    expect(first).to_have_text(["the first listed", "drawn by lot", "Ana", "Ben", "Cleo"])
    ana.page.select_option("#first", label="Ben")
    rows.nth(1).fill("Bea")
    expect(first).to_have_text(["the first listed", "drawn by lot", "Ana", "Bea", "Cleo"])
    ana.page.select_option("#first", label="Cleo")
    ana.page.locator(".player-row").nth(2).get_by_role("button", name="Move up").click()
    ana.page.once("dialog", lambda dialog: dialog.accept())  # the Dalek game is abandoned
    ana.button("Start")
    expect(ana.page.locator("#board div.turn")).to_have_text("Cleo's turn")
    assert ana.page.evaluate("S.state.header") == {
        "game": "17", "players": ["Ana", "Cleo", "Bea"], "first": "Cleo"}


def test_a_new_game_refused_leaves_the_game_in_progress_on_the_table(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    ana = Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.new_game("Dalek Dice", ["Jenna", "Peter"])
    ana.set_up("17", ["Ana", "Ana"])
    ana.page.once("dialog", lambda dialog: dialog.accept())  # abandon the Dalek game? yes
    ana.button("Start")
    expect(ana.page.locator("#toast")).to_have_text("Two players have the same name: Ana")
    assert ana.page.evaluate("S.state.header") == {"game": "dalek", "players": ["Jenna", "Peter"]}
    ana.page.locator(".player-row input").nth(1).fill("Ben")
    ana.page.once("dialog", lambda dialog: dialog.accept())
    ana.button("Start")
    expect(ana.page.locator("#board div.turn")).to_have_text("Ana's turn")
    [dalek] = Journal(journal_path(served.state)).history("abandoned")
    assert dalek["players"] == ["Jenna", "Peter"]  # abandoned once, by the start that stood


def test_the_new_game_form_follows_the_language_and_the_table(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    ana, ben = Pad(open_phone()), Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.menu("New game")
    ana.page.locator(".player-row input").first.fill("Ana")
    warning = ana.page.locator(".setup .warning")
    expect(warning).to_have_count(0)
    ben.enter_pin(served.pin)
    ben.new_game("Dalek Dice", ["Jenna", "Peter"])  # meanwhile, on another phone
    expect(warning).to_have_text("Starting a new game abandons the one in progress.")
    ana.page.select_option("#lang", "es")
    expect(ana.page.locator(".setup h2")).to_have_text("Nueva partida")
    expect(warning).to_have_text("Empezar una partida nueva abandona la que está en curso.")
    expect(ana.page.locator(".player-row input").first).to_have_value("Ana")  # kept


def test_a_host_link_that_is_not_the_tables_says_so(open_phone: Callable[..., Page],
                                                    served: ServedTable) -> None:
    page = open_phone()
    page.goto(served.url + "/auth/join?token=an-old-link")
    expect(page.locator("#toast")).to_have_text(
        "This host link is not the table's: ask the host for the PIN or a new link.")
    assert page.url == served.url + "/"
    assert page.evaluate("S.auth") is False


def test_the_phones_back_closes_what_is_open_and_stays_on_the_pad(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    turn = jenna.page.locator("#board div.turn")
    jenna.menu("Rules")
    expect(jenna.page.locator("#info-dialog")).to_be_visible()
    jenna.page.go_back()
    expect(jenna.page.locator("#info-dialog")).to_be_hidden()
    expect(turn).to_have_text("Jenna's turn")
    jenna.menu("Finished games")
    expect(turn).to_be_hidden()
    jenna.page.go_back()
    expect(turn).to_have_text("Jenna's turn")
    jenna.page.click("#menu-button")
    expect(jenna.page.locator("#menu")).to_be_visible()
    jenna.page.go_back()
    expect(jenna.page.locator("#menu")).to_be_hidden()
    jenna.menu("New game")
    jenna.button("Cancel")  # closed by a tap: Back then leaves the pad, as with nothing open
    expect(turn).to_have_text("Jenna's turn")
    jenna.page.go_back()
    jenna.page.wait_for_url(lambda url: not url.startswith(served.url))


def test_a_target_left_empty_is_the_games_own_and_a_wrong_one_says_why(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    ana = Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.set_up("Dalek Dice", ["Jenna", "Peter"], target=0)
    ana.button("Start")
    expect(ana.page.locator("#toast")).to_have_text(
        "The target is a whole number from 1 to 10000, not 0")
    ana.page.locator(".options input[type=number]").fill("")
    ana.button("Start")
    expect(ana.page.locator("#board")).to_contain_text("target 60")


def test_an_error_goes_at_the_next_success_and_the_menu_opens_anywhere(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.page.evaluate("act({stop: {}})")
    toast = jenna.page.locator("#toast")
    expect(toast).to_have_text("Jenna has not rolled yet; stop comes after a roll and a keep")
    jenna.tap(*(FACES[f] for f in ("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")))
    expect(toast).to_be_visible()
    jenna.button("Roll 10 dice")
    expect(toast).to_be_hidden(timeout=4000)  # the roll hides it, well before its own 8 s
    jenna.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert jenna.page.evaluate("window.scrollY") > 200
    jenna.page.click("#menu-button")
    menu = jenna.page.locator("#menu")
    expect(menu).to_be_in_viewport()
    expect(menu.get_by_role("button", name="Rules")).to_be_in_viewport()
    jenna.page.keyboard.press("Escape")
    expect(menu).to_be_hidden()


def test_the_pad_is_played_with_the_keyboard_alone(open_phone: Callable[..., Page],
                                                  served: ServedTable) -> None:
    pad = Pad(open_phone())
    pad.enter_pin(served.pin)
    pad.new_game("Dalek Dice", ["Ana", "Ben"])
    page = pad.page
    key = page.locator(".keys").get_by_role("button", name=FACES["H4"], exact=True)
    key.focus()
    for _ in range(3):  # the key keeps the focus as the pad draws the dice chosen
        page.keyboard.press("Enter")
    page.keyboard.press("Space")
    expect(page.locator(".entry .count")).to_have_text("4 of 10")
    expect(key).to_be_focused()
    page.focus("#menu-button")
    page.keyboard.press("Enter")
    expect(page.locator("#menu")).to_be_visible()
    page.keyboard.press("Escape")  # closed: the focus back where it opened
    expect(page.locator("#menu")).to_be_hidden()
    expect(page.locator("#menu-button")).to_be_focused()
    page.keyboard.press("Enter")
    page.locator("#menu button").last.focus()
    page.keyboard.press("Tab")  # out of it, to the page under it: closed, not left open
    expect(page.locator("#menu")).to_be_hidden()


def test_the_join_codes_heading_shows_it_has_the_keyboard_without_the_later_styles(
        open_phone: Callable[..., Page]) -> None:
    # Its focus ring was in later.css, which the join code's screen (drawn by main.js) does
    # not load: the keyboard on its heading showed nowhere
    page = open_phone()
    page.route("**/static/later.css", lambda route: route.abort())
    heading = join_code_by_keyboard(page)
    assert heading.evaluate("(h) => getComputedStyle(h).outlineStyle") == "solid"


def test_a_screen_opened_from_the_menu_takes_the_keyboard_and_gives_it_back_closed(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # It stayed on the Menu button: a screen reader said nothing of the screen opened, and the
    # keyboard had to go through the bar to reach it
    pad = Pad(open_phone())
    pad.enter_pin(served.pin)
    page = pad.page
    for item, heading in [("Finished games", "Finished games"), ("Statistics", "Statistics"),
                          ("Join code (QR)", "Scan this code with a phone to join the table"),
                          ("Resume a game", "Abandoned games"), ("New game", "New game")]:
        page.focus("#menu-button")
        page.keyboard.press("Enter")
        page.locator("#menu").get_by_role("button", name=item, exact=True).focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_focused()
        page.keyboard.press("Tab")  # on into the screen
        assert page.evaluate("document.activeElement.closest('#screen, #join') !== null")
        page.get_by_role("button", name="Cancel" if item == "New game" else "Back").click()
        expect(page.locator("#menu-button")).to_be_focused()


def test_the_bars_controls_are_named_in_the_phones_language(
        open_phone: Callable[..., Page]) -> None:
    page = open_phone(locale="es")
    expect(page.get_by_role("combobox", name="Idioma")).to_be_visible()
    expect(page.get_by_role("button", name="Menú")).to_be_visible()
    page.get_by_role("button", name="Menú").click()
    page.locator("#menu").get_by_role("button", name="Introducir PIN").click()
    expect(page.get_by_role("dialog", name=re.compile("PIN"))).to_be_visible()


def test_a_move_taken_whose_answer_is_lost_is_told_as_such(open_phone: Callable[..., Page],
                                                           served: ServedTable) -> None:
    roll_whose_answer_is_lost(Pad(open_phone()), served)


def roll_whose_answer_is_lost(pad: Pad, served: ServedTable) -> None:
    """The table takes the roll; its answer never reaches the phone (the Wi-Fi dropped it):
    the phone says to check the move is there, and shows it, taken once."""
    pad.enter_pin(served.pin)
    pad.new_game("Dalek Dice", ["Ana", "Ben"])

    def lost(route: Route) -> None:
        route.fetch()  # the table gets it and answers ...
        route.abort("connectionreset")  # ... to no one

    pad.page.route("**/api/action", lost)
    pad.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D2", "DOC", "EXT")
    expect(pad.page.locator("#toast")).to_contain_text("check that your move is there")
    pad.expect_area("Rolled")
    assert Phone(served.url).get("/api/state")[1]["state"]["view"]["actions"] == 1  # taken once


def test_large_text_on_a_small_phone_keeps_names_and_words_whole(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    host = Phone(served.url, pin=served.pin)
    status, body = host.post("/api/game", {"header": {
        "game": "dicy", "players": ["Anastasia", "Bento", "Clara", "Duarte"],
        "mode": "glacial"}, "base_version": 0})
    assert status == 200, body
    host.post("/api/action", {"line": {"roll": [6, 6, 5, 2, 1, 1]},
                              "base_version": body["state"]["version"]})
    for lang in ("it", "es"):
        page = open_phone(viewport={"width": 320, "height": 568}, locale=lang)
        sign_in(page, served.pin)
        expect(page.locator(".choice")).to_have_count(3)
        page.evaluate("document.documentElement.style.fontSize = '36px'")  # twice the text
        expect(page.locator("#board")).to_have_class(re.compile(r"\btall\b"))
        assert page.evaluate("getComputedStyle(document.getElementById('board')).position") \
            == "static", "a board of most of the screen stays on top of the entry"
        cut = page.evaluate("""() => [...document.querySelectorAll('.scores .name, .choice')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
        assert cut == [], f"{lang}: cut at twice the text: {cut}"


def test_a_name_being_typed_keeps_its_place_when_the_roster_arrives(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # A slow table: the players of earlier games come after the form, while a name is typed.
    host = Phone(served.url, pin=served.pin)
    header = {"game": "dalek", "players": ["Jenna", "Peter"], "target": 6}
    _, body = host.post("/api/game", {"header": header, "base_version": 0})
    for line in random_lines(header, 10_000, Random(1)):
        _, body = host.post("/api/action", {"line": line, "base_version": body["state"]["version"]})
    assert body["state"]["view"]["over"]
    ana = Pad(open_phone())
    ana.enter_pin(served.pin)
    held: list[Route] = []
    ana.page.route("**/api/stats", lambda route: held.append(route))
    ana.menu("New game")
    name = ana.page.locator(".player-row input").first
    name.click()
    name.press("Control+A")
    ana.page.keyboard.type("An")
    ana.page.wait_for_function("document.activeElement.value === 'An'")
    for route in held:
        route.continue_()
    expect(ana.page.locator(".roster")).to_be_visible()
    ana.page.keyboard.type("a")  # no tap between: the keyboard stays with the name
    expect(ana.page.locator(".player-row input").first).to_have_value("Ana")
    expect(ana.page.locator(".player-row input").first).to_be_focused()


def test_a_phone_logged_out_on_a_copy_of_it_watches_and_is_asked_for_the_pin_as_it_changes(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # Asked for the PIN and told no, the phone went on showing the entry it could not use
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    log_out_a_copy(jenna.page, served.url)
    jenna.menu("Finished games")  # anyone may watch: no PIN asked
    expect(jenna.page.locator(".history")).to_contain_text("No finished games yet.")
    jenna.menu("Score pad")
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    expect(jenna.page.locator("#pin-dialog")).to_be_visible()
    jenna.page.click("#pin-cancel")
    expect(jenna.page.locator(".watch")).to_contain_text("Enter PIN")
    expect(jenna.page.locator(".entry")).to_have_count(0)
    jenna.page.get_by_role("button", name="Enter PIN", exact=True).click()
    jenna.page.fill("#pin-input", served.pin)
    jenna.page.click("#pin-ok")
    jenna.button("Roll 10 dice")  # the dice chosen before are still there
    jenna.expect_area("Rolled")
    assert jenna.errors == []
