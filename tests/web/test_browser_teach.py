"""Teach mode on a phone, end to end: ``dicetable serve --camera FOLDER`` whose camera saves a
picture of the printed Dalek sheet into the folder as the table's own dice (an art the shipped
profile does not know) are laid face by face, then the check; a phone at 390×844 walks the
score pad's steps, sees the check, saves, and downloads the taught profile."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from dicetable.child import ServedTable
from tests.web.conftest import sign_in
from vision.components import DALEK_FACES
from vision.profile import default, load
from vision.table_film import SheetRest, film
from vision.table_scene import PlacedDie
from vision.teach_sheet import check_plan, steps

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PHOTO_MS = 30_000  # a photo is read before it counts: seconds on a machine at load 10 and more
TO_ROLL = [(60.0, 140.0), (100.0, 140.0), (140.0, 140.0), (180.0, 140.0), (220.0, 140.0),
           (60.0, 182.0), (100.0, 182.0), (140.0, 182.0), (180.0, 182.0), (220.0, 182.0)]
ROW = [(50.0 + 38.0 * i, 160.0) for i in range(6)]
NAMES = ["4 humans", "2 humans", "3 Daleks", "2 Daleks", "the Doctor", "Exterminate!"]


def dice(faces: list[str] | tuple[str, ...], spots: list[tuple[float, float]], first: int
         ) -> tuple[PlacedDie, ...]:
    return tuple(PlacedDie(f, x, y, 0.4 * (first + i) + 0.2, first + i)
                 for i, (f, (x, y)) in enumerate(zip(faces, spots, strict=False)))


class Camera:
    """A camera that saves a picture into its folder each time the player lays something new
    on ``game``'s sheet (in a new art by default), as ``dicetable serve --camera FOLDER`` finds
    one: the table looks for new pictures once a second and holds the last one."""

    def __init__(self, folder: Path, game: str, *, seed: int = 43, style: str = "pop") -> None:
        folder.mkdir()
        self.folder, self.game, self.seed, self.style = folder, game, seed, style
        self.saved = 0

    def lay(self, rest: SheetRest) -> None:
        """The camera sees ``rest`` and saves its picture (written beside the folder, then moved
        into it whole)."""
        (image, _), = film([rest], game=self.game, seed=self.seed, style=self.style)
        written = self.folder.parent / f"{self.folder.name}-writing.jpg"
        cv2.imwrite(str(written), image)
        self.saved += 1
        os.replace(written, self.folder / f"{self.saved:05d}.jpg")


@contextmanager
def served_camera(tmp_path: Path, first: SheetRest, game: str, *, seed: int = 43,
                  style: str = "pop") -> Iterator[tuple[ServedTable, Camera]]:
    """``dicetable serve`` whose camera has saved a picture of ``first``."""
    saves = Camera(tmp_path / "photos", game, seed=seed, style=style)
    saves.lay(first)
    with ServedTable(tmp_path / "state", args=["--camera", str(saves.folder)]) as table:
        yield table, saves


FACES = [SheetRest(dice([face] * 10, TO_ROLL, 10 * n)) for n, face in enumerate(DALEK_FACES)]
DALEK_CHECK = SheetRest(dice(DALEK_FACES, ROW, 70))


@pytest.fixture
def teach_table(tmp_path: Path) -> Iterator[tuple[ServedTable, Camera]]:
    """The camera sees the first face's dice; the test lays the others, then the check row."""
    with served_camera(tmp_path, FACES[0], "dalek", seed=41) as served:
        yield served


