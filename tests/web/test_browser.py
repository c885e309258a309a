"""End to end: two phones (Chromium, 360 px wide) on one table served by ``dicetable serve``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from device.state_dir import journal_path

if TYPE_CHECKING:
    from dicetable.child import ServedTable

pytestmark = pytest.mark.browser

PAGE_WEIGHT_LIMIT = 100 * 1024


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
        self.page.fill("#pin-input", pin)
        self.page.click("#pin-ok")
        expect(self.page.locator("#pin-dialog")).not_to_be_visible()

    def i_am(self, name: str) -> None:
        self.page.click("#menu-button")
        self.page.select_option("#me", name)
        self.page.click("#menu-button")

    def new_game(self, game: str, players: list[str], target: int | None = None,
                 first: str | None = None) -> None:
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
        self.page.get_by_role("button", name="Start", exact=True).click()
        expect(self.page.locator(".players li")).to_have_count(len(players))

    def tap(self, *labels: str) -> None:
        keys = self.page.locator(".keys")
        for label in labels:
            keys.get_by_role("button", name=label, exact=True).click()

    def button(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()

    def choose(self, name: str) -> None:
        self.page.get_by_role("radio", name=name, exact=True).click()

    def roll(self, *faces: str) -> None:
        self.tap(*faces)
        self.button(f"Roll {len(faces)} dice")

    def keep(self, *positions: int) -> None:
        toggles = self.page.locator(".entry .toggle")
        for position in positions:
            toggles.nth(position).click()
        self.button(f"Keep {len(positions)}")

    def expect_area(self, text: str) -> None:
        expect(self.page.locator(".area")).to_contain_text(text)

    def score_of(self, player: str) -> str:
        row = self.page.locator(".players li", has_text=player)
        return row.locator(".total").inner_text()


def test_two_phones_follow_a_whole_dalek_turn_live(open_phone: Callable[..., Page],
                                                   served: ServedTable) -> None:
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    expect(peter.page.locator(".banner")).to_contain_text("Jenna's turn")
    peter.i_am("Peter")

    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    peter.expect_area("Rolled")
    expect(peter.page.locator(".area .line", has_text="Rolled").locator(".chip")).to_have_count(10)

    jenna.keep(0, 1, 2, 5, 6, 7)
    peter.expect_area("Humans 12")
    peter.expect_area("Daleks 9")
    expect(peter.page.locator(".area .f-DOC")).to_have_count(1)

    jenna.roll("D3", "D2", "EXT")
    peter.expect_area("Rolled")
    jenna.keep(0, 1)

    expect(peter.page.locator(".banner")).to_have_text("Your turn, Peter!")
    expect(peter.page.locator(".players li", has_text="Jenna").locator(".total")).to_have_text("17")
    expect(peter.page.locator(".grid tbody td").first).to_contain_text("17")
    expect(jenna.page.locator(".banner")).to_have_text("Peter's turn")
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
        corrector.locator(".tray .chip").last.click()
    expect(corrector.locator(".tray .chip")).to_have_count(1)
    corrector.get_by_role("button", name="Replace").click()
    expect(jenna.page.locator("#toast")).to_contain_text("action 3")
    jenna.expect_area("Humans 12")


def test_both_phones_come_back_after_the_server_is_killed(open_phone: Callable[..., Page],
                                                         served: ServedTable) -> None:
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 1, 2, 5, 6, 7)
    peter.expect_area("Humans 12")
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


def test_the_first_load_is_light_and_fits_a_small_phone(open_phone: Callable[..., Page],
                                                        served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    page = open_phone()
    expect(page.locator(".players li")).to_have_count(2)
    weight = page.evaluate("""() => {
        const nav = performance.getEntriesByType("navigation")[0];
        return performance.getEntriesByType("resource")
            .reduce((sum, r) => sum + r.decodedBodySize, nav.decodedBodySize);
    }""")
    print(f"\nscore pad first load: {weight} bytes uncompressed")
    assert weight <= PAGE_WEIGHT_LIMIT
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


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
    expect(ben.page.locator(".grid tbody tr")).to_have_count(1)
    expect(ben.page.locator(".grid tbody td").nth(2)).to_have_text("12")
    expect(ben.page.locator(".players li", has_text="Cleo").locator(".total")).to_have_text("★1 ✖0")
    expect(ben.page.locator(".players li", has_text="Ana").locator(".total")).to_have_text("★0 ✖1")
    expect(ben.page.locator(".banner")).to_have_text("Cleo's turn")
    assert ana.errors == [] and ben.errors == []


def test_a_face_down_card_stays_hidden_in_the_list_and_is_corrected_anew(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    ana, ben = Pad(open_phone()), Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.new_game("17", ["Ana", "Ben", "Cleo"], first="drawn by lot")
    first = ben.page.evaluate("S.state.header.first")
    assert first in ("Ana", "Ben", "Cleo")
    expect(ben.page.locator(".banner")).to_have_text(f"{first}'s turn")
    ana.choose("Face down")
    ana.tap("Trap")
    row = ben.page.locator(".area .card17")
    expect(row.locator("b")).to_have_text(["?"])

    ben.page.locator(".actions summary").click()
    expect(ben.page.locator(".lines li")).to_have_text(["Play down"])
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
    expect(ben.page.locator(".lines li")).to_have_text(["Play 5 · up"])
    assert ana.errors == [] and ben.errors == []


def test_a_dicy_turn_with_a_reroll_a_score_and_an_effect(open_phone: Callable[..., Page],
                                                         served: ServedTable) -> None:
    ana, ben = Pad(open_phone()), Pad(open_phone())
    ana.enter_pin(served.pin)
    ana.new_game("Dicy Cards", ["Ana", "Ben"])
    ana.tap("6", "6", "5", "2", "1", "1")
    ana.button("Roll 6 dice")
    expect(ben.page.locator(".area .chip.pip")).to_have_count(6)

    ana.page.get_by_role("tab", name="Reroll").click()
    ana.page.locator(".entry .tray").first.get_by_role("button", name="Odd").click()
    toggles = ana.page.locator(".entry .toggle.pip")
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
    expect(ben.page.locator(".banner")).to_have_text("Ben's turn")
    expect(ben.page.locator(".players li", has_text="Ana").locator(".total")).to_have_text("12")
    expect(ben.page.locator(".cards-row", has_text="Ben").locator(".frozen")).to_have_text(
        ["❄ Straight"])


def test_the_end_of_a_game_shows_the_winner_and_offers_a_rematch(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna, peter = Pad(open_phone()), Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"], target=10)
    jenna.roll("H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC")
    jenna.keep(0, 1, 2, 5, 6, 7)
    jenna.roll("D3", "D2", "EXT")
    jenna.keep(0, 1)
    jenna.roll(*["D3"] * 10)
    jenna.keep(0)
    jenna.button("Stop and bank")

    for pad in (jenna, peter):
        expect(pad.page.locator(".banner.winner")).to_have_text("Jenna wins!")
        expect(pad.page.locator(".summary")).to_contain_text("Game over")
    links = peter.page.locator(".summary a")
    expect(links).to_have_count(2)
    assert links.first.get_attribute("href", timeout=1000) == "/export/1.jsonl"
    expect(peter.page.locator(".summary")).to_contain_text("games won: 1")

    jenna.button("Rematch")
    expect(peter.page.locator(".banner")).to_have_text("Jenna's turn")
    expect(peter.page.locator(".players li .total")).to_have_text(["0", "0"])


def test_a_phone_switches_to_spanish_and_hears_the_engine_in_spanish(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    jenna = Pad(open_phone())
    jenna.enter_pin(served.pin)
    jenna.new_game("Dalek Dice", ["Jenna", "Peter"])
    jenna.page.select_option("#lang", "es")
    expect(jenna.page.locator(".banner")).to_have_text("Turno de Jenna")
    expect(jenna.page.locator(".entry h3")).to_have_text("¿Qué han sacado los 10 dados?")
    jenna.page.evaluate("act({stop: {}})")
    expect(jenna.page.locator("#toast")).to_have_text(
        "Jenna aún no ha tirado; plantarse viene después de tirar y guardar")
    jenna.page.reload()
    expect(jenna.page.locator(".banner")).to_have_text("Turno de Jenna")


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
    expect(peter.page.locator("#moment")).to_have_text("EXTERMINATE!")
    expect(peter.page.locator(".grid tbody td").first).to_contain_text("8 EXT")


def test_the_host_is_told_on_the_page_when_the_journal_was_damaged(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    served.stop()
    journal_path(served.state).write_bytes(b"\x00not a database" * 500)
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
