"""Who may change the game: PIN, host link token, CSRF and cross-site checks, slowed PINs."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from functools import partial
from http.cookies import SimpleCookie
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask

from device.button_config import button_config, buttons_off
from device.config import ConfigError
from device.journal import Journal
from device.session import TableSession
from tests.web.conftest import served_here
from web.app import create_app
from web.auth import host_link, host_token
from web.table import table
from web.throttle import PinThrottle

if TYPE_CHECKING:
    from tests.web.conftest import Phone

GAME = {"header": {"game": "dalek", "players": ["Ana", "Ben"]}}
SENT_AT_ONCE = 6  # a phone's first requests: the page, its state, the live stream, ...


def test_changing_the_game_needs_the_pin(watcher: Phone) -> None:
    response = watcher.change("/api/game", GAME)
    assert response.status_code == 401
    assert response.json["need_pin"] is True  # type: ignore[index]
    assert watcher.state()["view"] is None


def test_the_right_pin_grants_and_logout_takes_it_back(watcher: Phone, journal: Journal) -> None:
    assert watcher.enter_pin(journal.pin()).status_code == 200
    assert watcher.change("/api/game", GAME).status_code == 200
    assert watcher.post("/auth/logout", {}).status_code == 200
    assert watcher.act({"roll": ["H4"] * 10}).status_code == 401


def test_the_pin_and_logout_answer_with_the_notices_as_the_phone_now_reads_them(
        app: Flask, watcher: Phone, journal: Journal) -> None:
    # the pad asked the whole state anew after either, for its notices alone
    try:
        button_config({"stop": 40}, "[buttons]")
    except ConfigError as err:
        with app.app_context():
            table().notices.append(buttons_off(err, "/etc/dicetable/config.toml"))
    host_words = watcher.enter_pin(journal.pin()).json["notices"]  # type: ignore[index]
    assert host_words == watcher.client.get("/api/state").json["notices"]  # type: ignore[index]
    assert "/etc/dicetable/config.toml: stop = 40" in host_words[0]
    guest_words = watcher.post("/auth/logout", {}).json["notices"]  # type: ignore[index]
    assert guest_words == watcher.client.get("/api/state").json["notices"]  # type: ignore[index]
    assert guest_words[0].startswith("The table's buttons are off until the host fixes")


def test_a_post_without_the_csrf_token_is_refused(phone: Phone) -> None:
    response = phone.client.post("/api/game", json={**GAME, "base_version": 0})
    assert response.status_code == 403
    response = phone.post("/api/game", {**GAME, "base_version": 0}, **{"X-CSRF-Token": "x"})
    assert response.status_code == 403
    assert phone.state()["view"] is None


def test_a_post_from_another_site_is_refused(phone: Phone) -> None:
    body = {**GAME, "base_version": 0}
    assert phone.post("/api/game", body, Origin="http://evil.example").status_code == 403
    assert phone.post("/api/game", body, **{"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert phone.state()["view"] is None
    assert phone.post("/api/game", body, Origin="http://localhost").status_code == 200


def test_a_form_post_is_not_json_and_is_refused(phone: Phone) -> None:
    response = phone.client.post("/api/game", data={"header": "x"},
                                 headers={"X-CSRF-Token": phone.csrf})
    assert response.status_code == 400


def test_wrong_pins_are_slowed_down(app: Flask, watcher: Phone, journal: Journal) -> None:
    table(app).throttle = PinThrottle(clock=lambda: 0.0)  # no wait runs out, however slow
    wrong = "000000" if journal.pin() != "000000" else "111111"
    statuses = [watcher.enter_pin(wrong).status_code for _ in range(4)]
    assert statuses == [403, 403, 403, 403]
    locked = watcher.enter_pin(journal.pin())
    assert locked.status_code == 429
    assert int(locked.headers["Retry-After"]) >= 1
    assert "Wait" in locked.json["error"]  # type: ignore[index]


def test_a_granted_phone_stays_granted_after_a_restart(phone: Phone, journal: Journal) -> None:
    cookie = phone.client.get_cookie("dicetable")
    assert cookie is not None
    restarted = Journal(journal.path)
    session = TableSession(restarted)
    session.start()
    try:
        app = create_app({"TABLE_SESSION": session, "JOURNAL": restarted, "TESTING": True})
        client = app.test_client()
        client.set_cookie("dicetable", cookie.value)
        assert client.get("/api/state").json["auth"] is True  # type: ignore[index]
    finally:
        session.stop()


EARLIER_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, header TEXT NOT NULL, started_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing', ended_at TEXT, winners TEXT);
CREATE TABLE lines (game_id INTEGER NOT NULL REFERENCES games (id), seq INTEGER NOT NULL,
    line TEXT NOT NULL, source TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE changes (version INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER REFERENCES games (id), what TEXT NOT NULL, at TEXT NOT NULL);
"""
"""The journal of the first score pad, which kept no grants: a phone that entered the PIN held
the PIN's keyed token (the same for every phone) in its cookie."""


def earlier_journal(folder: Path) -> tuple[Journal, str]:
    """The first score pad's journal in ``folder``, opened by this version, and the token its
    phones that entered the PIN hold."""
    pin, secret = "482915", "5e" * 32
    with closing(sqlite3.connect(folder / "table.db")) as db:
        db.executescript(EARLIER_SCHEMA)
        db.executemany("INSERT INTO settings VALUES (?, ?)", [("pin", pin), ("secret", secret)])
        db.commit()
    earlier_grant = hmac.new(secret.encode(), f"grant:{pin}".encode(),
                             hashlib.sha256).hexdigest()[:32]
    return Journal(folder / "table.db"), earlier_grant