def test_the_pad_walks_a_phone_through_teaching_dalek_dice(
        browser: Browser, teach_table: tuple[ServedTable, Camera], tmp_path: Path) -> None:
    served, saves = teach_table
    phones = Phones(browser, served, tmp_path)
    page = phones.pages["en"]
    camera = page.locator("section.camera")
    camera.get_by_text("Teach the camera your dice and cards").click()
    camera.get_by_role("button", name="Teach Dalek Dice").click()
    picture = camera.locator("img")
    for n, name in enumerate(NAMES):
        expect(camera).to_contain_text(f"Face {n + 1} of 6")
        expect(camera).to_contain_text(f"Lay your dice showing {name} in the “To roll” box")
        expect(picture).to_have_attribute("src", re.compile(rf"n={n + 1}$"), timeout=30_000)
        camera.get_by_role("button", name="Take photo").click()
        expect(camera).to_contain_text("Photos of this face: 1 of at most 3", timeout=PHOTO_MS)
        camera.get_by_role("button", name="On to the check" if n == 5 else "Next face").click()
        saves.lay(FACES[n + 1] if n < 5 else DALEK_CHECK)
    expect(camera).to_contain_text("lay one die of each face in a row")
    expect(camera.locator(".teach-order li")).to_have_text(NAMES)
    expect(picture).to_have_attribute("src", re.compile(r"n=7$"), timeout=30_000)
    camera.get_by_role("button", name="Check", exact=True).click()
    expect(camera.locator(".teach-checked li")).to_have_count(6, timeout=20_000)
    expect(camera.locator(".teach-checked")).to_contain_text("Read right: 6 of 6")
    camera.get_by_role("button", name="Save").click()
    expect(camera.locator(".camera-status")).to_be_visible()  # the entry is still open
    with page.expect_download() as download:
        camera.get_by_role("link", name=re.compile("Download the taught Dalek Dice")).click()
    download.value.save_as(tmp_path / "shared.npz")
    assert load(tmp_path / "shared.npz").taught() == DALEK_FACES
    assert (served.state / "profiles" / "profile-dalek.npz").is_file()
    assert phones.errors == []
    phones.close()


CARD_STEPS = [SheetRest(cards=dict(step)) for step in steps("dicy-card")]


@pytest.fixture
def cards_table(tmp_path: Path) -> Iterator[tuple[ServedTable, Camera]]:
    """The camera sees the Dicy sheet with the first step's cards (a new art); the test lays
    the others, then the check's cards."""
    with served_camera(tmp_path, CARD_STEPS[0], "dicy") as served:
        yield served


LOCALES = {"en": "en-GB", "es": "es-ES", "pt": "pt-PT", "it": "it-IT"}


