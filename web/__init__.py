"""The score pad: a Flask app that shows the game on every phone and takes its changes.

:func:`create_app` builds it around a running table session and its journal;
:func:`web.server.create_server` serves it with waitress in the same process.
"""

from web.app import create_app

__all__ = ["create_app"]