def earlier_cookie(app: Flask, earlier_grant: str, csrf: str = "earlier") -> str:
    """The session cookie of a phone that entered the PIN on the first score pad."""
    return app.session_interface.get_signing_serializer(app).dumps(  # type: ignore[union-attr,no-any-return]
        {"csrf": csrf, "grant": earlier_grant, "_permanent": True})


def test_a_phone_signed_in_before_the_update_stays_signed_in(tmp_path: Path) -> None:
    # It was told nothing and could only watch: its next move asked for the PIN
    journal, earlier_grant = earlier_journal(tmp_path)
    session = TableSession(journal)
    session.start()
    try:
        app = create_app({"TABLE_SESSION": session, "JOURNAL": journal, "TESTING": True})
        phone = app.test_client()
        phone.set_cookie("dicetable", earlier_cookie(app, earlier_grant))
        assert phone.get("/api/state").json["auth"] is True  # type: ignore[index]
        with phone.session_transaction() as kept:  # its token traded for a grant of its own
            assert kept["grant"] != earlier_grant and journal.granted(kept["grant"])
        started = phone.post("/api/game", json={**GAME, "base_version": 0},
                             headers={"X-CSRF-Token": "earlier"})
        assert started.status_code == 200, started.json
        journal.new_pin()  # as every grant, it ends with the PIN
        assert phone.get("/api/state").json["auth"] is False  # type: ignore[index]
    finally:
        session.stop()


def test_first_requests_sent_at_once_by_a_phone_signed_in_before_the_update_get_one_grant(
        tmp_path: Path) -> None:
    # Each request traded the token for a grant: a phone opening the score pad (its page,
    # state and live stream at once) got several, the spare ones standing for 30 days
    journal, earlier_grant = earlier_journal(tmp_path)
    session = TableSession(journal)
    session.start()
    app = create_app({"TABLE_SESSION": session, "JOURNAL": journal})
    cookies = [earlier_cookie(app, earlier_grant, csrf) for csrf in ("ana's", "ben's")]
    at_once = threading.Barrier(2 * SENT_AT_ONCE)

    def first_request(url: str, cookie: str) -> tuple[bool, str]:
        """Whether the phone may change the game, and the grant its cookie now holds."""
        connection = http.client.HTTPConnection(url.removeprefix("http://"), timeout=30)
        at_once.wait()
        connection.request("GET", "/api/state", headers={"Cookie": f"dicetable={cookie}"})
        answer = connection.getresponse()
        auth = json.loads(answer.read())["auth"]
        kept = SimpleCookie(answer.getheader("Set-Cookie", ""))["dicetable"].value
        connection.close()
        grant: str = app.session_interface.get_signing_serializer(app).loads(  # type: ignore[union-attr]
            kept)["grant"]
        return auth, grant

    try:
        with served_here(app) as url, ThreadPoolExecutor(2 * SENT_AT_ONCE) as phones:
            answers = list(phones.map(partial(first_request, url),
                                      [c for c in cookies for _ in range(SENT_AT_ONCE)]))
        assert all(auth for auth, _ in answers)
        ana, ben = {g for _, g in answers[:SENT_AT_ONCE]}, {g for _, g in answers[SENT_AT_ONCE:]}
        assert len(ana) == len(ben) == 1 and ana != ben  # one grant each, of its own
        with closing(sqlite3.connect(journal.path)) as db:
            assert {grant for (grant,) in db.execute("SELECT id FROM grants")} == ana | ben
    finally:
        session.stop()


def test_the_host_link_grants_without_the_pin(app: Flask, journal: Journal) -> None:
    client = app.test_client()
    link = host_link("http://table.local:8000/", journal)
    assert link == f"http://table.local:8000/auth/join?token={host_token(journal)}"
    response = client.get(f"/auth/join?token={host_token(journal)}")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert client.get("/api/state").json["auth"] is True  # type: ignore[index]


def test_a_wrong_token_grants_nothing(app: Flask) -> None:
    client = app.test_client()
    refused = client.get("/auth/join?token=nope")
    assert refused.status_code == 303 and refused.headers["Location"] == "/?join=refused"
    assert client.get("/api/state").json["auth"] is False  # type: ignore[index]


def test_the_session_cookie_is_strict(app: Flask, journal: Journal) -> None:
    client = app.test_client()
    response = client.get("/")
    cookie = response.headers["Set-Cookie"]
    assert "SameSite=Strict" in cookie and "HttpOnly" in cookie


def test_a_read_in_flight_cannot_undo_a_pin_entered_meanwhile(watcher: Phone,
                                                               journal: Journal) -> None:
    """A phone's reads (the state, the camera's picture) send no cookie back once it has one:
    a read that left before the PIN was entered and comes back after it would otherwise put
    the phone's old cookie, without the grant, in place of the new one."""
    watcher.state()
    assert watcher.client.get("/api/state").headers.get("Set-Cookie") is None
    assert watcher.client.get("/api/record").headers.get("Set-Cookie") is None
    assert watcher.enter_pin(journal.pin()).headers.get("Set-Cookie") is not None
    assert watcher.client.get("/api/state").headers.get("Set-Cookie") is None
    assert watcher.change("/api/game", GAME).status_code == 200
