"""``dicetable eval`` on table photos labelled by someone who read only the documentation: the
same frames, their labels written another documented way, score as the project's own labels do;
a label that cannot mean what it says is refused with the reason."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from dicetable.cli import main

Entry = dict[str, object]
Item = dict[str, object]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One labelled frame of each game, rendered by the project."""
    root = tmp_path_factory.mktemp("frames")
    for game in ("dalek", "dicy", "17"):
        assert main(["render", "--game", game, "--count", "1", "--seed", "11", "--out",
                     str(root / game)]) == 0
    return {game: root / game for game in ("dalek", "dicy", "17")}


def _copy(source: Path, to: Path, change: Callable[[Entry], None] = lambda entry: None) -> Path:
    """The frames of ``source`` in ``to``, each labels.json entry rewritten by ``change``."""
    shutil.copytree(source, to)
    doc = json.loads((to / "labels.json").read_text())
    for entry in doc["images"]:
        change(entry)
    (to / "labels.json").write_text(json.dumps(doc))
    return to


def _items(entry: Entry) -> list[Item]:
    items = entry["items"]
    assert isinstance(items, list)
    return items


def _scores(folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["eval", str(folder), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert isinstance(result, dict)
    return result


def _kinds(result: dict[str, object]) -> list[object]:
    kinds = result["kinds"]
    assert isinstance(kinds, list) and kinds
    return kinds


@pytest.mark.parametrize("game", ["dalek", "17"])
def test_a_photo_of_dalek_dice_or_cards_not_naming_its_sheet_is_read_on_it(
        rendered: dict[str, Path], tmp_path: Path, game: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    own = _kinds(_scores(rendered[game], capsys))
    unnamed = _copy(rendered[game], tmp_path / "unnamed", lambda entry: entry.pop("sheet"))
    assert _kinds(_scores(unnamed, capsys)) == own