class Phones:
    """One signed-in phone per language at 390×844, all looking at the same table."""

    def __init__(self, browser: Browser, table: ServedTable, shots: Path) -> None:
        self.browser, self.table, self.shots = browser, table, shots
        self.contexts: list[BrowserContext] = []
        self.pages: dict[str, Page] = {}
        self.errors: list[str] = []
        self.join("en")

    def join(self, *langs: str) -> None:
        """Phones in these languages sign in and open the score pad."""
        for lang in langs:
            context = self.browser.new_context(viewport={"width": 390, "height": 844},
                                               locale=LOCALES[lang], accept_downloads=True)
            page = context.new_page()
            page.on("pageerror", lambda err: self.errors.append(str(err)))
            page.goto(self.table.url + "/")
            sign_in(page, self.table.pin)
            self.contexts.append(context)
            self.pages[lang] = page

    def look(self, name: str) -> None:
        """Every phone shows the screen whole: nothing wider than the phone (a screenshot
        of each is kept in ``shots``), 300 ms after the step (every phone at once)."""
        self.pages["en"].wait_for_timeout(300)
        for lang, page in self.pages.items():
            wide = page.evaluate("""() => [...document.querySelectorAll('section.camera *')]
                .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5
                               || e.scrollWidth > e.clientWidth + 1
                                  && getComputedStyle(e).overflowX !== 'visible')
                .map((e) => e.tagName + ' ' + e.textContent.slice(0, 40))""")
            assert wide == [], (lang, name, wide)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(self.shots / f"{lang}-{name}.png"), full_page=True)

    def open_entry(self, *langs: str) -> None:
        """These phones open teach mode's entry and its other games."""
        for page in (self.pages[lang] for lang in langs):
            camera = page.locator("section.camera")
            camera.locator("details.teach-entry > summary").first.click()
            camera.locator("details.teach-entry details > summary").click()

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def test_the_pad_walks_a_phone_through_teaching_dicy_cards(
        browser: Browser, cards_table: tuple[ServedTable, Camera], tmp_path: Path) -> None:
    """One phone (English) walks the steps; then phones in the other languages join, and
    every screen of teach mode fits each of them."""
    served, saves = cards_table
    phones = Phones(browser, served, tmp_path)
    page = phones.pages["en"]
    camera = page.locator("section.camera")
    phones.open_entry("en")
    expect(camera.get_by_role("button", name="Teach dice 1–6 (a logo, pictures)")).to_be_visible()
    others = camera.locator("details.teach-entry details")  # the other games' components
    expect(others).to_contain_text("Teach Dalek Dice")
    expect(others).not_to_contain_text("Dicy")
    camera.get_by_role("button", name="Teach Dicy Cards cards").click()
    picture = camera.locator("img")
    places = camera.locator(".teach-places li")
    for n in range(5):
        expect(camera).to_contain_text(f"Step {n + 1} of 5")
        expect(places).to_have_count(5 if n < 4 else 4)
        expect(picture).to_have_attribute("src", re.compile(rf"n={n + 1}$"), timeout=30_000)
        camera.get_by_role("button", name="Take photo").click()
        expect(camera).to_contain_text("Photos of these cards: 1 of at most 3",
                                        timeout=PHOTO_MS)
        if n == 0:
            expect(places.first).to_have_text("Player 1's row, place 1: Two dice, active side up")
        camera.get_by_role("button", name="On to the check" if n == 4 else "Next cards").click()
        saves.lay(CARD_STEPS[n + 1] if n < 4 else SheetRest(cards=dict(check_plan("dicy-card"))))
    expect(camera).to_contain_text("Check: lay these cards in these places")
    expect(places.last).to_have_text("Player 3's row, place 2: All the same ×5, active side up")
    expect(picture).to_have_attribute("src", re.compile(r"n=6$"), timeout=30_000)
    camera.get_by_role("button", name="Check", exact=True).click()
    expect(camera.locator(".teach-checked li")).to_have_count(12, timeout=30_000)
    expect(camera.locator(".teach-checked")).to_contain_text(re.compile(r"Read right: \d+ of 12"))
    phones.join("es", "pt", "it")  # the camera holds the check from here on
    phones.look("cards-checked")
    camera.get_by_role("button", name="Save").click()
    with page.expect_download() as download:
        camera.get_by_role("link", name=re.compile("Download the taught Dicy Cards")).click()
    download.value.save_as(tmp_path / "shared.npz")
    assert load(tmp_path / "shared.npz").kind == "dicy-card"
    # a profile imported while the table serves shows on the pad at once, no restart
    default("dalek").save(tmp_path / "dalek.npz")
    subprocess.run([sys.executable, "-m", "dicetable", "teach", "dalek", "--import",
                    str(tmp_path / "dalek.npz"), "--state", str(served.state)], check=True)
    expect(camera.get_by_role("link", name=re.compile("Download the taught Dalek Dice"))
           ).to_be_visible(timeout=30_000)
    phones.open_entry("es", "pt", "it")
    phones.look("entry")
    camera.get_by_role("button", name="Teach Dicy Cards cards").click()
    phones.look("cards-step")
    camera.get_by_role("button", name="Take photo").click()
    expect(camera).to_contain_text("Photos of these cards: 1 of at most 3",
                                        timeout=PHOTO_MS)
    camera.get_by_role("button", name="Take photo").click()  # the same picture again
    expect(page.locator(".toast")).to_contain_text("move the cards a little")
    phones.look("cards-photo")
    camera.get_by_role("button", name="Stop teaching").click()
    for kind in ("Teach 17 cards", "Teach dice 1–6 (a logo, pictures)"):
        camera.get_by_role("button", name=kind).click()
        camera.get_by_role("button", name="Take photo").click()  # on the Dicy sheet
        expect(page.locator(".toast")).to_contain_text(
            "another game's sheet: lay the 17 sheet" if "17" in kind else "No die was found")
        phones.look(kind.split()[1])
        camera.get_by_role("button", name="Stop teaching").click()
    assert phones.errors == []
    phones.close()


DICE_AREA = [(60.0 + 35.0 * i, 105.0) for i in range(6)]  # the Dicy sheet's dice box


@pytest.fixture
def fives_table(tmp_path: Path) -> Iterator[ServedTable]:
    """The camera sees the Dicy sheet with six dice showing 5 in its dice box."""
    with served_camera(tmp_path, SheetRest(dice(["5"] * 6, DICE_AREA, 0)), "dicy",
                       style="classic") as (table, _):
        yield table


