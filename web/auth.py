"""Who may change the game: the table PIN, the host's link token, and cross-site checks.

Anyone may watch. A phone that entered the PIN (or opened the host's link) holds a grant: its
id is in the phone's session cookie (signed with the journal's secret, SameSite=Strict,
HttpOnly), and the journal keeps the grants that stand, so that logging out (or a new PIN,
``dicetable pin --new``) revokes a grant for every copy of the cookie. Every POST must carry
the session's CSRF token in ``X-CSRF-Token``, come from this origin, and be JSON. PINs and
tokens are checked at a bounded pace, per client and for the whole table (:mod:`web.throttle`).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Callable
from contextlib import suppress
from functools import wraps
from typing import ParamSpec, TypeVar

from flask import Blueprint, Flask, Response, current_app, jsonify, redirect, request, session
from werkzeug.wrappers import Response as BaseResponse

from device.journal import Journal, JournalError
from web.body import json_body
from web.errors import ApiError
from web.notices import notices
from web.table import table

bp = Blueprint("auth", __name__, url_prefix="/auth")

CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SERVED_AT_SETTING = "served_at"
"""The journal setting that keeps where ``dicetable serve`` listens (``"HOST PORT"``), so that
``dicetable pin --link`` makes the host link with the address the table has now (the Pi's
network changes: its own hotspot, then a house's Wi-Fi); written by :func:`keep_served_at`,
read by :func:`served_at`."""

P = ParamSpec("P")
R = TypeVar("R")


def csrf_token() -> str:
    """This phone's CSRF token (made on first use; the session cookie keeps it)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
        session.permanent = True
    return token


def authorised() -> bool:
    """True if this phone holds a grant that stands (not revoked, not expired), or the one
    an earlier version gave it (see :func:`_earlier_grant`)."""
    grant = session.get("grant")
    if not isinstance(grant, str):
        return False
    journal = table().journal
    if journal.granted(grant):
        return True
    earlier = _earlier_grant(journal)
    if earlier is None or not _same(grant, earlier):
        return False
    cookie = request.cookies.get(current_app.config["SESSION_COOKIE_NAME"], "")
    with suppress(JournalError):  # (a card that cannot be written: it is asked again next time)
        # a grant of its own, as if it entered the PIN now: one, for its requests sent at once
        session["grant"] = table().trades.trade(cookie, journal)
    return True


def _earlier_grant(journal: Journal) -> str | None:
    """The grant of every phone that entered the PIN before the journal kept grants: the
    PIN's keyed token, the same for all (None where the journal lost its PIN). A phone
    signed in then stays signed in after the update, its token traded for a grant of its own
    (that the host can end, as any) at its first request, while the PIN is the same; its
    first requests sent at once all get that one grant (:mod:`web.grant_trades`)."""
    return _keyed(journal, "grant") if journal.has_pin() else None


def host_token(journal: Journal) -> str:
    """The token the host's link carries instead of the PIN (it changes with the PIN)."""
    return _keyed(journal, "host-link")


def host_link(base_url: str, journal: Journal) -> str:
    """The host's link: the table's address with the token that lets it change the game."""
    return f"{base_url.rstrip('/')}/auth/join?token={host_token(journal)}"


def keep_served_at(journal: Journal, host: str, port: int) -> None:
    """Keep where the table listens (``dicetable serve``, once it listens); JournalError where
    the journal cannot be written."""
    journal.set_setting(SERVED_AT_SETTING, f"{host} {port}")


def served_at(journal: Journal) -> tuple[str, int] | None:
    """Where the table listens, as :func:`keep_served_at` kept it: host and port; None where
    it was never kept (a table not started since an earlier version) or is garbled."""
    host, _, port = (journal.setting(SERVED_AT_SETTING) or "").rpartition(" ")
    return (host, int(port)) if port.isdecimal() else None


def require_pin(view: Callable[P, R]) -> Callable[P, R]:
    """Refuse a view with 401 unless the phone holds the PIN grant."""

    @wraps(view)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        if not authorised():
            raise ApiError(401, "error.pin_needed", extra={"need_pin": True})
        return view(*args, **kwargs)

    return checked


def protect_posts(app: Flask) -> None:
    """Check every state-changing request for a cross-site origin and the CSRF token."""

    @app.before_request
    def check() -> None:
        if request.method in SAFE_METHODS:
            return
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            raise ApiError(403, "error.cross_site")
        origin = request.headers.get("Origin")
        if origin is not None and origin != request.host_url.rstrip("/"):
            raise ApiError(403, "error.cross_site")
        sent = request.headers.get(CSRF_HEADER, "")
        token = session.get("csrf")
        if not isinstance(token, str) or not _same(sent, token):
            raise ApiError(403, "error.csrf")


@bp.post("/pin")
def enter_pin() -> Response:
    """``{"pin": "123456"}``: grant this phone the right to change the game; the answer
    carries its new CSRF token and the notices as the host reads them."""
    body = json_body()
    pin = body.get("pin") if isinstance(body, dict) else None
    if not isinstance(pin, str):
        raise ApiError(400, "error.pin_missing")
    _admit(lambda: _same(pin.strip(), table().journal.pin()))
    return jsonify({"ok": True, "csrf": csrf_token(), "notices": notices(True)})


@bp.get("/join")
def join() -> BaseResponse:
    """The host's link: a right token grants the phone, then (either way) the score pad,
    which says so when it was not the table's link."""
    token = request.args.get("token", "")
    try:
        _admit(lambda: _same(token, host_token(table().journal)))
    except ApiError:
        return redirect("/?join=refused", code=303)
    return redirect("/", code=303)


@bp.post("/logout")
def logout() -> Response:
    """Give the grant back, for every copy of this phone's cookie (it can still watch); the
    answer carries the notices as a guest reads them."""
    grant = session.pop("grant", None)
    if isinstance(grant, str):
        table().journal.revoke(grant)
    return jsonify({"ok": True, "notices": notices(False)})


def _admit(right: Callable[[], bool]) -> None:
    """Check ``right`` when the throttle lets this client try now; grant the phone if it holds,
    refuse it otherwise. A try the throttle refuses is never checked."""
    throttle = table().throttle
    client = request.remote_addr or "unknown"
    wait = throttle.acquire(client)
    if wait > 0:
        seconds = math.ceil(wait)
        raise ApiError(429, "error.pin_wait", seconds=seconds, extra={"retry_after": seconds})
    if not right():
        delay = math.ceil(throttle.delay(client))
        raise ApiError(403, "error.pin_wrong", extra={"retry_after": delay} if delay else None)
    throttle.succeeded(client)
    session["grant"] = table().journal.grant()
    session["csrf"] = secrets.token_urlsafe(24)
    session.permanent = True


def _same(sent: str, expected: str) -> bool:
    """Compare a secret in constant time; any text (non-ASCII, a lone surrogate) is just
    unequal, never an error."""
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def _keyed(journal: Journal, purpose: str) -> str:
    message = f"{purpose}:{journal.pin()}".encode()
    return hmac.new(journal.secret().encode(), message, hashlib.sha256).hexdigest()[:32]
