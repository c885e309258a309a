"""The table's printed sheets (the corner markers and the places of a game), as PDF files a
phone can open and print: the sheet the camera asks for is one tap away; and, for the host, the
card of the Pi's own Wi-Fi (``systemd/install --wifi-setup``)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from device.hotspot import COMITUP_CONF, Hotspot, hotspot
from device.printed_sheet import pdf_bytes
from device.wifi_card import card_pdf
from vision.sheet import GAMES, PAPERS, layout
from web.auth import require_pin
from web.errors import ApiError, language
from web.i18n import LANGUAGES, catalog

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


@bp.get("/wifi-card.pdf")
@require_pin
def wifi_card() -> Response:
    """The card of the Pi's own Wi-Fi, for the host to print and keep with the Pi (its
    password is on it: the host's only)."""
    spot = own_wifi()
    if spot is None:
        raise ApiError(404, "error.no_wifi_setup")
    asked = request.args.get("lang")
    words = catalog(asked if asked in LANGUAGES else language())["ui"]
    pdf = card_pdf(spot, password=words["wifi_card.password"], table=words["wifi_card.table"])
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": 'inline; filename="dicetable-wifi.pdf"'})


def own_wifi() -> Hotspot | None:
    """The Pi's own Wi-Fi, where ``systemd/install --wifi-setup`` set one (else None)."""
    return hotspot(current_app.config.get("COMITUP_CONF", COMITUP_CONF))
