"""The pad on the phones friends bring (Safari 15.4 on iOS 15, Chrome 87 on Android 9):
Chromium with the newer APIs those browsers lack removed before the pad's scripts run."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route, expect

from tests.web.test_browser import Pad
from web.client import Phone

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
    # The table takes the roll; its answer never reaches the phone (the Wi-Fi dropped it).
    pad = older_phone()
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
    assert pad.errors == []
