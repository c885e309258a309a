"""Who may change the game: the table PIN, the host's link token, and cross-site checks.

Anyone may watch. A phone that entered the PIN (or opened the host's link) holds a grant in
its session cookie (signed with the journal's secret, SameSite=Strict, HttpOnly). Every POST
must carry the session's CSRF token in ``X-CSRF-Token``, come from this origin, and be JSON.
Wrong PINs and tokens are slowed down per client (:mod:`web.throttle`).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import math
import secrets
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from flask import Blueprint, Flask, Response, jsonify, redirect, request, session
from werkzeug.wrappers import Response as BaseResponse

from device.journal import Journal
from web.body import json_body
from web.errors import ApiError
from web.table import table

bp = Blueprint("auth", __name__, url_prefix="/auth")

CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

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
    """True if this phone may change the game."""
    grant = session.get("grant")
    return isinstance(grant, str) and hmac.compare_digest(grant, _grant(table().journal))


def host_token(journal: Journal) -> str:
    """The token the host's link carries instead of the PIN (it changes with the PIN)."""
    return _keyed(journal, "host-link")


def host_link(base_url: str, journal: Journal) -> str:
    """The host's link: the table's address with the token that lets it change the game."""
    return f"{base_url.rstrip('/')}/auth/join?token={host_token(journal)}"


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
        if not isinstance(token, str) or not hmac.compare_digest(sent, token):
            raise ApiError(403, "error.csrf")


@bp.post("/pin")
def enter_pin() -> Response:
    """``{"pin": "123456"}``: grant this phone the right to change the game."""
    body = json_body()
    pin = body.get("pin") if isinstance(body, dict) else None
    if not isinstance(pin, str):
        raise ApiError(400, "error.pin_missing")
    _admit(hmac.compare_digest(pin.strip().encode(), table().journal.pin().encode()))
    return jsonify({"ok": True, "csrf": csrf_token()})


@bp.get("/join")
def join() -> BaseResponse:
    """The host's link: a right token grants the phone, then (either way) the score pad."""
    token = request.args.get("token", "")
    with contextlib.suppress(ApiError):
        _admit(hmac.compare_digest(token.encode(), host_token(table().journal).encode()))
    return redirect("/", code=303)


@bp.post("/logout")
def logout() -> Response:
    """Give the grant back (the phone can still watch)."""
    session.pop("grant", None)
    return jsonify({"ok": True})


def _admit(right: bool) -> None:
    """Grant the phone if ``right``; slow down and refuse it otherwise."""
    throttle = table().throttle
    client = request.remote_addr or "unknown"
    wait = throttle.wait(client)
    if wait > 0:
        seconds = math.ceil(wait)
        raise ApiError(429, "error.pin_wait", seconds=seconds, extra={"retry_after": seconds})
    if not right:
        delay = math.ceil(throttle.failed(client))
        raise ApiError(403, "error.pin_wrong", extra={"retry_after": delay} if delay else None)
    throttle.succeeded(client)
    session["grant"] = _grant(table().journal)
    session["csrf"] = secrets.token_urlsafe(24)
    session.permanent = True


def _grant(journal: Journal) -> str:
    return _keyed(journal, "grant")


def _keyed(journal: Journal, purpose: str) -> str:
    message = f"{purpose}:{journal.pin()}".encode()
    return hmac.new(journal.secret().encode(), message, hashlib.sha256).hexdigest()[:32]
