"""The join code: the address phones at the table use to reach it now, and its QR code.

The page is drawn with it; the live stream (:mod:`web.events`) tells an open page when it
changes (a Pi gets its Wi-Fi address minutes after boot, or moves to its own hotspot), so a
TV's kiosk page, never reloaded, shows the code that works now.
"""

from __future__ import annotations

import json
from functools import lru_cache

from flask import request
from markupsafe import Markup

from web.qr import qr_svg
from web.table import table


def join_url() -> str:
    """The join code's address for the page being made: the table's public address, asked
    now (and shared with the open streams from now on), where it gives one, else the address
    the phone used."""
    return table().renew_public_address() or request.host_url


@lru_cache(maxsize=8)
def join_qr(url: str) -> Markup:
    """``url``'s QR code, as inline SVG for the page."""
    return Markup(qr_svg(url))


def join_event(url: str) -> str:
    """The stream's ``join`` event: the address and its QR code, as the page shows them.

    >>> join_event("http://10.41.0.1:8017/").startswith('event: join\\ndata: {"url":"http')
    True
    """
    data = json.dumps({"url": url, "qr": str(join_qr(url))}, separators=(",", ":"))
    return f"event: join\ndata: {data}\n\n"
