"""The card of the Pi's own Wi-Fi is right for any name and password comitup takes: open where
comitup leaves a short password out, and its QR code and words on the card, readable, however
long they are. Read back from the PDF itself: its squares as a picture a QR reader decodes, its
lines of text measured in Helvetica, the font it names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.helvetica import EM_PER_SIZE, width
from device.hotspot import Hotspot, hotspot
from device.wifi_card import card_pdf
from web.i18n import LANGUAGES, catalog

WIDTH, HEIGHT = 100.0, 55.0  # mm: the card
PX_PER_MM = 10

HOTSPOT_URL = "http://10.41.0.1:8017/"


@dataclass(frozen=True)
class Line:
    """A line of text on the card: its baseline's left end and its size (mm, y down)."""

    x: float
    y: float
    size: float
    text: str


def _printed(pdf: bytes) -> tuple[list[tuple[float, float, float, float]], list[Line]]:
    """The card's dark squares (x, y, w, h) and its lines of text, in mm."""
    stream = pdf.decode("cp1252")
    squares = [tuple(float(n) for n in found) for found in re.findall(
        r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re\n0 0 0 rg\nf\n", stream)]
    lines = [Line(float(x), float(y), float(font) / EM_PER_SIZE, re.sub(r"\\(.)", r"\1", text))
             for x, y, font, text in re.findall(
                 r"1 0 0 -1 ([\d.]+) ([\d.]+) Tm\n/F1 ([\d.]+) Tf\n\(((?:\\.|[^\\)])*)\) Tj",
                 stream)]
    return squares, lines  # type: ignore[return-value]


def _decoded(squares: list[tuple[float, float, float, float]]) -> str:
    """What a QR reader reads in the card's squares, printed at 10 px a mm."""
    picture = np.full((int(HEIGHT * PX_PER_MM), int(WIDTH * PX_PER_MM)), 255, np.uint8)
    for x, y, w, h in squares:
        picture[round(y * PX_PER_MM):round((y + h) * PX_PER_MM),
                round(x * PX_PER_MM):round((x + w) * PX_PER_MM)] = 0
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(picture)
    return str(text)


def _card(spot: Hotspot, lang: str = "en") -> bytes:
    words = catalog(lang)["ui"]
    return card_pdf(spot, password=words["wifi_card.password"], table=words["wifi_card.table"],
                    unprintable=words["wifi_card.unprintable"], address=HOTSPOT_URL)


@pytest.mark.parametrize("password", ["", "k3x9", "seven77"])
def test_a_password_comitup_leaves_out_makes_an_open_card(tmp_path: Path, password: str) -> None:
    # comitup's hotspot has WPA only with a password of 8 characters or more; else it is open,
    # and a phone told to join it with a password does not join
    conf = tmp_path / "comitup.conf"
    conf.write_text(f"ap_name: dicetable-4821\nap_password: {password}\n")
    spot = hotspot(conf)
    assert spot is not None
    squares, lines = _printed(_card(spot))
    assert _decoded(squares) == "WIFI:T:nopass;S:dicetable-4821;;"
    assert [line.text for line in lines] == ["Wi-Fi", "dicetable-4821", "The table, on this Wi-Fi",
                                             HOTSPOT_URL]
    conf.write_text("ap_name: dicetable-4821\nap_password: eight888\n")
    spot = hotspot(conf)
    assert spot is not None
    squares, lines = _printed(_card(spot))
    assert _decoded(squares) == "WIFI:T:WPA;S:dicetable-4821;P:eight888;;"
    assert "eight888" in [line.text for line in lines]


SETTINGS = [
    ("dicetable-4821", "kqzmtwpaxe"),  # as systemd/install --wifi-setup sets it
    ("W" * 32, "@" * 63),  # the longest name and password, in Helvetica's widest letters
    ("Casa da Avó, 2.º andar: mesa;\\", ';:,"\\' * 12 + "abc"),  # each one escaped in the code
    ("mesa", "Mm" * 31 + "W"),
]


@pytest.mark.parametrize(("name", "password"), SETTINGS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_any_name_and_password_comitup_takes_fits_on_the_card(
        name: str, password: str, lang: str) -> None:
    spot = Hotspot(name, password)
    squares, lines = _printed(_card(spot, lang))
    # the QR code: read back as the Wi-Fi, its squares no smaller than a phone reads from a
    # hand's length, on the card with its quiet zone (4 squares) clear of its edge and words
    assert _decoded(squares) == spot.join_code
    module = min(w for _, _, w, _ in squares)
    assert module >= 0.8
    assert min(x for x, _, _, _ in squares) - 4 * module >= 0.9
    assert min(y for _, y, _, _ in squares) - 4 * module >= 0.9
    assert max(y + h for _, y, _, h in squares) + 4 * module <= HEIGHT - 0.9
    quiet_ends = max(x + w for x, _, w, _ in squares) + 4 * module - 0.01
    # the words: each line in the card beside the code, none over another (Helvetica's
    # capitals rise about its size over the baseline, its tails hang 0.3 of it below),
    # nothing left out
    for line in lines:
        assert line.size >= 2.0, line
        assert line.x >= quiet_ends and line.x + width(line.text, line.size) <= WIDTH - 2, line
        assert line.y - line.size >= 2 and line.y + 0.3 * line.size <= HEIGHT - 2, line
    for above, below in pairwise(lines):
        assert above.y + 0.3 * above.size <= below.y - below.size, (above, below)
    printed = "".join(line.text for line in lines)
    words = catalog(lang)["ui"]
    assert printed == ("Wi-Fi" + name + words["wifi_card.password"] + password
                       + words["wifi_card.table"] + HOTSPOT_URL)


@pytest.mark.parametrize(("name", "password"), [
    ("Łódź", "kqzmtwpaxe"),  # Polish: Ł and ź are no letters of the card's font
    ("桌", "kqzmtwpaxe"),
    ("Дача", "kqzmtwpaxe"),  # Cyrillic, and Greek below: letters of Japan's Shift JIS too
    ("Ωmega", "ΩΩ-kqzmtwpaxe"),
])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_name_or_password_the_card_cannot_print_is_scanned_never_misprinted(
        name: str, password: str, lang: str) -> None:
    spot = Hotspot(name, password)
    squares, lines = _printed(_card(spot, lang))
    assert _decoded(squares) == spot.join_code  # the phone joins the Wi-Fi of that very name
    words = catalog(lang)["ui"]
    note = words["wifi_card.unprintable"]
    labels = [i for i, line in enumerate(lines)
              if line.text in ("Wi-Fi", words["wifi_card.password"], words["wifi_card.table"])]
    under = [" ".join(line.text for line in lines[i + 1:j]) for i, j in pairwise(labels)]
    assert under == [note, password if password.isascii() else note]  # in plain words
    assert not any("?" in line.text for line in lines)


def test_a_name_of_western_letters_is_printed_as_it_is() -> None:
    spot = Hotspot("Café-Tisch Zoë", "kqzmtwpaxe")
    squares, lines = _printed(_card(spot, "it"))
    assert _decoded(squares) == spot.join_code
    assert "Café-Tisch Zoë" in [line.text for line in lines]
