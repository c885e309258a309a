"""The table's printed sheets (the corner markers and the places of a game), as PDF files a
phone can open and print: the sheet the camera asks for is one tap away."""

from __future__ import annotations

from flask import Blueprint, Response, request

from device.printed_sheet import pdf_bytes
from vision.sheet import GAMES, PAPERS, layout
from web.errors import ApiError, language
from web.i18n import LANGUAGES

bp = Blueprint("printables", __name__, url_prefix="/print")


@bp.get("/<game>-<paper>.pdf")
def table_sheet(game: str, paper: str) -> Response:
    """The sheet of ``game`` on ``paper``, its words in ``?lang=`` (else the phone's)."""
    if game not in GAMES or paper not in PAPERS:
        raise ApiError(404, "error.no_sheet")
    asked = request.args.get("lang")
    lang = asked if asked in LANGUAGES else language()
    name = f"dicetable-{game}-{paper}.pdf"
    return Response(pdf_bytes(layout(game, paper), lang=lang), mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{name}"'})
