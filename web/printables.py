"""The table's printed sheets (the corner markers and the places of a game), as PDF files a
phone can open and print: the sheet the camera asks for is one tap away; and, for the host, the
card of the Pi's own Wi-Fi (``systemd/install --wifi-setup``)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from device.hotspot import COMITUP_CONF, HOTSPOT_ADDRESS, Hotspot, hotspot
from device.printed_sheet import pdf_bytes
from device.wifi_card import card_pdf
from vision.sheet import GAMES, PAPERS, layout
from web.auth import authorised
from web.errors import ApiError, language, refusal_page
from web.i18n import LANGUAGES, catalog
from web.qr import table_url

bp = Blueprint("printables", __name__, url_prefix="/print")


@bp.errorhandler(ApiError)
def refused(err: ApiError) -> tuple[str, int]:
    """A sheet or card refused: the pad opened it in a tab of its own, so said on a page in
    the words it was asked in, with the way back to the score pad."""
    return refusal_page(err.status, _asked_language(), err.key, **err.params)


@bp.get("/<game>-<paper>.pdf")
def table_sheet(game: str, paper: str) -> Response:
    """The sheet of ``game`` on ``paper``, its words in ``?lang=`` (else the phone's)."""
    if game not in GAMES or paper not in PAPERS:
        raise ApiError(404, "error.no_sheet")
    name = f"dicetable-{game}-{paper}.pdf"
    return Response(pdf_bytes(layout(game, paper), lang=_asked_language()),
                    mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{name}"'})


@bp.get("/wifi-card.pdf")
def wifi_card() -> Response:
    """The card of the Pi's own Wi-Fi, for the host to print and keep with the Pi (its
    password is on it: the host's only)."""
    if not authorised():
        raise ApiError(401, "error.wifi_card_pin")
    spot = own_wifi()
    if spot is None:
        raise ApiError(404, "error.no_wifi_setup")
    words = catalog(_asked_language())["ui"]
    here = table_url(int(request.environ["SERVER_PORT"]), HOTSPOT_ADDRESS)  # the port it serves
    pdf = card_pdf(spot, password=words["wifi_card.password"], table=words["wifi_card.table"],
                   unprintable=words["wifi_card.unprintable"], address=here)
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": 'inline; filename="dicetable-wifi.pdf"'})


def own_wifi() -> Hotspot | None:
    """The Pi's own Wi-Fi, where ``systemd/install --wifi-setup`` set one (else None)."""
    return hotspot(current_app.config.get("COMITUP_CONF", COMITUP_CONF))


def _asked_language() -> str:
    """The language in ``?lang=`` (the pad's), else the phone's."""
    asked = request.args.get("lang")
    return asked if asked in LANGUAGES else language()
