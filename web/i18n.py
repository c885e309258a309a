"""The score pad's languages: English, Spanish, Portuguese and Italian.

Each catalog (``web/i18n/<lang>.json``) has ``ui`` (the page's own words, sent to the phone)
and ``engine`` (every template of the engine's and the session's refusals, see
``engine/errors.py``, translated). A message without a translation is shown in English.

>>> choose_language("it", "es-ES,es;q=0.9")
'it'
>>> choose_language(None, "pt-BR,pt;q=0.8,en;q=0.5")
'pt'
>>> text("es", "error.stale")
'Otro teléfono cambió la partida antes; esto es lo que hay ahora.'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from device.notice import Notice
from engine.errors import Refusal

LANGUAGES = ("en", "es", "pt", "it")
DEFAULT = "en"


@cache
def catalog(lang: str) -> Mapping[str, Mapping[str, str]]:
    """The catalog of ``lang`` (one of :data:`LANGUAGES`)."""
    source = resources.files("web") / "i18n" / f"{lang}.json"
    data: dict[str, dict[str, str]] = json.loads(source.read_text(encoding="utf-8"))
    return data


def choose_language(chosen: str | None, accept: str | None) -> str:
    """The language a phone asked for (its switch, else its Accept-Language), else English."""
    if chosen in LANGUAGES:
        return chosen
    match = parse_accept_header(accept or "", LanguageAccept).best_match(LANGUAGES)
    return match or DEFAULT


def text(lang: str, key: str, **params: object) -> str:
    """The page's message ``key`` in ``lang`` (English if it has none), with ``params``."""
    template = catalog(lang)["ui"].get(key) or catalog(DEFAULT)["ui"][key]
    return _format(template, params) or _format(catalog(DEFAULT)["ui"][key], params) or key


def engine_text(lang: str, err: BaseException) -> str:
    """An engine or session refusal in ``lang``, by its template and params.

    A param that is itself a refusal (the reason of a wrapped one, a clause of a Dicy Cards
    wait) is translated the same way. A template the catalog lacks, and an error that is no
    refusal, stay English.
    """
    if not isinstance(err, Refusal):
        return str(err)
    template = catalog(lang)["engine"].get(err.template, err.template)
    params = {k: engine_text(lang, v) if isinstance(v, Refusal) else v
              for k, v in err.params.items()}
    return _format(template, params) or str(err)


def engine_texts(refusal: Mapping[str, Any]) -> dict[str, str]:
    """A refusal given as JSON (its template and params, as
    :func:`device.camera_desk.refusal_json` writes it) in every language.

    >>> engine_texts({"template": "the table session is not running", "params": {}})["es"]
    'la mesa no está en marcha'
    """
    err = _refusal(refusal)
    return {lang: engine_text(lang, err) for lang in LANGUAGES}


def _refusal(data: Mapping[str, Any]) -> Refusal:
    params = {k: _refusal(v) if isinstance(v, Mapping) and "template" in v else v
              for k, v in data["params"].items()}
    return Refusal(str(data["template"]), **params)


def notice_text(lang: str, notice: Notice) -> str:
    """A notice for the host in ``lang``; a refusal among its params is translated too."""
    params = {k: engine_text(lang, v) if isinstance(v, Refusal) else v
              for k, v in notice.params.items()}
    return text(lang, notice.key, **params)


def _format(template: str, params: Mapping[str, object]) -> str | None:
    try:
        return template.format_map(dict(params))
    except (KeyError, IndexError, ValueError):
        return None
