"""What the engine names, in the phone's language: cards, faces, record keys, bad input and
whole actions, as the page shows them (never code).

The engine's refusals carry their values as the games' enums and the small types of
:mod:`engine.errors`; :func:`engine_text` fills in a refusal's template in the phone's
language, :func:`value_text` turns each value into words of the ``ui`` catalog, and
:func:`action_text` says what one record line does.

>>> from engine.dalek import Face
>>> value_text("en", Many([Face.H4, Face.H4, Face.DOC]))
'2 × 4 humans, the Doctor'
>>> value_text("es", Shown("H5")), value_text("it", Shown(True))
('«H5»', 'altro')
>>> action_text("en", "dicy", {"score": {"card": "two-pairs", "dice": [5, 5, 4, 4]}})
'Score Two pairs with 5 5 4 4'
>>> action_text("pt", "17", {"play": {"face": "down"}})
'Jogar uma carta virada para baixo'
>>> from engine.errors import IllegalAction, to_json
>>> err = IllegalAction("the deck has no {card} cards", card=SeventeenCard.TRAP)
>>> json_text("it", to_json(err))
'il mazzo non ha carte Trappola'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from device.notice import Notice
from engine.dalek import Face as DalekFace
from engine.dicy_cards import Card as DicyCard
from engine.errors import Action, Key, Many, Refusal, Shown, shown_words
from engine.seventeen import Face as SeventeenFace
from engine.seventeen_cards import Card as SeventeenCard
from web.i18n import LANGUAGES, engine_template, fill, text, ui

KEY_FAMILIES = ("key.", "dicy.mode.")
"""Where a record key's words are looked up, in order."""

ENUMS: dict[str, type[StrEnum]] = {f"{e.__module__}.{e.__qualname__}": e for e in (
    DicyCard, SeventeenCard, DalekFace, SeventeenFace)}


def engine_text(lang: str, err: BaseException) -> str:
    """An engine or session refusal in ``lang``, by its template and params.

    A param that is itself a refusal (the reason of a wrapped one, a clause of a Dicy Cards
    wait) is translated the same way; every other param is shown by :func:`value_text`. A
    template the catalog lacks stays English; an error that is no refusal is its own text.
    """
    if not isinstance(err, Refusal):
        return str(err)
    params = {k: engine_text(lang, v) if isinstance(v, Refusal) else value_text(lang, v)
              for k, v in err.params.items()}
    return fill(engine_template(lang, err.template), params) or str(err)


def engine_texts(refusal: Mapping[str, Any]) -> dict[str, str]:
    """A refusal that travelled as JSON (:func:`engine.errors.to_json`, as
    :func:`device.camera_desk.refusal_json` writes it) in every language.

    >>> engine_texts({"template": "the table session is not running", "params": {}})["es"]
    'la mesa no está en marcha'
    """
    return {lang: json_text(lang, refusal) for lang in LANGUAGES}


def json_text(lang: str, data: Any) -> str:
    """A refusal that travelled as :func:`engine.errors.to_json`, in ``lang``."""
    refusal = from_json(data)
    return engine_text(lang, refusal) if isinstance(refusal, Refusal) else str(refusal)


def from_json(data: Any) -> object:
    """The refusal (or value) :func:`engine.errors.to_json` made, with its kinds of values."""
    if not isinstance(data, dict):
        return data
    if "template" in data:
        return Refusal(data["template"], **{k: from_json(v) for k, v in data["params"].items()})
    if "enum" in data and data["enum"] in ENUMS:
        return ENUMS[data["enum"]](data["value"])
    if "key" in data:
        return Key(data["key"])
    if "many" in data:
        return Many(from_json(v) for v in data["many"])
    if "shown" in data:
        return Shown(data["shown"])
    if "action" in data:
        return Action(data["game"], data["action"])
    return data


def notice_text(lang: str, notice: Notice) -> str:
    """A notice for the host in ``lang``; a refusal or a notice among its params (a reason) is
    translated too, and notices in a tuple (one per wrong setting, say) are joined by "; "."""
    params = {k: engine_text(lang, v) if isinstance(v, Refusal)
              else notice_text(lang, v) if isinstance(v, Notice)
              else "; ".join(notice_text(lang, each) for each in v) if isinstance(v, tuple)
              else v
              for k, v in notice.params.items()}
    return text(lang, notice.key, **params)


