"""What the set-up screen needs to know about each game, taken from the engine.

>>> facts = setup_facts()
>>> facts["dalek"]["players"], facts["dalek"]["target"]
([2, 8], 60)
>>> len(facts["dicy"]["cards"]), facts["dicy"]["modes"][:2]
(12, ['glacial', 'interglacial'])
>>> facts["17"]["deck"]["trap"], facts["17"]["target"], facts["17"]["plain"][-1]
(5, 3, 'trap')
"""

from __future__ import annotations

from typing import Any

from engine import dalek, dicy, rules_for, seventeen
from engine.dicy_cards import Card as DicyCard
from engine.seventeen_cards import DEFAULT_COUNTS, PLAIN_BACKS


def setup_facts() -> dict[str, dict[str, Any]]:
    """Per game id: title, ``players`` [min, max], default ``target``, and its choices."""
    facts = {name: _common(name) for name in ("dalek", "dicy", "17")}
    facts["dalek"]["target"] = dalek.DEFAULT_TARGET
    facts["dicy"].update(
        target=dicy.DEFAULT_TARGET,
        cards=[card.value for card in DicyCard],
        glacial=[card.value for card in dicy.GLACIAL_CARDS],
        modes=[dicy.GLACIAL, dicy.INTERGLACIAL, *dicy.presets()],
        presets={name: [c.value for c in cards] for name, cards in dicy.presets().items()},
    )
    facts["17"].update(
        target=seventeen.DEFAULT_TARGET,
        deck={card.value: count for card, count in DEFAULT_COUNTS.items()},
        plain=[card.value for card in PLAIN_BACKS],
    )
    return facts


def _common(name: str) -> dict[str, Any]:
    rules = rules_for(name)
    return {"title": rules.title, "players": [rules.min_players, rules.max_players]}
