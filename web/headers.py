"""Headers on every answer that keep the page to itself: no script, style or frame from
anywhere else, no other site framing it, no type sniffing, no address sent on to other sites.

The page loads only its own scripts and style sheet (its first state is a JSON data block, not
a script); the join QR code is inline SVG; the icon is a ``data:`` URL.
"""

from __future__ import annotations

from flask import Flask, Response

POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def add_security_headers(app: Flask) -> None:
    """Put :data:`HEADERS` on every answer of ``app``."""

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
