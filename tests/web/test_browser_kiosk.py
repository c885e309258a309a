"""The kiosk on a living-room TV (Chromium): read from the sofa 2.5 m away, nothing in the
outer 5 % a TV's overscan may crop, the join code scanned from 1.5 m, nothing cut."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from random import Random
from typing import Any, NamedTuple

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from dicetable.child import ServedTable
from engine.selfplay import random_lines
from tests.web.test_browser_access import host, play
from tests.web.tour import troubled_table
from web.i18n import LANGUAGES

pytestmark = pytest.mark.browser

LONG_NAMES = ["Maximilianoalexanderjose", "Anastasiavictoriaelenaaa", "Fabriziogiovannimarcooo",
              "Joãopedrohenriquesouzaa", "Iñakiaitorjosebaandone", "Hélènemarieclairelouise",
              "Zoëcharlottebeatrixanne", "Benjaminchristopherjames"]
TVS = ((1280, 720), (1920, 1080))
FOUR_THIRDS = (1024, 768)
WITH_4_3 = (*TVS, FOUR_THIRDS)
WITH_4K = (*TVS, (3840, 2160))
DALEK_OF_EIGHT = ({"game": "dalek", "players": LONG_NAMES, "target": 500}, 80)
"""Dalek Dice mid-play: eight players with names of 24 letters, a few rounds in."""
DICY_OF_FOUR = {"game": "dicy", "players": LONG_NAMES[:4],
                "cards": ["straight", "distinct-x4", "forty-minus", "lowest-three", "same-x5"]}


class Tv(NamedTuple):
    """The kiosk page on a TV of ``width``×``height`` CSS pixels in ``lang``."""

    page: Page
    width: int
    height: int
    lang: str

    def __str__(self) -> str:
        return f"{self.lang} {self.width}×{self.height}"


class Kiosk:
    """One table's kiosk, open on a TV in each language (a page each, sized as a test asks),
    and the game a test asks for played on the table: the tests of one game share its play
    and its pages (the tests are in the order of their games)."""

    def __init__(self, browser: Browser, served: ServedTable, shows: tuple[str, ...] = ()) -> None:
        self.browser = browser
        self.served = served
        self.shows = shows  # what a page of this table shows once loaded (the host's notices)
        self.host = host(served)
        self.contexts: dict[str, BrowserContext] = {}
        self.loaded: set[str] = set()  # the languages whose page shows the game played
        self.played: tuple[str, int] | None = None
        self.view: dict[str, Any] = {}

    def show(self, header: dict[str, Any], moves: int) -> dict[str, Any]:
        """The game of ``header`` ``moves`` random moves in (seeded), played unless it is the
        table's game now: its last view. The pages load it when next asked for."""
        game = (json.dumps(header, sort_keys=True), moves)
        if game != self.played:
            for context in self.contexts.values():  # not told each move live
                context.pages[0].goto("about:blank")
            self.loaded.clear()
            self.view = play(self.host, header, random_lines(header, moves, Random(3)))
            self.played = game
        return self.view

    def on(self, width: int, height: int, lang: str = "en") -> Page:
        """The kiosk page in ``lang`` on a TV of that many CSS pixels, its score board drawn."""
        if lang not in self.contexts:
            # its columns turn at once (the tests read where they stand), when told to
            self.contexts[lang] = self.browser.new_context(locale=lang, reduced_motion="reduce")
            self.contexts[lang].clock.install()
            self.contexts[lang].new_page()
        page = self.contexts[lang].pages[0]
        page.set_viewport_size({"width": width, "height": height})
        if lang not in self.loaded:
            page.goto(self.served.url + "/kiosk")
            self.loaded.add(lang)
        for shown in (".scores li", *self.shows):  # (the camera's panel comes with camera.js)
            expect(page.locator(shown).first).to_be_visible()
        return page

    def tvs(self, sizes: Iterable[tuple[int, int]],
            langs: Iterable[str] = ("en",)) -> Iterator[Tv]:
        """The kiosk page on a TV of each of ``sizes`` (width, height), in each of ``langs``."""
        for lang in langs:
            for width, height in sizes:
                yield Tv(self.on(width, height, lang), width, height, lang)

    def move(self, page: Page) -> None:
        """The game shown one random move further (as seeded), ``page`` waiting until it shows
        the table's new state."""
        assert self.played is not None
        header, moves = json.loads(self.played[0]), self.played[1]
        _, body = self.host.get("/api/state")
        line = random_lines(header, moves + 1, Random(3))[-1]
        status, body = self.host.post("/api/action", {"line": line,
                                                      "base_version": body["state"]["version"]})
        assert status == 200, body
        self.played = (self.played[0], moves + 1)
        page.wait_for_function("(version) => S.state.version === version",
                               arg=body["state"]["version"])

    def close(self) -> None:
        """Close the pages and the host's phone."""
        for context in self.contexts.values():
            context.close()
        self.host.close()


PAN_MS = 6000
"""How long a kiosk's column that cannot hold all it has stays, before it turns half its height
further (from its end, back to its top)."""
NEEDED = (".notices, section.camera, .dcard, .under-cards > *, .do > .scroll caption,"
          " .do > .scroll tbody tr:last-child, .do > .scroll tfoot")
"""What a player of Dicy needs on the TV: the host's notices, the camera, every card, the dice,
the rerolls and who must reactivate a card, the score sheet's newest round and its totals."""


SHEET_NEEDED = ".do > .scroll tbody tr:last-child, .do > .scroll tfoot"
"""What a Dicy player looks to the TV for after a move: the sheet's newest round and totals."""
AT_REST = f".under-cards > .line, .under-cards > p:not(.owed), {SHEET_NEEDED}"
"""What a Dicy kiosk shows while its columns rest: the dice and the rerolls, the sheet's newest
round and totals."""


