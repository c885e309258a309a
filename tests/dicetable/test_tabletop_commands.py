"""dicetable calibrate, render, teach and eval of every kind, through the command line."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetable.cli import main
from engine import dalek, dicy
from tests.dicetable.help_text import option_help, unnamed
from vision.reader import LOCATOR, MODELS
from vision.table_scene import GAME_DICE


def test_calibrate_prints_a_sheet_and_keeps_a_calibration(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    assert main(["calibrate", "--print", "--game", "dicy", "--paper", "letter", "--lang", "pt",
                 "--out", str(tmp_path)]) == 0
    pdf = tmp_path / "dicetable-dicy-letter-pt.pdf"  # beside the sheet in another language
    png = cv2.imread(str(tmp_path / "dicetable-dicy-letter-pt.png"))
    assert b"pHYs\x00\x00.\x23\x00\x00.\x23\x01" in (tmp_path / "dicetable-dicy-letter-pt.png"
                                                     ).read_bytes()  # 300 dpi: prints to size
    assert pdf.read_bytes().startswith(b"%PDF-") and b"/MediaBox" in pdf.read_bytes()
    framed = cv2.copyMakeBorder(cv2.resize(png, None, fx=0.25, fy=0.25,
                                           interpolation=cv2.INTER_AREA),
                                30, 30, 30, 30, cv2.BORDER_CONSTANT, value=(80, 100, 120))
    cv2.imwrite(str(tmp_path / "frame.png"), framed)
    state = tmp_path / "state"
    assert main(["calibrate", "--image", str(tmp_path / "frame.png"), "--state", str(state)]) == 0
    assert json.loads((state / "calibration.json").read_text())["game"] == "dicy"
    cv2.imwrite(str(tmp_path / "dark.png"), (framed * 0.05).astype(np.uint8))
    assert main(["calibrate", "--image", str(tmp_path / "dark.png"), "--state",
                 str(state)]) == 1
    assert "too dark" in capsys.readouterr().err
    assert json.loads((state / "calibration.json").read_text())["game"] == "dicy"  # kept
    assert main(["calibrate", "--image", str(tmp_path / "absent.png")]) == 2
    assert f"there is no picture {tmp_path / 'absent.png'}" in capsys.readouterr().err
    blocked = tmp_path / "blocked"
    (blocked / "calibration.json").mkdir(parents=True)  # a folder where the file goes
    assert main(["calibrate", "--image", str(tmp_path / "frame.png"), "--state",
                 str(blocked)]) == 1
    assert (f"found the dicy sheet, but cannot keep the calibration in {blocked}: Is a "
            "directory") in capsys.readouterr().err


def test_render_teach_and_eval_with_the_profile(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    teach_set, test_set, profile = tmp_path / "teach", tmp_path / "test", tmp_path / "p.npz"
    assert main(["render", "--game", "dalek", "--style", "ink", "--teach", "--count", "3",
                 "--seed", "700", "--out", str(teach_set)]) == 0
    assert main(["teach", "dalek", "--from", str(teach_set), "--out", str(profile)]) == 0
    out = capsys.readouterr().out
    assert "H4 3" in out
    # each of the 3 photos' 6 dice read with a profile taught from the 2 others
    check = re.search(r"Checked, each photo read as taught from the others: (\d+) of 18 read "
                      r"right", out)
    assert check is not None and int(check.group(1)) >= 9, out
    assert main(["render", "--game", "dalek", "--style", "ink", "--count", "2", "--seed", "800",
                 "--dice", "6", "--out", str(test_set)]) == 0
    capsys.readouterr()
    assert main(["eval", str(test_set), "--profile", str(profile), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    dalek = result["kinds"][0]
    assert dalek["kind"] == "dalek" and dalek["total"] == 12
    # the pipeline, not the figure: that is measured on hundreds of dice (see the report)
    assert dalek["right"] >= 7 and dalek["wrong"] <= 2
    assert len(dalek["confusion"]["counts"]) == 6


@pytest.mark.parametrize("game", ["dalek", "dicy"])
def test_eval_of_a_table_set_reads_with_the_models_it_is_given(
        tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    photos, run = tmp_path / "photos", tmp_path / "run"
    assert main(["render", "--game", game, "--count", "2", "--seed", "900", "--out",
                 str(photos)]) == 0
    assert main(["eval", str(photos), "--json"]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    shipped = report["kinds"]
    said = option_help("eval", "--json")
    assert unnamed([*report, *shipped[0], *shipped[0]["confusion"]], said) == []
    shutil.copytree(MODELS, run)
    assert main(["eval", str(photos), "--json", "--models", str(run)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["kinds"] == shipped
    (run / LOCATOR).unlink()  # a models folder without its locator is refused, not ignored
    assert main(["eval", str(photos), "--json", "--models", str(run)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"cannot start the dice reader: dice reader model not found: {run / LOCATOR}" in err


def test_teach_from_a_folder_without_that_kind_says_so(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    main(["render", "--game", "17", "--count", "1", "--out", str(tmp_path / "s")])
    assert main(["teach", "dalek", "--from", str(tmp_path / "s"), "--out",
                 str(tmp_path / "p.npz")]) == 2
    assert "hold no labelled dalek" in capsys.readouterr().err


def test_teach_passes_over_the_photos_it_cannot_read_and_names_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos = tmp_path / "photos"
    assert main(["render", "--game", "dalek", "--teach", "--count", "3", "--seed", "700",
                 "--out", str(photos)]) == 0
    labels = json.loads((photos / "labels.json").read_text())
    first, cut = photos / "images/0000.jpg", photos / "images/0001.jpg"
    first.rename(photos / "images/0000.heic")  # an iPhone's photo, as a player drops it
    (photos / "images/0000.heic").write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
    labels["images"][0]["file"] = "images/0000.heic"
    cut.write_bytes(cut.read_bytes()[:5000])  # copied short
    (photos / "labels.json").write_text(json.dumps(labels))
    capsys.readouterr()
    assert main(["teach", "dalek", "--from", str(photos), "--out",
                 str(tmp_path / "p.npz")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Taught dalek from 1 photos: H4 1, "), out
    assert ("  skipped images/0000.heic: a HEIC photo, which cannot be read here; convert it "
            "to JPEG or PNG\n  skipped images/0001.jpg: not a readable image: empty, cut short, "
            "or in a format whose size is not known before it is read (a PPM or JPEG 2000 "
            "saved as .jpg, say); save it as JPEG or PNG\n") in out
    assert (tmp_path / "p.npz").is_file()
    labels["images"] = labels["images"][:2]  # none readable
    (photos / "labels.json").write_text(json.dumps(labels))
    assert main(["teach", "dalek", "--from", str(photos), "--out",
                 str(tmp_path / "q.npz")]) == 2
    assert capsys.readouterr().err == (
        "dicetable teach: none of the 2 photos can be read:\n"
        "  images/0000.heic: a HEIC photo, which cannot be read here; convert it to JPEG or PNG\n"
        "  images/0001.jpg: not a readable image: empty, cut short, or in a format whose size "
        "is not known before it is read (a PPM or JPEG 2000 saved as .jpg, say); save it as "
        "JPEG or PNG\n")
    assert not (tmp_path / "q.npz").exists()


def _teach_photos_the_first_a_heic(game: str, photos: Path) -> None:
    """Two teach photos of ``game``, each of every face once: the first a HEIC (unreadable)."""
    assert main(["render", "--game", game, "--teach", "--count", "2", "--seed", "700",
                 "--out", str(photos)]) == 0
    labels = json.loads((photos / "labels.json").read_text())
    (photos / "images/0000.jpg").unlink()
    (photos / "images/0000.heic").write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
    labels["images"][0]["file"] = "images/0000.heic"
    (photos / "labels.json").write_text(json.dumps(labels))


def _a_face_shown_only_on_a_heic(game: str, face: str, photos: Path) -> None:
    """Two teach photos of ``game``, each of every face once: the first a HEIC (unreadable),
    the second without ``face``'s label."""
    _teach_photos_the_first_a_heic(game, photos)
    labels = json.loads((photos / "labels.json").read_text())
    second = labels["images"][1]
    for key in ("items", "dice"):
        second[key] = [item for item in second[key]
                       if str(item.get("face", item.get("value"))) != face]
    (photos / "labels.json").write_text(json.dumps(labels))


