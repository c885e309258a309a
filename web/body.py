"""Reading a POST's JSON body, so that no body gets past a 400.

``request.get_json(silent=True)`` turns malformed JSON into None, but a body nested deeper
than the interpreter's recursion limit (``[`` × 7000) raises RecursionError: that is None too,
and so is text that is no Unicode (an escaped lone surrogate, ``"\\ud800"``), which could be
neither journalled nor shown.
"""

from __future__ import annotations

import json

from flask import request


def json_body() -> object | None:
    """The request's JSON body; None if it is not JSON or cannot be parsed."""
    try:
        body = request.get_json(silent=True)
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except (RecursionError, UnicodeEncodeError):
        return None
    return body
