"""The score pad: a Flask app that shows the game on every phone and takes its changes.

:func:`web.app.create_app` builds it around a running table session and its journal;
:func:`web.server.create_server` serves it with waitress in the same process. The package
loads nothing itself: a command that needs only the pad's words (:mod:`web.wording`) does not
load Flask and the camera's libraries with them.
"""
