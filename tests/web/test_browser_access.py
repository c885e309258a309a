"""The score pad for every player (Chromium): a 320 px phone, twice the text, the keyboard
alone, a screen reader, Windows high contrast (forced colours); a TV (the kiosk) is
test_browser_kiosk's."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect

from engine.dicy_cards import Card as DicyCard
from engine.selfplay import random_lines
from tests.web.conftest import log_out_a_copy, sign_in
from tests.web.tour import DALEK_ROLL
from web.client import Phone

if TYPE_CHECKING:
    from dicetable.child import ServedTable

pytestmark = pytest.mark.browser

LANGS = ("en", "es", "it", "pt")
SMALL = {"viewport": {"width": 320, "height": 568}}


def host(served: ServedTable) -> Phone:
    """A phone with the PIN, outside the browser: it sets the table up."""
    return Phone(served.url, pin=served.pin)


def play(phone: Phone, header: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    """A new game (any game in progress abandoned) and its actions, all taken: the last view."""
    _, body = phone.get("/api/state")
    state = body["state"]
    if state["view"] and not state["view"]["over"]:
        status, body = phone.post("/api/abandon", {"base_version": state["version"]})
        assert status == 200, body
        state = body["state"]
    status, body = phone.post("/api/game", {"header": header, "base_version": state["version"]})
    for line in lines:
        assert status == 200, body
        status, body = phone.post("/api/action", {"line": line,
                                                  "base_version": body["state"]["version"]})
    assert status == 200, body
    view: dict[str, Any] = body["state"]["view"]
    view["version"] = body["state"]["version"]
    return view


def with_pin(page: Page, served: ServedTable) -> Page:
    """The page, once its phone has entered the PIN."""
    sign_in(page, served.pin)
    return page


def shows(page: Page, version: int) -> None:
    """Wait until the page shows the table's state ``version``."""
    page.wait_for_function("v => S.state.version >= v", arg=version)


