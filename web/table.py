"""What the app serves: the table session, its journal, and the app's own small helpers.

Every request reaches them through :func:`table`; the state a phone gets is
:meth:`Table.payload`: the session's snapshot plus the players' colours (and, once a game is
over, everyone's wins so far). A new game and its colours reach the phones together
(:meth:`Table.start_game`).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, cast

from flask import Flask, current_app

from device.journal import Journal, JournalError
from device.notice import Notice
from device.reserve import CARD_FULL
from device.session import SessionError, Snapshot, TableSession
from engine import Game, RecordError
from web.colours import ColourBook
from web.grant_trades import GrantTrades
from web.log import Entry, Told, tell_on
from web.stats import Final, final_from_json, final_of
from web.streams import StreamGate
from web.throttle import PinThrottle
from web.wording import engine_texts

EXTENSION = "dicetable"
STORIES_KEPT = 8
"""Stories kept at once (the game in progress, in each language the phones read)."""
JOIN_LOOK_S = 2.0
"""How often the open live streams look whether the table's address changed: a look asks the
system which address its default route leaves by (5-11 µs measured here), and on the Pi's own
hotspot, which has none, scans its interfaces too (up to 148 µs; a Pi is slower), so one look
serves them all (:meth:`Table.shared_public_address`)."""


def _reason_told(part: Mapping[str, Any]) -> dict[str, Any]:
    """``part`` with its engine reason, if it has one, in every language the phones read."""
    if part.get("reason") is None:
        return dict(part)
    return {**part, "reason": engine_texts(part["reason"])}


@dataclass
class Table:
    """The session and journal the app was built around, and the app's helpers."""

    session: TableSession
    journal: Journal
    colours: ColourBook
    streams: StreamGate
    throttle: PinThrottle
    public_url: Callable[[], str] | None
    """What gives the address in the join code, asked as each page is made and as open pages
    look again (see :func:`public_url`); None: the address the phone used
    (:mod:`web.join`)."""
    notices: list[Notice] = field(default_factory=list)
    """What the host must be told since the start (and what the table told since:
    :meth:`tell`), until a phone with the PIN dismisses it (:meth:`read_notices`). Each
    change reaches the open pages: they ask for the notices again
    (:meth:`TableSession.notices_changed`)."""
    build: str = ""
    """The pad's build this table serves (:mod:`web.build`): in every state, so that a page
    served another loads again."""
    trades: GrantTrades = field(default_factory=GrantTrades)
    """The first score pad's shared token traded for phones' own grants (web.auth)."""
    _address: tuple[float, str | None] | None = field(default=None, repr=False)
    """The address last asked of :attr:`public_url`, and when (``time.monotonic``)."""
    _address_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _why_salt: bytes = field(default_factory=lambda: secrets.token_bytes(16), repr=False)
    _encoded: tuple[int, str] | None = field(default=None, repr=False)
    _stories: dict[tuple[int, str], tuple[int, Told]] = field(default_factory=dict,
                                                             repr=False)
    _finals: dict[tuple[int, int], Final] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _setting_up: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def renew_public_address(self) -> str | None:
        """The address :attr:`public_url` gives, asked now (None without one, or for ``""``),
        and the open live streams' answer from now on (a page's stream starts with what it
        shows)."""
        with self._address_lock:
            return self._asked_public_address()

    def shared_public_address(self) -> str | None:
        """The address as the open live streams look at it: asked again only once the answer
        is :data:`JOIN_LOOK_S` old, by one stream for them all. A fresh answer is read without
        the lock (the pair is replaced whole): every stream asks at each of its wakes."""
        kept = self._address
        if kept is not None and time.monotonic() - kept[0] < JOIN_LOOK_S:
            return kept[1]
        with self._address_lock:
            if self._address is None or time.monotonic() - self._address[0] >= JOIN_LOOK_S:
                return self._asked_public_address()
            return self._address[1]

    def _asked_public_address(self) -> str | None:
        """The address :attr:`public_url` gives, asked of it now and kept for the streams
        (with :attr:`_address_lock` held)."""
        address = (self.public_url() if self.public_url is not None else None) or None
        self._address = (time.monotonic(), address)
        return address

    def __post_init__(self) -> None:
        self.journal.on_room_let_go = self._card_filled
        self._card_filled()  # (a write before the app was made)

    def _card_filled(self) -> None:
        """Tell the host, on every page open, that the card filled up if a write by anyone (a
        phone, the camera, a button) let the kept room go since it was last told."""
        if self.journal.room_let_go:
            self.journal.room_let_go = False
            self.tell(CARD_FULL)

    def tell(self, notice: Notice) -> None:
        """Tell the host ``notice`` from now on, with the notices since the start, on every
        page open too (once: one told again while it is shown is not shown twice)."""
        if notice not in self.notices:
            self.notices.append(notice)
            self.session.notices_changed()

    def read_notices(self) -> None:
        """The host has read the notices: no page shows them any more, those open too."""
        if self.notices:
            self.notices.clear()
            self.session.notices_changed()

    def start_game(self, header: dict[str, Any], colours: dict[str, int], *,
                   base_version: int, abandon_current: bool = False) -> Snapshot:
        """Start a game (abandoning the one in progress with ``abandon_current``, only if this
        one is taken) and keep its players' colours, only once the session took it; no phone
        sees the new game before its colours."""
        with self._setting_up:
            snapshot = self.session.new_game(header, base_version=base_version,
                                             abandon_current=abandon_current)
            self.colours.remember(colours)
        return snapshot

    def game(self, game_id: int) -> Game:
        """Game ``game_id`` of the journal, replayed (SessionError if there is none)."""
        return self.session.game(game_id)

    def finals(self, history: Iterable[Mapping[str, Any]]) -> list[Final]:
        """The ends of the finished games ``history`` describes (:meth:`Journal.history`), in
        its order, each remembered by its id and the number of its last line (a game
        un-finished by an undo ends anew at a later line): as the journal kept it, else
        replayed once and kept there (all in one write); a game that does not replay is left
        out."""
        finals = []
        kept: dict[tuple[int, int], Any] | None = None
        made: list[tuple[int, int, dict[str, Any]]] = []
        for meta in history:
            key = (int(meta["id"]), int(meta["last_seq"]))
            with self._lock:
                known = self._finals.get(key)
            if known is None:
                kept = self.journal.finals() if kept is None else kept
                known = final_from_json(kept.get(key))
                if known is None:  # missing, garbled or of another end
                    known = self._replayed_final(key[0])
                    if known is None:
                        continue
                    made.append((key[0], key[1], known.to_json()))
                with self._lock:
                    self._finals[key] = known
            finals.append(known)
        if made:
            with suppress(JournalError):  # a card that cannot take them: made again next time
                self.journal.keep_finals(made)
        return finals

    def _replayed_final(self, game_id: int) -> Final | None:
        """The end of finished game ``game_id``, replayed; None if it does not replay."""
        try:
            return final_of(self.game(game_id))
        except (SessionError, RecordError):
            return None

    def story(self, snapshot: Snapshot, game: Game, lang: str) -> list[Entry]:
        """:func:`web.log.game_log` of the game ``snapshot`` shows: told on from where it was
        last told in ``lang``, for every phone (each fetches it after every change)."""
        key = (snapshot.game_id or 0, lang)
        with self._lock:
            version, told = self._stories.get(key, (None, None))
        if version != snapshot.version or told is None:
            told = tell_on(game, lang, told)
            with self._lock:
                if len(self._stories) >= STORIES_KEPT:
                    self._stories.clear()
                self._stories[key] = (snapshot.version, told)
        return told.entries

    def payload(self, snapshot: Snapshot) -> dict[str, Any]:
        """The state as every phone gets it (web/README.md)."""
        data = snapshot.to_json()
        header = data.get("header") or {}
        players = header.get("players") or []
        with self._setting_up:  # a game being set up: wait for its colours
            data["colours"] = self.colours.colours_for(players)
        view = data.get("view") or {}
        data["wins"] = self.session.player_wins() if view.get("over") else None
        camera = data.get("camera")
        if camera is not None:
            camera = data["camera"] = dict(camera)
            for field in ("why", "unreadable_why"):
                why = camera.get(field)
                if why is not None:  # its values (a folder, a device, the picture's name, the
                    # system's words) are the host's alone: GET /api/camera/why; their digest
                    # says when to ask again
                    camera[field] = {"key": why["key"], "values": self._why_digest(why)}
            if camera.get("ask") is not None:
                camera["ask"] = _reason_told(camera["ask"])
            lesson = (camera.get("teach") or {}).get("lesson")
            if lesson is not None and lesson.get("doubt") is not None:
                camera["teach"] = {**camera["teach"],
                                   "lesson": {**lesson, "doubt": _reason_told(lesson["doubt"])}}
        if data.get("buttons") is not None:
            data["buttons"] = _reason_told(data["buttons"])
        data["build"] = self.build
        return data

    def _why_digest(self, why: Mapping[str, Any]) -> str:
        """A short digest of a reason the host alone reads in full (why the camera is out,
        why the first picture of a run of one reason could not be read), values and all, that
        changes with them and, keyed by this run's secret, does not tell them."""
        text = json.dumps(why, sort_keys=True, ensure_ascii=False).encode()
        return hashlib.blake2s(text, key=self._why_salt, digest_size=6).hexdigest()

    def encoded(self, snapshot: Snapshot) -> str:
        """:meth:`payload` as JSON text, computed once per snapshot for all the streams."""
        with self._lock:
            if self._encoded is not None and self._encoded[0] == snapshot.live:
                return self._encoded[1]
        text = json.dumps(self.payload(snapshot), ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._encoded = (snapshot.live, text)
        return text


def public_url(given: str | Callable[[], str] | None) -> Callable[[], str] | None:
    """The config's ``PUBLIC_URL`` as :attr:`Table.public_url` is: a function as it is
    (``dicetable serve``'s finds the Pi's address again for each page), a fixed address made
    one, or None (an empty address, as a function giving none, falls back to the address the
    phone used: :mod:`web.join`).

    >>> public_url("http://table.local:8017/")(), public_url(None)
    ('http://table.local:8017/', None)
    """
    if isinstance(given, str):
        return lambda: given
    return given


def table(app: Flask | None = None) -> Table:
    """The :class:`Table` of ``app`` (default: the app handling the current request)."""
    return cast(Table, (app or current_app).extensions[EXTENSION])
