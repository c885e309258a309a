"""A phone signed in on the first score pad trades its shared token for a grant of its own
once, even when its first requests come at once (the page, its state, the live stream)."""

from __future__ import annotations

import hashlib
import threading
import time

from device.journal import Journal

REMEMBERED_S = 60.0
"""How long the grant a cookie's trade gave is handed to the requests that carried the same
cookie: those sent together arrive within it (a later request carries the grant itself)."""


class GrantTrades:
    """The grants given lately for the shared token, each by the session cookie that carried
    it (a copy of a cookie is the same phone; each phone's cookie has its own CSRF token)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._given: dict[bytes, tuple[str, float]] = {}

    def trade(self, cookie: str, journal: Journal) -> str:
        """The grant for the phone whose request carried ``cookie``: the one given to this
        cookie in the last :data:`REMEMBERED_S` while it stands, else a new one (JournalError
        where none can be written)."""
        key = hashlib.sha256(cookie.encode("utf-8", "surrogatepass")).digest()
        with self._lock:  # a request sent with another waits for its grant, not a second one
            now = time.monotonic()
            self._given = {k: given for k, given in self._given.items()
                           if now - given[1] < REMEMBERED_S}
            given = self._given.get(key)
            if given is not None and journal.granted(given[0]):
                return given[0]
            grant = journal.grant()
            self._given[key] = (grant, now)
            return grant