def test_teach_writes_no_profile_where_a_face_was_only_on_photos_it_cannot_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the profile was written without EXT ("1 of 1 read right"), exit 0: the photos label it,
    # and a profile without it would read it as another face
    _a_face_shown_only_on_a_heic("dalek", "EXT", tmp_path / "photos")
    capsys.readouterr()
    assert main(["teach", "dalek", "--from", str(tmp_path / "photos"), "--out",
                 str(tmp_path / "p.npz")]) == 2
    assert capsys.readouterr().err == (
        "dicetable teach: EXT would not be taught: the only photos of it cannot be read; no "
        "profile written:\n"
        "  images/0000.heic: a HEIC photo, which cannot be read here; convert it to JPEG or PNG\n")
    assert not (tmp_path / "p.npz").exists()


def _off_the_sheet(photos: Path, face: str) -> None:
    """On the last photo, ``face``'s die lies off the sheet (a copy of it left of the sheet,
    labelled without a place, its own label taken off)."""
    labels = json.loads((photos / "labels.json").read_text())
    entry = labels["images"][-1]
    die = next(item for item in entry["items"] if item["face"] == face)
    entry["items"].remove(die)
    x0, y0, x1, y1 = (round(v) for v in die.pop("bbox"))
    dx = 20 - x0
    image = cv2.imread(str(photos / entry["file"]))
    image[y0:y1, x0 + dx:x1 + dx] = image[y0:y1, x0:x1].copy()
    cv2.imwrite(str(photos / entry["file"]), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    die.pop("zone")
    die.update(bbox=[x0 + dx, y0, x1 + dx, y1], corners=[[x + dx, y] for x, y in die["corners"]])
    entry["items"].append(die)
    (photos / "labels.json").write_text(json.dumps(labels))


def test_teach_writes_no_profile_where_a_face_lies_off_the_sheet_on_each_readable_photo(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # EXT on a HEIC, and off the sheet on the other photo: the refusal said "the only photos of
    # it cannot be read"; and off the sheet on its only photo, the profile was written without
    # it (exit 0), where a face only on a HEIC wrote none
    photos = tmp_path / "photos"
    _teach_photos_the_first_a_heic("dalek", photos)
    _off_the_sheet(photos, "EXT")
    capsys.readouterr()
    assert main(["teach", "dalek", "--from", str(photos), "--out", str(tmp_path / "p.npz")]) == 2
    assert capsys.readouterr().err == (
        "dicetable teach: EXT would not be taught: the only photos of it cannot be read or show "
        "it off the sheet; no profile written:\n"
        "  images/0000.heic: a HEIC photo, which cannot be read here; convert it to JPEG or PNG\n"
        "  note images/0001.jpg: the dalek labelled 'EXT' lies off the sheet; it is not taught\n")
    labels = json.loads((photos / "labels.json").read_text())
    labels["images"] = labels["images"][1:]
    (photos / "labels.json").write_text(json.dumps(labels))
    assert main(["teach", "dalek", "--from", str(photos), "--out", str(tmp_path / "p.npz")]) == 2
    assert capsys.readouterr().err == (
        "dicetable teach: EXT would not be taught: the only photos of it show it off the sheet; "
        "no profile written:\n"
        "  note images/0001.jpg: the dalek labelled 'EXT' lies off the sheet; it is not taught\n")
    assert not (tmp_path / "p.npz").exists()


def test_teach_writes_the_profile_without_the_faces_no_photo_labels_and_names_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a face not asked for (a game's frame shows some cards only) is not taught, and said why
    photos = tmp_path / "photos"
    _a_face_shown_only_on_a_heic("dalek", "EXT", photos)
    labels = json.loads((photos / "labels.json").read_text())
    labels["images"] = labels["images"][1:]
    (photos / "labels.json").write_text(json.dumps(labels))
    capsys.readouterr()
    assert main(["teach", "dalek", "--from", str(photos), "--out", str(tmp_path / "p.npz")]) == 0
    out = capsys.readouterr().out
    assert "\n  not taught: EXT (no photo labels it)\n" in out, out
    assert (tmp_path / "p.npz").is_file()


def test_teach_names_the_d6_faces_left_to_their_pips(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a d6 face may be left untaught, as on the score pad: read by its pips
    _a_face_shown_only_on_a_heic("dicy", "6", tmp_path / "photos")
    capsys.readouterr()
    assert main(["teach", "d6", "--from", str(tmp_path / "photos"), "--out",
                 str(tmp_path / "p.npz")]) == 0
    out = capsys.readouterr().out
    assert "\n  skipped images/0000.heic: a HEIC photo, which cannot be read here" in out, out
    assert "\n  not taught: 6 (read by their pips)\n" in out, out
    assert (tmp_path / "p.npz").is_file()


def test_a_profile_taught_elsewhere_is_imported_into_the_state_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dicetable.live_table import taught_profiles
    from vision.profile import default

    shared = tmp_path / "from-another-table.npz"
    default("dalek").save(shared)
    state = tmp_path / "state"
    assert main(["teach", "17", "--import", str(shared), "--state", str(state)]) == 2
    assert "teaches dalek, not 17-card" in capsys.readouterr().err
    assert taught_profiles(state) == {}
    assert main(["teach", "dalek", "--import", str(shared), "--state", str(state)]) == 0
    assert "now reads dalek" in capsys.readouterr().out
    assert taught_profiles(state)["dalek"].labels == default("dalek").labels
    default("17-card").save(shared)  # named as the pad and the profile files name it
    assert main(["teach", "17-card", "--import", str(shared), "--state", str(state)]) == 0
    assert sorted(taught_profiles(state)) == ["17-card", "dalek"]
    (tmp_path / "junk.npz").write_bytes(b"not a profile")
    assert main(["teach", "dalek", "--import", str(tmp_path / "junk.npz"), "--state",
                 str(state)]) == 2
    assert "is not a teach profile" in capsys.readouterr().err


def test_teach_refuses_to_import_with_options_of_teaching_from_photos(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --out was taken and passed over: the profile was kept in the state folder, and no file
    # written where --out said
    from dicetable.live_table import taught_profiles
    from vision.profile import default

    shared, state, out = tmp_path / "dalek.npz", tmp_path / "state", tmp_path / "copy.npz"
    default("dalek").save(shared)
    for option in (["--out", str(out)], ["--split", "test"]):
        assert main(["teach", "dalek", "--import", str(shared), "--state", str(state),
                     *option]) == 2
        assert capsys.readouterr().err == (
            f"dicetable teach: {option[0]} is for teaching from photos (--from DIR), not with "
            "--import: an imported profile is kept in the table's state folder (--state DIR)\n")
    assert taught_profiles(state) == {} and not out.exists()


def test_a_damaged_taught_profile_is_said_and_the_shipped_look_read_instead(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dicetable.live_table import taught_profiles
    from vision.profile import default

    state, shared = tmp_path / "state", tmp_path / "dalek.npz"
    default("dalek").save(shared)
    assert main(["teach", "dalek", "--import", str(shared), "--state", str(state)]) == 0
    damaged = state / "profiles" / "profile-17-card.npz"
    damaged.write_bytes(b"")  # the card lost it
    capsys.readouterr()
    assert list(taught_profiles(state)) == ["dalek"]
    assert capsys.readouterr().err == (
        f"dicetable: {damaged} is not a teach profile (it is damaged, or another kind of "
        "file): the camera reads 17-card by its shipped look until it is taught again\n")


def test_render_into_a_place_it_cannot_write_says_so(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "frames.jpg"
    afile.write_bytes(b"")
    assert main(["render", "--game", "dalek", "--count", "1", "--out", str(afile)]) == 1
    assert capsys.readouterr().err.startswith(f"dicetable render: cannot write into {afile}: ")


@pytest.mark.parametrize("dice", ["-1", "0", "11", "1000000"])
def test_render_refuses_a_count_of_dice_no_game_is_played_with(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], dice: str) -> None:
    # taken: -1 and 0 rendered frames without dice, 1000000 as many as the sheet had room for
    with pytest.raises(SystemExit) as stopped:
        main(["render", "--game", "dalek", "--count", "1", "--dice", dice, "--out",
              str(tmp_path)])
    assert stopped.value.code == 2
    assert f"argument --dice: “{dice}” is not a whole number from 1 to 10" in (
        capsys.readouterr().err)
    assert not (tmp_path / "labels.json").exists()


@pytest.mark.parametrize(("game", "dice", "said"), [
    ("dicy", "7", "a dicy frame shows at most 6 dice, as the game has: give --dice 1 to 6"),
    ("17", "1", "a 17 frame shows no dice, as the game has none: leave out --dice")])
def test_render_refuses_more_dice_than_the_game_has(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, dice: str,
        said: str) -> None:
    # taken: Dicy frames showed as many as the dice zone had room for (7 or 8 of 12), 17's none
    assert main(["render", "--game", game, "--count", "1", "--dice", dice, "--out",
                 str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"dicetable render: {said}\n"
    assert not (tmp_path / "labels.json").exists()


def test_the_renderer_counts_the_dice_each_game_is_played_with_as_the_rules_do() -> None:
    # vision keeps its own count of a game's dice, as it does not import engine
    assert GAME_DICE == {"dalek": dalek.DICE, "dicy": dicy.DICE, "17": 0}


def test_render_help_names_the_dice_counts_the_renderer_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # it was written out ("Dalek 10, Dicy 6"): a game given more dice kept the old words
    monkeypatch.setitem(GAME_DICE, "dalek", 12)
    monkeypatch.setitem(GAME_DICE, "dicy", 8)
    said = option_help("render", "--dice")
    assert "(dalek 12, dicy 8;" in said and "default: dalek 1-12, dicy 8;" in said, said


@pytest.mark.parametrize("game", ["dalek", "dicy"])
def test_render_refuses_a_count_of_dice_for_teach_mode(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str) -> None:
    # --dice was taken and passed over: each photo showed every face once all the same
    assert main(["render", "--game", game, "--teach", "--count", "1", "--dice", "3", "--out",
                 str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "dicetable render: --dice is for frames of a game, not with --teach: each photo for "
        "teach mode shows every face once\n")
    assert not (tmp_path / "labels.json").exists()


def test_calibrate_print_names_the_paper_and_how_to_get_the_other(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--print", "--game", "17", "--out", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "actual size (100 %" in said and "on A4 paper" in said and "--paper letter" in said
    assert main(["calibrate", "--print", "--paper", "letter", "--out", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "on US Letter paper" in said and "--paper a4" in said and "--paper letter" not in said


@pytest.mark.parametrize("name", ["IMG_0001.HEIC", "IMG_0001.jpg"])
def test_calibrate_names_an_iphones_heic_photo_as_one_whatever_its_name(
        tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    # a photo of the table taken with an iPhone: it was "not a readable image (empty, cut
    # short or not an image format)", as if the file were damaged
    photo = tmp_path / name
    photo.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(100))
    assert main(["calibrate", "--image", str(photo), "--state", str(tmp_path / "state")]) == 2
    named = " named .jpg" if name.endswith(".jpg") else ""
    assert (f"the picture {photo} is a HEIC photo{named}, which cannot be read here; convert "
            "it to JPEG or PNG") in capsys.readouterr().err


def test_calibrate_refuses_a_frame_cut_short_or_too_large_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a frame cut short was read with its missing half grey and the sheet blamed ("cannot be
    # seen"); a 0.2 MB PNG of 56 megapixels was decoded whole (168 MB)
    assert main(["calibrate", "--print", "--out", str(tmp_path)]) == 0
    sheet = cv2.imread(str(tmp_path / "dicetable-dalek-a4-en.png"))
    frame = cv2.copyMakeBorder(cv2.resize(sheet, None, fx=0.25, fy=0.25,
                                          interpolation=cv2.INTER_AREA),
                               30, 30, 30, 30, cv2.BORDER_CONSTANT, value=(80, 100, 120))
    data = cv2.imencode(".jpg", frame)[1].tobytes()
    (tmp_path / "cut short.jpg").write_bytes(data[:len(data) // 2])
    state = tmp_path / "state"
    assert main(["calibrate", "--image", str(tmp_path / "cut short.jpg"), "--state",
                 str(state)]) == 2
    assert (f"the picture {tmp_path / 'cut short.jpg'} is not a readable image: empty, cut "
            "short, or in a format whose size is not known before it is read (a PPM or JPEG "
            "2000 saved as .jpg, say); save it as JPEG or PNG") in capsys.readouterr().err
    assert cv2.imwrite(str(tmp_path / "huge.png"), np.zeros((7000, 8000, 3), np.uint8))
    assert main(["calibrate", "--image", str(tmp_path / "huge.png"), "--state",
                 str(state)]) == 2
    assert (f"the picture {tmp_path / 'huge.png'} is too large to read (8000×7000 pixels; "
            "at most 50 megapixels)") in capsys.readouterr().err
    assert not (state / "calibration.json").exists()