def hidden_now(page: Page, needed: str) -> set[str]:
    """What of ``needed`` the kiosk does not show whole where its columns stand now: under the
    TV's 5 % edge, a scrolling box's edge or a sheet's names (each by its place among them:
    two players' cards of one name are two)."""
    return set(page.evaluate("""(needed) => [...[...document.querySelectorAll(needed)].entries()]
        .filter(([, e]) => {
            const whole = e.getBoundingClientRect();
            let [top, bottom] = [Math.max(whole.top, innerHeight * .05),
                                 Math.min(whole.bottom, innerHeight * .95)];
            for (let a = e.parentElement; a; a = a.parentElement) {
                if (getComputedStyle(a).overflowY === 'visible') continue;
                const c = a.getBoundingClientRect();
                [top, bottom] = [Math.max(top, c.top), Math.min(bottom, c.bottom)];
            }
            const names = e.closest('tbody') && e.closest('table').querySelector('thead');
            if (names) top = Math.max(top, names.getBoundingClientRect().bottom);
            return whole.height - Math.max(0, bottom - top) > 1;
        }).map(([i, e]) => `${i}: ${e.tagName}.${e.className} "${e.textContent.slice(0, 30)}"`)""",
        needed))


def never_seen_whole(page: Page, needed: str) -> list[str]:
    """What of ``needed`` the kiosk never shows whole as its columns turn (eight times)."""
    unseen: set[str] | None = None
    for _ in range(8):
        hidden = hidden_now(page, needed)
        unseen = hidden if unseen is None else unseen & hidden
        page.clock.fast_forward(PAN_MS)
    return sorted(unseen or ())


def ever_hidden(page: Page, needed: str) -> list[str]:
    """What of ``needed`` the kiosk hides at one turn of its columns or more (eight turns)."""
    hidden: set[str] = set()
    for _ in range(8):
        hidden |= hidden_now(page, needed)
        page.clock.fast_forward(PAN_MS)
    return sorted(hidden)


def names_on_lines(page: Page, where: str, names: list[str]) -> list[dict[str, Any]]:
    """Each of ``names`` shown in an element of ``where``: the element's text, how many lines
    the name takes, and whether it is parted from the element's colour dot (on a line under it)."""
    return list(page.evaluate("""([where, names]) => {
        const found = [];
        for (const line of document.querySelectorAll(where)) {
            const dot = line.querySelector('.swatch');
            const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (!node.parentElement.checkVisibility()) continue;
                for (const name of names) {
                    const at = node.data.indexOf(name);
                    if (at < 0) continue;
                    const range = document.createRange();
                    range.setStart(node, at);
                    range.setEnd(node, at + name.length);
                    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
                    found.push({name, text: line.textContent,
                                lines: new Set(rects.map((r) => Math.round(r.bottom))).size,
                                parted: Boolean(dot && node.data.startsWith(name) && rects.length
                                    && dot.getBoundingClientRect().bottom < rects[0].top)});
                }
            }
        }
        return found;
    }""", [where, names]))


def numbers_cut(page: Page) -> dict[str, list[str]]:
    """The numbers of the kiosk's score sheet broken over two lines in their cells, and the
    cells whose words stick out of them."""
    return dict(page.evaluate("""() => {
        const broken = [];
        for (const cell of document.querySelectorAll('.do > .scroll td')) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (const number of node.data.matchAll(/[+−-]?\\d+/g)) {
                    const range = document.createRange();
                    range.setStart(node, number.index);
                    range.setEnd(node, number.index + number[0].length);
                    const lines = new Set([...range.getClientRects()]
                        .filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
                    if (lines.size > 1) broken.push(number[0]);
                }
            }
        }
        const spilled = [...document.querySelectorAll('.do > .scroll td')]
            .filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent);
        return {broken, spilled};
    }"""))


@pytest.fixture(scope="module")
def kiosk(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kiosk]:
    """The kiosk of a ``dicetable serve`` of its own, for the tests of this module."""
    with ServedTable(Path(tmp_path_factory.mktemp("kiosk")) / "state") as served:
        kiosk = Kiosk(browser, served)
        yield kiosk
        kiosk.close()


def test_nothing_on_the_kiosk_lies_in_the_outer_5_percent_a_tv_may_crop(
        kiosk: Kiosk) -> None:
    # the title, the connection dot and the scores' left edge were 8 to 34 px from the edges
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(TVS):
        page = tv.page
        out = page.evaluate("""() => {
            const [x, y] = [innerWidth * .05, innerHeight * .05];
            const seen = (e) => {  // its box, less what a scrolling box around it hides
                let {left, top, right, bottom} = e.getBoundingClientRect();
                for (let a = e.parentElement; a; a = a.parentElement) {
                    if (getComputedStyle(a).overflowY === 'visible') continue;
                    const c = a.getBoundingClientRect();
                    [left, top] = [Math.max(left, c.left), Math.max(top, c.top)];
                    [right, bottom] = [Math.min(right, c.right), Math.min(bottom, c.bottom)];
                }
                return {left, top, right, bottom};
            };
            return [...document.querySelectorAll('body *')].filter((e) => {
                const r = seen(e);
                const shown = r.right > r.left && r.bottom > r.top && e.checkVisibility()
                    && (e.matches('svg, .conn, .swatch')
                        || [...e.childNodes].some((n) => n.nodeType === 3
                                                      && n.textContent.trim()));
                return shown && (r.left < x - .5 || r.top < y - .5
                    || r.right > innerWidth - x + .5 || r.bottom > innerHeight - y + .5);
            }).map((e) => `${e.tagName}.${e.className} "${e.textContent.slice(0, 20)}"`);
        }""")
        assert out == [], f"{tv}: in the outer 5 %: {out}"


def test_the_kiosks_words_and_scores_are_read_from_the_sofa(
        kiosk: Kiosk) -> None:
    # body text is 1/40 of the screen's height at least (27 px at 1080p), the scores larger:
    # names were 24 px at 1080p, the round 13 px, the score sheet 19 px, all 27 px on a 4K TV
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(WITH_4K):
        page = tv.page
        sizes = page.evaluate("""(parts) => Object.fromEntries(parts.map((part) =>
            [part, Math.min(...[...document.querySelectorAll(part)].map((e) =>
                parseFloat(getComputedStyle(e).fontSize)))]))""",
            ["#title", ".turn", ".status", ".scores .name", ".story li", ".grid td",
             "#join-url", ".scores .total"])
        floor = tv.height / 40
        small = {part: size for part, size in sizes.items() if size < floor - .5}
        assert small == {}, f"{tv}: under {floor:.0f} px: {small}"
        assert sizes[".scores .total"] > sizes[".scores .name"], f"{tv}: {sizes}"


