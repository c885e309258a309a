"""The printed sheet's PDF, read back as a PDF reader reads it: from the trailer to the
document's catalogue."""

from __future__ import annotations

import re
from pathlib import Path

from device.printed_sheet import write
from vision.sheet import layout


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
