"""``dicetable eval`` (and ``teach``) on table photos labelled by someone who read only the
documentation: the same frames, their labels written another documented way, score as the
project's own labels do; a label that cannot mean what it says is refused with the reason."""

from __future__ import annotations

import json
import shutil
import struct
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetable.cli import main
from vision.profile import load as load_profile

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


def test_a_card_labelled_by_its_id_and_side_alone_scores_as_its_face(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def ids_only(entry: Entry) -> None:
        for item in _items(entry):
            item.pop("face")

    for game in ("dicy", "17"):
        own = _kinds(_scores(rendered[game], capsys))
        assert _kinds(_scores(_copy(rendered[game], tmp_path / game, ids_only), capsys)) == own


@pytest.mark.parametrize(("game", "label", "said"), [
    ("17", {"kind": "17-card", "card": "3d", "side": "up", "face": "3d"},
     "items[0]: card '3d', side 'up', shows '3', not '3d'"),
    ("dicy", {"kind": "dicy-card", "card": "odd", "side": "active", "face": "odd/frozen"},
     "items[0]: card 'odd', side 'active', shows 'odd/active', not 'odd/frozen'"),
    ("17", {"kind": "17-card", "card": "3e", "side": "up"},
     "items[0]: '3e' is not a card of 17-card (1, 2, 3, 4, 5, 1d,"),
    ("17", {"kind": "17-card", "card": "3", "side": "face down"},
     "items[0]: the side of a 17-card is up or down, not 'face down'"),
    ("dicy", {"kind": "dicy-card", "face": "odd"},
     "items[0]: 'odd' is not a face of dicy-card (the card and its side, as 'odd/frozen'"),
    ("dalek", {"kind": "dalek"}, 'items[0]: missing key "face"'),
])
def test_a_card_whose_face_is_not_what_it_shows_is_refused(
        rendered: dict[str, Path], tmp_path: Path, game: str, label: Item, said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    def relabel(entry: Entry) -> None:
        _items(entry)[0] = {**_items(entry)[0], **label}
        if "face" not in label:
            _items(entry)[0].pop("face", None)

    folder = _copy(rendered[game], tmp_path / "set", relabel)
    capsys.readouterr()
    assert main(["eval", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"labels.json: images[0] (images/0000.jpg): {said}" in err, err


def test_a_sheet_not_named_with_its_paper_is_refused_saying_how(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(rendered["dalek"], tmp_path / "set",
                   lambda entry: entry.update(sheet="dalek"))
    capsys.readouterr()
    assert main(["eval", str(folder)]) == 2
    assert ('images[0] (images/0000.jpg): "sheet" must name the game and the paper it is '
            'printed on, as {"game": "dalek", "paper": "a4"}, not "dalek"'
            in capsys.readouterr().err)


@pytest.mark.parametrize(("empty", "said"), [
    ("row-16", '"empty" must be a list of card places, as ["row-15", "row-16"], not "row-16"'),
    (["row-15", 16], 'empty[1] must be the name of a card place in quotes, as "row-16", not 16'),
])
@pytest.mark.parametrize("command", ["eval", "teach"])
def test_empty_places_not_written_as_a_list_of_names_are_refused_saying_how(
        rendered: dict[str, Path], tmp_path: Path, empty: object, said: str, command: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(rendered["17"], tmp_path / "set", lambda entry: entry.update(empty=empty))
    args = [str(folder)] if command == "eval" else ["17-card", "--from", str(folder), "--out",
                                                     str(tmp_path / "profile.npz")]
    capsys.readouterr()
    assert main([command, *args]) == 2
    err = capsys.readouterr().err
    assert f"labels.json: images[0] (images/0000.jpg): {said}\n" in err, err


def test_a_card_labelled_without_its_place_is_scored_in_the_place_it_lies_in(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def no_zones(entry: Entry) -> None:
        for item in _items(entry):
            item.pop("zone")

    for game in ("dicy", "17"):
        own = _kinds(_scores(rendered[game], capsys))
        assert _kinds(_scores(_copy(rendered[game], tmp_path / game, no_zones), capsys)) == own


def _a_card_beside_the_row(folder: Path) -> Path:
    """The frame with a copy of row-1's card laid on the sheet below the row, on no place (a
    draw pile), labelled without a zone."""
    doc = json.loads((folder / "labels.json").read_text())
    entry = doc["images"][0]
    card = dict(_items(entry)[0])
    x0, y0, x1, y1 = (round(v) for v in card.pop("bbox"))
    dx, dy = 200, 215
    photo = folder / entry["file"]
    image = cv2.imread(str(photo))
    image[y0 + dy:y1 + dy, x0 + dx:x1 + dx] = image[y0:y1, x0:x1].copy()
    cv2.imwrite(str(photo), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    card.pop("zone")
    card.update(bbox=[x0 + dx, y0 + dy, x1 + dx, y1 + dy],
                corners=[[x + dx, y + dy] for x, y in card["corners"]])
    _items(entry).append(card)
    (folder / "labels.json").write_text(json.dumps(doc))
    return folder


def test_a_card_labelled_beside_the_row_is_noted_and_the_photo_scored(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = _scores(rendered["17"], capsys)
    result = _scores(_a_card_beside_the_row(_copy(rendered["17"], tmp_path / "set")), capsys)
    assert result["skipped"] == []
    assert result["notes"] == ["images/0000.jpg: the 17-card labelled '3' lies on no card place "
                               "of the sheet; it is not scored"]
    assert _kinds(result) == _kinds(own)


def test_teach_takes_a_card_labelled_beside_the_row(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _a_card_beside_the_row(_copy(rendered["17"], tmp_path / "set"))
    own, taught = tmp_path / "own.npz", tmp_path / "taught.npz"
    assert main(["teach", "17-card", "--from", str(rendered["17"]), "--out", str(own)]) == 0
    capsys.readouterr()
    assert main(["teach", "17-card", "--from", str(folder), "--out", str(taught)]) == 0
    assert capsys.readouterr().err == ""
    assert sorted(load_profile(taught).labels) == sorted([*load_profile(own).labels, "3"])


def _no_sheet_nor_places(entry: Entry) -> None:
    entry.pop("sheet")
    dice = entry["dice"]
    assert isinstance(dice, list)
    for item in [*_items(entry), *dice]:
        item.pop("zone")


@pytest.mark.parametrize(("game", "kind"), [("dalek", "dalek"), ("dicy", "dicy-card"),
                                            ("dicy", "d6"), ("17", "17-card")])
def test_teach_reads_a_photo_not_naming_its_sheet_nor_places_as_eval_does(
        rendered: dict[str, Path], tmp_path: Path, game: str, kind: str) -> None:
    """Photos labelled as the documentation allows, without "sheet" and "zone", teach the
    profile they teach with them: read on the sheet they show, each card cut out in the place
    it lies in (they were taken as they were, unrectified)."""
    bare = _copy(rendered[game], tmp_path / "bare", _no_sheet_nor_places)
    own, taught = tmp_path / "own.npz", tmp_path / "taught.npz"
    assert main(["teach", kind, "--from", str(rendered[game]), "--out", str(own)]) == 0
    assert main(["teach", kind, "--from", str(bare), "--out", str(taught)]) == 0
    a, b = load_profile(own), load_profile(taught)
    assert (b.labels, b.side_mm) == (a.labels, a.side_mm)
    assert np.array_equal(b.patches, a.patches)


def _beside_the_sheet(folder: Path) -> Item:
    """The frame with a copy of its first die or card laid on the table left of the sheet (a
    draw pile), labelled without a zone; the copy's label."""
    doc = json.loads((folder / "labels.json").read_text())
    entry = doc["images"][0]
    thing = dict(_items(entry)[0])
    x0, y0, x1, y1 = (round(v) for v in thing.pop("bbox"))
    dx = 20 - x0
    photo = folder / entry["file"]
    image = cv2.imread(str(photo))
    image[y0:y1, x0 + dx:x1 + dx] = image[y0:y1, x0:x1].copy()
    cv2.imwrite(str(photo), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    thing.pop("zone")
    thing.update(bbox=[x0 + dx, y0, x1 + dx, y1],
                 corners=[[x + dx, y] for x, y in thing["corners"]])
    _items(entry).append(thing)
    (folder / "labels.json").write_text(json.dumps(doc))
    return thing


@pytest.mark.parametrize(("game", "kind"), [("17", "17-card"), ("dalek", "dalek")])
def test_teach_leaves_out_what_lies_off_the_sheet_and_says_so(
        rendered: dict[str, Path], tmp_path: Path, game: str, kind: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A card or die beside the sheet is not in the rectified sheet teach cuts examples from:
    it was taught as a blank patch of the sheet's edge under its label."""
    folder = _copy(rendered[game], tmp_path / "set")
    beside = _beside_the_sheet(folder)
    own, taught = tmp_path / "own.npz", tmp_path / "taught.npz"
    assert main(["teach", kind, "--from", str(rendered[game]), "--out", str(own)]) == 0
    capsys.readouterr()
    assert main(["teach", kind, "--from", str(folder), "--out", str(taught)]) == 0
    assert load_profile(taught).counts() == load_profile(own).counts()
    out = capsys.readouterr()
    assert out.err == ""
    assert (f"  note images/0000.jpg: the {kind} labelled {beside['face']!r} lies off the "
            f"sheet; it is not taught\n") in out.out


def _rename_first_place(entry: Entry) -> None:
    _items(entry)[0]["zone"] = "Row 1"


def _first_place_twice(entry: Entry) -> None:
    _items(entry)[1]["zone"] = _items(entry)[0]["zone"]


def _dice_called_d6(entry: Entry) -> None:
    for item in _items(entry):
        item.update(kind="d6", face="5")


@pytest.mark.parametrize(("game", "change", "said"), [
    ("17", _rename_first_place, "'Row 1' is not a card place of the 17 sheet (row-1 … row-16)"),
    ("17", _first_place_twice, "place row-1 is labelled twice ('3' and 'back')"),
    ("dalek", _dice_called_d6,
     "labels d6, which the dalek sheet it shows is not read for (it reads dalek)"),
])
def test_a_photo_with_labels_its_sheet_cannot_score_is_skipped_saying_why(
        rendered: dict[str, Path], tmp_path: Path, game: str, change: Callable[[Entry], None],
        said: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = _scores(_copy(rendered[game], tmp_path / "set", change), capsys)
    assert result["skipped"] == [f"images/0000.jpg: {said}"]
    assert result["kinds"] == []


def _second_place_not_on_the_sheet(entry: Entry) -> None:
    _items(entry)[1]["zone"] = "p5-1"


@pytest.mark.parametrize(("game", "change", "said"), [
    ("17", _rename_first_place, "'Row 1' is not a card place of the 17 sheet (row-1 … row-16)"),
    ("dicy", _second_place_not_on_the_sheet,
     "'p5-1' is not a card place of the dicy sheet (p1-1 … p4-5)"),
    ("17", _first_place_twice, "place row-1 is labelled twice ('3' and 'back')"),
])
def test_teach_from_a_photo_labelling_a_place_its_sheet_has_not_says_which(
        rendered: dict[str, Path], tmp_path: Path, game: str, change: Callable[[Entry], None],
        said: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(rendered[game], tmp_path / "set", change)
    profile = tmp_path / "profile.npz"
    capsys.readouterr()
    assert main(["teach", game, "--from", str(folder), "--out", str(profile)]) == 2
    assert capsys.readouterr().err == f"dicetable teach: images/0000.jpg: {said}\n"
    assert not profile.exists()


def _as_a_phone_saves_it(photo: Path) -> None:
    """The photo's pixels stored a quarter turn anticlockwise with the Exif orientation tag (6)
    that turns it upright again, as a phone held sideways saves it."""
    stored = cv2.rotate(cv2.imread(str(photo)), cv2.ROTATE_90_COUNTERCLOCKWISE)
    jpeg = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
    tiff = (b"II*\x00" + struct.pack("<IH", 8, 1) + struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0)
            + struct.pack("<I", 0))
    exif = b"Exif\x00\x00" + tiff
    photo.write_bytes(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:])


def _labelled_as_stored(entry: Entry) -> None:
    """Labels made by a tool that ignores the orientation tag: in the pixels as stored."""
    width = entry["width"]
    assert isinstance(width, int)
    entry["width"], entry["height"] = entry["height"], width
    for item in _items(entry):
        x0, y0, x1, y1 = item.pop("bbox")
        item.pop("corners")
        item["bbox"] = [y0, width - x1, y1, width - x0]


@pytest.mark.parametrize("change", [lambda entry: None, _labelled_as_stored])
def test_a_photo_saved_turned_is_read_the_way_it_was_labelled(
        rendered: dict[str, Path], tmp_path: Path, change: Callable[[Entry], None],
        capsys: pytest.CaptureFixture[str]) -> None:
    own = _kinds(_scores(rendered["dalek"], capsys))
    folder = _copy(rendered["dalek"], tmp_path / "set", change)
    _as_a_phone_saves_it(folder / "images" / "0000.jpg")
    assert _kinds(_scores(folder, capsys)) == own


def test_boxes_given_as_corner_and_size_are_refused(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def corner_and_size(entry: Entry) -> None:
        for item in _items(entry):
            x0, y0, x1, y1 = item.pop("bbox")
            item["bbox"] = [x0, y0, x1 - x0, y1 - y0]

    folder = _copy(rendered["dalek"], tmp_path / "set", corner_and_size)
    capsys.readouterr()
    assert main(["eval", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "images[0] (images/0000.jpg): items[0]: bbox [" in err
    assert "is empty or reversed (need x0 < x1 and y0 < y1)" in err


def test_a_photo_labelled_wrong_is_skipped_saying_why_and_the_rest_scored(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # one entry written wrong refused the whole set ("dicetable eval: .../labels.json:
    # images[1] ..."), where a set of dice photos skips it and goes on
    own = _kinds(_scores(rendered["dalek"], capsys))
    folder = _copy(rendered["dalek"], tmp_path / "set")
    doc = json.loads((folder / "labels.json").read_text())
    wrong = json.loads(json.dumps(doc["images"][0]))
    wrong["file"], wrong["items"][0]["face"] = "images/again.jpg", "H9"
    shutil.copy(folder / "images" / "0000.jpg", folder / "images" / "again.jpg")
    (folder / "labels.json").write_text(json.dumps({"images": [*doc["images"], wrong]}))
    result = _scores(folder, capsys)
    assert result["skipped"] == ["labels.json: images[1] (images/again.jpg): items[0]: 'H9' "
                                 "is not a face of dalek (H4, H2, D3, D2, DOC, EXT)"]
    assert _kinds(result) == own


def _resaved_larger(folder: Path) -> None:
    photo = folder / "images" / "0000.jpg"
    cv2.imwrite(str(photo), cv2.resize(cv2.imread(str(photo)), (1920, 1080)))


def _renamed(folder: Path) -> None:
    (folder / "images" / "0000.jpg").rename(folder / "images" / "0000-old.jpg")


@pytest.mark.parametrize(("change", "said"), [
    (_resaved_larger, "the image is 1920x1080 but labels.json says 1280x720"),
    (_renamed, "image file missing"),  # (one named 0000.JPG is read: vision.file_names)
])
def test_a_photo_not_as_labelled_is_skipped_saying_why(
        rendered: dict[str, Path], tmp_path: Path, change: Callable[[Path], None], said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(rendered["dalek"], tmp_path / "set")
    change(folder)
    result = _scores(folder, capsys)
    assert result["skipped"] == [f"images/0000.jpg: {said}"]
    assert result["kinds"] == []


def test_a_die_marked_ignore_is_neither_scored_nor_a_false_read(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def ignore_the_last_die(entry: Entry) -> None:
        entry["ignore"] = [_items(entry).pop()["bbox"]]

    own = _kinds(_scores(rendered["dalek"], capsys))[0]
    folder = _copy(rendered["dalek"], tmp_path / "set", ignore_the_last_die)
    ignored = _kinds(_scores(folder, capsys))[0]
    assert isinstance(own, dict) and isinstance(ignored, dict)
    dice = own["total"]
    assert isinstance(dice, int) and own["false"] == 0 and own["right"] == dice
    assert (ignored["false"], ignored["total"], ignored["right"]) == (0, dice - 1, dice - 1)


def test_failures_of_table_photos_are_drawn_into_the_folder_asked_for(
        rendered: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def first_card_frozen_the_wrong_way(entry: Entry) -> None:
        card = _items(entry)[0]
        card.pop("card", None)
        card.pop("side", None)
        card["face"] = "odd/active" if card["face"] == "odd/frozen" else "odd/frozen"

    right, wrong = tmp_path / "right", tmp_path / "wrong"
    capsys.readouterr()
    assert main(["eval", str(rendered["dicy"]), "--save-failures", str(right)]) == 0
    assert f"0 photos not read exactly drawn with the reads in {right}" in capsys.readouterr().out
    assert list(right.iterdir()) == []
    mislabelled = _copy(rendered["dicy"], tmp_path / "set", first_card_frozen_the_wrong_way)
    assert main(["eval", str(mislabelled), "--save-failures", str(wrong)]) == 0
    assert f"1 photo not read exactly drawn with the reads in {wrong}" in capsys.readouterr().out
    assert [p.name for p in wrong.iterdir()] == ["images__0000.jpg"]
    photo = cv2.imread(str(mislabelled / "images" / "0000.jpg"))
    picture = cv2.imread(str(wrong / "images__0000.jpg"))
    assert picture.shape[0] > photo.shape[0] and picture.shape[1:] == photo.shape[1:]
