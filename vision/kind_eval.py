"""Scoring reads of every kind against labels, with a confusion matrix per kind.

Dice (``d6``, ``dalek``): a read matches a labelled die when its centre lies in the die's box
(the likelier read first, one read per die); a matched die is right, wrong, or "not sure";
a die no read matches is missed; a read that matches no die is false. Cards (``dicy-card``,
``17-card``): each card place is labelled (a face, or empty) and read (a face, empty, or not
sure). A confusion row is a labelled face; its columns are the faces read, then "not sure",
then "missed" (dice) or the faces, "empty" and "not sure" (cards).

>>> tally = Tally("dalek")
>>> scored = tally.add_dice([("H4", 5.0, 5.0, 0.9), (None, 50.0, 50.0, 0.4)],
...                         [("H4", (0, 0, 10, 10))])
>>> tally.right, tally.false, tally.total
(1, 1, 1)
>>> scored.labels, scored.reads, scored.exact
((('H4', 'H4'),), (0, 'false'), False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from vision.components import EMPTY, faces, is_card
from vision.datasets import Box, inside

NOT_SURE = "not sure"
MISSED = "missed"
Read = tuple[str | None, float, float, float]  # face, x, y, confidence


FALSE = "false"
IGNORED = "ignored"


@dataclass(frozen=True)
class Scored:
    """One image's labels as scored: each label (a die's or a place's face) with the column it
    was counted in, and for each die read (in the order given) the index of the label it
    matched, else FALSE or IGNORED."""

    labels: tuple[tuple[str, str], ...]
    reads: tuple[int | str, ...] = ()

    @property
    def exact(self) -> bool:
        """Every label read right and no false read."""
        return all(label == got for label, got in self.labels) and FALSE not in self.reads


@dataclass
class Tally:
    """Running totals of one kind."""

    kind: str
    right: int = 0
    wrong: int = 0
    not_sure: int = 0
    missed: int = 0
    false: int = 0
    confusion: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.not_sure + self.missed

    def rate(self, count: int) -> float | None:
        return count / self.total if self.total else None

    def rows(self) -> tuple[str, ...]:
        return faces(self.kind) + ((EMPTY,) if is_card(self.kind) else ())

    def columns(self) -> tuple[str, ...]:
        return self.rows() + ((NOT_SURE,) if is_card(self.kind) else (NOT_SURE, MISSED))

    def _count(self, label: str, read: str | None) -> str:
        column = NOT_SURE if read is None else read
        self.confusion[(label, column)] = self.confusion.get((label, column), 0) + 1
        if read is None:
            self.not_sure += 1
        elif read == label:
            self.right += 1
        elif read == MISSED:
            self.missed += 1
        else:
            self.wrong += 1
        return column

    def add_dice(self, reads: Sequence[Read], labels: Sequence[tuple[str, Box]],
                 ignore: Sequence[Box] = ()) -> Scored:
        """One image's dice reads (image pixels) against its labelled dice; a read matching no
        die in an ``ignore`` box (a die whose face is not labelled) is neither right nor
        false."""
        counted: dict[int, str] = {}
        matched: dict[int, int | str] = {}
        for i in sorted(range(len(reads)), key=lambda i: -reads[i][3]):
            face, x, y, _ = reads[i]
            hit = next((j for j, (_, b) in enumerate(labels) if j not in counted
                        and inside(b, x, y)), None)
            if hit is None:
                matched[i] = IGNORED if any(inside(b, x, y) for b in ignore) else FALSE
                self.false += matched[i] == FALSE
                continue
            matched[i] = hit
            counted[hit] = self._count(labels[hit][0], face)
        for j, (label, _) in enumerate(labels):
            if j not in counted:
                counted[j] = self._count(label, MISSED)
        return Scored(tuple((label, counted[j]) for j, (label, _) in enumerate(labels)),
                      tuple(matched[i] for i in range(len(reads))))

    def add_places(self, reads: dict[str, str | None], labels: dict[str, str]) -> Scored:
        """One image's card places: place → face read (None = not sure) and → face labelled
        (EMPTY for an empty place); the labels scored in the order of ``labels``."""
        return Scored(tuple((label, self._count(label, reads.get(place)))
                            for place, label in labels.items()))

    def as_dict(self) -> dict[str, object]:
        cols = self.columns()
        return {"kind": self.kind, "total": self.total, "right": self.right,
                "wrong": self.wrong, "not_sure": self.not_sure, "missed": self.missed,
                "false": self.false, "right_rate": self.rate(self.right),
                "wrong_rate": self.rate(self.wrong),
                "confusion": {"rows": list(self.rows()), "columns": list(cols),
                              "counts": [[self.confusion.get((r, c), 0) for c in cols]
                                         for r in self.rows()]}}

    def describe(self) -> list[str]:
        """The totals and the confusion matrix (rows and columns that hold something)."""
        lines = [f"[{self.kind}] {self.total} labelled"]
        counts = [("right", self.right), ("wrong", self.wrong), ("not sure", self.not_sure)]
        if not is_card(self.kind):
            counts.append(("missed", self.missed))
        for name, n in counts:
            rate = self.rate(n)
            lines.append(f"  {name:<10}{n:>7}" + (f"  {rate:.2%}" if rate is not None else ""))
        if not is_card(self.kind):
            lines.append(f"  {'false':<10}{self.false:>7}  (reads where no die is)")
        rows = [r for r in self.rows() if any(self.confusion.get((r, c)) for c in
                                               self.columns())]
        cols = [c for c in self.columns() if any(self.confusion.get((r, c)) for r in rows)]
        if rows:
            width = max(6, *(len(c) for c in cols))
            names = max(len(r) for r in rows)
            lines.append("  confusion (rows: labelled; columns: read)")
            lines.append(" " * (2 + names) + "".join(f"{c:>{width + 1}}" for c in cols))
            lines += [f"  {r:<{names}}" + "".join(f"{self.confusion.get((r, c), 0):>{width + 1}}"
                                                  for c in cols) for r in rows]
        return lines
