"""Fixtures for the score pad: a real journal in a temporary folder, a running table session,
the app around them, and phones (Flask test clients) that know the CSRF token."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from werkzeug.test import TestResponse

from device.journal import Journal
from device.session import TableSession
from dicetable.child import ServedTable, free_port
from web.app import create_app
from web.server import create_server, end_streams


@contextmanager
def served_here(app: Flask) -> Iterator[str]:
    """``app`` served by waitress in a thread of this process on a free port, given as its
    address (``http://127.0.0.1:PORT``); its streams ended and the server closed after."""
    server = create_server(app, host="127.0.0.1", port=free_port())
    threading.Thread(target=server.run, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        end_streams(app)
        server.close()


class Phone:
    """One phone at the table: a test client with its session cookie and CSRF token."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.csrf = client.get("/api/state").json["csrf"]  # type: ignore[index]

    def state(self) -> dict[str, Any]:
        """The current state, as ``GET /api/state`` gives it."""
        body = self.client.get("/api/state").json
        assert body is not None
        state: dict[str, Any] = body["state"]
        return state

    def post(self, path: str, body: object, **headers: str) -> TestResponse:
        """A POST as the page makes it: JSON with the CSRF header."""
        return self.client.post(path, json=body, headers={"X-CSRF-Token": self.csrf, **headers})

    def enter_pin(self, pin: str) -> TestResponse:
        """Enter the PIN; a right one makes the phone able to change the game."""
        response = self.post("/auth/pin", {"pin": pin})
        if response.status_code == 200:
            self.csrf = response.json["csrf"]  # type: ignore[index]
        return response

    def change(self, path: str, body: dict[str, Any] | None = None) -> TestResponse:
        """A change made from the current version."""
        return self.post(path, {"base_version": self.state()["version"], **(body or {})})

    def act(self, line: dict[str, Any]) -> TestResponse:
        """One action (or undo) from the current version."""
        return self.change("/api/action", {"line": line})

    def play(self, *lines: dict[str, Any]) -> dict[str, Any]:
        """Several actions that must all be accepted; returns the last state."""
        state: dict[str, Any] = {}
        for line in lines:
            response = self.act(line)
            assert response.status_code == 200, response.json
            state = response.json["state"]  # type: ignore[index]
        return state


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    """A fresh journal in a temporary state folder."""
    journal = Journal(tmp_path / "table.db")
    yield journal
    journal.close()


@pytest.fixture
def table_session(journal: Journal) -> Iterator[TableSession]:
    """A running table session on the journal."""
    session = TableSession(journal)
    session.start()
    yield session
    session.stop()


def make_app(session: TableSession, journal: Journal) -> Flask:
    """The score pad app for tests (short live streams so that tests end quickly)."""
    return create_app({"TABLE_SESSION": session, "JOURNAL": journal, "TESTING": True,
                       "SSE_HEARTBEAT_S": 0.2, "SSE_MAX_S": 1.0})


@pytest.fixture
def app(table_session: TableSession, journal: Journal) -> Flask:
    """The score pad app on the fixtures' session and journal."""
    return make_app(table_session, journal)


@pytest.fixture
def new_table(tmp_path: Path) -> Iterator[Callable[[], tuple[Phone, FlaskClient]]]:
    """Makes more tables, each with its own journal, session and app: returns a phone that
    entered the PIN and a watcher's client."""
    opened: list[tuple[Journal, TableSession]] = []

    def make() -> tuple[Phone, FlaskClient]:
        journal = Journal(tmp_path / f"table-{len(opened)}" / "table.db")
        session = TableSession(journal)
        session.start()
        opened.append((journal, session))
        app = make_app(session, journal)
        host = Phone(app.test_client())
        assert host.enter_pin(journal.pin()).status_code == 200
        return host, app.test_client()

    yield make
    for journal, session in opened:
        session.stop()
        journal.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A Flask test client."""
    return app.test_client()


@pytest.fixture
def watcher(app: Flask) -> Phone:
    """A phone without the PIN."""
    return Phone(app.test_client())


@pytest.fixture
def phone(app: Flask, journal: Journal) -> Phone:
    """A phone that entered the PIN."""
    phone = Phone(app.test_client())
    assert phone.enter_pin(journal.pin()).status_code == 200
    return phone


@pytest.fixture
def dalek(phone: Phone) -> Phone:
    """A phone with the PIN, and a Dalek Dice game for Jenna and Peter on the table."""
    response = phone.change("/api/game", {"header": {"game": "dalek",
                                                     "players": ["Jenna", "Peter"]}})
    assert response.status_code == 200, response.json
    return phone


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
STEP_MS = 10_000
"""How long a phone may take to show a change: a 2-core machine running the whole suite can be
slow to answer (a change made on a table shows within a second)."""
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2, "locale": "en-GB"}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright."""
    if not CHROMIUM.exists():
        missing = "needs /usr/bin/chromium (apt-get install chromium; `make test` does)"
        if os.environ.get("DICETABLE_REQUIRE_BROWSER"):
            pytest.fail(missing)
        pytest.skip(missing)
    expect.set_options(timeout=STEP_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def sign_in(page: Page, pin: str) -> None:
    """The phone of the page (the score pad, loaded) signs in as the host does: ``pin`` typed
    in the PIN's dialog (opened by the page's own askPin); the welcome it shows is taken down,
    so that the page is as one loaded with the PIN."""
    page.evaluate("askPin()")
    type_pin(page, pin)
    page.evaluate("untoast(t('pin.welcome'))")


def type_pin(page: Page, pin: str) -> None:
    """``pin`` typed in the page's open PIN dialog and sent: the dialog closes."""
    page.fill("#pin-input", pin)
    page.click("#pin-ok")
    expect(page.locator("#pin-dialog")).to_be_hidden()


def log_out_a_copy(page: Page, url: str) -> None:
    """The page's phone loses the PIN's grant as when logged out on a copy of it (another
    phone with its cookie, in the table at ``url``): the page itself is not told."""
    assert page.context.browser is not None
    copy = page.context.browser.new_context()
    try:
        copy.add_cookies([{"name": c["name"], "value": c["value"], "url": url}
                          for c in page.context.cookies()])
        csrf = copy.request.get(url + "/api/state").json()["csrf"]
        assert copy.request.post(url + "/auth/logout", data="{}", headers={
            "Content-Type": "application/json", "X-CSRF-Token": csrf}).ok  # every copy's grant
    finally:
        copy.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedTable]:
    """``dicetable serve`` running in a child process with a fresh state folder."""
    with ServedTable(tmp_path / "state") as table:
        yield table


@pytest.fixture
def open_phone(browser: Browser, served: ServedTable) -> Iterator[Callable[..., Page]]:
    """Opens the score pad on a new phone (its own cookies), 360 px wide."""
    contexts: list[BrowserContext] = []

    def open_page(**options: Any) -> Page:
        context = browser.new_context(**{**PHONE, **options})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        page.goto(served.url + "/")
        return page

    yield open_page
    for context in contexts:
        context.close()
