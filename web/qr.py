"""Join codes: the table's address as a full QR code (never Micro QR), for the page and the
terminal.

>>> "<svg" in qr_svg("http://192.168.1.20:8000/")
True
>>> qr_text("http://192.168.1.20:8000/").count("\\n") > 10
True
"""

from __future__ import annotations

import fcntl
import io
import ipaddress
import socket
import struct

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
    """The address the default route leaves by, else the first of the connected interfaces'
    (the Pi's own hotspot has no default route: comitup gives it 10.41.0.1/24 alone), else
    this machine's name."""
    return _routed_address() or next(iter(_interface_addresses()), socket.gethostname())


def _routed_address() -> str | None:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 9))
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return None
    finally:
        probe.close()


_SIOCGIFFLAGS, _SIOCGIFADDR = 0x8913, 0x8915  # Linux's ioctls: an interface's flags, address
_IFF_UP, _IFF_LOOPBACK, _IFF_RUNNING = 0x1, 0x8, 0x40


def _interface_addresses() -> list[str]:
    """The IPv4 addresses of the interfaces that are up and connected, loopback and link-local
    addresses left out (phones on the hotspot cannot reach a cable's 169.254 address)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                flags = struct.unpack_from("H", fcntl.ioctl(probe, _SIOCGIFFLAGS, request), 16)[0]
                if flags & _IFF_LOOPBACK or flags & (_IFF_UP | _IFF_RUNNING) != (
                        _IFF_UP | _IFF_RUNNING):
                    continue
                answer = fcntl.ioctl(probe, _SIOCGIFADDR, request)
            except OSError:  # (an interface without an IPv4 address, or gone meanwhile)
                continue
            address = socket.inet_ntoa(answer[20:24])
            if not ipaddress.ip_address(address).is_link_local:  # (169.254/16: a cable alone)
                found.append(address)
    return found