def test_the_kiosks_join_code_leaves_a_game_the_room_and_is_scanned_from_the_table(
        kiosk: Kiosk) -> None:
    # in a game the join code's column took 30 % of the TV's width, its code 358 px at 720p;
    # narrower, each of its modules is 4 px at 720p at least (an address of 37 with margins)
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(WITH_4K):
        page = tv.page
        seen = page.evaluate("""() => {
            const code = document.querySelector('#join svg');
            return {join: document.querySelector('#join').getBoundingClientRect().width,
                    main: document.querySelector('main').getBoundingClientRect().width,
                    module: code.getBoundingClientRect().width  // 5 units a module
                        / Math.max(37, code.viewBox.baseVal.width / 5)};
        }""")
        assert seen["join"] <= .2 * tv.width, f"{tv}: {seen}"
        assert seen["main"] >= .65 * tv.width, f"{tv}: {seen}"
        assert seen["module"] >= tv.height / 180, f"{tv}: {seen}"


def test_the_kiosks_join_code_is_scanned_from_across_the_room(
        kiosk: Kiosk) -> None:
    # it was 320 px at every size: 15 % of a 4K TV's height at its own pixels
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(WITH_4K):
        page = tv.page
        code = page.locator("#join svg").bounding_box()
        assert code is not None
        assert code["height"] >= .15 * tv.height, f"{tv}: the code {code}"


def test_the_kiosks_join_address_is_one_line_beside_its_code(
        kiosk: Kiosk) -> None:
    # on a 4K TV it broke after the address's IP (the join box kept a phone's 600 px)
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(WITH_4K):
        page = tv.page
        lines = page.locator("#join-url").evaluate(
            "(e) => e.getClientRects().length && e.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(e).lineHeight)")
        assert round(lines) == 1, f"{tv}: the address on {lines:.1f} lines"


def test_the_kiosks_score_board_ends_before_the_join_code(
        kiosk: Kiosk) -> None:
    # its rule ran the TV's width: a stray dash stuck out right of the code
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(TVS):
        page = tv.page
        board = page.locator("#board").bounding_box()
        join = page.locator("#join").bounding_box()
        assert board is not None and join is not None
        assert board["x"] + board["width"] <= join["x"], f"{tv}: {board} {join}"


def test_on_a_4k_kiosk_the_bar_holds_its_title_and_each_players_colour_is_seen(
        kiosk: Kiosk) -> None:
    # the bar stayed 52 px tall under a title of 62 px, cut; the colour dots stayed 16 px
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(WITH_4K):
        page = tv.page
        sizes = page.evaluate("""() => {
            const box = (s) => document.querySelector(s).getBoundingClientRect();
            return {bar: [box('.bar').top, box('.bar').bottom],
                    title: [box('#title').top, box('#title').bottom],
                    dot: box('.scores .swatch').height,
                    name: parseFloat(getComputedStyle(document.querySelector('.scores .name'))
                        .fontSize)};
        }""")
        assert sizes["bar"][0] <= sizes["title"][0] and sizes["title"][1] <= sizes["bar"][1], \
            f"{tv}: the title out of its bar: {sizes}"
        assert sizes["dot"] >= sizes["name"] / 2, f"{tv}: the dots: {sizes}"


def test_the_kiosks_story_breaks_no_name_inside(kiosk: Kiosk) -> None:
    # in the story's column (235 px at 720p) a name of 24 letters broke inside
    # ("Anastasiavictoriaele naaa"), its colour dot alone on the line above it: a long name
    # stays on one line (shortened with "…", whole on the score board), beside its dot
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(TVS, LANGUAGES):
        page = tv.page
        expect(page.locator(".story li").first).to_be_visible()
        seen = names_on_lines(page, "#join .story li", LONG_NAMES)
        broken = [name["name"] for name in seen if name["lines"] > 1 or name["parted"]]
        assert broken == [], f"{tv}: {seen}"
        board = page.eval_on_selector_all(".scores .name",
                                          "(names) => names.map((e) => e.textContent.trim())")
        assert board == LONG_NAMES, f"{tv}: the names whole on the board"


def test_the_kiosks_score_board_of_eight_long_names_keeps_two_tiles_a_row(
        kiosk: Kiosk) -> None:
    # tiles as wide as a name of 24 letters stood one a row at 1024×768: eight rows, 320 px of
    # a 768 px TV, the score sheet under the column's foot
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(WITH_4_3):
        page = tv.page
        rows = page.evaluate("""() => new Set([...document.querySelectorAll('.scores li')]
            .map((e) => Math.round(e.getBoundingClientRect().top))).size""")
        assert rows <= 4, f"{tv}: {rows} rows of tiles"


def test_the_kiosks_score_sheet_shows_its_heading_whole_above_its_names(
        kiosk: Kiosk) -> None:
    # Dalek of eight at 1080p in Spanish: "Hoja de puntos" was half under the hints box (16 px
    # of the sheet scrolled off its top, the heading with it)
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(WITH_4_3, LANGUAGES):
        page = tv.page
        seen = page.evaluate("""() => {
            const box = (e) => e.getBoundingClientRect();
            const sheet = document.querySelector('.do > .scroll');
            const heading = box(sheet.querySelector('caption'));
            return {hidden: Math.round(Math.max(0, box(sheet).top - heading.top)),
                    over: Math.round(Math.max(0, heading.bottom
                        - box(sheet.querySelector('thead th')).top))};
        }""")
        assert seen == {"hidden": 0, "over": 0}, f"{tv}: {seen}"


def test_the_kiosks_score_sheet_of_eight_breaks_no_number(kiosk: Kiosk) -> None:
    # Dalek of eight at 1024×768: a total of "17" broke over two lines ("1" over "7") in its
    # player's narrow column (26 px), and "+5", "13" and "15": each number whole in its cell
    kiosk.show(*DALEK_OF_EIGHT)
    for tv in kiosk.tvs(WITH_4_3, LANGUAGES):
        assert numbers_cut(tv.page) == {"broken": [], "spilled": []}, str(tv)


