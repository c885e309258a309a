"""The page: one phone-first score pad (set-up, play, corrections, history, statistics,
rules, join code), and what makes it installable (its web manifest).

The first load carries everything the page needs in one JSON block: the phone's language
catalog, the state, the set-up facts and the CSRF token; live updates follow by SSE. What
only some screens need (the rules, the statistics and result-picture scripts) is fetched when
they are opened.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    url_for,
)

from web.auth import authorised, csrf_token
from web.colours import PALETTE
from web.errors import language
from web.games import setup_facts
from web.i18n import LANGUAGES, catalog, later_words, page_words
from web.join import join_qr, join_url
from web.notices import notices
from web.printables import own_wifi
from web.table import table

bp = Blueprint("pages", __name__)


@bp.get("/")
def pad() -> str:
    """The score pad."""
    return _page(kiosk=False)


@bp.get("/kiosk")
def kiosk() -> str:
    """The score pad for a TV on the Pi (``dicetable kiosk``): large, with the join code
    beside it and the camera's last settled frame; it only watches."""
    return _page(kiosk=True)


def _page(*, kiosk: bool) -> str:
    lang = language()
    url = join_url()
    facts = setup_facts()
    host = authorised()
    boot = {
        "lang": lang,
        "languages": list(LANGUAGES),
        "ui": page_words(lang),
        "csrf": csrf_token(),
        "auth": host,
        "state": table().payload(table().session.snapshot()),
        "notices": notices(host),
        "facts": facts,
        "games": list(facts),
        "palette": list(PALETTE),
        "heartbeat": current_app.config["SSE_HEARTBEAT_S"],
        "wifi_card": own_wifi() is not None,  # the host may print the card of the Pi's Wi-Fi
    }
    return render_template("pad.html", lang=lang, boot=boot, url=url, qr=join_qr(url), kiosk=kiosk)


@bp.get("/i18n/<lang>.json")
def ui_catalog(lang: str) -> Response:
    """The page's words in another language (for the language switch)."""
    if lang not in LANGUAGES:
        abort(404)
    return jsonify(page_words(lang))


@bp.get("/i18n/<lang>/rules.json")
def rules(lang: str) -> Response:
    """The short rules of each game and the full text of every Dicy card, in ``lang``."""
    if lang not in LANGUAGES:
        abort(404)
    return jsonify(catalog(lang)["rules"])


@bp.get("/i18n/<lang>/later.json")
def words_later(lang: str) -> Response:
    """The words of the screens drawn later (the camera's panel and teach mode, set-up, the
    games kept, statistics, rules) in ``lang``: loaded with static/camera.js or setup.js."""
    if lang not in LANGUAGES:
        abort(404)
    return jsonify(later_words(lang))


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web manifest: the pad can be added to a phone's home screen."""
    lang = language()
    body = {"name": "dicetable", "short_name": "dicetable", "lang": lang,
            "description": catalog(lang)["ui"]["app.description"],
            "start_url": "/", "scope": "/", "display": "standalone",
            "background_color": "#ffffff", "theme_color": "#111111",
            "icons": [{"src": url_for("static", filename="icon.svg"), "sizes": "any",
                       "type": "image/svg+xml", "purpose": "any"}]}
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response