def test_my_name_is_whole_beside_its_badge_and_crown_on_a_320_px_phone(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    header = {"game": "dalek", "players": ["Jenna", "Peter"], "target": 20}
    view = play(host(served), header, random_lines(header, 10_000, Random(1)))
    assert view["over"]
    winner = view["winners"][0]
    for lang in LANGS:
        page = open_phone(**SMALL, locale=lang)
        page.evaluate("me => { localStorage.setItem('me', me); location.reload(); }", winner)
        expect(page.locator(".scores .me")).to_have_count(1)
        expect(page.locator(".scores .crown")).to_have_count(1)
        names = page.evaluate("""() => [...document.querySelectorAll('.scores .name')].map((e) => {
            const text = [...e.childNodes].find((n) => n.nodeType === 3 && n.data.trim());
            const words = document.createRange();
            words.selectNodeContents(text);
            const box = e.closest('li').getBoundingClientRect(), total = e.nextElementSibling;
            return {name: text.data, cut: e.scrollWidth > e.clientWidth + 1,
                    lines: words.getClientRects().length,
                    totalInside: total.getBoundingClientRect().right <= box.right + 1};
        })""")
        assert [n["name"] for n in names] == ["Jenna", "Peter"]
        for n in names:
            assert not n["cut"] and n["lines"] == 1 and n["totalInside"], f"{lang}: {n}"


def test_every_dicy_card_name_stays_inside_its_card_on_a_320_px_phone(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    cards = [c.value for c in DicyCard]
    rows = [cards[0:5], cards[5:10], cards[10:] + cards[:5 - len(cards[10:])]]
    phone = host(served)
    pages = {lang: open_phone(**SMALL, locale=lang) for lang in LANGS}
    for row in rows:
        view = play(phone, {"game": "dicy", "players": ["Ana", "Ben"], "cards": row}, [])
        for lang, page in pages.items():
            shows(page, view["version"])
            out = page.evaluate("""() => [...document.querySelectorAll('.area .dcard')]
                .flatMap((card) => [card, ...card.children])
                .filter((e) => e.scrollWidth > e.clientWidth + 1)
                .map((e) => e.textContent.replace(/\\u00ad/g, ''))""")
            assert out == [], f"{lang}: out of their cards: {out}"


def test_at_twice_the_text_dicy_card_names_are_twice_as_big_and_inside_their_cards(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    cards = [c.value for c in DicyCard]
    rows = [cards[0:5], cards[5:10], cards[10:] + cards[:5 - len(cards[10:])]]
    phone = host(served)
    pages = {lang: open_phone(**SMALL, locale=lang) for lang in LANGS}
    names = """() => [...document.querySelectorAll('.area .dcard b')].map((e) => ({
        name: e.textContent.replace(/\\u00ad/g, ''), size: parseFloat(getComputedStyle(e).fontSize),
        out: e.scrollWidth > e.clientWidth + 1 || e.closest('.dcard').scrollWidth
            > e.closest('.dcard').clientWidth + 1}))"""
    for row in rows:
        view = play(phone, {"game": "dicy", "players": ["Ana", "Ben"], "cards": row}, [])
        for lang, page in pages.items():
            shows(page, view["version"])
            page.evaluate("document.documentElement.style.fontSize = ''")
            normal = page.evaluate(names)
            page.evaluate("document.documentElement.style.fontSize = '36px'")  # twice the text
            large = page.evaluate(names)
            assert len(large) == len(normal) == 10
            for before, after in zip(normal, large, strict=True):
                assert after["size"] >= 2 * before["size"] - 0.1, f"{lang}: {before} {after}"
                assert not after["out"], f"{lang}: out of its card: {after}"
            assert page.evaluate("document.documentElement.scrollWidth") <= 320, lang


@pytest.mark.parametrize(("header", "lines"), [
    ({"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana", "target": 1},
     [{"play": {"card": "3d", "face": "down"}}, {"play": {"face": "down"}},
      {"play": {"card": "reverse", "face": "up"}}, {"call": ["Ana"]}]),  # 0 of 1 to turn over
    ({"game": "dalek", "players": ["Jenna", "Peter"]}, [])], ids=["17", "dalek"])  # 0 of 10
def test_tap_below_to_add_and_its_count_share_one_line_on_a_320_px_phone(
        open_phone: Callable[..., Page], served: ServedTable, header: dict[str, Any],
        lines: list[dict[str, Any]]) -> None:
    view = play(host(served), header, lines)
    for lang in LANGS:
        page = with_pin(open_phone(**SMALL, locale=lang), served)
        shows(page, view["version"])
        tray = page.evaluate("""() => {
            const tray = document.querySelector('.picker .tray');
            const hint = tray.querySelector('.muted'), count = tray.querySelector('.count');
            const words = document.createRange();
            words.selectNodeContents(hint);
            const lines = new Set([...words.getClientRects()].map((r) => Math.round(r.top)));
            const box = (e) => e.getBoundingClientRect();
            return {hint: hint.textContent, count: count.textContent, hintLines: lines.size,
                    countBeside: box(count).top < box(hint).bottom
                        && box(count).right <= box(tray).right + 1};
        }""")
        assert tray["hintLines"] == 1 and tray["countBeside"], f"{lang}: on two lines: {tray}"


def test_radios_and_tabs_move_with_the_arrow_keys_and_tab_reaches_only_the_chosen_one(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    phone = host(served)
    play(phone, {"game": "17", "players": ["Ana", "Ben", "Cleo"]}, [])
    page = with_pin(open_phone(), served)
    up = page.get_by_role("radio", name="Face up")
    down = page.get_by_role("radio", name="Face down")
    down.click()
    expect(down).to_have_attribute("aria-checked", "true")
    page.evaluate("document.querySelector('.play17 h3').tabIndex = -1")
    page.focus(".play17 h3")
    page.keyboard.press("Tab")  # into the group: to the radio chosen
    expect(down).to_be_focused()
    page.keyboard.press("ArrowRight")  # round to the first
    expect(up).to_have_attribute("aria-checked", "true")
    expect(up).to_be_focused()  # kept as the pad draws the choice
    expect(page.get_by_role("button", name="Face down, not known yet")).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    expect(down).to_have_attribute("aria-checked", "true")
    expect(down).to_be_focused()
    expect(page.get_by_role("button", name="Face down, not known yet")).to_be_visible()
    page.keyboard.press("ArrowDown")
    expect(up).to_have_attribute("aria-checked", "true")
    expect(up).to_be_focused()
    page.keyboard.press("Tab")  # out of the group, past the radio not chosen
    assert page.evaluate("document.activeElement.getAttribute('role')") != "radio"
    page.keyboard.press("Shift+Tab")
    expect(up).to_be_focused()

    view = play(phone, {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"},
                [{"roll": [6, 6, 5, 2, 1, 1]}])
    shows(page, view["version"])
    tabs = page.get_by_role("tab")
    expect(tabs).to_have_count(3)
    assert page.evaluate("[...document.querySelectorAll('[role=tab]')].map((e) => e.tabIndex)") \
        == [0, -1, -1]
    tabs.nth(0).focus()
    page.keyboard.press("ArrowLeft")  # round to the last
    expect(tabs.nth(2)).to_have_attribute("aria-selected", "true")
    expect(tabs.nth(2)).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(tabs.nth(0)).to_have_attribute("aria-selected", "true")
    expect(tabs.nth(0)).to_be_focused()

    page.click("#menu-button")
    page.locator("#menu").get_by_role("button", name="New game").click()
    games = page.locator(".setup [role=radio]")
    checked = page.locator(".setup [role=radio][aria-checked=true]")
    first = checked.inner_text()
    checked.focus()
    page.keyboard.press("ArrowRight")
    expect(checked).not_to_have_text(first)
    expect(checked).to_be_focused()
    assert games.evaluate_all("rs => rs.filter((r) => r.tabIndex === 0).length") == 1


def test_a_turn_change_is_said_once_by_a_live_region_that_stays(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    phone = host(served)
    play(phone, {"game": "dalek", "players": ["Jenna", "Peter"]}, [])
    page = with_pin(open_phone(), served)
    live = ("[aria-live=polite], [aria-live=assertive], [role=status], [role=alert], "
            "[role=log]")
    said = page.locator(live).filter(has_text="Jenna's turn")
    expect(said).to_have_count(1)
    page.evaluate("""live => {
        window.said = [...document.querySelectorAll(live)]
            .find((e) => e.textContent.includes("turn"));
        window.changes = 0;
        new MutationObserver((m) => { window.changes += m.length; })
            .observe(window.said, {childList: true, subtree: true, characterData: true});
    }""", live)
    for _ in range(3):  # the pad drawn again and again, the turn the same
        page.locator(".keys").get_by_role("button", name="4 humans", exact=True).click()
    _, body = phone.get("/api/state")
    status, body = phone.post("/api/action", {"line": {"roll": DALEK_ROLL},
                                              "base_version": body["state"]["version"]})
    assert status == 200, body
    shows(page, body["state"]["version"])
    assert page.evaluate("window.changes") == 0
    assert page.evaluate("window.said.isConnected")
    status, body = phone.post("/api/action", {"line": {"keep": ["H4", "H4", "D3"]},
                                              "base_version": body["state"]["version"]})
    status, body = phone.post("/api/action", {"line": {"stop": {}},
                                              "base_version": body["state"]["version"]})
    assert status == 200, body
    shows(page, body["state"]["version"])
    assert page.evaluate("[window.said.isConnected, window.said.textContent.trim()]") \
        == [True, "Peter's turn"]
    assert page.evaluate("window.changes") == 1
    expect(page.locator(live).filter(has_text="turn")).to_have_count(1)


def test_in_forced_colours_the_choice_that_is_on_has_a_mark_besides_colour(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    play(host(served), {"game": "17", "players": ["Ana", "Ben"]}, [])
    page = with_pin(open_phone(forced_colors="active"), served)
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    expect(page.locator(".entry [role=radio]")).to_have_count(2)
    marks = """e => { const s = getComputedStyle(e);
        return [s.outlineStyle, s.outlineWidth, s.borderStyle, s.borderWidth].join(" "); }"""
    on = page.locator(".entry [aria-checked=true]")
    off = page.locator(".entry [aria-checked=false]")
    assert on.evaluate(marks) != off.evaluate(marks)
    assert not on.evaluate(marks).startswith("none"), "the mark is not an outline"
    page.keyboard.press("Shift")  # the keyboard in use: the focus is shown
    off.focus()
    focused_off = off.evaluate(marks)
    on.focus()
    assert on.evaluate(marks) != focused_off, "focused, the choice on looks as one off"


def test_at_twice_the_text_the_bars_controls_stay_in_the_bar(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    play(host(served), {"game": "dalek", "players": ["Jenna", "Peter"]}, [])
    for lang in LANGS:
        page = open_phone(**SMALL, locale=lang)
        expect(page.locator(".scores li")).to_have_count(2)
        page.evaluate("document.documentElement.style.fontSize = '36px'")  # twice the text
        out = page.evaluate("""() => {
            const bar = document.querySelector('.bar').getBoundingClientRect();
            return [...document.querySelectorAll('.bar button, .bar select, .bar .conn')]
                .map((e) => [e.id, e.getBoundingClientRect()])
                .filter(([, r]) => r.top < bar.top - 0.5 || r.bottom > bar.bottom + 0.5
                        || r.left < bar.left - 0.5 || r.right > bar.right + 0.5)
                .map(([id, r]) => `${id} ${r.top}-${r.bottom} of ${bar.top}-${bar.bottom}`);
        }""")
        assert out == [], f"{lang}: out of the bar: {out}"


def test_at_twice_the_text_the_menus_words_stay_in_their_buttons_on_a_320_px_phone(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # the menu, taller than the screen, squeezed its items to 48 px: their lines overlapped
    play(host(served), {"game": "dalek", "players": ["Jenna", "Peter"]}, [])
    for lang in LANGS:
        page = with_pin(open_phone(**SMALL, locale=lang), served)
        expect(page.locator(".scores li")).to_have_count(2)
        page.evaluate("document.documentElement.style.fontSize = '36px'")  # twice the text
        page.click("#menu-button")
        expect(page.locator("#menu")).to_be_visible()
        spilled = page.evaluate("""() => [...document.querySelectorAll('#menu > *')]
            .filter((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)
            .map((e) => e.textContent)""")
        assert spilled == [], f"{lang}: words out of their menu item: {spilled}"


def test_a_dicy_score_sheet_of_three_players_fits_a_320_px_phone(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    header = {"game": "dicy", "players": ["Ana", "Bento", "Clara"],
              "cards": ["distinct-x4", "distinct-sum", "lowest-three", "two-pairs", "straight"]}
    view = play(host(served), header, random_lines(header, 40, Random(1)))
    assert {r["card"] for r in view["results"]} >= {"distinct-x4", "lowest-three", "two-pairs"}
    for lang in LANGS:
        page = open_phone(**SMALL, locale=lang)
        shows(page, view["version"])
        sheet = page.locator(".scroll")
        expect(sheet.locator("tbody tr")).to_have_count(view["round"])
        widths = sheet.evaluate("""e => ({page: document.documentElement.scrollWidth,
            sheet: e.scrollWidth, box: e.clientWidth})""")
        assert widths["page"] <= 320, f"{lang}: the page scrolls sideways: {widths}"
        assert widths["sheet"] <= widths["box"] + 1, f"{lang}: a side scroll: {widths}"


@pytest.mark.parametrize("game", ["17", "dalek"])
def test_a_long_name_keeps_its_colour_dot_on_its_line_on_a_320_px_phone(
        open_phone: Callable[..., Page], served: ServedTable, game: str) -> None:
    header = {"game": game, "players": ["Massimiliano", "Anastasia", "Bartholomew", "Clementine",
                                        "Ana"]}
    view = play(host(served), header, random_lines(header, 12, Random(2)))
    for lang in LANGS:
        page = open_phone(**SMALL, locale=lang)
        shows(page, view["version"])
        names = page.evaluate("""() => [...document.querySelectorAll('.scores .name')].map((e) => {
            const dot = e.querySelector('.swatch').getBoundingClientRect();
            const text = [...e.childNodes].find((n) => n.nodeType === 3 && n.data.trim());
            const words = document.createRange();
            words.selectNodeContents(text);
            const lines = words.getClientRects(), middle = (dot.top + dot.bottom) / 2;
            return {name: text.data.trim(), lines: lines.length,
                    dotOnItsLine: lines[0].top <= middle && middle <= lines[0].bottom};
        })""")
        assert len(names) == 5
        for n in names:
            assert n["dotOnItsLine"] and n["lines"] == 1, f"{lang}: {n}"


def test_the_dicy_tabs_control_a_tab_panel_labelled_by_the_chosen_tab(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    view = play(host(served), {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"},
                [{"roll": [6, 6, 5, 2, 1, 1]}])
    page = with_pin(open_phone(), served)
    shows(page, view["version"])
    tabs = page.get_by_role("tab")
    expect(tabs).to_have_count(3)
    for i, (tab, shown) in enumerate([("Reroll", "Tap the dice to reroll"), ("Skip", "Skip"),
                                      ("Score", "Which card?")]):
        page.get_by_role("tab", name=tab).click()
        panel = page.get_by_role("tabpanel", name=tab)
        expect(panel).to_have_count(1)
        expect(panel).to_contain_text(shown)
        panel_id = panel.get_attribute("id")
        controls = tabs.evaluate_all("ts => ts.map((t) => t.getAttribute('aria-controls'))")
        assert panel_id and controls == [panel_id] * 3, f"tab {i}"
        assert not panel.locator("[role=tab]").count(), "the tabs are not inside their panel"


def test_the_statistics_fit_a_320_px_phone(open_phone: Callable[..., Page],
                                           served: ServedTable) -> None:
    phone = host(served)
    for header in ({"game": "dalek", "players": ["Jenna", "Peter"], "target": 20},
                   {"game": "17", "players": ["Cleo", "Ana", "Ben"], "target": 1}):
        assert play(phone, header, random_lines(header, 10_000, Random(1)))["over"]
    for lang in LANGS:
        page = open_phone(**SMALL, locale=lang)
        page.evaluate("openStats()")
        expect(page.locator(".stats .grid")).to_have_count(2)
        out = page.evaluate("""() => [...document.querySelectorAll('.stats .scroll')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1)
            .map((e) => `${e.scrollWidth} in ${e.clientWidth}`)""")
        assert out == [], f"{lang}: the statistics need a side scroll: {out}"
        assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_the_set_up_players_placeholders_are_whole_on_a_320_px_phone(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    for lang in LANGS:
        page = with_pin(open_phone(**SMALL, locale=lang), served)
        page.evaluate("openSetup()")
        expect(page.locator(".player-row input")).to_have_count(2)
        cut = page.evaluate("""() => [...document.querySelectorAll('.player-row input')]
            .map((e) => {
                const s = getComputedStyle(e), words = getComputedStyle(e, '::placeholder');
                const pen = document.createElement('canvas').getContext('2d');
                pen.font = `${words.fontWeight} ${words.fontSize} ${words.fontFamily}`;
                const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
                return [e.placeholder, pen.measureText(e.placeholder).width, room];
            }).filter(([, text, room]) => text > room)""")
        assert cut == [], f"{lang}: placeholders cut: {cut}"


def test_the_text_size_set_in_the_browser_reaches_the_pad(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    play(host(served), {"game": "dalek", "players": ["Jenna", "Peter"]}, [])
    page = open_phone(**SMALL)
    turn = page.locator("#board div.turn")
    expect(turn).to_have_text("Jenna's turn")
    usual = turn.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")
    page.context.new_cdp_session(page).send(  # the browser's settings: text twice the usual
        "Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    page.reload()
    expect(turn).to_have_text("Jenna's turn")
    grown = turn.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")
    assert grown >= 1.9 * usual, f"text set twice as large: whose turn at {grown} px, not {usual}"


def test_the_bars_menu_and_language_are_targets_a_finger_hits_on_a_phone(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # both were 40 px tall: under the 44 × 44 px of a finger's tap
    play(host(served), {"game": "dalek", "players": ["Jenna", "Peter"]}, [])
    words = {"en": ("Menu", "Language"), "es": ("Menú", "Idioma"), "it": ("Menu", "Lingua"),
             "pt": ("Menu", "Idioma")}
    for lang, (menu, language) in words.items():
        page = open_phone(**SMALL, locale=lang)
        expect(page.locator(".scores li")).to_have_count(2)
        bar = page.locator(".bar").bounding_box()
        for control in (page.get_by_role("button", name=menu),
                        page.get_by_role("combobox", name=language)):
            box = control.bounding_box()
            assert bar and box and box["width"] >= 44 and box["height"] >= 44, f"{lang}: {box}"
            assert bar["y"] <= box["y"] and box["y"] + box["height"] <= bar["y"] + bar["height"]


def test_a_dialog_opened_from_the_menu_gives_the_keyboard_back_to_the_menu_button(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # opened from the menu (the PIN, the rules), a dialog closed left the keyboard on the page's
    # body: Tab began again at the top of the page
    phone = host(served)
    view = play(phone, {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}, [])
    page = open_phone()
    shows(page, view["version"])
    menu = page.get_by_role("button", name="Menu")
    for item, dialog in (("Enter PIN", "#pin-dialog"), ("Rules", "#info-dialog")):
        menu.focus()
        page.keyboard.press("Enter")
        page.locator("#menu").get_by_role("button", name=item).focus()
        page.keyboard.press("Enter")
        expect(page.locator(dialog)).to_have_attribute("open", "")
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).not_to_have_attribute("open", "")
        expect(menu).to_be_focused()


def test_the_pin_asked_of_a_phone_logged_out_elsewhere_cancelled_gives_the_keyboard_to_enter_pin(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # the phone is drawn as watching as the PIN is asked: the Undo pressed was gone, and the
    # dialog cancelled left the keyboard on the page's body
    phone = host(served)
    view = play(phone, {"game": "dalek", "players": ["Ana", "Ben"]}, [{"roll": DALEK_ROLL}])
    page = with_pin(open_phone(), served)
    shows(page, view["version"])
    log_out_a_copy(page, served.url)
    page.get_by_role("button", name="Undo", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#pin-dialog")).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(page.locator("#pin-dialog")).not_to_have_attribute("open", "")
    enter_pin = page.locator(".watch").get_by_role("button", name="Enter PIN", exact=True)
    expect(enter_pin).to_be_focused()



def test_a_cards_text_closed_gives_the_keyboard_back_to_the_card_drawn_again_meanwhile(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # another phone's roll drew the cards again under the dialog: the card that opened it was
    # gone, and the keyboard was left on the page's body
    phone = host(served)
    view = play(phone, {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}, [])
    page = open_phone()
    shows(page, view["version"])
    card = page.locator(".area .dcard").first
    name = card.get_attribute("aria-label")
    card.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#info-dialog")).to_have_attribute("open", "")
    status, body = phone.post("/api/action", {"line": {"roll": [6, 6, 5, 2, 1, 1]},
                                              "base_version": view["version"]})
    assert status == 200, body
    shows(page, body["state"]["version"])  # the cards are drawn again under the dialog
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name=name, exact=True).first).to_be_focused()


def test_tokens_a_crown_and_a_dalek_turns_end_shown_as_pictures_are_said_in_words(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # a screen reader said "black star 1 heavy multiplication x 0" for a 17 player's tokens,
    # "black star" for the winner's crown, and nothing of an Exterminate that ended a turn
    phone = host(served)
    said = {"en": ("1 victory token", "1 penalty token", "winner", "Exterminate!"),
            "es": ("1 ficha de victoria", "1 ficha de penalización", "ganador", "¡Exterminar!"),
            "it": ("1 gettone vittoria", "1 penalità", "vincitore", "Sterminare!"),
            "pt": ("1 ficha de vitória", "1 ficha de penalização", "vencedor", "Exterminar!")}
    pages = {lang: open_phone(locale=lang) for lang in said}
    view = play(phone, {"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana",
                        "target": 1},
                [{"play": {"card": "3d", "face": "down"}}, {"play": {"face": "down"}},
                 {"play": {"card": "reverse", "face": "up"}}, {"call": ["Ana"]},
                 {"reveal": ["4"]}])
    assert view["over"]
    for lang, (victory, penalty, winner, _) in said.items():
        page = pages[lang]
        shows(page, view["version"])
        unsaid = page.evaluate("""() => {  // ★ and ✖ read out as characters, not as an image
            const found = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                const at = n.parentElement;
                if (at.closest('#board, .summary, .grid') && /[★✖]/.test(n.data)
                    && !at.closest('[role=img]')) found.push(n.data);
            }
            return found;
        }""")
        assert unsaid == [], f"{lang}: {unsaid}"
        board = page.locator("#board .scores")
        expect(board.get_by_role("img", name=victory, exact=False)).not_to_have_count(0)
        expect(board.get_by_role("img", name=penalty, exact=False)).not_to_have_count(0)
        expect(board.get_by_role("img", name=winner)).to_have_count(1)

    view = play(phone, {"game": "dalek", "players": ["Jenna", "Peter"]},
                [{"roll": ["EXT"] + ["H4"] * 9}, {"keep": ["H4"]},
                 {"roll": ["EXT"] + ["D3"] * 7}, {"keep": ["D3"]},
                 {"roll": ["EXT"] + ["H2"] * 5}, {"keep": []}])
    for lang, (*_, exterminate) in said.items():
        page = pages[lang]
        shows(page, view["version"])
        expect(page.locator(".grid").get_by_role("img", name=exterminate)).to_have_count(1)


SAID = """e => {  // the text a screen reader reads: all but what is hidden from it
    const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    let said = "";
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (!n.parentElement.closest('[aria-hidden=true]')) said += n.data;
    }
    return said.trim();
}"""


def test_17s_tokens_in_the_story_and_the_moment_shown_big_are_said_in_words(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # a screen reader said "7 < 17 → Ana heavy multiplication x, Cleo black star" of a round
    # scored, in the story and in the moment shown big
    phone = host(served)
    tokens = {"en": "Ana: 1 penalty token, Cleo: 1 victory token",
              "es": "Ana: 1 ficha de penalización, Cleo: 1 ficha de victoria",
              "it": "Ana: 1 penalità, Cleo: 1 gettone vittoria",
              "pt": "Ana: 1 ficha de penalização, Cleo: 1 ficha de vitória"}
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana", "target": 1}
    plays = [{"play": {"card": "3d", "face": "down"}}, {"play": {"face": "down"}},
             {"play": {"card": "reverse", "face": "up"}}, {"call": ["Ana"]}]
    before = play(phone, header, plays)
    pages = {lang: open_phone(locale=lang) for lang in tokens}
    for page in pages.values():
        shows(page, before["version"])
        page.wait_for_function("v => S.record && S.record.version >= v", arg=before["version"])
    status, body = phone.post("/api/action", {"line": {"reveal": ["4"]},
                                              "base_version": before["version"]})
    assert status == 200, body
    for lang, words in tokens.items():
        page = pages[lang]
        newest = page.locator(".story li").first
        expect(newest).to_contain_text("7 < 17 → Ana ✖, Cleo ★")  # seen as it was
        assert newest.evaluate(SAID).endswith(f"7 < 17 → {words}"), lang
        moment = page.locator("#moment")
        expect(moment).to_contain_text("7 < 17 → Ana ✖, Cleo ★")
        assert moment.evaluate(SAID) == f"7 < 17 → {words}", lang


def test_17s_tokens_taken_back_by_undo_are_said_in_words_in_its_toast(
        open_phone: Callable[..., Page], served: ServedTable) -> None:
    # the toast (role=alert) said "Undone: … 7 < 17 → Ana heavy multiplication x, Cleo black
    # star" of a scored round taken back, as did the list of actions of its entry
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana", "target": 3}
    plays = [{"play": {"card": "3d", "face": "down"}}, {"play": {"face": "down"}},
             {"play": {"card": "reverse", "face": "up"}}, {"call": ["Ana"]},
             {"reveal": ["4"]}]
    view = play(host(served), header, plays)
    page = with_pin(open_phone(), served)
    shows(page, view["version"])
    page.wait_for_function("v => S.record && S.record.version >= v", arg=view["version"])
    page.locator("details.actions summary").click()  # the actions list says them too
    entry = page.locator("details.actions ol.lines li").last
    expect(entry).to_contain_text("7 < 17 → Ana ✖, Cleo ★")  # seen as it was
    assert "7 < 17 → Ana: 1 penalty token, Cleo: 1 victory token" in entry.evaluate(SAID)
    page.get_by_role("button", name="Undo", exact=True).click()
    toast = page.locator("#toast")
    expect(toast).to_contain_text("Undone: ")
    assert toast.evaluate(SAID).endswith(
        "7 < 17 → Ana: 1 penalty token, Cleo: 1 victory token"), toast.inner_text()