def test_the_kiosks_score_sheet_of_17_keeps_long_names_in_their_cells(
        kiosk: Kiosk) -> None:
    # a name of 24 letters who said 17 ran over the round's total ("Hélènemarieclairelouise"
    # written through "17 = 17") and out of the tokens' column
    header = {"game": "17", "players": LONG_NAMES[:6]}
    kiosk.show(header, 30)
    for tv in kiosk.tvs(TVS):
        page = tv.page
        expect(page.locator(".grid17 tbody td").first).to_be_visible()
        spilled = page.evaluate("""() => [...document.querySelectorAll('.grid td, .grid th')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
        assert spilled == [], f"{tv}: out of their cells: {spilled}"


def test_the_kiosk_of_a_17_game_over_does_not_scroll(
        kiosk: Kiosk) -> None:
    # the words said to a screen reader under the story's hidden lines made the page 958 px
    # tall on a 720p TV (1381 px at 1080p): they escaped the column that scrolls
    header = {"game": "17", "players": LONG_NAMES[:6]}
    view = kiosk.show(header, 30)
    assert view["over"]
    for tv in kiosk.tvs(TVS):
        page = tv.page
        expect(page.locator(".summary li")).to_have_count(6)
        tall = page.evaluate("document.documentElement.scrollHeight")
        assert tall <= tv.height, f"{tv}: the page is {tall} px tall"


@pytest.mark.parametrize(("header", "moves"), [  # in the order of the tests around it
    ({"game": "17", "players": LONG_NAMES[:6]}, 30),  # the games over
    ({"game": "dalek", "players": LONG_NAMES, "target": 500}, 200),
    ({"game": "17", "players": LONG_NAMES[:6]}, 12),  # a card discarded
    (DICY_OF_FOUR, 60),  # dice on the table
    ({**DICY_OF_FOUR, "target": 30}, 3000),
    ({"game": "dalek", "players": LONG_NAMES, "target": 60}, 3000)])
def test_the_kiosks_story_shows_its_newest_line_whole(
        kiosk: Kiosk, header: dict[str, Any], moves: int) -> None:
    # at 720p it was under its column's foot: Dalek of eight 89 px, 17 with a discard 37-64 px,
    # Dicy of four with its dice 440-605 px (at 1080p too), and every game at its end
    kiosk.show(header, moves)
    for tv in kiosk.tvs(TVS, LANGUAGES):
        page = tv.page
        newest = page.locator(".story li").first
        expect(newest).to_be_visible()
        seen = newest.evaluate("""(e) => {
            const whole = e.getBoundingClientRect();
            let [top, bottom] = [whole.top, whole.bottom];  // less what hides it
            for (let a = e.parentElement; a; a = a.parentElement) {
                if (getComputedStyle(a).overflowY === 'visible') continue;
                const c = a.getBoundingClientRect();
                [top, bottom] = [Math.max(top, c.top), Math.min(bottom, c.bottom)];
            }
            return {hidden: Math.round(whole.height - Math.max(0, bottom - top)),
                    under: Math.round(whole.bottom - innerHeight * .95),
                    text: e.textContent};
        }""")
        assert seen["hidden"] <= 1 and seen["under"] <= 0, \
            f"{header['game']} {tv}: {seen}"


def test_a_4_3_kiosks_end_keeps_each_name_on_one_line_beside_its_colour(kiosk: Kiosk) -> None:
    # at 1024×768 the end's list broke each name of 24 letters inside ("Maximilianoalexanderjo"
    # over "se"): a name stays on one line beside its dot, shortened with "…" where it must be
    # (whole on the score board), its score after it
    view = kiosk.show({"game": "dalek", "players": LONG_NAMES, "target": 60}, 3000)
    assert view["over"]
    for tv in kiosk.tvs([FOUR_THIRDS], LANGUAGES):
        expect(tv.page.locator(".summary li")).to_have_count(len(LONG_NAMES))
        seen = names_on_lines(tv.page, ".summary li", LONG_NAMES)
        wrong = [name for name in seen if name["lines"] > 1 or name["parted"]]
        assert len(seen) == len(LONG_NAMES) and wrong == [], f"{tv}: {seen}"
        unmarked = tv.page.eval_on_selector_all(".summary li b", """(names) => names.filter((e) =>
            e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow !== 'ellipsis')
            .map((e) => e.textContent)""")
        assert unmarked == [], f"{tv}: cut with no \"…\": {unmarked}"
        # its score beside it (the name took the line's width, the score went under it)
        apart = tv.page.eval_on_selector_all(".summary li", """(rows) => rows.filter((e) =>
            Math.abs(e.querySelector('b').getBoundingClientRect().top
                     - e.querySelector('b + span').getBoundingClientRect().top) > 2
            || e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
        assert apart == [], f"{tv}: a score under its name, or past the column: {apart}"


@pytest.mark.parametrize("header", [{"game": "dalek", "players": LONG_NAMES, "target": 60},
                                    {**DICY_OF_FOUR, "target": 30}])
def test_the_kiosks_score_sheet_and_games_won_are_read_from_the_sofa_every_player_seen(
        kiosk: Kiosk, header: dict[str, Any]) -> None:
    # the score sheet's Dicy card names and Dalek's "+5" were 13 px at 720p, 19 px at 1080p,
    # "games won" at the end 15 and 23 px (the floor: 18 and 27 px); the eighth player of the
    # end's list was under the column's foot at 720p
    view = kiosk.show(header, 3000)
    assert view["over"]
    for tv in kiosk.tvs(TVS, LANGUAGES):
        page = tv.page
        expect(page.locator(".summary li")).to_have_count(len(header["players"]))
        seen = page.evaluate("""() => {
            const size = (part) => Math.min(...[...document.querySelectorAll(part)]
                .map((e) => parseFloat(getComputedStyle(e).fontSize)));
            const column = (e) => e.closest('.col').getBoundingClientRect();
            return {sheet: size('.grid small'), won: size('.summary small'),
                    unseen: [...document.querySelectorAll('.summary li')].filter((e) =>
                        e.getBoundingClientRect().bottom > column(e).bottom + 1)
                        .map((e) => e.textContent)};
        }""")
        floor = tv.height / 40 - .5
        where = f"{tv}: {seen}"
        assert seen["sheet"] >= floor and seen["won"] >= floor, where
        assert seen["unseen"] == [], where


@pytest.mark.parametrize(("header", "moves", "cards", "words"), [
    ({**DICY_OF_FOUR, "target": 30}, 3000, ".dcard", ".dcard b"),  # the game over
    ({"game": "17", "players": LONG_NAMES[:6]}, 12, ".card17", ".card17 small"),
    (DICY_OF_FOUR, 12, ".dcard", ".dcard b"),
    (DICY_OF_FOUR, 60, ".dcard", ".dcard b")])  # dice on the table, a line under the cards
def test_the_kiosks_cards_are_read_from_the_sofa_and_all_seen(
        kiosk: Kiosk, header: dict[str, Any], moves: int, cards: str,
        words: str) -> None:
    # Dicy's card names were 12 px at 720p, 18 px at 1080p, 17's cards' players 12 and 18 px
    # (the floor: 18 and 27 px); at the floor each card is whole and in its column's view.
    # With the dice on the table, a line across the columns, the four players' cards were
    # drawn over each other in a column 4 px wide; under them the dice, the rerolls and who
    # must reactivate a card ran under the column's foot at 720p (the last of two lines wholly
    # under it, at 1080p too), and a game over's cards under its summary (82 px at 720p).
    # At 1024×768 the names spilled out of their cards ("Straigh|t", "Lowest"): a card too
    # narrow for its name shows the name's short form ("Str.", "Low 3")
    view = kiosk.show(header, moves)
    if moves == 60:
        assert view["table"]["dice"] and view["pending"], "no dice, no card to reactivate"
    for tv in kiosk.tvs(WITH_4_3):
        page = tv.page
        expect(page.locator(cards).first).to_be_visible()
        seen = page.evaluate("""([cards, words]) => {
            const column = document.querySelector('.col.see').getBoundingClientRect();
            const all = [...document.querySelectorAll(cards)];
            const hidden = (e) => {  // how much of it its scrolling boxes or the TV hide
                const whole = e.getBoundingClientRect();
                let [top, bottom] = [whole.top, Math.min(whole.bottom, innerHeight)];
                for (let a = e.parentElement; a; a = a.parentElement) {
                    if (getComputedStyle(a).overflowY === 'visible') continue;
                    const c = a.getBoundingClientRect();
                    [top, bottom] = [Math.max(top, c.top), Math.min(bottom, c.bottom)];
                }
                return Math.round(whole.height - Math.max(0, bottom - top));
            };
            return {size: Math.min(...[...document.querySelectorAll(words)].map((e) =>
                        parseFloat(getComputedStyle(e).fontSize))),
                    cut: all.filter((e) => e.getBoundingClientRect().bottom > column.bottom + 1)
                        .length,
                    spilled: all.flatMap((e) => [e, ...e.querySelectorAll('b')])
                        .filter((e) => e.scrollWidth > e.clientWidth + 1).length,
                    lines: [...document.querySelectorAll('main .line, main p, .hints li')]
                        .filter((e) => hidden(e) > 1)
                        .map((e) => `${hidden(e)} px of "${e.textContent}"`)};
        }""", [cards, words])
        assert seen["size"] >= tv.height / 40 - .5, f"{tv}: {words}: {seen}"
        assert seen["spilled"] == 0, f"{tv}: {seen}"
        if (tv.width, tv.height) in TVS:
            assert seen["cut"] == 0, f"{tv}: {seen}"
            assert seen["lines"] == [], f"{tv}: hidden: {seen}"
        else:  # a 4:3 TV's columns turn to show what they cannot hold (the dice, from the sheet)
            assert never_seen_whole(page, f"{cards}, main .line, main p, .hints li") == [], \
                f"{tv}: {seen}"


def test_the_kiosk_breaks_no_name_inside_on_the_board_nor_who_must_reactivate_a_card(
        kiosk: Kiosk) -> None:
    # at 1024×768 "Fabriziogiovannimarc ooo reactivates a card", and the board's tiles split
    # each name of 24 letters over two or three lines ("Maximilian oalexanderjo se"): a name
    # is on one line, shortened with "…" where it must be, whole on the score board
    view = kiosk.show(DICY_OF_FOUR, 60)
    assert len(view["pending"]) == 2, "two players must reactivate a card"
    for tv in kiosk.tvs(WITH_4_3, LANGUAGES):
        page = tv.page
        expect(page.locator(".owed")).to_have_count(2)
        broken = [name["text"] for name in names_on_lines(page, ".owed, .scores .name", LONG_NAMES)
                  if name["lines"] > 1]
        cut = page.eval_on_selector_all(".scores .name", """(names) => names
            .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
        assert (broken, cut) == ([], []), f"{tv}: {broken} {cut}"


def test_a_4_3_kiosk_of_dicy_shows_its_newest_round_and_all_else_in_view(
        kiosk: Kiosk) -> None:
    # at 1024×768 in Spanish, with the dice and two "reactivates a card" lines, the score sheet
    # shrank to its names and totals, no round seen; the cards' last rows under the left
    # column's foot: the sheet keeps its newest round, and a column that cannot hold all it
    # has shows its top and its end in turn
    kiosk.show(DICY_OF_FOUR, 60)
    for tv in kiosk.tvs([FOUR_THIRDS], LANGUAGES):
        expect(tv.page.locator(".owed")).to_have_count(2)
        assert never_seen_whole(tv.page, NEEDED) == [], str(tv)


def test_a_4_3_kiosk_of_dicy_rests_on_its_dice_and_newest_round_and_comes_back_after_a_move(
        kiosk: Kiosk) -> None:
    # at 1024×768 the right column showed the newest round and totals only every other 6 s,
    # and a move made while it showed its top was not seen where it landed; resting on the
    # sheet, it hid the dice and the rerolls above the lines of who must reactivate a card
    kiosk.show(DICY_OF_FOUR, 60)
    for tv in kiosk.tvs([FOUR_THIRDS], LANGUAGES):
        tv.page.reload()
        expect(tv.page.locator(".scores li").first).to_be_visible()
        assert hidden_now(tv.page, AT_REST) == set(), f"{tv}: at rest"
        # nor a line of who must reactivate a card cut in half above them ("reactiva una
        # carta" in Spanish): a line is whole or out of view
        halves = tv.page.evaluate("""() => [...document.querySelectorAll(
                'main .do .under-cards > *')].filter((e) => {
                const box = e.getBoundingClientRect();
                const column = e.closest('.col').getBoundingClientRect();
                const seen = Math.min(box.bottom, column.bottom) - Math.max(box.top, column.top);
                return seen > 1 && seen < box.height - 1;
            }).map((e) => e.textContent)""")
        assert halves == [], f"{tv}: cut in half at rest: {halves}"
    page = tv.page
    page.clock.fast_forward(PAN_MS)
    assert hidden_now(page, SHEET_NEEDED), "the column shows the rest in turn"
    kiosk.move(page)
    assert hidden_now(page, SHEET_NEEDED) == set(), "after a move"


@pytest.mark.parametrize("players", [4, 3])
def test_the_kiosks_score_sheet_at_dicy_breaks_card_names_only_between_syllables(
        kiosk: Kiosk, players: int) -> None:
    # at the TV's size (18 px at 720p) "Straight" broke as "Straigh t", a column 74 px wide;
    # with four players "Strai ght" and "Todo s di- fe- ren- tes", columns of 52 px: the join
    # code's column is narrower in a game, and a column too narrow for a name shows its points
    # (on a 4:3 screen, or beside a longer address) and the name's short form ("Str.", "≠ ×4"):
    # it showed the points alone, the name only in a title a TV cannot hover
    header = {**DICY_OF_FOUR, "players": LONG_NAMES[:players]}
    kiosk.show(header, 60)
    for tv in kiosk.tvs(WITH_4_3, LANGUAGES):
        page = tv.page
        expect(page.locator(".grid tbody td").first).to_be_visible()
        seen = page.evaluate("""() => {
            const probe = document.body.appendChild(document.createElement('span'));
            probe.style.cssText = 'position: absolute; white-space: nowrap';
            const wide = (text, font) => {
                probe.style.font = font;
                probe.textContent = text;
                return probe.getBoundingClientRect().width;
            };
            const syllables = (word) => word.split('\\u00ad')  // a soft hyphen's "-" kept
                .map((part, i, parts) => part + (i < parts.length - 1 ? '-' : ''));
            const names = [...document.querySelectorAll('.grid small')]
                .filter((e) => e.checkVisibility());
            const seen = {shown: names.length,
                unnamed: [...document.querySelectorAll('.grid tbody td')].filter((e) =>
                    e.textContent.trim() && !names.some((n) => e.contains(n)))
                    .map((e) => e.textContent),
                size: Math.min(...names.map((e) => parseFloat(getComputedStyle(e).fontSize))),
                broken: names.flatMap((e) => {  // a syllable wider than its cell
                    const cell = getComputedStyle(e.parentElement);
                    const room = e.parentElement.clientWidth
                        - parseFloat(cell.paddingLeft) - parseFloat(cell.paddingRight);
                    return e.textContent.split(' ').flatMap(syllables).filter(
                        (part) => wide(part, getComputedStyle(e).font) > room + .5);
                }),
                // short forms where every card's name would fit its cell
                needless: [...document.querySelectorAll('.grid small.short')].some((e) =>
                    e.checkVisibility()) && [...document.querySelectorAll('.grid td')]
                    .every((cell) => {
                        const name = cell.querySelector('small:not(.short)');
                        if (!name) return true;
                        const style = getComputedStyle(cell);
                        const room = cell.clientWidth - parseFloat(style.paddingLeft)
                            - parseFloat(style.paddingRight);
                        const font = getComputedStyle(name).font;
                        return name.textContent.split(' ').flatMap(syllables)
                            .every((part) => wide(part, font) <= room + .5);
                    })};
            probe.remove();  // the page is the next size's
            return seen;
        }""")
        assert seen["shown"] > 0 or tv.width / tv.height < 1.5, f"{tv}: no card named: {seen}"
        assert seen["size"] >= tv.height / 40 - .5, f"{tv}: {seen}"
        assert seen["broken"] == [], f"{tv}: broken inside: {seen}"
        assert seen["unnamed"] == [], f"{tv}: no card named: {seen}"
        assert not seen["needless"], f"{tv}: short names where the names fit: {seen}"


@pytest.mark.parametrize("moves", [12, 18])
def test_the_kiosks_score_sheet_of_17_shows_its_newest_round_whole_under_its_names(
        kiosk: Kiosk, moves: int) -> None:
    # in es, it and pt at 720p the newest round was under the names of the columns (the hints
    # above it, the names of 24 letters broken over five lines): long names are shortened
    # there, a round's tokens each on a line, every token kept
    header = {"game": "17", "players": LONG_NAMES[:6]}
    view = kiosk.show(header, moves)
    assert not view["over"]
    for tv in kiosk.tvs(TVS, LANGUAGES):
        page = tv.page
        expect(page.locator(".grid17 tbody td").first).to_be_visible()
        seen = page.evaluate("""() => {
            const box = (e) => e.getBoundingClientRect();
            const token = (e) => {  // its ★ or ✖, after the name
                const range = document.createRange();
                range.selectNodeContents(e.lastChild);
                return box(range);
            };
            const sheet = document.querySelector('.do > .scroll');
            const newest = box(sheet.querySelector('tbody tr:last-child'));
            return {under: newest.top < box(sheet.querySelector('thead th')).bottom - 1,
                    cut: newest.bottom > box(sheet).bottom + 1,
                    tokens: [...sheet.querySelectorAll('td.wrap > span')].filter((e) =>
                        token(e).right > box(e).right + 1
                        || box(e).right > box(e.closest('td')).right + 1).length};
        }""")
        assert seen == {"under": False, "cut": False, "tokens": 0}, f"{tv}: {seen}"


EIGHT = ["Maximiliano", "Anastasia", "Fabrizio", "João", "Iñaki", "Hélène", "Zoë", "Ben"]
LONG_GAME = ({"game": "dalek", "players": EIGHT, "target": 500}, 1000)
"""Eight players, 1000 moves of Dalek Dice to 500: a score sheet of twenty rounds and more, a
total of three digits."""
EIGHT_MID_TURN = ({"game": "dalek", "players": LONG_NAMES, "target": 500}, 1005)
"""Eight players of long names, three digits to a total, a turn with dice kept."""
SIX_MID_TURN = ({"game": "dalek", "players": LONG_NAMES[:6], "target": 500}, 1400)
"""Six players of long names, each total of three digits, a turn with dice rolled."""


def test_the_kiosks_story_stays_on_the_tv_and_scrolls_in_its_column(kiosk: Kiosk) -> None:
    kiosk.show({"game": "dalek", "players": EIGHT, "target": 60}, 40)
    tv = kiosk.on(1280, 720)
    expect(tv.locator(".story li")).to_have_count(4)
    height = tv.evaluate("innerHeight")
    story = tv.locator(".story").bounding_box()
    newest = tv.locator(".story li").first.bounding_box()
    assert story is not None and newest is not None
    assert story["y"] + story["height"] <= height, f"the story runs off the TV: {story}"
    assert newest["y"] + newest["height"] <= height, "the newest of the story is off the TV"
    assert tv.evaluate("document.documentElement.scrollHeight") <= height
    reachable = tv.locator(".story").evaluate("""e => e.scrollHeight <= e.clientHeight + 1
        || ["auto", "scroll"].includes(getComputedStyle(e).overflowY)""")
    assert reachable, "what is left of the story cannot be scrolled to"


def test_the_kiosks_score_sheet_of_a_long_game_fits_the_tv_its_newest_round_in_view(
        kiosk: Kiosk) -> None:
    view = kiosk.show(*LONG_GAME)
    assert view["round"] >= 20
    for tv in kiosk.tvs(((1280, 720), (1366, 768), (1920, 1080))):
        page = tv.page
        expect(page.locator(".grid tbody tr")).to_have_count(view["round"])
        sheet = page.evaluate("""() => {
            const box = (e) => e.getBoundingClientRect();
            const scroll = document.querySelector('.do .scroll');
            const inside = (e) => box(e).top >= box(scroll).top - 1
                && box(e).bottom <= box(scroll).bottom + 1;
            return {bottom: box(scroll).bottom, page: document.documentElement.scrollHeight,
                    newest: inside(scroll.querySelector('tbody tr:last-child')),
                    names: inside(scroll.querySelector('thead th:last-child'))};
        }""")
        assert sheet["bottom"] <= tv.height and sheet["page"] <= tv.height, \
            f"{tv}: the score sheet runs off the TV: {sheet}"
        assert sheet["newest"], f"{tv}: the newest round is out of view"
        assert sheet["names"], f"{tv}: the players' names are out of view"


@pytest.mark.parametrize("game", [LONG_GAME, EIGHT_MID_TURN, SIX_MID_TURN],
                         ids=["eight", "eight-mid-turn", "six-mid-turn"])
def test_a_4_3_kiosks_score_sheet_keeps_a_total_of_three_digits_whole_and_the_dice_in_view(
        kiosk: Kiosk, game: tuple[dict[str, Any], int]) -> None:
    # at 1024×768 a total of 125 ran 11 px into its neighbour's column (27 px wide, at .9rem),
    # and six players' totals ran together ("191174114152149113"): a total wider than its cell
    # draws the sheet's numbers closer (measured); the sheet of seven or eight players took
    # 1.4 parts of the width, and Dalek's table, left of it, wrapped past its column: "N dice
    # to roll" cut and the dice hidden at rest
    view = kiosk.show(*game)
    assert min(view["scores"].values()) >= 100 or len(view["players"]) == 8
    for tv in kiosk.tvs([FOUR_THIRDS], ("en", "es")):
        expect(tv.page.locator(".grid tbody tr")).to_have_count(view["round"])
        assert numbers_cut(tv.page) == {"broken": [], "spilled": []}, str(tv)
        if game is not LONG_GAME:
            expect(tv.page.locator(".see .area .sums")).to_be_visible()
            assert hidden_now(tv.page, "main .see .area") == set(), f"{tv}: at rest"


def test_on_the_kiosk_no_digit_of_the_rows_scrolled_under_the_names_shows_through(
        kiosk: Kiosk) -> None:
    view = kiosk.show(*LONG_GAME)
    tv = kiosk.on(1920, 1080)
    expect(tv.locator(".grid tbody tr")).to_have_count(view["round"])
    # the rows in magenta, a colour the page never uses: none of it may show on the names
    rule = tv.evaluate("""() => document.styleSheets[0].insertRule(`.grid tbody tr > *,
        .grid tbody tr > * * { color: #f0f !important; background: #f0f !important; }`)""")
    try:
        for scrolled in (0, -37, -101):  # the sheet scrolls from its end (the newest round)
            names = tv.evaluate("""(scrolled) => {
                const sheet = document.querySelector('.do .scroll');
                sheet.scrollTop = scrolled;
                const box = sheet.getBoundingClientRect();
                const names = sheet.querySelector('thead th').getBoundingClientRect();
                const first = sheet.querySelector('tbody tr').getBoundingClientRect();
                return {x: box.left, y: names.top, width: box.width,
                        height: Math.floor(names.height), under: first.top < names.bottom};
            }""", scrolled)
            assert names.pop("under"), f"no row under the names at {scrolled}"
            shot = cv2.imdecode(np.frombuffer(tv.screenshot(clip=names), np.uint8),
                                cv2.IMREAD_COLOR).astype(int)
            blue, green, red = shot[..., 0], shot[..., 1], shot[..., 2]
            through = np.nonzero((red > 200) & (blue > 200) & (green < 80))[0]
            lines = sorted(set(through.tolist()))
            assert lines == [], f"scrolled {scrolled}: rows show through the names on lines {lines}"
    finally:  # the page is the next test's
        tv.evaluate("(rule) => document.styleSheets[0].deleteRule(rule)", rule)
        tv.evaluate("document.querySelector('.do .scroll').scrollTop = 0")


def test_the_kiosks_story_keeps_a_word_holding_a_players_name_whole(kiosk: Kiosk) -> None:
    # a name was set apart (on a line of its own, "…" where long) wherever it stood in a line,
    # inside other words too: "Dal" of "Daleks" split "Dal|eks" on a narrow TV; a name is set
    # apart only as a whole word, "Zoë" and "José" too
    kiosk.show({"game": "dalek", "players": ["Zoë", "José", "Dal"], "target": 500}, 12)
    page = kiosk.on(1280, 720)
    expect(page.locator(".story li").first).to_be_visible()
    seen = page.evaluate("""() => [...document.querySelectorAll('.story .who')].map((e) => {
        const around = (e.previousSibling?.textContent ?? '').slice(-1)
            + '|' + (e.nextSibling?.textContent ?? '').slice(0, 1);
        return {name: e.textContent, around};
    })""")
    assert {who["name"] for who in seen} >= {"Dal"}, f"no line names Dal: {seen}"
    apart = [who for who in seen if any(c.isalnum() for c in who["around"])]
    assert apart == [], f"a name set apart inside a word: {apart}"
    assert "Daleks" in page.locator(".story").inner_text(), "no word holds the name"
    # the pattern that finds the names was made again for each line at each redraw
    same = page.evaluate("""() => namesFinder(S.state.view.players)
        === namesFinder([...S.state.view.players])""")
    assert same, "the same players' pattern was made again"


def test_the_kiosks_page_with_no_game_has_no_buttons_and_shows_its_join_code(
        browser: Browser, served: ServedTable) -> None:
    # it showed "Enter PIN", "Rules" and "Statistics": a TV has nothing to press them with
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(served.url + "/kiosk")
        for width, height in TVS:
            page.set_viewport_size({"width": width, "height": height})
            expect(page.locator(".welcome")).to_contain_text(
                "A game is started from a phone: scan the code to join the table.")
            expect(page.locator("button:visible")).to_have_count(0)
            expect(page.locator("#join-url")).to_have_text(served.url + "/")
            code = page.locator("#join svg").bounding_box()
            assert code is not None and code["height"] >= .5 * height, f"{width}×{height}: {code}"
            tall = page.evaluate("document.documentElement.scrollHeight")
            assert tall <= height, f"{width}×{height}: the page is {tall} px tall"
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(served.url + "/")  # a phone's page with no game is as it was
        expect(page.locator(".welcome button")).to_have_text(["Enter PIN", "Rules", "Statistics"])
    finally:
        context.close()


@pytest.fixture(scope="module")
def troubled_kiosk(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kiosk]:
    """The kiosk of a table with the host's notices to show (its buttons off, its camera
    sending a picture that cannot be read)."""
    with troubled_table(Path(tmp_path_factory.mktemp("troubled"))) as served:
        kiosk = Kiosk(browser, served, shows=(".notices p", "section.camera"))
        yield kiosk
        kiosk.close()


def test_the_kiosk_of_dicy_with_the_hosts_notices_shows_every_card_in_turn(
        troubled_kiosk: Kiosk) -> None:
    # at 720p a "buttons off" notice and the camera's panel above four players' cards put the
    # cards' last rows 150 px under the left column's foot, which scrolled only by keyboard:
    # all cannot fit a TV 648 px tall, so the column shows its top and its end in turn
    troubled_kiosk.show(DICY_OF_FOUR, 60)
    for tv in troubled_kiosk.tvs(WITH_4_3, LANGUAGES):
        assert never_seen_whole(tv.page, NEEDED) == [], str(tv)


@pytest.mark.parametrize("table", ["kiosk", "troubled_kiosk"])
def test_a_kiosk_of_dicy_keeps_its_newest_round_and_totals_in_view_as_its_columns_turn(
        table: str, request: pytest.FixtureRequest) -> None:
    # at 1280×720 in Spanish the sheet's room made the right column 471 px in 462: it turned
    # 9 px every 6 s, the totals cut at one stop, a "reactivates a card" line at the other;
    # with the host's notices the left column turns (the notices and the camera above the
    # cards), and the right one holds its sheet's newest round and totals at every turn
    kiosk: Kiosk = request.getfixturevalue(table)
    kiosk.show(DICY_OF_FOUR, 60)
    for tv in kiosk.tvs(TVS, LANGUAGES):
        page = tv.page
        assert ever_hidden(page, SHEET_NEEDED) == [], str(tv)


def columns_moved(page: Page) -> list[tuple[bool, ...]]:
    """Whether each of the kiosk's columns moved, at each of eight half turns (PAN_MS / 2)."""
    tops = "() => [...document.querySelectorAll('main .col')].map((e) => Math.round(e.scrollTop))"
    before, moved = page.evaluate(tops), []
    for _ in range(8):
        page.clock.fast_forward(PAN_MS // 2)
        now = page.evaluate(tops)
        moved.append(tuple(top != was for top, was in zip(now, before, strict=True)))
        before = now
    return moved


def test_a_4_3_kiosks_columns_turn_each_on_its_own_never_both_at_once(
        troubled_kiosk: Kiosk) -> None:
    # at 1024×768 with the host's notices both columns turned at once every 6 s: the right
    # column and the left one turn in turn, 3 s apart, so that a viewer reads one while the
    # other stands still
    troubled_kiosk.show(DICY_OF_FOUR, 60)
    page = troubled_kiosk.on(*FOUR_THIRDS)
    page.reload()
    expect(page.locator(".scores li").first).to_be_visible()
    moved = columns_moved(page)
    assert (True, True) not in moved, f"both columns turned at once: {moved}"
    assert all(any(turned) for turned in zip(*moved, strict=True)), f"a column stood still: {moved}"


def test_a_kiosks_column_that_starts_turning_later_never_turns_with_the_other(
        troubled_kiosk: Kiosk) -> None:
    # a column that began to need turning after the other (the TV resized, a notice come) took
    # a timer of its own from then, and turned with the other at 12 s: one timer turns both
    troubled_kiosk.show(DICY_OF_FOUR, 60)
    page = troubled_kiosk.on(1920, 1080)
    page.reload()
    expect(page.locator(".scores li").first).to_be_visible()
    over = """() => [...document.querySelectorAll('main .col')]
        .map((e) => e.scrollHeight - e.clientHeight > 30)"""
    first = page.evaluate(over)
    page.clock.fast_forward(PAN_MS // 2)
    page.set_viewport_size({"width": FOUR_THIRDS[0], "height": FOUR_THIRDS[1]})
    page.wait_for_function(f"() => ({over})().every(Boolean)")
    assert not all(first), f"both columns turned from the start: {first}"
    moved = columns_moved(page)
    assert (True, True) not in moved, f"both columns turned at once: {moved}"
    assert all(any(turned) for turned in zip(*moved, strict=True)), f"a column stood still: {moved}"
