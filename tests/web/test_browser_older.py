"""The pad on the phones friends bring (Safari 15.4 on iOS 15, Chrome 87 on Android 9):
Chromium with the newer APIs those browsers lack removed before the pad's scripts run."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route

from tests.web.test_browser import Pad, roll_whose_answer_is_lost
from tests.web.test_browser_access import host, play, shows

if TYPE_CHECKING:
    from dicetable.child import ServedTable

pytestmark = pytest.mark.browser

OLDER_ENGINE = """
delete AbortSignal.timeout; delete AbortSignal.any; delete window.structuredClone;
delete Array.prototype.at; delete String.prototype.at; delete Object.hasOwn;
delete String.prototype.replaceAll; delete Promise.any;
delete Array.prototype.findLast; delete Array.prototype.findLastIndex;
delete Navigator.prototype.wakeLock;
"""
"""What Safari 15.4 and Chrome 87 lack of what Chromium has (AbortSignal.timeout: Safari 16,
Chrome 103; the Screen Wake Lock: Safari 16.4; the rest: Safari 15.4 to 17, Chrome 92 to 116)."""


CONTAINER_UNITS = re.compile(r"[^;{}]*\d(cqi|cqw|cqh|cqb|cqmin|cqmax)\b[^;{}]*;?")
"""A declaration with a container unit, which Safari before 16 and Chrome before 105 drop."""


def without_container_units(route: Route) -> None:
    """The pad's styles as Safari 15 and Chrome 90 read them: no container unit."""
    response = route.fetch()
    route.fulfill(response=response, body=CONTAINER_UNITS.sub("", response.text()))


@pytest.fixture
def older_phone(open_phone: Callable[..., Page]) -> Callable[[], Pad]:
    """Opens the pad on a phone whose browser lacks the newer APIs."""
    def open_older() -> Pad:
        page = open_phone()
        page.add_init_script(OLDER_ENGINE)
        page.reload()
        assert page.evaluate("typeof AbortSignal.timeout") == "undefined"
        return Pad(page)
    return open_older


def test_a_move_taken_whose_answer_is_lost_is_told_as_such_on_an_older_phone(
        older_phone: Callable[[], Pad], served: ServedTable) -> None:
    pad = older_phone()
    roll_whose_answer_is_lost(pad, served)
    assert pad.errors == []


@pytest.mark.parametrize("width", [375, 320])
def test_names_stay_whole_on_an_older_phone_without_container_units(
        open_phone: Callable[..., Page], served: ServedTable, width: int) -> None:
    # iPhone 7 and 8 are 375 px wide, an iPhone SE (2016) 320 px; "Straight" is the widest
    # card name in English (at 320 px it spilled out of its card, 56 px in 49)
    view = play(host(served), {"game": "dicy", "cards": ["straight", "two-pairs", "odd", "pair",
                                                          "sixes"],
                               "players": ["Massimiliano", "Bartholomew", "Clementine", "Ana"]}, [])
    page = open_phone(viewport={"width": width, "height": 667})
    page.route("**/static/*.css", without_container_units)
    page.reload()
    shows(page, view["version"])
    rules = page.evaluate("""() => [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules])
        .map((rule) => rule.cssText)""")
    assert rules and not [r for r in rules if CONTAINER_UNITS.search(r)], "styles without cq units"
    out = page.evaluate("""() => [...document.querySelectorAll('.area .dcard')]
        .flatMap((card) => [card, ...card.children])
        .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
    assert out == [], f"out of their cards: {out}"
    lines = page.evaluate("""() => [...document.querySelectorAll('.scores .name')].map((e) => {
        const words = document.createRange();
        words.selectNodeContents([...e.childNodes].find((n) => n.nodeType === 3 && n.data.trim()));
        return [e.textContent.trim(), words.getClientRects().length];
    })""")
    assert len(lines) == 4 and all(n == 1 for _, n in lines), f"names on two lines: {lines}"
