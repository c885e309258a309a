"""What the app serves: the table session, its journal, and the app's own small helpers.

Every request reaches them through :func:`table`; the state a phone gets is
:meth:`Table.payload`: the session's snapshot plus the players' colours (and, once a game is
over, everyone's wins so far).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any, cast

from flask import Flask, current_app

from device.journal import Journal
from device.session import Snapshot, TableSession
from web.colours import ColourBook
from web.streams import StreamGate
from web.throttle import PinThrottle

EXTENSION = "dicetable"


@dataclass
class Table:
    """The session and journal the app was built around, and the app's helpers."""

    session: TableSession
    journal: Journal
    colours: ColourBook
    streams: StreamGate
    throttle: PinThrottle
    _encoded: tuple[int, str] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def payload(self, snapshot: Snapshot) -> dict[str, Any]:
        """The state as every phone gets it (docs: web/README in the report)."""
        data = snapshot.to_json()
        header = data.get("header") or {}
        players = header.get("players") or []
        data["colours"] = self.colours.colours_for(players)
        view = data.get("view") or {}
        data["wins"] = self.session.player_wins() if view.get("over") else None
        return data

    def encoded(self, snapshot: Snapshot) -> str:
        """:meth:`payload` as JSON text, computed once per version for all the streams."""
        with self._lock:
            if self._encoded is not None and self._encoded[0] == snapshot.version:
                return self._encoded[1]
        text = json.dumps(self.payload(snapshot), ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._encoded = (snapshot.version, text)
        return text

    def forget_encoded(self) -> None:
        """Drop the cached text (after the colours changed)."""
        with self._lock:
            self._encoded = None


def table(app: Flask | None = None) -> Table:
    """The :class:`Table` of ``app`` (default: the app handling the current request)."""
    return cast(Table, (app or current_app).extensions[EXTENSION])
