"""Reading a POST's JSON body, so that no body gets past a 400.

``request.get_json(silent=True)`` turns malformed JSON into None, but a body nested deeper
than the interpreter's recursion limit (``[`` × 7000) raises RecursionError: that is None too.
"""

from __future__ import annotations

from flask import request


def json_body() -> object | None:
    """The request's JSON body; None if it is not JSON or cannot be parsed."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None