def test_a_d6_photo_whose_dice_look_like_another_number_is_asked_about(
        browser: Browser, fives_table: ServedTable, tmp_path: Path) -> None:
    """Dice showing 5 laid for the 1 step: the phone says what the camera saw and offers two
    ways on; every phone, and one reloaded, asks the same in its own words, under the photo
    asked about; "my dice have pictures" keeps the photo as ones, the question goes from
    every phone, and a wrong tap is taken back."""
    phones = Phones(browser, fives_table, tmp_path)
    phones.join("es", "pt", "it")
    page = phones.pages["en"]
    camera = page.locator("section.camera")
    phones.open_entry("en")
    camera.get_by_role("button", name="Teach dice 1–6 (a logo, pictures)").click()
    camera.get_by_role("button", name="Take photo").click()
    expect(camera.locator(".teach-doubt")).to_be_visible(timeout=PHOTO_MS)
    phones.pages["es"].reload()  # the question is the table's: a reloaded phone asks it too
    for lang, other in phones.pages.items():  # each phone asks, in its own words
        expect(other.locator(".teach-doubt")).to_be_visible(timeout=PHOTO_MS)
        expect(other.locator(".teach-doubt button")).to_have_count(2)
        assert other.locator(".teach-doubt").get_attribute("role") == "alert", lang
        shown = other.locator("section.camera figure img")
        expect(shown).to_have_attribute("src", re.compile(r"/api/camera/doubted\.jpg\?n=\d+$"))
        expect(shown).to_have_js_property("complete", True)
        assert shown.evaluate("(img) => img.naturalWidth") > 0, lang
        said = other.locator("section.camera figure").aria_snapshot()
        words = other.locator("section.camera figcaption").inner_text()
        assert said.count(words) == 1, said  # the photo's words said once, not twice
    phones.look("d6-doubt")
    doubt = camera.locator(".teach-doubt")
    expect(doubt).to_contain_text("Most of these dice look like 5, not 1: lay them all "
                                  "showing 1 and take the photo again")
    expect(phones.pages["es"].locator(".teach-doubt")).to_contain_text(
        "La mayoría de estos dados parecen un 5, no un 1")
    expect(phones.pages["es"].locator("section.camera figcaption")).to_have_text(
        "La foto que tomó la cámara")
    doubt.get_by_role("button", name="Take the photo again").click()  # the same dice: asked
    expect(page.locator(".busy")).to_have_count(0, timeout=PHOTO_MS)
    expect(doubt).to_be_visible()
    expect(camera).to_contain_text("Photos of this face: 0 of at most 3")
    doubt.get_by_role("button", name="My dice have pictures: teach them as 1").click()
    expect(page.locator(".toast")).to_contain_text("Photo kept: your dice taught as 1",
                                                   timeout=PHOTO_MS)
    expect(camera).to_contain_text("Photos of this face: 1 of at most 3")
    for other in phones.pages.values():  # the question has gone from every phone
        expect(other.locator(".teach-doubt")).to_have_count(0)
        expect(other.locator("section.camera figure img")).to_have_attribute(
            "src", re.compile(r"/api/camera/picture\.jpg"))
    labels = json.loads((fives_table.state / "teach" / "d6" / "labels.json").read_text())
    assert [[str(d["value"]) for d in p["dice"]] for p in labels["images"]] == [["1"] * 6]
    phones.look("d6-kept")
    camera.get_by_role("button", name="Take back the last photo").click()
    expect(page.locator(".toast")).to_contain_text("The last photo was taken back")
    expect(camera).to_contain_text("Photos of this face: 0 of at most 3")
    expect(camera.locator(".teach-doubt")).to_have_count(0)
    labels = json.loads((fives_table.state / "teach" / "d6" / "labels.json").read_text())
    assert labels["images"] == []
    assert phones.errors == []
    phones.close()


