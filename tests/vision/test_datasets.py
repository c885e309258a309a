"""Loading labelled sets for ``dicetable eval``: labels.json and YOLO folders, and bad input."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.datasets import (
    ALL,
    MANIFEST,
    DatasetError,
    EntryError,
    LabelledDie,
    decode,
    load,
)
from vision.table_dataset import load as load_table_photos


def _image(path: Path, width: int = 64, height: int = 48) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), np.full((height, width, 3), 128, np.uint8))
    return path


def _text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _manifest(root: Path, images: list[object]) -> None:
    _text(root / MANIFEST, json.dumps({"images": images}))


def _die(value: int, box: list[float]) -> dict[str, object]:
    return {"value": value, "bbox": box}


# --- labels.json -----------------------------------------------------------------------------

def test_manifest_lists_images_with_splits_ignore_regions_and_pixel_boxes(tmp_path: Path) -> None:
    _image(tmp_path / "images/a.jpg")
    _image(tmp_path / "images/b.png")
    _manifest(tmp_path, [
        {"file": "images/a.jpg", "width": 64, "height": 48, "split": "train",
         "dice": [_die(5, [1, 2, 20, 22])]},
        {"file": "images/b.png", "split": "test", "dice": [_die(1, [30, 10, 40, 20])],
         "ignore": [[0, 0, 5, 5]]},
    ])
    dataset = load(tmp_path)
    assert dataset.kind == MANIFEST
    assert dataset.splits == ("test", "train")
    assert dataset.default_split() == "test"
    test = dataset.select("test")
    assert [e.file for e in test.entries] == ["images/b.png"]
    sample = decode(test.entries[0])
    assert sample.image.shape == (48, 64, 3)
    assert sample.dice == (LabelledDie(1, (30.0, 10.0, 40.0, 20.0)),)
    assert sample.ignore == ((0.0, 0.0, 5.0, 5.0),)
    assert len(dataset.select(ALL).entries) == 2


def test_manifest_without_splits_defaults_to_every_image(tmp_path: Path) -> None:
    _image(tmp_path / "a.jpg")
    _manifest(tmp_path, [{"file": "a.jpg", "dice": []}])
    dataset = load(tmp_path)
    assert dataset.default_split() == ALL
    with pytest.raises(DatasetError, match="no split 'test'"):
        dataset.select("test")


def test_manifest_splits_written_as_other_tools_write_them_are_the_usual_three(
        tmp_path: Path) -> None:
    # "Train"/"Test" (Roboflow's folders) or "validation": the test split is still the one
    # scored by default, not every image, train included; asked for in either spelling
    for name in ("a", "b", "c"):
        _image(tmp_path / f"{name}.jpg")
    _manifest(tmp_path, [{"file": "a.jpg", "split": "Train", "dice": []},
                         {"file": "b.jpg", "split": "TEST", "dice": []},
                         {"file": "c.jpg", "split": "validation", "dice": []}])
    dataset = load(tmp_path)
    assert dataset.splits == ("test", "train", "val")
    assert dataset.default_split() == "test"
    assert [e.file for e in dataset.select("test").entries] == ["b.jpg"]
    assert [e.file for e in dataset.select("Valid").entries] == ["c.jpg"]
    assert len(dataset.select("ALL").entries) == 3  # (it was no split 'ALL')
    assert [p.file for p in load_table_photos(tmp_path, "valid")] == ["c.jpg"]


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON: .* line 1 column 2"),
    ('["images"]', 'an object with an "images" list'),
    ('{"pictures": []}', 'an object with an "images" list'),
    ('{"images": []}', "lists no images"),
])
def test_an_unusable_manifest_names_the_file(tmp_path: Path, text: str, message: str) -> None:
    _text(tmp_path / MANIFEST, text)
    with pytest.raises(DatasetError, match=message) as err:
        load(tmp_path)
    assert MANIFEST in str(err.value)


@pytest.mark.parametrize("item, reason", [
    ({"dice": []}, 'missing key "file"'),
    ({"file": "x.jpg"}, 'missing key "dice"'),
    ({"file": "x.jpg", "dice": [_die(7, [0, 0, 5, 5])]}, r"dice\[0\].value must be .* 1..6"),
    ({"file": "x.jpg", "dice": [{"value": 2}]}, r"dice\[0\].bbox must be 4 numbers"),
    ({"file": "x.jpg", "dice": [_die(2, [0, 0, 5])]}, r"dice\[0\].bbox must be 4 numbers"),
    ({"file": "x.jpg", "dice": [_die(2, [9, 0, 5, 5])]}, "empty or reversed"),
    ({"file": "x.jpg", "width": 64, "height": 48, "dice": [_die(2, [70, 0, 80, 5])]},
     "outside the 64x48 image"),
    ({"file": "x.jpg", "width": 64, "dice": []}, '"height" must be a positive whole number'),
    ({"file": "x.jpg", "dice": [], "ignore": [[1, 1]]}, r"ignore\[0\] must be 4 numbers"),
    ("x.jpg", "not an object"),
])
def test_a_malformed_entry_is_skipped_with_a_reason_and_the_rest_loads(
        tmp_path: Path, item: object, reason: str) -> None:
    _image(tmp_path / "good.jpg")
    _manifest(tmp_path, [{"file": "good.jpg", "dice": []}, item])
    dataset = load(tmp_path)
    assert [e.file for e in dataset.entries] == ["good.jpg"]
    [problem] = dataset.problems
    assert problem.file == MANIFEST
    assert problem.describe().startswith(f"{MANIFEST}: images[1]")
    assert re.search(reason, problem.reason), problem.reason



@pytest.mark.parametrize(("labels", "reason"), [
    ({"dice": [{"value": 7, "bbox": [0, 0, 5, 5]}]},
     "dice[0].value must be a whole number 1..6, not 7"),
    ({"dice": [{"value": "5", "bbox": [0, 0, 5, 5]}]},
     'dice[0].value must be a whole number 1..6, not "5"'),
    ({"dice": [{"bbox": [0, 0, 5, 5]}]}, 'dice[0]: missing key "value"'),
    ({"dice": [], "ignore": [0, 0, 5, 5]},
     "ignore[0] must be 4 numbers [x0, y0, x1, y1], not 0"),
    ({"dice": [], "ignore": "none"},
     '"ignore" must be a list of boxes [x0, y0, x1, y1], not "none"'),
])
def test_a_die_or_ignore_box_labelled_wrong_is_said_alike_in_dice_sets_and_table_photos(
        tmp_path: Path, labels: dict[str, object], reason: str) -> None:
    """The table photos' labels.json keeps the dice sets' "dice" and "ignore": the same
    mistake in them is told the same way by both (one reading of each)."""
    _manifest(tmp_path, [{"file": "x.jpg", **labels}])
    [problem] = load(tmp_path).problems
    assert problem.reason == f"images[0] (x.jpg): {reason}"
    with pytest.raises(DatasetError) as told:
        load_table_photos(tmp_path)
    assert str(told.value) == f"{tmp_path / MANIFEST}: images[0] (x.jpg): {reason}"


def test_whole_numbers_written_with_a_decimal_point_are_whole_numbers(tmp_path: Path) -> None:
    # a labels.json written from a table of floats (pandas, numpy) says 5.0 and 64.0
    _image(tmp_path / "a.jpg")
    _manifest(tmp_path, [{"file": "a.jpg", "width": 64.0, "height": 48.0,
                          "dice": [{"value": 5.0, "bbox": [1, 2, 20, 22]}]},
                         {"file": "a.jpg", "dice": [{"value": 4.5, "bbox": [1, 2, 20, 22]}]}])
    dataset = load(tmp_path)
    assert decode(dataset.entries[0]).dice == (LabelledDie(5, (1.0, 2.0, 20.0, 22.0)),)
    [problem] = dataset.problems
    assert problem.reason.endswith("dice[0].value must be a whole number 1..6, not 4.5")


def test_a_split_whose_every_image_is_malformed_is_selected_with_its_reasons(
        tmp_path: Path) -> None:
    _image(tmp_path / "good.jpg")
    _manifest(tmp_path, [{"file": "good.jpg", "split": "test", "dice": []},
                         {"file": "bad.jpg", "split": "train", "dice": [_die(7, [0, 0, 9, 9])]}])
    dataset = load(tmp_path)
    assert dataset.splits == ("test", "train")
    train = dataset.select("train")
    assert train.entries == ()
    [problem] = train.problems
    assert "bad.jpg" in problem.describe() and "1..6" in problem.reason

def test_missing_unreadable_and_wrongly_sized_images_fail_one_by_one(tmp_path: Path) -> None:
    _image(tmp_path / "ok.jpg")
    _image(tmp_path / "small.jpg", width=32, height=32)
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8 this is not really a JPEG")
    (tmp_path / "empty.png").write_bytes(b"")
    _manifest(tmp_path, [{"file": name, "dice": [], **extra} for name, extra in [
        ("ok.jpg", {}), ("gone.jpg", {}), ("broken.jpg", {}), ("empty.png", {}),
        ("small.jpg", {"width": 64, "height": 48})]])
    entries = {e.file: e for e in load(tmp_path).entries}
    assert decode(entries["ok.jpg"]).image.shape == (48, 64, 3)
    for name, reason in [("gone.jpg", "image file missing"),
                         ("broken.jpg", "not a readable image"),
                         ("empty.png", "not a readable image"),
                         ("small.jpg", "the image is 32x32 but labels.json says 64x48")]:
        with pytest.raises(EntryError) as err:
            decode(entries[name])
        assert err.value.problem.file == name
        assert reason in err.value.problem.reason


def test_photos_named_as_windows_or_a_mac_names_them_are_found(tmp_path: Path) -> None:
    # a labels.json written on Windows (backslashes, another case: its disks tell no case)
    # or a Mac (an accent kept apart from its letter) names files Linux holds otherwise
    _image(tmp_path / "Photos/IMG_1.JPG")
    _image(tmp_path / "Photos/IMG_2.JPG")
    _image(tmp_path / "Photos/caf\u00e9.jpg")  # é composed, as Linux keeps a typed name
    _image(tmp_path / "twice/a.jpg")
    _image(tmp_path / "twice/A.jpg")
    _manifest(tmp_path, [{"file": name, "dice": []} for name in (
        "Photos\\IMG_1.JPG", "photos/img_2.jpg", "Photos/cafe\u0301.jpg", "twice/a.JPG",
        "photos/gone.jpg")])
    found, other_case, accent, either, gone = load(tmp_path).entries
    for entry in (found, other_case, accent):
        assert decode(entry).image.shape == (48, 64, 3), entry.file
    for entry in (either, gone):  # two files differ from it in case alone; none is there
        with pytest.raises(EntryError, match="image file missing"):
            decode(entry)
    image, _ = load_table_photos(tmp_path)[2].read()
    assert image.shape == (48, 64, 3)


def test_photos_named_by_where_they_lay_on_the_machine_that_labelled_them_are_found(
        tmp_path: Path) -> None:
    # a tool that writes each photo's whole path: on Windows, or on another computer
    _image(tmp_path / "images/IMG_1.JPG")
    _image(tmp_path / "images/IMG_2.JPG")
    _manifest(tmp_path, [{"file": name, "dice": []} for name in (
        "C:\\Users\\ana\\dice\\images\\IMG_1.JPG", "/home/ana/dice/images/img_2.jpg",
        "/home/ana/dice/images/IMG_3.JPG")])
    windows, other, gone = load(tmp_path).entries
    for entry in (windows, other):
        assert decode(entry).image.shape == (48, 64, 3), entry.file
    with pytest.raises(EntryError, match="image file missing"):
        decode(gone)


def test_a_photo_named_otherwise_that_another_entry_names_is_not_scored_twice(
        tmp_path: Path) -> None:
    # a Linux set held IMG_1.jpg and img_1.jpg; copied through a Mac, only IMG_1.jpg is left:
    # img_1.jpg's labels were scored against IMG_1.jpg, and IMG_1.jpg scored twice; a whole
    # path whose file name alone is found is that photo too
    _image(tmp_path / "IMG_1.jpg")
    _manifest(tmp_path, [{"file": "img_1.jpg", "dice": [_die(6, [1, 1, 9, 9])]},
                         {"file": "IMG_1.jpg", "dice": [_die(1, [1, 1, 9, 9])]},
                         {"file": "C:\\Users\\ana\\dice\\val\\IMG_1.jpg", "dice": []}])
    dataset = load(tmp_path)
    assert [(e.file, [d.value for d in e.dice]) for e in dataset.entries] == [
        ("IMG_1.jpg", [1])]
    assert [p.describe() for p in dataset.problems] == [
        "img_1.jpg: not found as written, and the photo it would be, IMG_1.jpg, is named by "
        "images[1] (IMG_1.jpg) too",
        "C:\\Users\\ana\\dice\\val\\IMG_1.jpg: not found as written, and the photo it would "
        "be, IMG_1.jpg, is named by images[1] (IMG_1.jpg) too"]
    _manifest(tmp_path, [{"file": "img_1.jpg", "items": [
        {"kind": "dalek", "face": "H4", "bbox": [1, 1, 9, 9]}]}, {"file": "IMG_1.jpg"}])
    with pytest.raises(DatasetError, match=re.escape(
            "images[0] (img_1.jpg): not found as written, and the photo it would be, "
            "IMG_1.jpg, is named by images[1] (IMG_1.jpg) too")):
        load_table_photos(tmp_path)


def _turned_photo(path: Path, width: int = 64, height: int = 32) -> None:
    """A JPEG (its left quarter white) whose Exif orientation tag (6) tells a viewer to turn
    it a quarter turn clockwise, as a phone held upright writes it."""
    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[:, :width // 4] = 255
    jpeg = cv2.imencode(".jpg", pixels)[1].tobytes()
    tiff = (b"II*\x00" + struct.pack("<IH", 8, 1) + struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0)
            + struct.pack("<I", 0))
    exif = b"Exif\x00\x00" + tiff
    path.write_bytes(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:])


def test_a_phone_photo_is_read_in_the_orientation_its_labels_were_made_in(tmp_path: Path) -> None:
    _turned_photo(tmp_path / "phone.jpg")
    _manifest(tmp_path, [{"file": "phone.jpg", "dice": [], **size} for size in [
        {}, {"width": 32, "height": 64}, {"width": 64, "height": 32}, {"width": 50, "height": 50}]])
    shown, as_shown, as_stored, neither = load(tmp_path).entries
    for entry in (shown, as_shown):  # as a phone shows it: the white quarter on top
        image = decode(entry).image
        assert image.shape == (64, 32, 3)
        assert image[:16].mean() > 200 and image[16:].mean() < 50
    image = decode(as_stored).image  # labelled by a tool that ignores the tag: as stored
    assert image.shape == (32, 64, 3)
    assert image[:, :16].mean() > 200 and image[:, 16:].mean() < 50
    wrong = "the image is 32x64 (64x32 as stored) but labels.json says 50x50"
    with pytest.raises(EntryError, match=re.escape(wrong)):
        decode(neither)


def test_boxes_without_a_size_say_which_way_the_photo_was_labelled_or_what_is_wrong(
        tmp_path: Path) -> None:
    _turned_photo(tmp_path / "phone.jpg")  # 64x32 as stored, 32x64 as shown
    _image(tmp_path / "table.jpg")  # 64x48
    _manifest(tmp_path, [{"file": "phone.jpg", "dice": [_die(2, [40, 4, 60, 20])]},
                         {"file": "phone.jpg", "dice": [_die(2, [4, 40, 20, 60])]},
                         {"file": "table.jpg", "dice": [_die(3, [100, 100, 120, 120])]},
                         {"file": "table.jpg", "dice": [_die(3, [0.1, 0.2, 0.3, 0.4])]}])
    stored, shown, outside, fractions = load(tmp_path).entries
    assert decode(stored).image.shape == (32, 64, 3)  # a tool that ignores the tag
    assert decode(shown).image.shape == (64, 32, 3)
    with pytest.raises(EntryError, match=re.escape(
            "a box [100.0, 100.0, 120.0, 120.0] lies outside the 64x48 image")):
        decode(outside)
    with pytest.raises(EntryError, match=re.escape(
            "its boxes look like fractions of the image (0..1); labels.json boxes are in "
            "pixels")):
        decode(fractions)


def test_a_photo_past_a_phones_12_mp_is_read_shrunk_its_labels_too(tmp_path: Path) -> None:
    # a phone's 48 MP photo was decoded whole (eval's peak 405 MB, against 134 MB for a
    # photo of 640x480); a 12 MP photo is read whole, as the reader is made for it
    _image(tmp_path / "twelve.jpg", width=4032, height=3024)
    _image(tmp_path / "big.jpg", width=5200, height=3600)
    _turned_photo(tmp_path / "phone.jpg", 5200, 3600)  # 3600x5200 as shown
    _manifest(tmp_path, [
        {"file": "twelve.jpg", "dice": []},
        {"file": "big.jpg", "width": 5200, "height": 3600,
         "dice": [_die(4, [600, 300, 700, 400])], "ignore": [[0, 0, 100, 100]]},
        {"file": "phone.jpg", "width": 3600, "height": 5200, "dice": []},
        {"file": "phone.jpg", "width": 5200, "height": 3600, "dice": []},
        {"file": "phone.jpg", "dice": [_die(2, [4000, 100, 4300, 400])]},  # as stored
        {"file": "phone.jpg", "width": 100, "height": 100, "dice": []}])
    *entries, wrong = load(tmp_path).entries
    twelve, big, shown, stored, by_boxes = (decode(entry) for entry in entries)
    assert twelve.image.shape == (3024, 4032, 3)
    assert big.image.shape == (1800, 2600, 3)
    assert big.dice == (LabelledDie(4, (300.0, 150.0, 350.0, 200.0)),)
    assert big.ignore == ((0.0, 0.0, 50.0, 50.0),)
    assert shown.image.shape == (2600, 1800, 3) and shown.image[:650].mean() > 200
    assert stored.image.shape == by_boxes.image.shape == (1800, 2600, 3)
    assert by_boxes.dice == (LabelledDie(2, (2000.0, 50.0, 2150.0, 200.0)),)
    with pytest.raises(EntryError, match=re.escape(
            "the image is 3600x5200 (5200x3600 as stored) but labels.json says 100x100")):
        decode(wrong)


def test_table_photos_of_dice_alone_are_read_as_dice_photos_and_sheets_as_frames(
        tmp_path: Path) -> None:
    # a photo of dice alone in a set of table photos is read for dice anywhere, as a set of
    # dice photos reads it (it was shrunk to 4 MP, as a photo of a sheet is)
    _image(tmp_path / "dice.jpg", width=2400, height=1800)
    _image(tmp_path / "sheet.jpg", width=2400, height=1800)
    _manifest(tmp_path, [
        {"file": "dice.jpg", "dice": [_die(3, [200, 100, 300, 200])]},
        {"file": "sheet.jpg", "items": [
            {"kind": "dalek", "face": "H4", "bbox": [200, 100, 300, 200],
             "corners": [[200, 100], [300, 100], [300, 200], [200, 200]]}]}])
    (dice, as_read), (sheet, on_sheet) = (p.read() for p in load_table_photos(tmp_path))
    assert dice.shape == (1800, 2400, 3) and as_read.items[0].bbox == (200, 100, 300, 200)
    assert sheet.shape == (900, 1200, 3) and on_sheet.items[0].bbox == (100, 50, 150, 100)
    assert on_sheet.items[0].corners == ((100, 50), (150, 50), (150, 100), (100, 100))


def test_the_shared_sets_load_with_their_documented_counts() -> None:
    shared = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
    if not shared.is_dir():
        pytest.skip(f"{shared} is absent (the shared real-photo sets live only in CI and on "
                    f"the project machine)")
    for name, test_dice in [("byler-d6", 309), ("matteop65-dice", 255)]:
        dataset = load(shared / name)
        assert dataset.problems == ()
        assert sum(len(e.dice) for e in dataset.select("test").entries) == test_dice


# --- YOLO ------------------------------------------------------------------------------------

def test_ultralytics_layout_with_splits_and_boxes_scaled_by_the_image_size(
        tmp_path: Path) -> None:
    _image(tmp_path / "images/train/a.jpg", width=200, height=100)
    _text(tmp_path / "labels/train/a.txt", "4 0.5 0.5 0.1 0.2\n\n0 0.25 0.75 0.1 0.1\n")
    _image(tmp_path / "images/val/b.png")
    _text(tmp_path / "labels/val/b.txt", "")
    dataset = load(tmp_path)
    assert dataset.kind == "yolo"
    assert dataset.splits == ("train", "val")
    assert dataset.default_split() == ALL
    [train] = dataset.select("train").entries
    sample = decode(train)
    assert [d.value for d in sample.dice] == [5, 1]
    assert sample.dice[0].box == pytest.approx((90.0, 40.0, 110.0, 60.0))
    assert sample.dice[1].box == pytest.approx((40.0, 70.0, 60.0, 80.0))
    assert decode(dataset.select("val").entries[0]).dice == ()


def test_split_folders_above_images_and_the_valid_spelling(tmp_path: Path) -> None:
    _image(tmp_path / "Train/images/a.jpg")
    _text(tmp_path / "Train/labels/a.txt", "2 0.5 0.5 0.2 0.2\n")
    _image(tmp_path / "valid/images/b.jpg")
    _text(tmp_path / "valid/labels/b.txt", "3 0.5 0.5 0.2 0.2\n")
    _image(tmp_path / "test/images/c.jpg")
    _text(tmp_path / "test/labels/c.txt", "5 0.5 0.5 0.2 0.2\n")
    dataset = load(tmp_path)
    assert dataset.splits == ("test", "train", "val")
    assert [d.value for e in dataset.select("val").entries for d in e.dice] == [4]
    assert dataset.default_split() == "test"


def test_labels_beside_the_images_ignore_classes_txt_and_skip_unlabelled_images(
        tmp_path: Path) -> None:
    root = tmp_path / "images" / "set"  # an "images" folder above the root changes nothing
    _image(root / "a.jpg")
    _text(root / "a.txt", "0 0.5 0.5 0.2 0.2\n")
    _image(root / "b.jpg")
    _text(root / "classes.txt", "One\nTwo\nThree\nFour\nFive\nSix\n")
    dataset = load(root)
    assert [(e.file, len(e.dice)) for e in dataset.entries] == [("a.jpg", 1)]
    [problem] = dataset.problems
    assert problem.describe() == ("b.jpg: no label file b.txt beside it "
                                  "(an image with no dice needs an empty one)")


def test_in_the_ultralytics_layout_an_image_without_a_label_file_holds_no_dice(
        tmp_path: Path) -> None:
    _image(tmp_path / "images/a.jpg")
    _text(tmp_path / "labels/a.txt", "0 0.5 0.5 0.2 0.2\n")
    _image(tmp_path / "images/empty_table.jpg")
    dataset = load(tmp_path)
    assert dataset.problems == ()
    assert {e.file: len(e.dice) for e in dataset.entries} == {"images/a.jpg": 1,
                                                             "images/empty_table.jpg": 0}


@pytest.mark.parametrize("line, reason", [
    ("1 0.5 0.5 0.2", "expected 'class xc yc w h'"),
    ("6 0.5 0.5 0.2 0.2", "class 6 is not 0..5"),
    ("1 0.5 0.5 0.2 0.2 0.9", "expected 'class xc yc w h'"),  # a prediction, with its confidence
    ("1.5 0.5 0.5 0.2 0.2", "class 1.5 is not 0..5"),
    ("two 0.5 0.5 0.2 0.2", "not numbers"),
    ("1 0.5 0.5 0 0.2", "not a normalised"),
    ("1 50 40 20 20", "not a normalised"),
    ("1 nan 0.5 0.2 0.2", "not a normalised"),
])
def test_a_bad_yolo_line_skips_its_image_naming_file_and_line(
        tmp_path: Path, line: str, reason: str) -> None:
    _image(tmp_path / "images/a.jpg")
    _text(tmp_path / "labels/a.txt", f"0 0.5 0.5 0.2 0.2\n{line}\n")
    _image(tmp_path / "images/b.jpg")
    _text(tmp_path / "labels/b.txt", "0 0.5 0.5 0.2 0.2\n")
    dataset = load(tmp_path)
    assert [e.file for e in dataset.entries] == ["images/b.jpg"]
    [problem] = dataset.problems
    assert (problem.file, problem.line) == ("labels/a.txt", 2)
    assert reason in problem.reason
    assert problem.describe().startswith("labels/a.txt:2: ")


@pytest.mark.parametrize("names_file, text", [
    # Roboflow sorts its class names: "five" is class 0
    ("data.yaml", "nc: 6\nnames: ['five', 'four', 'one', 'six', 'three', 'two']\n"),
    ("data.yaml", "names:\n  0: five\n  1: four\n  2: one\n  3: six\n  4: three\n"
                  "  5: two\n"),
    ("classes.txt", "Five\nfour\none\nsix\nthree\ntwo\n"),
    ("obj.names", "dice-5\ndice-4\ndice-1\ndice-6\ndice-3\ndice-2\n"),
])
def test_yolo_class_names_say_which_value_each_class_is(tmp_path: Path, names_file: str,
                                                        text: str) -> None:
    _text(tmp_path / names_file, text)
    _image(tmp_path / "train/images/a.jpg")
    _text(tmp_path / "train/labels/a.txt", "0 0.5 0.5 0.2 0.2\n2 0.2 0.2 0.1 0.1\n")
    [entry] = load(tmp_path).entries
    assert [d.value for d in entry.dice] == [5, 1]


def test_yolo_classes_named_by_their_numbers_are_values_one_more(tmp_path: Path) -> None:
    _text(tmp_path / "classes.txt", "0\n1\n2\n3\n4\n5\n")  # names that only number them
    _image(tmp_path / "images/a.jpg")
    _text(tmp_path / "labels/a.txt", "0 0.5 0.5 0.2 0.2\n5 0.2 0.2 0.1 0.1\n")
    [entry] = load(tmp_path).entries
    assert [d.value for d in entry.dice] == [1, 6]


def test_a_yolo_class_named_for_no_value_skips_its_image(tmp_path: Path) -> None:
    # a set counted from 1, its class 0 "0" never used: class 6 is a six
    _text(tmp_path / "data.yaml", "names: ['0', '1', '2', '3', '4', '5', '6']\n")
    _image(tmp_path / "images/a.jpg")
    _text(tmp_path / "labels/a.txt", "6 0.5 0.5 0.2 0.2\n1 0.2 0.2 0.1 0.1\n")
    _image(tmp_path / "images/b.jpg")
    _text(tmp_path / "labels/b.txt", "0 0.5 0.5 0.2 0.2\n")
    dataset = load(tmp_path)
    assert [[d.value for d in e.dice] for e in dataset.entries] == [[6, 1]]
    [problem] = dataset.problems
    assert problem.describe() == ("labels/b.txt:1: class 0 is named '0' in data.yaml, "
                                  "not a value 1..6")


def test_yolo_class_names_that_name_no_value_are_refused_in_words(tmp_path: Path) -> None:
    _text(tmp_path / "data.yaml", "names: ['dice']\n")
    _image(tmp_path / "images/a.jpg")
    _text(tmp_path / "labels/a.txt", "0 0.5 0.5 0.2 0.2\n")
    with pytest.raises(DatasetError, match=r"data\.yaml names no die value \(dice\): its "
                                           r"labels do not say which face is up"):
        load(tmp_path)
    _text(tmp_path / "data.yaml", "names: [one, two\n")
    with pytest.raises(DatasetError, match=r"data\.yaml: not YAML the class names can be read "
                                           r"from"):
        load(tmp_path)


def test_label_files_as_other_tools_write_them(tmp_path: Path) -> None:
    _image(tmp_path / "images/a.jpg")
    _text(tmp_path / "labels/a.txt", "\ufeff4 0.5 0.5 0.2 0.2\n")  # Windows Notepad's BOM
    _image(tmp_path / "images/b.jpg")  # a segmentation label: its polygon's box
    _text(tmp_path / "labels/b.txt", "1 0.4 0.4 0.6 0.4 0.6 0.7 0.4 0.7\n")
    dataset = load(tmp_path)
    assert dataset.problems == ()
    a, b = dataset.entries
    assert [d.value for d in a.dice] == [5]
    assert [(d.value, d.box) for d in b.dice] == [(2, pytest.approx((0.4, 0.4, 0.6, 0.7)))]


def test_training_and_testing_folders_are_splits(tmp_path: Path) -> None:
    _image(tmp_path / "training/images/a.jpg")
    _text(tmp_path / "training/labels/a.txt", "0 0.5 0.5 0.2 0.2\n")
    _image(tmp_path / "testing/images/b.jpg")
    _text(tmp_path / "testing/labels/b.txt", "0 0.5 0.5 0.2 0.2\n")
    assert load(tmp_path).splits == ("test", "train")


def test_a_phone_photo_format_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    _image(tmp_path / "a.jpg")
    _text(tmp_path / "a.txt", "0 0.5 0.5 0.2 0.2\n")
    (tmp_path / "b.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    _text(tmp_path / "b.txt", "0 0.5 0.5 0.2 0.2\n")
    dataset = load(tmp_path)
    assert [e.file for e in dataset.entries] == ["a.jpg"]
    [problem] = dataset.problems
    assert problem.describe() == ("b.HEIC: a HEIC photo, which cannot be read here; convert it "
                                  "to JPEG or PNG")


def _decoding_refused(root: Path, files: list[str]) -> list[str]:
    """Why each of ``files``, listed in labels.json, is refused as it is decoded."""
    _manifest(root, [{"file": file, "dice": []} for file in files])
    reasons = []
    for entry in load(root).entries:
        with pytest.raises(EntryError) as err:
            decode(entry)
        reasons.append(err.value.problem.reason)
    return reasons


def test_an_iphones_heic_photo_named_jpg_is_named_heic(tmp_path: Path) -> None:
    # some tools save an iPhone's photo as .jpg and leave it HEIC inside
    (tmp_path / "IMG_1.jpg").write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"
                                        + bytes(100))
    (tmp_path / "IMG_2.jpg").write_bytes(b"\x00\x00\x00\x18ftypmp42")  # a video: no photo
    assert _decoding_refused(tmp_path, ["IMG_1.jpg", "IMG_2.jpg"]) == [
        "a HEIC photo named .jpg, which cannot be read here; convert it to JPEG or PNG",
        "not a readable image: empty, cut short, or in a format whose size is not known before "
        "it is read (a PPM or JPEG 2000 saved as .jpg, say); save it as JPEG or PNG"]


def test_an_avif_photo_is_not_decoded_whatever_its_name(tmp_path: Path) -> None:
    # OpenCV decodes one, but its size is not known before (vision.picture_formats): eval
    # read a .avif that labels.json named, at whatever size it decoded to
    avif = cv2.imencode(".avif", np.full((48, 64, 3), 128, np.uint8))[1].tobytes()
    (tmp_path / "a.avif").write_bytes(avif)
    (tmp_path / "b.jpg").write_bytes(avif)
    # its first brand that of any HEIF picture, the next AVIF's (it was told a HEIC photo)
    (tmp_path / "c.jpg").write_bytes(avif[:8] + b"mif1" + avif[12:])
    assert _decoding_refused(tmp_path, ["a.avif", "b.jpg", "c.jpg"]) == [
        "an AVIF photo, which cannot be read here; convert it to JPEG or PNG",
        "an AVIF photo named .jpg, which cannot be read here; convert it to JPEG or PNG",
        "an AVIF photo named .jpg, which cannot be read here; convert it to JPEG or PNG"]


@pytest.mark.parametrize("kind", [".ppm", ".ras", ".jp2", ".hdr", ".pfm"])
def test_a_picture_whose_size_is_not_known_before_decoding_is_not_decoded(
        tmp_path: Path, kind: str) -> None:
    # OpenCV decodes each, but its size is not read first (vision.image_size): one saved as
    # .jpg was decoded to whatever size it held
    image = np.full((48, 64, 3), 128, np.uint8)
    (tmp_path / "a.jpg").write_bytes(cv2.imencode(
        kind, image if kind not in (".hdr", ".pfm") else image.astype(np.float32))[1].tobytes())
    assert _decoding_refused(tmp_path, ["a.jpg"]) == [
        "not a readable image: empty, cut short, or in a format whose size is not known before "
        "it is read (a PPM or JPEG 2000 saved as .jpg, say); save it as JPEG or PNG"]


def test_a_jpeg_with_bytes_before_a_marker_is_measured_and_read(tmp_path: Path) -> None:
    # libjpeg passes over them (its size was not known, so no picture is decoded so)
    jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 128, np.uint8))[1].tobytes()
    app0 = 4 + int.from_bytes(jpeg[4:6], "big")
    (tmp_path / "a.jpg").write_bytes(jpeg[:app0] + b"\x00\x00" + jpeg[app0:])
    _manifest(tmp_path, [{"file": "a.jpg", "dice": []}])
    [entry] = load(tmp_path).entries
    assert decode(entry).image.shape == (48, 64, 3)


def test_gif_images_are_evaluated_and_raw_photos_named_as_the_camera_names_them(
        tmp_path: Path) -> None:
    # the GIF was left out unsaid (OpenCV here reads it), the RAW photo too (the camera's
    # folder named it)
    _image(tmp_path / "a.gif")
    _text(tmp_path / "a.txt", "0 0.5 0.5 0.2 0.2\n")
    (tmp_path / "b.NEF").write_bytes(b"II*\x00raw")
    _text(tmp_path / "b.txt", "0 0.5 0.5 0.2 0.2\n")
    dataset = load(tmp_path)
    [entry] = dataset.entries
    assert entry.file == "a.gif" and decode(entry).image.shape == (48, 64, 3)
    assert [p.describe() for p in dataset.problems] == [
        "b.NEF: a RAW photo, which cannot be read here; convert it to JPEG or PNG"]


def test_a_gif_past_10_megapixels_is_too_large_to_read(tmp_path: Path) -> None:
    # its decoding costs 4 times a PNG's (some 12 bytes a pixel): 565 MB for 7000×7000
    ok, gif = cv2.imencode(".gif", np.full((48, 64, 3), 128, np.uint8))
    assert ok
    (tmp_path / "a.gif").write_bytes(gif.tobytes()[:6] + struct.pack("<HH", 4000, 3000)
                                     + gif.tobytes()[10:])
    _text(tmp_path / "a.txt", "0 0.5 0.5 0.2 0.2\n")
    [entry] = load(tmp_path).entries
    with pytest.raises(EntryError, match=re.escape(
            "the image is too large to read (4000×3000 pixels; at most 10 megapixels)")):
        decode(entry)


def test_a_raw_photo_in_labels_json_is_named_a_raw_photo(tmp_path: Path) -> None:
    # it was "not a readable image (empty, truncated or not an image format)"
    (tmp_path / "images").mkdir()
    (tmp_path / "images/a.CR2").write_bytes(b"II*\x00\x10\x00\x00\x00CR\x02\x00")
    _manifest(tmp_path, [{"file": "images/a.CR2", "dice": [_die(3, [1, 1, 9, 9])]}])
    [entry] = load(tmp_path).entries
    with pytest.raises(EntryError, match=r"^images/a\.CR2: a RAW photo, which cannot be read "
                                         r"here; convert it to JPEG or PNG$"):
        decode(entry)


def test_a_label_file_without_its_image_is_reported(tmp_path: Path) -> None:
    _image(tmp_path / "images/a.jpg")
    _text(tmp_path / "labels/a.txt", "0 0.5 0.5 0.2 0.2\n")
    _text(tmp_path / "labels/gone.txt", "0 0.5 0.5 0.2 0.2\n")
    [problem] = load(tmp_path).problems
    assert (problem.file, problem.reason) == ("labels/gone.txt", "no image for this label file")


def test_a_yolo_label_file_named_in_another_case_is_its_images(tmp_path: Path) -> None:
    # a set made on Windows: IMG_1.TXT was no label of IMG_1.jpg, which was then scored as
    # a table without dice (every die read a false one), and GONE.TXT was not reported
    _image(tmp_path / "images/IMG_1.jpg")
    _text(tmp_path / "labels/img_1.TXT", "3 0.5 0.5 0.2 0.2\n")
    _text(tmp_path / "labels/GONE.TXT", "0 0.5 0.5 0.2 0.2\n")
    dataset = load(tmp_path)
    assert [(e.file, [d.value for d in e.dice]) for e in dataset.entries] == [
        ("images/IMG_1.jpg", [4])]
    assert [p.describe() for p in dataset.problems] == [
        "labels/GONE.TXT: no image for this label file"]


@pytest.mark.parametrize("labels", ["", "labels/"])
def test_a_yolo_label_file_is_not_taken_for_an_image_named_so_in_another_case(
        tmp_path: Path, labels: str) -> None:
    # a Linux set: img_1.jpg has no label file (Ultralytics: a table without dice); it was
    # scored with IMG_1.jpg's dice
    _image(tmp_path / "images/IMG_1.jpg")
    _image(tmp_path / "images/img_1.jpg")
    _text(tmp_path / (labels or "images/") / "IMG_1.txt", "3 0.5 0.5 0.2 0.2\n")
    dataset = load(tmp_path)
    assert [(e.file, [d.value for d in e.dice]) for e in dataset.entries] == [
        ("images/IMG_1.jpg", [4])]
    assert [p.describe() for p in dataset.problems] == [
        "images/img_1.jpg: no label file img_1.txt, and the one it would be, IMG_1.txt, is "
        "that of images/IMG_1.jpg"]


def test_folders_with_nothing_to_evaluate_raise(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no such folder"):
        load(tmp_path / "absent")
    with pytest.raises(DatasetError, match="not a folder"):
        load(_text(tmp_path / "file.txt", ""))
    with pytest.raises(DatasetError, match="nothing to evaluate"):
        load(tmp_path / "")
    _image(tmp_path / "photo.jpg")
    with pytest.raises(DatasetError, match="nothing to evaluate"):
        load(tmp_path)
