"""Every screen of each game (the tour of tests/web/tour.py), at 390×844, at 320×568 and on a
landscape tablet, in all four languages: nothing overflows its box or the screen, no code shows,
the menu opens from the bottom of the page, and axe-core finds nothing (contrast, labels, and
its best practices: every part of the page in a landmark, headings that skip no level, ...),
on the kiosk too.

axe-core comes with the ``axe-playwright-python`` test dependency and is injected into the page
by the test only; the page itself loads nothing of it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from engine.dicy_cards import Card as DicyCard
from tests.web.tour import Tour, tour

if TYPE_CHECKING:
    from dicetable.child import ServedTable

pytestmark = pytest.mark.browser

OVERFLOWS = """() => {
  const SHORT = 8;  // a name this long is never cut with an ellipsis (the tour's are 3-5 letters)
  const width = document.documentElement.clientWidth;
  const found = [];
  const name = (e) => e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined
    ? "." + String(e.className).trim().split(/\\s+/).join(".") : "")
    + " “" + (e.textContent || "").trim().slice(0, 30) + "”";
  for (const e of document.querySelectorAll("body *")) {
    if (!e.getClientRects().length || e.closest(".sprite, svg")) continue;
    const box = e.getBoundingClientRect();
    if (box.right > width + 1 || box.left < -1) found.push("off screen: " + name(e));
    const style = getComputedStyle(e);
    const spills = style.overflowX === "visible" && e.clientWidth > 0
      && e.scrollWidth > e.clientWidth + 1;
    const row = ["TABLE", "TBODY", "THEAD", "TFOOT", "TR"].includes(e.tagName);
    if (spills && !row) found.push("spills: " + name(e));
    const cut = style.textOverflow === "ellipsis" && e.scrollWidth > e.clientWidth + 1;
    if (cut && e.textContent.trim().length <= SHORT) found.push("cuts a short name: " + name(e));
  }
  for (const s of document.querySelectorAll(".scroll")) {
    if (s.scrollWidth > s.clientWidth + 1) found.push("needs a side scroll: " + name(s));
  }
  return found;
}"""
"""Elements past the screen's edges, content spilling out of its box, a short name cut with an
ellipsis, grids that need a side scroll."""

DICY_IDS = "|".join(c.value for c in DicyCard if "-" in c.value)
CODE = re.compile(r"[`{}\[\]]|\('|\b(?:True|False|None|null|undefined|NaN)\b|\[object"
                  r"|\b(?:H4|H2|D3|D2|DOC|EXT|[1-5]d|x2)\b|\b(?:" + DICY_IDS + r")\b"
                  r"|\b[a-z][a-z0-9]*\.[a-z_][a-z0-9_.]*\b")
"""Code on a screen: brackets, Python or JS values, record ids of faces and cards, catalog keys."""

AXE_RUNS = {("en", "phone", "light"), ("pt", "tablet", "dark")}
"""Where axe-core checks every screen (it takes a second a screen)."""

CASES = [("en", "phone", "light"), ("es", "phone", "light"), ("pt", "phone", "light"),
         ("it", "phone", "dark"), ("en", "tablet", "light"), ("es", "tablet", "light"),
         ("pt", "tablet", "dark"), ("it", "tablet", "light"), ("it", "small", "light"),
         ("pt", "small", "dark")]


class Checks:
    """What each screen of the tour must pass; problems are collected, not raised at once."""

    def __init__(self, axe: bool) -> None:
        self.axe = Axe() if axe else None
        self.problems: list[str] = []
        self.screens: list[str] = []

    def __call__(self, name: str, page: Page) -> None:
        self.screens.append(name)
        self.problems += [f"{name}: {p}" for p in page.evaluate(OVERFLOWS)]
        text = page.evaluate("document.body.innerText")
        self.problems += [f"{name}: code {m.group(0)!r} in {text[m.start() - 30:m.end() + 30]!r}"
                          for m in CODE.finditer(text)]
        if name == "menu":
            self.check_menu(page)
        self.accessible(name, page)

    def accessible(self, name: str, page: Page) -> None:
        """Where axe-core checks: all it finds, best practices with the rest."""
        if self.axe is not None:
            results = self.axe.run(page)
            self.problems += [f"{name}: axe {v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
                              for v in results.response["violations"]]

    def check_menu(self, page: Page) -> None:
        """Opened from the bottom of the page (scrolled there if it is taller than the
        screen), the menu is on the screen."""
        scrolled, room = page.evaluate(
            "[window.scrollY, document.documentElement.scrollHeight - window.innerHeight]")
        box = page.locator("#menu").bounding_box()
        height = page.viewport_size["height"] if page.viewport_size else 0
        if (room > 0 and scrolled < room - 1) or box is None or not 0 <= box["y"] < height / 2:
            self.problems.append(f"menu: not on the screen (scrolled {scrolled} of {room}, "
                                 f"box {box})")


@pytest.mark.parametrize(("lang", "size", "scheme"), CASES)
def test_every_screen_fits_reads_as_words_and_is_accessible(
        browser: Browser, served: ServedTable, lang: str, size: str, scheme: str) -> None:
    checks = Checks(axe=(lang, size, scheme) in AXE_RUNS)
    visit = Tour(browser, served.url, served.pin, lang, size, scheme)
    errors: list[str] = []
    visit.page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        tour(visit, checks)
        if checks.axe is not None:  # the TV beside the table, its join code at its side
            kiosk = visit.context.new_page()
            kiosk.goto(served.url + "/kiosk")
            kiosk.wait_for_selector(".scores li")
            checks.accessible("kiosk", kiosk)
    finally:
        visit.close()
    assert len(checks.screens) >= 25
    assert checks.problems == []
    assert errors == []