def test_a_lesson_shows_the_camera_sending_pictures_that_cannot_be_read_or_out(
        browser: Browser, tmp_path: Path) -> None:
    """The lesson's panel said nothing of the camera: a camera sending only a picture that
    cannot be read, a picture that cannot be read saved meanwhile, or the camera's folder
    emptied, left the player waiting for photos that never came. The panel says it in the
    camera panel's words, and of a picture that cannot be read, in every language, that no
    photo is taken of it and what to do (a photo was taken of the picture before it, or
    refused as "not seen the table yet"); a camera that is well says nothing there."""
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "IMG_0001.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")  # cut short
    with ServedTable(tmp_path / "state", args=["--camera", str(folder)]) as table:
        phones = Phones(browser, table, tmp_path)
        page = phones.pages["en"]
        camera = page.locator("section.camera")
        expect(camera.locator(".camera-status.sends_unreadable")).to_be_visible(timeout=20_000)
        camera.get_by_text("Teach the camera your dice and cards").click()
        camera.get_by_role("button", name="Teach Dalek Dice").click()
        trouble = camera.locator(".teach-camera")
        expect(trouble.locator(".camera-status")).to_have_text(
            "The camera sends pictures that cannot be read")
        expect(trouble.locator(".camera-unreadable")).to_have_text(
            "The picture IMG_0001.jpg cannot be read")
        expect(camera).to_contain_text("Lay your dice showing 4 humans")  # (under it)
        expect(trouble.locator(".teach-unreadable")).to_have_text(
            "The camera's last picture could not be read, so no photo can be taken of it: move "
            "the dice a little and wait for the camera to see them.")
        camera.get_by_role("button", name="Take photo").click()
        expect(page.locator(".toast")).to_contain_text(
            "The camera's last picture could not be read: move the dice a little, wait a moment, "
            "and try again")
        phones.join("es", "it", "pt")
        for lang, phone in phones.pages.items():
            words = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text())["ui"]
            expect(phone.locator(".teach-camera .teach-unreadable")).to_have_text(
                words["teach.unreadable"])
        cv2.imwrite(str(folder / "IMG_0002.jpg"), np.full((480, 640, 3), 128, np.uint8))
        expect(camera.locator("figure img")).to_be_visible(timeout=20_000)
        expect(trouble).to_have_count(0)  # a picture read: the camera is well
        (folder / "IMG_0003.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
        expect(trouble.locator(".camera-unreadable")).to_have_text(
            "The picture IMG_0003.jpg cannot be read", timeout=20_000)
        expect(trouble.locator(".teach-unreadable")).to_have_count(1)
        expect(trouble.locator(".camera-status")).to_have_count(0)  # (it watches the table)
        for picture in folder.iterdir():
            picture.unlink()
        expect(trouble.locator(".camera-status.out")).to_have_text(
            "The camera is out: enter the dice on the phone meanwhile. Trying again…",
            timeout=20_000)
        expect(trouble.locator(".camera-why")).to_have_text(
            f"The folder {folder} holds no pictures", timeout=20_000)
        expect(camera).to_contain_text("Face 1 of 6")  # (the lesson goes on)
        assert phones.errors == []
        phones.close()


def test_a_page_loaded_before_the_lesson_told_the_camera_trouble_still_shows_the_lesson(
        browser: Browser, tmp_path: Path) -> None:
    """A page left open through an update (a kiosk never reloaded) has the camera.js of before
    the lesson's panel told the camera's trouble, which asks teachPanel(lesson, camera), and
    loads teach.js afresh when a lesson starts: the panel threw ("trouble" undefined) and the
    lesson never showed."""
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "IMG_0001.jpg"), np.full((480, 640, 3), 128, np.uint8))
    older_call = re.compile(r"teachPanel\(teach\.lesson,\s*camera,\s*trouble\)")

    def older_camera_js(route: Route) -> None:
        script, calls = older_call.subn("teachPanel(teach.lesson, camera)",
                                        route.fetch().text())
        assert calls == 1
        route.fulfill(body=script, content_type="text/javascript")

    with ServedTable(tmp_path / "state", args=["--camera", str(folder)]) as table:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
        context.route(re.compile(r"/static/camera\.js"), older_camera_js)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(table.url + "/")
        sign_in(page, table.pin)
        camera = page.locator("section.camera")
        camera.get_by_text("Teach the camera your dice and cards").click()
        camera.get_by_role("button", name="Teach Dalek Dice").click()
        expect(camera).to_contain_text("Face 1 of 6")
        expect(camera).to_contain_text("Lay your dice showing 4 humans")
        assert errors == []
        context.close()
