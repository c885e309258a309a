"""The printed sheet's PDF, read back as a PDF reader reads it: from the trailer to the
document's catalogue."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from device.printed_sheet import PNG_PX_PER_MM, write
from vision.sheet import Layout, Zone, layout
from vision.sheet_art import LANGUAGES


def _object(pdf: bytes, number: int) -> bytes:
    """The body of indirect object ``number`` (between ``N 0 obj`` and ``endobj``)."""
    found = re.search(rb"(?m)^%d 0 obj\s(.*?)endobj" % number, pdf, re.S)
    assert found is not None, f"no object {number}"
    return found.group(1)


def _catalogue(pdf: bytes) -> bytes:
    root = re.findall(rb"/Root (\d+) 0 R", pdf.split(b"trailer")[-1])
    assert root, "the trailer names no catalogue"
    return _object(pdf, int(root[-1]))


def test_the_pdf_asks_the_printer_not_to_fit_it_to_the_page(tmp_path: Path) -> None:
    for paper in ("a4", "letter"):
        pdf_path, _ = write(layout("dicy", paper), tmp_path, lang="es")
        catalogue = _catalogue(pdf_path.read_bytes())
        assert b"/Type /Catalog" in catalogue
        preferences = re.search(rb"/ViewerPreferences\s*<<(.*?)>>", catalogue, re.S)
        assert preferences is not None, catalogue
        assert re.search(rb"/PrintScaling\s*/None", preferences.group(1))


def test_the_sheet_itself_says_to_print_it_at_actual_size_on_its_paper(tmp_path: Path) -> None:
    said = {"en": "Print at actual size \\(100 %\\) on US Letter paper.",
            "es": "Imprimir a tamaño real \\(100 %\\) en papel US Letter.",
            "pt": "Imprimir em tamanho real \\(100 %\\) em papel US Letter.",
            "it": "Stampare a dimensioni effettive \\(100 %\\) su carta US Letter."}
    for lang, words in said.items():
        pdf_path, _ = write(layout("17", "letter"), tmp_path, lang=lang)
        assert words.encode("cp1252") in pdf_path.read_bytes(), lang
    pdf_path, _ = write(layout("dalek", "a4"), tmp_path)
    assert b"on A4 paper." in pdf_path.read_bytes()



def _printed(sheet: Layout, folder: Path, lang: str = "en") -> np.ndarray:
    """The sheet's PNG as written, in greys."""
    _, png = write(sheet, folder, lang=lang)
    grey = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert grey is not None
    return grey


def _inside(grey: np.ndarray, zone: Zone, top_mm: float) -> np.ndarray:
    """The printed area within a zone, top_mm below its top (its label) and 2 mm in."""
    k = PNG_PX_PER_MM
    return grey[round((zone.y + top_mm) * k):round((zone.y + zone.h - 2) * k),
                round((zone.x + 2) * k):round((zone.x + zone.w - 2) * k)]


def test_the_dicy_dice_area_prints_as_a_grey_tray_its_label_plain_in_each_language(
        tmp_path: Path) -> None:
    """White dice in a white dice area were barely seen: the area prints as a mid-grey tray
    (as the card places do), its label dark on it; the Dalek sheet's areas stay white."""
    sheet = layout("dicy", "a4")
    area = sheet.zone("dice")
    for lang in LANGUAGES:
        grey = _printed(sheet, tmp_path, lang)
        tray = float(np.median(_inside(grey, area, 10)))
        assert 0.45 * 255 <= tray <= 0.65 * 255, lang
        label = _inside(grey, replace(area, h=10.0), 0)[:, :round(28 * PNG_PX_PER_MM)]
        assert tray - np.percentile(label, 2) > 100, lang  # its letters dark on it
    dalek = layout("dalek", "a4")
    assert np.median(_inside(_printed(dalek, tmp_path), dalek.zone("to-roll"), 10)) == 255
