"""Join codes: the table's address as a full QR code (never Micro QR), for the page and the
terminal.

>>> "<svg" in qr_svg("http://192.168.1.20:8000/")
True
>>> qr_text("http://192.168.1.20:8000/").count("\\n") > 10
True
"""

from __future__ import annotations

import io
import socket

import segno


def qr_svg(url: str) -> str:
    """An inline SVG of ``url``'s QR code, for the page."""
    code = segno.make(url, micro=False, error="m")
    svg: str = code.svg_inline(scale=5, border=4, dark="#000", light="#fff",
                               omitsize=True, svgclass="qr")
    return svg


def qr_text(url: str) -> str:
    """``url``'s QR code in Unicode block characters, for a terminal."""
    out = io.StringIO()
    segno.make(url, micro=False, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def table_url(port: int, host: str = "") -> str:
    """The address phones on the table's network use: ``host``, else this machine's LAN
    address (found without sending anything), else its name."""
    if not host or host in ("0.0.0.0", "::"):
        host = _lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def _lan_address() -> str:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 9))
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()
