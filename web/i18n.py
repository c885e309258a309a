"""The score pad's languages: English, Spanish, Portuguese and Italian.

Each catalog (``web/i18n/<lang>.json``) has ``ui`` (the page's own words, sent to the phone)
and ``engine`` (the engine's and the session's English message templates, translated). A
message without a translation is shown in English.

>>> choose_language("it", "es-ES,es;q=0.9")
'it'
>>> choose_language(None, "pt-BR,pt;q=0.8,en;q=0.5")
'pt'
>>> text("es", "error.stale")
'Otro teléfono cambió la partida antes; esto es lo que hay ahora.'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

LANGUAGES = ("en", "es", "pt", "it")
_FIELD = re.compile(r"\{(\w+)\}")
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


def engine_text(lang: str, err: BaseException | str) -> str:
    """An engine or session refusal in ``lang``.

    The English templates are the keys of the ``engine`` catalog. An error that carries one of
    them with its parameters (``err.template``, ``err.params``) is translated directly; any
    other message is matched against the templates to find them. Parameters named
    ``reason`` are refusals themselves and are translated too; ``act``, ``card``, ``because``
    and ``c17`` are words the page's catalog knows (action kinds and card names).
    """
    if lang == DEFAULT:
        return str(err)
    template, params = _template_of(err)
    translated = catalog(lang)["engine"].get(template) if template else None
    if translated is None or template is None:
        return str(err)
    if not params:
        return translated
    words = {k: _word(lang, k, v) for k, v in params.items()}
    return _format(translated, words) or str(err)


def _template_of(err: BaseException | str) -> tuple[str | None, dict[str, object]]:
    params = getattr(err, "params", None)
    template = getattr(err, "template", None)
    if isinstance(template, str) and params and template in catalog(DEFAULT)["engine"]:
        return template, dict(params)
    message = str(err)
    if message in catalog(DEFAULT)["engine"]:
        return message, {}
    for template, pattern in _patterns():
        match = pattern.fullmatch(message)
        if match:
            return template, match.groupdict()
    return None, {}


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each English template with a parameter, as a regular expression; the ones with most
    fixed text first, so that the most specific template wins."""
    compiled = []
    for template in catalog(DEFAULT)["engine"]:
        parts = _FIELD.split(template)
        if len(parts) == 1:
            continue
        regex = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)"
                        for i, part in enumerate(parts))
        fixed = sum(len(part) for part in parts[::2])
        compiled.append((fixed, template, re.compile(regex, re.DOTALL)))
    compiled.sort(key=lambda entry: -entry[0])
    return tuple((template, pattern) for _, template, pattern in compiled)


def _word(lang: str, field: str, value: object) -> object:
    if field == "reason":
        return engine_text(lang, str(value))
    ui = catalog(lang)["ui"]
    if field == "act":
        return str(ui.get(f"act.{value}", value)).lower()
    if field in ("card", "because"):
        return ui.get(f"card.{value}") or str(ui.get(f"act.{value}", value)).lower()
    if field == "c17":
        return ui.get(f"c17.{value}", value)
    return value


def _format(template: str, params: Mapping[str, object]) -> str | None:
    try:
        return template.format_map(dict(params))
    except (KeyError, IndexError, ValueError):
        return None
