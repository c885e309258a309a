"""The printable sheet as files: a PDF (vector, with pydyf) and a PNG (vision.sheet_art).

pydyf is a small, dependency-free PDF writer maintained by the WeasyPrint team: the sheet is a
few filled squares (the markers, cell by cell, crisp at any printer resolution), rectangles
and lines of text in Helvetica, which it covers without a larger layout library.

>>> import tempfile
>>> from vision.sheet import layout
>>> files = write(layout("17", "letter"), Path(tempfile.mkdtemp()), lang="it")
>>> [f.suffix for f in files], files[0].read_bytes()[:5]
(['.pdf', '.png'], b'%PDF-')
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import cv2
import pydyf  # type: ignore[import-untyped]

from device.helvetica import EM_PER_SIZE, ENCODING
from vision.sheet import Layout
from vision.sheet_art import Box, Shape, Text, draw, shapes

POINTS_PER_MM = 72 / 25.4
PNG_PX_PER_MM = 300 / 25.4  # the PNG at 300 dpi


def write(sheet: Layout, folder: Path, *, lang: str = "en") -> tuple[Path, Path]:
    """Write dicetable-GAME-PAPER-LANG.pdf and .png into folder (the PNG says its 300 dpi, so
    that it prints at the paper's size); returns the two paths."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"dicetable-{sheet.game}-{sheet.paper}-{lang}"
    pdf_path, png_path = stem.with_suffix(".pdf"), stem.with_suffix(".png")
    pdf_path.write_bytes(pdf_bytes(sheet, lang=lang))
    ok, png = cv2.imencode(".png", draw(sheet, px_per_mm=PNG_PX_PER_MM, lang=lang))
    if not ok:
        raise OSError("cannot encode the PNG")
    png_path.write_bytes(with_resolution(png.tobytes(), PNG_PX_PER_MM))
    return pdf_path, png_path


def with_resolution(png: bytes, px_per_mm: float) -> bytes:
    """``png`` with its resolution said (a ``pHYs`` chunk after the header; OpenCV writes
    none, and a viewer then prints it at a size of its own).

    >>> import numpy as np
    >>> struct.unpack(">II", with_resolution(cv2.imencode(".png", np.zeros((1, 1)))[1].tobytes(),
    ...                                      300 / 25.4)[41:49])
    (11811, 11811)
    """
    per_metre = round(px_per_mm * 1000)
    data = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", len(data) - 4) + data + struct.pack(">I", zlib.crc32(data))
    header_end = 8 + 4 + 4 + 13 + 4  # the signature, then IHDR: length, type, data, CRC
    return png[:header_end] + chunk + png[header_end:]


def pdf_bytes(sheet: Layout, *, lang: str = "en") -> bytes:
    """The sheet as a PDF file's bytes."""
    return shapes_pdf(sheet.width, sheet.height, shapes(sheet, lang))


def shapes_pdf(width: float, height: float, drawn: list[Shape]) -> bytes:
    """A one-page PDF file's bytes, ``width`` × ``height`` mm with the ``drawn`` shapes, printed
    at actual size."""
    w, h = width * POINTS_PER_MM, height * POINTS_PER_MM
    stream = pydyf.Stream()
    stream.set_matrix(POINTS_PER_MM, 0, 0, -POINTS_PER_MM, 0, h)  # mm, y down, as the layout
    for shape in drawn:
        if isinstance(shape, Box):
            stream.rectangle(shape.x, shape.y, shape.w, shape.h)
            if shape.fill is not None:
                stream.set_color_rgb(shape.fill, shape.fill, shape.fill)
            if shape.line is not None:
                stream.set_color_rgb(shape.line, shape.line, shape.line, stroke=True)
                stream.set_line_width(shape.width)
            if shape.fill is not None and shape.line is not None:
                stream.fill_and_stroke()
            elif shape.fill is not None:
                stream.fill()
            else:
                stream.stroke()
        else:
            _text(stream, shape)
    font = pydyf.Dictionary({"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Helvetica",
                             "Encoding": "/WinAnsiEncoding"})
    document = pydyf.PDF()
    # "fit to page" shrinks the sheet, and a shrunk sheet's cards are misread: ask the print
    # dialogue to print at actual size
    document.catalog["ViewerPreferences"] = pydyf.Dictionary({"PrintScaling": "/None"})
    document.add_object(font)
    document.add_object(stream)
    document.add_page(pydyf.Dictionary({
        "Type": "/Page", "Parent": document.pages.reference,
        "MediaBox": pydyf.Array([0, 0, w, h]),
        "Contents": stream.reference,
        "Resources": pydyf.Dictionary({"Font": pydyf.Dictionary({"F1": font.reference})}),
    }))
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def _text(stream: pydyf.Stream, text: Text) -> None:
    """One line of text (the layout's y axis points down: flip the glyphs back upright)."""
    stream.push_state()
    stream.set_color_rgb(text.grey, text.grey, text.grey)
    stream.begin_text()
    if text.turned:  # read from across the table: turned half a turn about its own start
        stream.set_text_matrix(-1, 0, 0, 1, text.x, text.y - text.size)
    else:
        stream.set_text_matrix(1, 0, 0, -1, text.x, text.y)
    stream.set_font_size("F1", text.size * EM_PER_SIZE)
    stream.show_text_string(text.text.encode(ENCODING, errors="replace"))
    stream.end_text()
    stream.pop_state()
