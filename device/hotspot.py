"""The Pi's own Wi-Fi (its hotspot), as ``systemd/install --wifi-setup`` set it for comitup:
what a host needs to join it at a house whose Wi-Fi the Pi does not know.

>>> Hotspot("dicetable-1234", "k3;x").join_code
'WIFI:T:WPA;S:dicetable-1234;P:k3\\\\;x;;'
"""

from __future__ import annotations

import configparser
import re
from dataclasses import dataclass
from pathlib import Path

COMITUP_CONF = Path("/etc/comitup.conf")
HOTSPOT_ADDRESS = "10.41.0.1"  # comitup gives the Pi this address on its hotspot
WPA_SHORTEST = 8  # comitup's hotspot has a password (WPA) only where it is this long (nm.py)


@dataclass(frozen=True)
class Hotspot:
    """The hotspot's name and password ("" where it is open)."""

    name: str
    password: str

    @property
    def join_code(self) -> str:
        """The text of a Wi-Fi QR code: a phone's camera offers to join the hotspot."""
        if not self.password:
            return f"WIFI:T:nopass;S:{_escaped(self.name)};;"
        return f"WIFI:T:WPA;S:{_escaped(self.name)};P:{_escaped(self.password)};;"


def hotspot(path: Path = COMITUP_CONF) -> Hotspot | None:
    """The hotspot set in ``path``, read as comitup reads it (open where its password is too
    short for WPA: comitup leaves it out then); None where there is none to tell:
    no such file or no name in it (not set up), or a name comitup fills in itself
    (``<nnn>``, ``<hostname>``), which this file does not say."""
    settings = configparser.ConfigParser(interpolation=None)
    try:
        settings.read_string("[DEFAULT]\n" + path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return None
    name = settings["DEFAULT"].get("ap_name", "").strip()
    if not name or "<" in name:
        return None
    password = settings["DEFAULT"].get("ap_password", "").strip()
    return Hotspot(name, password if len(password) >= WPA_SHORTEST else "")


def _escaped(text: str) -> str:
    """``text`` inside a Wi-Fi QR code: its \\ ; , : and " written with a \\ before them."""
    return re.sub(r'([\\;,:"])', r"\\\1", text)
