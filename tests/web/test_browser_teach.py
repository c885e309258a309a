"""Teach mode on a phone, end to end: ``dicetable serve --camera FOLDER`` whose camera sees the
printed Dalek sheet with the table's own dice (an art the shipped profile does not know) laid
face by face, then the check; a phone at 390×844 walks the score pad's steps, sees the check,
saves, and downloads the taught profile."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest
from playwright.sync_api import Browser, Page, expect

from dicetable.child import ServedTable
from vision.components import DALEK_FACES
from vision.profile import load
from vision.table_film import SheetRest, film
from vision.table_scene import PlacedDie

pytestmark = pytest.mark.browser

FPS = 15  # a folder camera's pace (device.camera.DEFAULT_FPS)
TO_ROLL = [(60.0, 140.0), (100.0, 140.0), (140.0, 140.0), (180.0, 140.0), (220.0, 140.0),
           (60.0, 182.0), (100.0, 182.0), (140.0, 182.0), (180.0, 182.0), (220.0, 182.0)]
ROW = [(50.0 + 38.0 * i, 160.0) for i in range(6)]
NAMES = ["4 humans", "2 humans", "3 Daleks", "2 Daleks", "the Doctor", "Exterminate!"]


def dice(faces: list[str] | tuple[str, ...], spots: list[tuple[float, float]], first: int
         ) -> tuple[PlacedDie, ...]:
    return tuple(PlacedDie(f, x, y, 0.4 * (first + i) + 0.2, first + i)
                 for i, (f, (x, y)) in enumerate(zip(faces, spots, strict=False)))


@pytest.fixture
def teach_table(tmp_path: Path) -> Iterator[ServedTable]:
    """The camera sees each face's dice for 2.5 s (the first for 6 s), then the check row."""
    rests = [SheetRest(dice([face] * 10, TO_ROLL, 10 * n)) for n, face in enumerate(DALEK_FACES)]
    frames = tmp_path / "frames"
    frames.mkdir()
    number, still = 0, 0
    for image, held in film([*rests, SheetRest(dice(DALEK_FACES, ROW, 70))], game="dalek",
                            seed=41, style="pop"):
        first = frames / f"{number:05d}.jpg"
        cv2.imwrite(str(first), image)
        # the first rest a while longer (the phone signs in), the check until the end
        hold = round((6 if still == 0 else 60 if still == len(rests) else 2.5) * FPS) if held else 1
        for n in range(number + 1, number + hold):
            (frames / f"{n:05d}.jpg").hardlink_to(first)
        number, still = number + hold, still + held
    with ServedTable(tmp_path / "state", args=["--camera", str(frames)]) as table:
        yield table


def sign_in(page: Page, table: ServedTable) -> None:
    csrf = page.request.get(table.url + "/api/state").json()["csrf"]
    response = page.request.post(table.url + "/auth/pin", data=json.dumps({"pin": table.pin}),
                                 headers={"Content-Type": "application/json",
                                          "X-CSRF-Token": csrf})
    assert response.ok


def test_the_pad_walks_a_phone_through_teaching_dalek_dice(browser: Browser,
                                                          teach_table: ServedTable,
                                                          tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB",
                                  accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(teach_table.url + "/")
    sign_in(page, teach_table)
    page.reload()
    camera = page.locator("section.camera")
    camera.get_by_text("Teach the camera your dice and cards").click()
    camera.get_by_role("button", name="Teach Dalek Dice").click()
    picture = camera.locator("img")
    for n, name in enumerate(NAMES):
        expect(camera).to_contain_text(f"Face {n + 1} of 6")
        expect(camera).to_contain_text(f"Lay your dice showing {name} in the “To roll” box")
        expect(picture).to_have_attribute("src", re.compile(rf"n={n + 1}$"), timeout=15_000)
        camera.get_by_role("button", name="Take photo").click()
        expect(camera).to_contain_text("Photos of this face: 1 of at most 3")
        camera.get_by_role("button", name="On to the check" if n == 5 else "Next face").click()
    expect(camera).to_contain_text("lay one die of each face in a row")
    expect(camera.locator(".teach-order li")).to_have_text(NAMES)
    expect(picture).to_have_attribute("src", re.compile(r"n=7$"), timeout=15_000)
    camera.get_by_role("button", name="Check", exact=True).click()
    expect(camera.locator(".teach-checked li")).to_have_count(6, timeout=20_000)
    expect(camera.locator(".teach-checked")).to_contain_text("Read right: 6 of 6")
    camera.get_by_role("button", name="Save").click()
    expect(camera.locator(".camera-status")).to_be_visible()  # the entry is still open
    with page.expect_download() as download:
        camera.get_by_role("link", name=re.compile("Download the taught Dalek Dice")).click()
    download.value.save_as(tmp_path / "shared.npz")
    assert load(tmp_path / "shared.npz").taught() == DALEK_FACES
    assert (teach_table.state / "profiles" / "profile-dalek.npz").is_file()
    assert errors == []
    context.close()
