"""The score pad's languages: English, Spanish, Portuguese and Italian.

Each catalog (``web/i18n/<lang>.json``) has ``ui`` (the page's own words, sent to the phone)
and ``engine`` (every template of the engine's and the session's refusals, see
``engine/errors.py``, translated). A message without a translation is shown in English. The
English of why the camera is out (``camera.why.…``) is written beside its keys, in
:data:`device.camera_errors.WHY`, which the host's log prints too; the pad's is that less
`` ({detail})``, the system's own words, which the pad shows on a line of their own.

>>> choose_language("it", "es-ES,es;q=0.9")
'it'
>>> choose_language(None, "pt-BR,pt;q=0.8,en;q=0.5")
'pt'
>>> choose_language(None, "es;q=abc, it")  # an item with a malformed weight is skipped
'it'
>>> text("es", "error.stale.phone")
'Otro teléfono cambió la partida antes; esto es lo que hay ahora.'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from device.camera_errors import WHY

LANGUAGES = ("en", "es", "pt", "it")
DEFAULT = "en"


@cache
def catalog(lang: str) -> Mapping[str, Mapping[str, str]]:
    """The catalog of ``lang`` (one of :data:`LANGUAGES`)."""
    source = resources.files("web") / "i18n" / f"{lang}.json"
    data: dict[str, dict[str, str]] = json.loads(source.read_text(encoding="utf-8"))
    if lang == DEFAULT:  # the system's own words ({detail}, in English whatever the phone's
        # language) go on a line of their own on the pad, the host's log keeps them in
        data["ui"].update({key: words.replace(" ({detail})", "") for key, words in WHY.items()})
    return data


def choose_language(chosen: str | None, accept: str | None) -> str:
    """The language a phone asked for (its switch, else its Accept-Language), else English."""
    if chosen in LANGUAGES:
        return chosen
    match = parse_accept_header(accept or "", LanguageAccept).best_match(LANGUAGES)
    return match or DEFAULT


def text(lang: str, key: str, **params: object) -> str:
    """The page's message ``key`` in ``lang`` (English if it has none), with ``params``; with
    ``n`` 1, its ``key.one`` where there is one (as the pad's ``t`` does)."""
    if params.get("n") == 1 and f"{key}.one" in catalog(DEFAULT)["ui"]:
        key = f"{key}.one"
    template = catalog(lang)["ui"].get(key) or catalog(DEFAULT)["ui"][key]
    return fill(template, params) or fill(catalog(DEFAULT)["ui"][key], params) or key


def ui(lang: str) -> Mapping[str, str]:
    """The page's words in ``lang``."""
    return catalog(lang)["ui"]


SERVER_ONLY = ("log.", "key.", "line.", "error.", "quoted", "value.", "app.", "moment.",
               "notice.", "wifi_card.")
"""Words only the server writes (the game's story, refusals, the host's notices, the
manifest, the Wi-Fi card): not sent to the phone with the page."""

LATER = ("camera.", "teach.", "setup.", "colour.", "seventeen.", "history.", "resume.",
         "stats.", "rules.")
"""Words the phone loads when it first needs them (``/i18n/LANG/later.json``), with the script
of the screens that show them: the camera's panel and teach mode (camera.js), set-up with its
colours and 17's options, the finished and abandoned games, statistics and rules (setup.js)."""

ON_THE_PAGE = ("error.network", "error.network_unsure", "error.http413", "error.http500",
               "notice.dismiss", "camera.ask.pin", "camera.moment.out", "camera.moment.back")
"""Words under the prefixes above that the page shows itself, sent with it: errors it words
itself (no table answered, or its answer was lost; the web server refused a request before
the app saw it: too large, or another answer it cannot read), the notices' button, the
camera's words shown without its panel."""


@cache
def page_words(lang: str) -> dict[str, str]:
    """The words the phone itself shows, in ``lang`` (the first load carries them)."""
    return {k: v for k, v in ui(lang).items()
            if k in ON_THE_PAGE or not k.startswith((*SERVER_ONLY, *LATER))}


@cache
def later_words(lang: str) -> dict[str, str]:
    """The words of the screens drawn by the scripts loaded later (camera.js, setup.js), in
    ``lang``."""
    return {k: v for k, v in ui(lang).items() if k.startswith(LATER) and k not in ON_THE_PAGE}


def engine_template(lang: str, template: str) -> str:
    """An engine or session refusal's template in ``lang`` (English if it has none)."""
    return catalog(lang)["engine"].get(template, template)


def fill(template: str, params: Mapping[str, object]) -> str | None:
    """``template`` with ``params``; None if they do not fit."""
    try:
        return template.format_map(dict(params))
    except (KeyError, IndexError, ValueError):
        return None
