"""The page itself: everything it loads comes from the table, and the join code."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from flask.testing import FlaskClient

from device.journal import Journal
from web.qr import qr_svg, qr_text, table_url

if TYPE_CHECKING:
    from tests.web.conftest import Phone


def boot(page: str) -> Any:
    """The JSON block the page starts from."""
    match = re.search(r'<script id="boot" type="application/json">(.*?)</script>', page, re.S)
    assert match
    return json.loads(match.group(1))


def test_the_page_needs_nothing_from_the_internet(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    links = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert links and all(link.startswith("/") and not link.startswith("//") for link in links)
    for link in links:
        assert client.get(link).status_code == 200, link


def test_the_page_carries_the_state_and_what_set_up_needs(dalek: Phone) -> None:
    data = boot(dalek.client.get("/").get_data(as_text=True))
    assert data["auth"] is True and data["csrf"] == dalek.csrf
    assert data["state"]["view"]["turn"] == "Jenna"
    assert data["games"] == ["dalek", "dicy", "17"] and set(data["facts"]) == set(data["games"])
    assert len(data["palette"]) == 8


def test_the_join_code_is_a_full_qr_of_the_address(client: FlaskClient) -> None:
    page = client.get("/", base_url="http://192.168.1.20:8017").get_data(as_text=True)
    assert 'class="qr"' in page and "http://192.168.1.20:8017/" in page
    assert qr_svg("http://192.168.1.20:8017/") in page
    text = qr_text("http://192.168.1.20:8017/")
    assert len(text.splitlines()) > 12


def test_the_public_url_wins_over_the_address_used(app: object, journal: Journal) -> None:
    from web.app import create_app
    from web.table import table

    base = table(app)  # type: ignore[arg-type]
    configured = create_app({"TABLE_SESSION": base.session, "JOURNAL": journal,
                             "PUBLIC_URL": "http://table.local:8017/"})
    page = configured.test_client().get("/").get_data(as_text=True)
    assert "http://table.local:8017/" in page


@pytest.mark.parametrize("given", ["", lambda: ""], ids=["empty", "a function giving none"])
def test_an_empty_public_url_gives_the_address_the_phone_used(
        app: object, journal: Journal, given: str | Callable[[], str]) -> None:
    from web.app import create_app
    from web.table import table

    configured = create_app({"TABLE_SESSION": table(app).session,  # type: ignore[arg-type]
                             "JOURNAL": journal, "PUBLIC_URL": given})
    page = configured.test_client().get("/", base_url="http://192.168.1.20:8017"
                                        ).get_data(as_text=True)
    assert qr_svg("http://192.168.1.20:8017/") in page


def test_a_public_url_function_is_asked_again_for_each_page(app: object,
                                                           journal: Journal) -> None:
    # as `dicetable serve` gives it, once its server knows its port: the Pi's network changes
    from web.app import create_app
    from web.table import table

    configured = create_app({"TABLE_SESSION": table(app).session,  # type: ignore[arg-type]
                             "JOURNAL": journal})
    addresses = iter(["http://10.41.0.1:8017/", "http://192.168.1.20:8017/"])
    table(configured).public_url = lambda: next(addresses)
    pages = [configured.test_client().get("/").get_data(as_text=True) for _ in range(2)]
    assert "http://10.41.0.1:8017/" in pages[0] and "http://192.168.1.20:8017/" in pages[1]
    assert "http://192.168.1.20:8017/" not in pages[0]
    assert qr_svg("http://192.168.1.20:8017/") in pages[1]


def test_the_table_url_is_a_lan_address_when_listening_everywhere() -> None:
    assert table_url(8017, "10.0.0.5") == "http://10.0.0.5:8017/"
    assert table_url(8017, "::1") == "http://[::1]:8017/"
    assert table_url(8017, "0.0.0.0").startswith("http://")


def test_an_unknown_api_path_is_json(client: FlaskClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404 and response.json == {"error": "There is no such page."}


def test_a_wrong_address_opened_on_a_phone_says_so_in_its_language(client: FlaskClient) -> None:
    # an old bookmark or a mistyped address: a page in the phone's words, and the way back
    response = client.get("/scores", headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert response.status_code == 404 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert '<html lang="it">' in page and "Questa pagina non esiste." in page
    assert 'href="/"' in page and "Not Found" not in page
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_pad_can_be_installed_and_its_rules_are_at_hand(client: FlaskClient) -> None:
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": "pt"})
    assert manifest.mimetype == "application/manifest+json"
    body = manifest.json
    assert body is not None and body["start_url"] == "/" and body["display"] == "standalone"
    assert body["lang"] == "pt" and client.get(body["icons"][0]["src"]).status_code == 200
    rules = client.get("/i18n/it/rules.json").json
    assert rules is not None and set(rules) == {"dalek", "dicy", "17", "cards"}
    assert len(rules["cards"]) == 12 and all(len(rules[g]) >= 5 for g in ("dalek", "dicy", "17"))
    assert client.get("/i18n/xx/rules.json").status_code == 404
