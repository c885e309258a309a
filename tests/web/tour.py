"""A tour of every screen of the score pad, for each game: the browser tests check each screen
it stops at, and ``make screenshots`` photographs them.

A real ``dicetable serve`` plays the games; a second phone (the standard-library client)
enters the actions, and the page under tour follows them live, as a phone at the table does.
At each screen the tour calls ``visit(name, page)``. The host's notices are shown by a table
of their own (:func:`troubled_table`, :func:`host_notices`), which only ``make screenshots``
visits: they name the host's files as written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from playwright.sync_api import Browser, Page

from dicetable.child import ServedTable
from tests.web.conftest import sign_in
from web.client import Phone

SIZES: dict[str, dict[str, Any]] = {
    "small": {"viewport": {"width": 320, "height": 568}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
    "tablet": {"viewport": {"width": 1180, "height": 820}, "is_mobile": True, "has_touch": True,
               "device_scale_factor": 1},
}
"""A small 320×568 phone, a 390×844 phone, and a tablet in landscape."""

Visit = Callable[[str, Page], None]

DALEK_ROLL = ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]


class Tour:
    """The page of one phone in ``lang`` at ``size``, and a helper phone that plays."""

    def __init__(self, browser: Browser, url: str, pin: str, lang: str, size: str,
                 scheme: str = "light") -> None:
        self.url = url
        self.context = browser.new_context(**SIZES[size], locale=lang, color_scheme=scheme)
        self.context.add_cookies([{"name": "lang", "value": lang, "url": url}])
        self.page = self.context.new_page()
        self.page.set_default_timeout(8000)
        self.page.goto(url + "/")
        sign_in(self.page, pin)
        self.helper = Phone(url, pin=pin)

    def close(self) -> None:
        """Close the page and the helper."""
        self.helper.close()
        self.context.close()

    # The helper plays; the page follows.

    def version(self) -> int:
        """The table's version now."""
        status, body = self.helper.get("/api/state")
        assert status == 200
        return int(body["state"]["version"])

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """A change the helper makes (it must be accepted); waits until the page shows it."""
        status, answer = self.helper.post(path, {"base_version": self.version(), **body})
        assert status == 200, answer
        self.settle()
        return dict(answer)

    def play(self, *lines: dict[str, Any]) -> None:
        """Actions of the game in progress, each accepted."""
        for line in lines:
            self.post("/api/action", {"line": line})

    def new_game(self, header: dict[str, Any]) -> None:
        """A new game (the one in progress abandoned)."""
        _, body = self.helper.get("/api/state")
        view = body["state"]["view"]
        if view and not view["over"]:
            self.post("/api/abandon", {})
        self.post("/api/game", {"header": header})

    def settle(self) -> None:
        """Wait until the page shows the table's state and the story of its game."""
        self.page.wait_for_function(
            "v => S.state.version >= v && (!S.state.game_id || (S.record && S.record.version >= v"
            " && S.record.game_id === S.state.game_id))", arg=self.version())
        self.page.wait_for_timeout(60)

    def screen(self, name: str) -> None:
        """Go to a screen of the menu by its function (language-neutral)."""
        self.page.evaluate(f"{name}()")
        self.page.wait_for_timeout(150)

    def pad(self) -> None:
        """Back to the score pad, at the top."""
        self.page.evaluate("closeMenu(); S.screen = 'pad'; S.editing = null; S.showActions = false;"
                           " render()")
        for dialog in ("#pin-dialog", "#info-dialog"):
            self.page.evaluate(f"document.querySelector('{dialog}').open && "
                               f"document.querySelector('{dialog}').close()")
        self.page.evaluate("window.scrollTo(0, 0)")


def tour(tour: Tour, visit: Visit) -> None:
    """Every screen of each game, in order."""
    page = tour.page
    visit("no-game", page)
    tour.screen("openSetup")
    visit("setup", page)
    page.locator(".setup .choices button").nth(2).click()
    for i, name in enumerate(["Ana", "Ben", "Cleo"]):
        if page.locator(".player-row").count() <= i:
            page.locator(".setup > button").first.click()
        page.locator(".player-row input").nth(i).fill(name)
    visit("setup-17", page)
    tour.pad()
    dalek(tour, visit)
    dicy(tour, visit)
    seventeen(tour, visit)
    others(tour, visit)


