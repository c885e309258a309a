"""``dicetable eval`` end to end: scenes the project renders itself, read by the shipped reader,
scored and reported; bad input skipped with a reason; unusable folders refused."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import pytest

from dicetable import eval_command
from tests.dicetable.help_text import option_help, unnamed
from vision.reader import CLASSIFIER, LOCATOR, MODELS
from vision.render import RenderedDie, render_scene

KEYS = {"dice_total", "dice_correct", "dice_wrong_value", "dice_missed", "false_dice",
        "images_total", "images_exact", "confusion", "latency_ms", "accuracy",
        "accuracy_wilson95", "false_dice_rate", "by_size"}


def _eval(*argv: str | Path) -> int:
    parser = argparse.ArgumentParser(prog="dicetable eval")
    eval_command.configure(parser)
    return eval_command.run(parser.parse_args([str(a) for a in argv]))


@dataclass(frozen=True)
class Rendered:
    """One rendered image of the set: its file, split and true dice."""

    file: str
    split: str
    dice: tuple[RenderedDie, ...]

    def entry(self) -> dict[str, object]:
        return {"file": self.file, "width": 480, "height": 360, "split": self.split,
                "dice": [{"value": d.value, "bbox": list(d.bbox)} for d in self.dice]}

    def yolo(self) -> str:
        return "".join(f"{d.value - 1} {(x0 + x1) / 960} {(y0 + y1) / 720} {(x1 - x0) / 480} "
                       f"{(y1 - y0) / 360}\n"
                       for d in self.dice for x0, y0, x1, y1 in [d.bbox])


def _write_manifest(root: Path, entries: list[dict[str, object]]) -> None:
    (root / "labels.json").write_text(json.dumps({"images": entries}), encoding="utf-8")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Rendered]]:
    """A small labels.json set of easy rendered scenes, half train, half test."""
    root = tmp_path_factory.mktemp("rendered")
    (root / "images").mkdir()
    images = []
    for n in range(6):
        scene = render_scene(1000 + n, width=480, height=360, n_dice=5, die_px=(38, 48),
                             lean=0.0, distractors=0)
        image = Rendered(f"images/scene{n}.png", "test" if n % 2 else "train", scene.dice)
        assert cv2.imwrite(str(root / image.file), scene.image)
        images.append(image)
    _write_manifest(root, [i.entry() for i in images])
    return root, images


def _one_good_image(rendered: tuple[Path, list[Rendered]], root: Path) -> Rendered:
    """Copy one rendered image into ``root/images``; returns it."""
    source, images = rendered
    good = images[1]
    (root / "images").mkdir()
    (root / good.file).write_bytes((source / good.file).read_bytes())
    return good


def _dice_in(images: list[Rendered], split: str) -> int:
    return sum(len(i.dice) for i in images if split in ("all", i.split))


def test_json_report_on_a_rendered_set(rendered: tuple[Path, list[Rendered]],
                                       tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    root, images = rendered
    failures = tmp_path / "failures"
    assert _eval(root, "--json", "--threads", "2", "--save-failures", failures) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert set(report) >= KEYS
    said = option_help("eval", "--json")
    assert unnamed(report, said) == []
    assert unnamed([*report["latency_ms"], *report["by_size"][0],
                    *(key for image in report["images_failed"] for key in image)],
                   said) == []
    assert report["split"] == "test"  # the default when there is a test split
    assert report["images_total"] == 3
    assert report["dice_total"] == _dice_in(images, "test")
    assert (report["dice_correct"] + report["dice_wrong_value"] + report["dice_missed"]
            == report["dice_total"])
    assert len(report["confusion"]) == 6 and all(len(r) == 7 for r in report["confusion"])
    assert sum(map(sum, report["confusion"])) == report["dice_total"]
    assert report["accuracy"] == report["dice_correct"] / report["dice_total"]
    low, high = report["accuracy_wilson95"]
    assert low <= report["accuracy"] <= high
    assert 0 < report["latency_ms"]["median"] <= report["latency_ms"]["p95"]
    # Easy renders are mostly read right; a swapped axis or an off-by-one value anywhere on
    # the path would score about nothing and make every read a false die.
    assert report["accuracy"] >= 0.7
    assert report["false_dice"] <= 0.2 * report["dice_total"]
    bins = report["by_size"]
    assert [b["min"] for b in bins][:3] == [0, 20, 30] and bins[-1]["max"] is None
    assert sum(b["dice"] for b in bins) == report["dice_total"]
    for key in ("dice_correct", "dice_wrong_value", "dice_missed"):
        assert sum(b[key] for b in bins) == report[key]
    assert sum(b["false_dice"] for b in bins) == report["false_dice"]  # every read is sized
    sized = {(b["min"], b["max"]): b["dice"] for b in bins if b["dice"]}
    assert set(sized) <= {(50, 80), (80, 120)}  # boxes of 38..48 px dice at any rotation
    assert report["images_skipped"] == 0
    assert "3/3 images" in err
    written = sorted(p.name for p in failures.iterdir())
    assert "confusion.png" in written
    assert len(written) == 1 + report["images_total"] - report["images_exact"]
    assert cv2.imread(str(failures / "confusion.png")) is not None


def test_text_summary_on_every_image_of_a_yolo_copy(
        rendered: tuple[Path, list[Rendered]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    source, images = rendered
    for split in ("train", "test"):
        (tmp_path / "images" / split).mkdir(parents=True)
        (tmp_path / "labels" / split).mkdir(parents=True)
    for image in images:
        name = Path(image.file).name
        (tmp_path / "images" / image.split / name).write_bytes((source / image.file).read_bytes())
        (tmp_path / "labels" / image.split / name).with_suffix(".txt").write_text(
            image.yolo(), encoding="utf-8")
    assert _eval(tmp_path, "--split", "ALL") == 0
    out, _ = capsys.readouterr()  # the split scored, as named (it was "split ALL")
    total = _dice_in(images, "all")
    assert f"(yolo, split all): 6 images, {total} labelled dice" in out
    assert "read right" in out and "95 % Wilson" in out and "missed" in out
    assert "by die size" in out and re.search(r"\n +50-80 +\d+ +\d+", out)


def test_bad_images_and_entries_are_skipped_and_listed(
        rendered: tuple[Path, list[Rendered]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    good = _one_good_image(rendered, tmp_path)
    (tmp_path / "images/broken.png").write_bytes(b"\x89PNG not really")
    manifest = [good.entry(),
                {"file": "images/absent.png", "split": "test", "dice": []},
                {"file": "images/broken.png", "split": "test", "dice": []},
                {"file": "images/x.png", "split": "test", "dice": [{"value": 9, "bbox": []}]}]
    _write_manifest(tmp_path, manifest)
    assert _eval(tmp_path, "--json") == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["images_total"] == 1
    assert report["images_skipped"] == 3
    reasons = {(s["file"], s["reason"].split(":")[0]) for s in report["skipped"]}
    assert reasons == {("images/absent.png", "image file missing"),
                       ("images/broken.png", "not a readable image"),
                       ("labels.json", "images[3] (images/x.png)")}
    assert "skipped images/absent.png: image file missing" in err


@pytest.mark.parametrize("files, argv, message", [
    (None, [], "no such folder"),
    ({}, [], "nothing to evaluate"),
    ({"labels.json": "{"}, [], "not valid JSON"),
    ({"labels.json": '{"images": ' + "[" * 100_000 + "]" * 100_000 + "}"}, [],
     "nests too deeply"),
    ({"labels.json": '{"images": [{"file": "a.png", "width": ' + "9" * 5000 + "}]}"}, [],
     "holds a number too long"),
    ({"labels.json": '{"images": [{"file": "a.png", "dice": []}]}'}, ["--split", "val"],
     "no split 'val'"),
])
def test_unusable_datasets_exit_2_with_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str] | None,
        argv: list[str], message: str) -> None:
    root = tmp_path / "set"
    if files is not None:
        root.mkdir()
        for name, text in files.items():
            (root / name).write_text(text, encoding="utf-8")
    assert _eval(root, *argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("dicetable eval: ") and message in err and str(root) in err


def test_a_set_of_which_nothing_could_be_scored_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.png").write_bytes(b"\x89PNG not really")
    _write_manifest(tmp_path, [{"file": "broken.png", "split": "test", "dice": []},
                               {"file": "absent.png", "split": "test", "dice": []}])
    assert _eval(tmp_path, "--json") == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "skipped absent.png: image file missing" in err
    assert err.endswith(f"dicetable eval: no image of {tmp_path} could be scored: each was "
                        "skipped (above)\n")


def test_a_failures_folder_that_cannot_be_made_exits_2(
        rendered: tuple[Path, list[Rendered]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = rendered
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    assert _eval(root, "--save-failures", blocker / "failures") == 2
    assert f"dicetable eval: cannot create {blocker / 'failures'}" in capsys.readouterr().err


@pytest.mark.parametrize("threads", ["0", "10000", "two"])
def test_threads_are_a_count_the_machine_can_run(capsys: pytest.CaptureFixture[str],
                                                 threads: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        _eval("somewhere", "--threads", threads)
    assert exit_.value.code == 2
    assert f"“{threads}” is not a whole number from 1 to 64" in capsys.readouterr().err


def test_models_reads_with_another_models_folder(rendered: tuple[Path, list[Rendered]],
                                                 tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = rendered
    assert _eval(root, "--json") == 0
    shipped = json.loads(capsys.readouterr().out)
    copy = tmp_path / "run"
    shutil.copytree(MODELS, copy)
    assert _eval(root, "--json", "--models", copy) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["confusion"] == shipped["confusion"]
    assert again["false_dice"] == shipped["false_dice"]


@pytest.mark.parametrize("name", [LOCATOR, CLASSIFIER])
def test_models_folder_without_a_model_exits_1(rendered: tuple[Path, list[Rendered]],
                                               tmp_path: Path, name: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = rendered
    shutil.copytree(MODELS, tmp_path / "run")
    (tmp_path / "run" / name).unlink()
    assert _eval(root, "--json", "--models", tmp_path / "run") == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert (f"dicetable eval: cannot start the dice reader: dice reader model not found: "
            f"{tmp_path / 'run' / name}") in err


def test_a_model_that_is_not_onnx_exits_1(rendered: tuple[Path, list[Rendered]],
                                          tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = rendered
    shutil.copytree(MODELS, tmp_path / "run")
    (tmp_path / "run" / CLASSIFIER).write_bytes(b"half a training run's export")
    assert _eval(root, "--models", tmp_path / "run") == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert (f"dicetable eval: cannot start the dice reader: dice reader model cannot be loaded: "
            f"{tmp_path / 'run' / CLASSIFIER}") in err
    assert "Traceback" not in err and "ONNXRuntimeError" not in err


def test_an_image_that_decodes_too_large_is_skipped_unread(
        rendered: tuple[Path, list[Rendered]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    good = _one_good_image(rendered, tmp_path)
    bomb = _png_bomb(10_000, 10_000)
    assert len(bomb) < 200_000
    (tmp_path / "images/bomb.png").write_bytes(bomb)
    _write_manifest(tmp_path, [good.entry(),
                               {"file": "images/bomb.png", "split": "test", "dice": []}])
    assert _eval(tmp_path, "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["images_total"] == 1
    assert report["skipped"] == [{"file": "images/bomb.png", "line": None,
                                  "reason": "the image is too large to read (10000×10000 "
                                            "pixels; at most 50 megapixels)"}]


def _png_bomb(width: int, height: int) -> bytes:
    """A black 1-bit PNG: a small file that OpenCV would decode to width × height × 3 bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" * (1 + (width + 7) // 8)
    packer = zlib.compressobj(9)
    pixels = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))
