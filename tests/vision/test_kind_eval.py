"""Scoring reads of every kind (``vision.kind_eval``), with literal reads and labels."""

from __future__ import annotations

import re

from vision.kind_eval import Tally


def test_the_confusion_matrix_lines_up_whatever_the_length_of_its_names() -> None:
    tally = Tally("dicy-card")
    tally.add_places({"p1-1": "distinct-sum/frozen", "p1-2": "odd/active", "p1-3": None},
                     {"p1-1": "distinct-sum/frozen", "p1-2": "odd/frozen", "p1-3": "empty"})
    lines = tally.describe()
    header, *rows = lines[lines.index("  confusion (rows: labelled; columns: read)") + 1:]
    ends = [header.index(name) + len(name)
            for name in ("odd/active", "distinct-sum/frozen", "not sure")]
    counted = {}
    for row in rows:
        name = row.split()[0]
        after = row.index(name) + len(name)
        numbers = list(re.finditer(r"\d+", row[after:]))
        counted[name] = [int(m.group()) for m in numbers]
        assert [after + m.end() for m in numbers] == ends, row
    assert counted == {"odd/frozen": [1, 0, 0], "distinct-sum/frozen": [0, 1, 0],
                       "empty": [0, 0, 1]}
