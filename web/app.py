"""The app factory: ``create_app(config)`` builds the score pad around a table session.

``config`` must give ``TABLE_SESSION`` (a started :class:`device.session.TableSession`) and
``JOURNAL`` (its :class:`device.journal.Journal`: the PIN and the cookie secret live there).
Optional: ``PUBLIC_URL`` (the address in the join QR code: a function giving it as each page
is made and as open pages look again, :mod:`web.join`, or a fixed address; default: the
address the phone used; kept as the table's :attr:`web.table.Table.public_url`, a fixed
address made a function, which a server that learns its port only later sets),
``MAX_STREAMS`` (live streams at once, default 40), ``SSE_HEARTBEAT_S`` (15) and
``SSE_MAX_S`` (300), ``NOTICES`` (what the host must be told, :class:`device.notice.Notice`),
``COMITUP_CONF`` (where the Pi's own Wi-Fi is set, default /etc/comitup.conf), and any Flask
setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Flask

from web import api, auth, events, exports, library, pages, printables
from web.build import build_of
from web.colours import ColourBook
from web.errors import register_handlers
from web.headers import add_security_headers
from web.minified import serve_minified
from web.session_cookie import ClockTolerantSessions
from web.streams import StreamGate
from web.table import EXTENSION, Table, public_url
from web.throttle import PinThrottle

DEFAULTS: dict[str, Any] = {
    "MAX_STREAMS": 40,
    "SSE_HEARTBEAT_S": 15.0,
    "SSE_MAX_S": 300.0,
    "PUBLIC_URL": None,
    "NOTICES": (),
    "MAX_CONTENT_LENGTH": 16 * 1024,
    "SESSION_COOKIE_NAME": "dicetable",
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_HTTPONLY": True,
    "PERMANENT_SESSION_LIFETIME": timedelta(days=30),
    # The cookie is sent only when it changes: a read that left before the PIN was entered
    # and comes back after it cannot put the old cookie back (grants expire on the server).
    "SESSION_REFRESH_EACH_REQUEST": False,
}


def create_app(config: Mapping[str, Any]) -> Flask:
    """The score pad app for the session and journal in ``config``."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config)
    journal = app.config["JOURNAL"]
    app.secret_key = journal.secret()
    app.session_interface = ClockTolerantSessions()
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # words as UTF-8, lighter
    # The page's boot block without a space after each comma and colon, as the live updates
    app.jinja_env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":")}
    app.extensions[EXTENSION] = Table(
        session=app.config["TABLE_SESSION"],
        journal=journal,
        colours=ColourBook(journal),
        streams=StreamGate(int(app.config["MAX_STREAMS"])),
        throttle=PinThrottle(),
        public_url=public_url(app.config["PUBLIC_URL"]),
        notices=list(app.config["NOTICES"]),
        build=build_of(app),
    )
    serve_minified(app)
    register_handlers(app)
    add_security_headers(app)
    auth.protect_posts(app)
    for blueprint in (pages.bp, api.bp, library.bp, events.bp, exports.bp, printables.bp,
                      auth.bp):
        app.register_blueprint(blueprint)
    return app
