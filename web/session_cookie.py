"""The phone's cookie, signed as Flask signs it, read even when the table's clock went back.

A Pi has no clock battery: after a power cut it may start behind the time it signed a phone's
cookie, and Flask (itsdangerous) refuses a cookie signed in the future, which logged every
phone that had just entered the PIN out. The grant inside the cookie is what the table checks
(:meth:`device.journal.Journal.granted`, which keeps its own 30 days), so here only a cookie
older than ``PERMANENT_SESSION_LIFETIME`` is refused.
"""

from __future__ import annotations

import time

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature


class ClockTolerantSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, less the refusal of a cookie signed "in the future"."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The session of ``request``'s cookie (empty when there is none or it is not ours)."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        try:
            data, signed = serializer.loads(cookie, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if time.time() - signed.timestamp() > app.permanent_session_lifetime.total_seconds():
            return self.session_class()
        return self.session_class(data)