def value_text(lang: str, value: object) -> str:
    """One value of a refusal in ``lang``."""
    if isinstance(value, StrEnum):
        return enum_text(lang, value)
    if isinstance(value, Key):
        return _key_text(lang, value)
    if isinstance(value, Many):
        return _many_text(lang, value)
    if isinstance(value, Shown):
        return _shown_text(lang, value.value)
    if isinstance(value, Action):
        return action_text(lang, value.game, value.line)
    return str(value)


def enum_text(lang: str, value: StrEnum) -> str:
    """A card or a face as the page names it."""
    if isinstance(value, DicyCard):
        return text(lang, f"card.{value.value}")
    if isinstance(value, SeventeenCard):
        return text(lang, f"c17.{value.value}")
    if isinstance(value, DalekFace):
        return text(lang, f"face.{value.value}")
    if isinstance(value, SeventeenFace):
        return text(lang, f"face17.{value.value}")
    return value.value


def action_text(lang: str, game: str, line: Mapping[str, Any]) -> str:
    """What one record line does, e.g. "Keep 3 × 4 humans" or "Play Trap face down"."""
    ((kind, value),) = line.items()
    if game == "dalek" and kind in ("roll", "keep"):
        return text(lang, f"line.{kind}", what=_faces(lang, value) or text(lang, "none"))
    if game == "dicy":
        return _dicy_line(lang, kind, value)
    if game == "17":
        return _seventeen_line(lang, kind, value)
    return text(lang, f"act.{kind}")


def _dicy_line(lang: str, kind: str, value: Any) -> str:
    if kind == "roll":
        return text(lang, "line.roll", what=_dice(value))
    if kind == "reroll":
        return text(lang, "line.reroll", card=_dicy_card(lang, value["freeze"]),
                    what=_dice(value["dice"]))
    if kind == "score":
        return text(lang, "line.score", card=_dicy_card(lang, value["card"]),
                    what=_dice(value["dice"]))
    if kind == "effect":
        return text(lang, "line.effect", name=value["player"],
                    card=_dicy_card(lang, value["card"]))
    return text(lang, f"act.{kind}")


def _seventeen_line(lang: str, kind: str, value: Any) -> str:
    if kind == "play":
        card = value.get("card")
        if card is None:
            return text(lang, "line.play_hidden")
        return text(lang, f"line.play_{value['face']}", card=text(lang, f"c17.{card}"))
    if kind == "call":
        return text(lang, "line.call", names=", ".join(value))
    if kind == "reveal":
        return text(lang, "line.reveal", what=", ".join(text(lang, f"c17.{c}") for c in value))
    return text(lang, f"act.{kind}")


def _faces(lang: str, faces: list[str]) -> str:
    return _many_text(lang, Many(DalekFace(f) for f in faces))


def _dice(dice: list[int]) -> str:
    return " ".join(str(d) for d in dice)


def _dicy_card(lang: str, card: str) -> str:
    return text(lang, f"card.{card}")


def _key_text(lang: str, key: str) -> str:
    words = ui(lang)
    for family in KEY_FAMILIES:
        if family + key in words:
            return words[family + key]
    return key


def _many_text(lang: str, values: Many) -> str:
    """Listed with commas; Dalek faces counted ("3 × 4 humans")."""
    if values and all(isinstance(v, DalekFace) for v in values):
        counts = Counter(values)
        return ", ".join(value_text(lang, face) if n == 1 else f"{n} × {value_text(lang, face)}"
                         for face, n in counts.items())
    return ", ".join(value_text(lang, v) for v in values)


def _shown_text(lang: str, value: object) -> str:
    """A bad input: words and whole numbers as written (words in quotes; escaped and cut short
    as the engine shows them), anything else is "something else" (a player never typed it)."""
    if isinstance(value, str):
        return text(lang, "quoted", text=shown_words(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return shown_words(str(value))
    return text(lang, "value.other")
