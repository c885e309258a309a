"""The components the camera reads and the names of their visible faces.

The ids are those of ../shared/RULES.md (vision does not import the engine). A face is what
the camera can see of one die or card, and is what a teach profile learns:

- ``dalek``: ``H4 H2 D3 D2 DOC EXT``;
- ``d6``: ``1``..``6``;
- ``dicy-card``: ``CARD/active`` or ``CARD/frozen`` for each of the 12 cards;
- ``17-card``: the fronts ``1``..``5`` (a front-only card and a double-sided one look alike
  face up), ``reverse x2 trash trap``; the backs ``1d``..``5d`` (a double-sided card face down
  shows its number) and ``back`` (a plain back: any other card face down).

>>> seventeen_face("3d", "up"), seventeen_face("3d", "down"), seventeen_face("trap", "down")
('3', '3d', 'back')
>>> len(faces("dicy-card")), dicy_face("odd", "frozen")
(24, 'odd/frozen')
>>> sheet_game("d6"), READ_ON_SHEET["dicy"]
('dicy', ('dicy-card', 'd6'))
>>> sheet_game("chess")
Traceback (most recent call last):
ValueError: unknown kind 'chess' (kinds: d6, dalek, dicy-card, 17-card)
"""

from __future__ import annotations

KINDS = ("d6", "dalek", "dicy-card", "17-card")
DALEK_FACES = ("H4", "H2", "D3", "D2", "DOC", "EXT")
D6_FACES = ("1", "2", "3", "4", "5", "6")
DICY_CARDS = ("two-dice", "no-six", "odd", "straight", "two-pairs", "sixes", "pair",
              "lowest-three", "distinct-x4", "distinct-sum", "forty-minus", "same-x5")
DICY_SIDES = ("active", "frozen")
SEVENTEEN_CARDS = ("1", "2", "3", "4", "5", "1d", "2d", "3d", "4d", "5d",
                   "reverse", "x2", "trash", "trap")
SEVENTEEN_SIDES = ("up", "down")
PLAIN_BACK = "back"
NOTHING = "none"  # a teach label: no die here (a die reader's background examples)
EMPTY = "empty"  # what a card place with no card reads
READ_ON_SHEET = {"dalek": ("dalek",), "dicy": ("dicy-card", "d6"), "17": ("17-card",)}
"""The kinds each game's sheet is read for (vision.table_reads: its reader reads them there)."""
READ_ANYWHERE = ("d6",)
"""The kinds read in a photo with no sheet too (d6 dice by their pips); the others are read
only on their game's sheet."""


def dicy_face(card: str, side: str) -> str:
    return f"{card}/{side}"


def seventeen_face(card: str, side: str) -> str:
    """What a 17 card shows lying with that side up."""
    if side == "up":
        return card.removesuffix("d") if card[0].isdigit() else card
    return card if card.endswith("d") else PLAIN_BACK


def faces(kind: str) -> tuple[str, ...]:
    """Every face a component of that kind can show."""
    if kind == "dalek":
        return DALEK_FACES
    if kind == "d6":
        return D6_FACES
    if kind == "dicy-card":
        return tuple(dicy_face(c, s) for c in DICY_CARDS for s in DICY_SIDES)
    if kind == "17-card":
        return ("1", "2", "3", "4", "5", "reverse", "x2", "trash", "trap",
                "1d", "2d", "3d", "4d", "5d", PLAIN_BACK)
    raise ValueError(f"unknown kind {kind!r} (kinds: {', '.join(KINDS)})")


def sheet_game(kind: str) -> str:
    """The game on whose sheet ``kind`` is read (ValueError naming the kinds for another)."""
    for game, kinds in READ_ON_SHEET.items():
        if kind in kinds:
            return game
    raise ValueError(f"unknown kind {kind!r} (kinds: {', '.join(KINDS)})")


def is_card(kind: str) -> bool:
    return kind in ("dicy-card", "17-card")
