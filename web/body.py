"""Reading a POST's JSON body, so that no body gets past a 400.

Malformed JSON, or a body that is not sent as JSON, is None (as ``request.get_json(silent=True)``
gives it); so is a body nested deeper than the interpreter's recursion limit (``[`` × 7000), and
text that is no Unicode (an escaped lone surrogate, ``"\\ud800"``), which could be neither
journalled nor shown. An integer past Python's limit for reading one (4300 digits) is refused
in words of its own: the body is JSON, it holds a number too long for any entry.
"""

from __future__ import annotations

import json

from flask import request

from web.errors import ApiError


def json_body() -> object | None:
    """The request's JSON body; None if it is not JSON or cannot be parsed; ApiError 400
    if it holds a number too long to read."""
    if not request.is_json:
        return None
    try:
        body: object = json.loads(request.get_data(cache=True))
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except (json.JSONDecodeError, UnicodeError, RecursionError):
        return None
    except ValueError:  # an integer past Python's digit limit for int('…')
        raise ApiError(400, "error.number_too_long") from None
    return body