def dalek(tour: Tour, visit: Visit) -> None:
    """Dalek Dice: a roll and a keep, Stop that banks nothing, no dice left, an Exterminate,
    Stop that banks, a correction that makes a later action illegal, the end."""
    page = tour.page
    tour.new_game({"game": "dalek", "players": ["Jenna", "Peter"], "target": 20})
    page.evaluate("S.me = 'Jenna'; render()")
    visit("dalek-start", page)
    tour.play({"roll": DALEK_ROLL})
    page.locator(".entry .toggle").nth(0).click()
    page.locator(".entry .toggle").nth(5).click()
    visit("dalek-keep", page)
    tour.play({"keep": ["H4", "H4", "H4", "D3", "D3", "D3"]})
    visit("dalek-stop-banks-nothing", page)
    tour.play({"roll": ["D3", "D2", "EXT"]})
    tour.post("/api/action", {"line": {"keep": ["D3", "D2"]}})
    page.wait_for_selector("#moment", state="visible")
    visit("dalek-no-dice-left", page)
    tour.play({"roll": ["EXT"] + ["H4"] * 9}, {"keep": ["H4"]}, {"roll": ["EXT"] + ["D3"] * 7},
              {"keep": ["D3"]}, {"roll": ["EXT"] + ["H2"] * 5})
    tour.post("/api/action", {"line": {"keep": []}})
    page.wait_for_selector("#moment", state="visible")
    visit("dalek-exterminate", page)
    page.evaluate("document.getElementById('moment').hidden = true")
    tour.play({"roll": ["H4"] * 2 + ["D3"] * 8}, {"keep": ["H4", "D3", "D3"]})
    visit("dalek-stop-banks", page)
    page.locator(".actions summary").click()
    page.locator(".lines li").nth(1).locator("button").click()
    corrector = page.locator(".corrector")
    for _ in range(5):
        corrector.locator(".tray .pick").last.click()
    corrector.locator(".row button.primary").click()
    page.wait_for_selector(".refused")
    visit("dalek-correction-refused", page)
    tour.pad()
    tour.play({"stop": {}}, {"roll": ["D3"] * 10}, {"keep": ["D3"]}, {"stop": {}})
    visit("dalek-over", page)


def dicy(tour: Tour, visit: Visit) -> None:
    """Dicy Cards: a roll, the score and reroll tabs, an effect owed, a card's full text."""
    page = tour.page
    tour.new_game({"game": "dicy", "players": ["Ana", "Ben", "Cleo"], "mode": "glacial"})
    visit("dicy-start", page)
    tour.play({"roll": [6, 6, 5, 2, 1, 1]})
    page.locator(".entry .tray.cards button").first.click()
    visit("dicy-score", page)
    page.locator(".entry [role=tab]").nth(1).click()
    visit("dicy-reroll", page)
    tour.play({"score": {"card": "two-dice", "dice": [6, 6]}})
    visit("dicy-effect", page)
    page.locator(".area .dcard").nth(3).click()
    page.wait_for_selector("#info-dialog[open]")
    visit("dicy-card", page)
    tour.pad()
    tour.play({"effect": {"player": "Ben", "card": "straight"}},
              {"effect": {"player": "Cleo", "card": "no-six"}})
    visit("dicy-next-turn", page)


def seventeen(tour: Tour, visit: Visit) -> None:
    """17: cards face up and down, a call, the reveal, the round scored, the end."""
    page = tour.page
    tour.new_game({"game": "17", "players": ["Ana", "Ben", "Cleo"], "first": "Ana", "target": 1})
    visit("17-start", page)
    tour.play({"play": {"card": "3d", "face": "down"}}, {"play": {"face": "down"}},
              {"play": {"card": "reverse", "face": "up"}})
    page.locator(".entry .choices button").nth(1).click()
    visit("17-play-or-call", page)
    tour.post("/api/action", {"line": {"call": ["Ana"]}})
    page.wait_for_selector("#moment", state="visible")
    visit("17-called", page)
    page.evaluate("document.getElementById('moment').hidden = true")
    visit("17-reveal", page)
    tour.post("/api/action", {"line": {"reveal": ["4"]}})
    page.wait_for_selector("#moment", state="visible")
    visit("17-round-scored", page)
    page.evaluate("document.getElementById('moment').hidden = true")
    visit("17-over", page)


def others(tour: Tour, visit: Visit) -> None:
    """The menu (from the bottom of the page), rules, statistics, finished and abandoned games,
    the join code."""
    page = tour.page
    tour.new_game({"game": "dalek", "players": ["Jenna", "Peter", "Amy", "Rory"]})
    tour.play({"roll": DALEK_ROLL})
    tour.new_game({"game": "dalek", "players": ["Jenna", "Peter"]})
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.click("#menu-button")
    page.wait_for_selector("#menu", state="visible")
    visit("menu", page)
    tour.pad()
    page.evaluate("openRules()")
    page.wait_for_selector("#info-dialog[open]")
    visit("rules", page)
    tour.pad()
    tour.screen("openStats")
    page.wait_for_selector(".stats")
    visit("stats", page)
    tour.screen("openHistory")
    page.wait_for_selector(".history .games li")
    visit("history", page)
    tour.screen("openAbandoned")
    page.wait_for_selector(".history .games li")
    visit("abandoned", page)
    page.evaluate("S.screen = 'join'; render()")
    visit("join", page)
    tour.pad()


def troubled_table(folder: Path) -> ServedTable:
    """A table (not started) that has the host's notices to show: its config file's
    ``[buttons]`` section names a pin a Pi has not, so it runs without buttons, and its camera
    is a folder holding a picture too large to read."""
    config = folder / "home" / "pi" / ".config" / "dicetable" / "config.toml"  # a long path
    config.parent.mkdir(parents=True)
    config.write_text("[buttons]\nstop = 40\n", encoding="utf-8")
    pictures = folder / "photos"
    pictures.mkdir()
    assert cv2.imwrite(str(pictures / "IMG_0001.png"), np.zeros((7000, 8000), np.uint8))
    return ServedTable(folder / "state", args=["--config", str(config), "--camera", str(pictures)])


def host_notices(tour: Tour, visit: Visit) -> None:
    """The host's phone on a :func:`troubled_table`: the buttons off, and the camera's picture
    that could not be read, and why (too large)."""
    page = tour.page
    page.wait_for_selector(".notices p")
    page.wait_for_selector("section.camera .camera-unreadable", timeout=20_000)
    visit("host-notices", page)
