"""Refusals as JSON: every refused request gets ``{"error": message}`` in the phone's language
(a page address that is not there gets a page in it, as does a refused printable).

A bad request is 400, a missing PIN 401, a failed cross-site check 403, a stale version 409
(with the current ``state``; the message names who changed the game first where the table
knows it: another phone, the camera, a button), too many PIN tries 429, no free live stream
or a journal that cannot be written (a full or read-only disk) 503. Nothing in the game
changes on any of them.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from device.journal import JournalError
from device.session import StaleVersion
from engine import Refusal
from web.i18n import choose_language, text
from web.table import table
from web.wording import engine_text

LANGUAGE_COOKIE = "lang"


class ApiError(Exception):
    """A refusal with an HTTP status and a page message key (see the ``ui`` catalogs)."""

    def __init__(self, status: int, key: str, /, *, extra: dict[str, Any] | None = None,
                 **params: object) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.extra = extra or {}
        self.params = params


def language() -> str:
    """The language of the phone making the request."""
    return choose_language(request.cookies.get(LANGUAGE_COOKIE),
                           request.headers.get("Accept-Language"))


def refusal(status: int, message: str, **extra: Any) -> tuple[Response, int]:
    """A JSON refusal."""
    return jsonify({"error": message, **extra}), status


def refusal_page(status: int, lang: str, key: str, **params: object) -> tuple[str, int]:
    """A refusal as a page (for an address a phone opens itself, not the pad's script): the
    message ``key`` in ``lang``, with the way back to the score pad."""
    return render_template("missing.html", lang=lang, message=text(lang, key, **params),
                           way_back=text(lang, "menu.pad")), status


def _page_error(err: HTTPException) -> tuple[str, int] | HTTPException:
    """A page address that is not there (an old bookmark, a typo): said in the phone's words,
    with the way back to the score pad; other page errors as Werkzeug words them."""
    if err.code != 404:
        return err
    return refusal_page(404, language(), "error.http404")


def register_handlers(app: Flask) -> None:
    """Turn every refusal the app meets into JSON."""

    @app.errorhandler(ApiError)
    def api_error(err: ApiError) -> tuple[Response, int]:
        response, status = refusal(err.status, text(language(), err.key, **err.params),
                                   **err.extra)
        if "retry_after" in err.extra:
            response.headers["Retry-After"] = str(err.extra["retry_after"])
        return response, status

    @app.errorhandler(Refusal)
    def engine_or_session_refusal(err: Refusal) -> tuple[Response, int]:
        return refusal(400, engine_text(language(), err))

    @app.errorhandler(JournalError)
    def journal_failed(err: JournalError) -> tuple[Response, int]:
        app.logger.error("the journal cannot save (%s): %s", err.problem, err)
        return refusal(503, text(language(), f"error.storage.{err.problem}"))

    @app.errorhandler(StaleVersion)
    def stale(err: StaleVersion) -> tuple[Response, int]:
        key = "error.stale" if err.by is None else f"error.stale.{err.by}"
        return refusal(409, text(language(), key), state=table().payload(err.current))

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> tuple[Response | str, int] | HTTPException:
        if not (request.path.startswith("/api/") or request.path.startswith("/auth/")
                or request.method == "POST"):
            return _page_error(err)
        status = err.code or 500
        return refusal(status, text(language(), f"error.http{status}")
                       if status in (400, 404, 405, 413, 500) else err.description or err.name)
