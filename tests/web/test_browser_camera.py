"""End to end with a camera: ``dicetable serve --camera FOLDER`` in a child process, a phone
in Chromium; a roll on the table arrives on the phone, and a question is answered by a tap."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from device.camera import Frame
from device.camera_errors import CameraError, UnreadableFrame
from device.demo_film import write_film
from device.demo_plan import Plan, PlannedDie, PlannedRest
from device.journal import Journal
from device.live import CameraStatus, LiveLoop
from device.session import TableSession
from dicetable.child import ServedTable
from dicetable.cli import main
from tests.web.conftest import served_here, sign_in
from vision.calibrate import calibrate
from vision.observation import DiceObserver
from vision.reader import DiceReader
from vision.table_film import SheetRest
from vision.table_film import write_film as write_sheet_film
from web.app import create_app

pytestmark = pytest.mark.browser

DICY: dict[str, object] = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
DALEK: dict[str, object] = {"game": "dalek", "players": ["Jenna", "Peter"]}
PLACES = [(300.0, 250.0), (480.0, 230.0), (660.0, 260.0), (840.0, 240.0), (400.0, 430.0),
          (620.0, 450.0)]


def dice(values: list[int], places: list[tuple[float, float]], looks: int) -> tuple[
        PlannedDie, ...]:
    return tuple(PlannedDie(v, x, y, 0.3 * i, looks + i)
                 for i, (v, (x, y)) in enumerate(zip(values, places, strict=True)))


@pytest.fixture
def camera_table(tmp_path: Path) -> Iterator[ServedTable]:
    """A table whose camera sees, after 6 s of empty table, a roll, then a reroll of two."""
    rolled = dice([6, 6, 5, 2, 1, 1], PLACES, 0)
    rerolled = (*rolled[:4], *dice([3, 4], [(950.0, 480.0), (250.0, 520.0)], 10))
    frames = tmp_path / "frames"
    write_film(Plan([DICY], [PlannedRest((), 6.0, None, hand=False),
                             PlannedRest(rolled, 4.0, 0), PlannedRest(rerolled, 60.0, 1)]),
               frames, seed=4)
    with ServedTable(tmp_path / "state", args=["--camera", str(frames)]) as table:
        yield table


def start_game(page: Page, table: ServedTable, header: dict[str, object] = DICY) -> None:
    """Sign in with the PIN (typed on the page) and set a game up through the API (the set-up
    screen is not what this test is about)."""
    sign_in(page, table.pin)
    state = page.request.get(table.url + "/api/state").json()
    headers = {"Content-Type": "application/json", "X-CSRF-Token": state["csrf"]}
    response = page.request.post(table.url + "/api/game", headers=headers, data=json.dumps(
        {"header": header, "base_version": state["state"]["version"]}))
    assert response.ok, response.text()


@contextmanager
def host_and_guest(browser: Browser, url: str, pin: str, locale: str) -> Iterator[
        tuple[Page, Page]]:
    """Two phones in ``locale`` on the score pad at ``url``: the host's (the PIN typed) and a
    guest's; closed after."""
    contexts = [browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
                for _ in range(2)]
    try:
        host, guest = (context.new_page() for context in contexts)
        for page in (host, guest):
            page.goto(url + "/")
        sign_in(host, pin)
        yield host, guest
    finally:
        for context in contexts:
            context.close()


@contextmanager
def table_here(tmp_path: Path, *told: CameraStatus) -> Iterator[tuple[TableSession, str]]:
    """A table watching its camera, told ``told`` of it, served in this process: its session
    and address; stopped after."""
    session = TableSession(Journal(tmp_path / "state" / "table.db"))
    session.start()
    try:
        session.watch_camera()
        for status in told:
            session.camera_status(status)
        with served_here(create_app({"JOURNAL": session.journal,
                                     "TABLE_SESSION": session})) as url:
            yield session, url
    finally:
        session.stop()


def test_a_roll_on_the_table_arrives_and_a_question_is_answered_with_a_tap(
        browser: Browser, camera_table: ServedTable) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(camera_table.url + "/")
    start_game(page, camera_table)
    camera = page.locator("section.camera")
    expect(camera).to_contain_text("The camera saw 6 6 5 2 1 1", timeout=20_000)
    expect(camera.locator("img")).to_have_attribute("src", "/api/camera/picture.jpg?n=2")
    question = camera.locator(".camera-ask")
    expect(question).to_contain_text("Ana rerolled", timeout=20_000)
    question.get_by_role("button", name="Odd", exact=True).click()
    expect(question).to_have_count(0)
    record = page.request.get(camera_table.url + "/api/record").json()["actions"]
    assert [sorted(line.get("roll") or line["reroll"]["dice"]) for line in record] == [
        [1, 1, 2, 5, 6, 6], [2, 3, 4, 5, 6, 6]]
    assert record[1]["reroll"]["freeze"] == "odd"
    assert errors == []
    context.close()


def test_the_camera_part_of_the_page_comes_even_when_its_first_fetch_fails(
        browser: Browser, camera_table: ServedTable) -> None:
    # camera.js is fetched only once the table has a camera: a phone whose first fetch of it
    # failed (the Wi-Fi dropped a moment) fetches it again at the next state.
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    fetches: list[str] = []

    def first_fails(route: Route) -> None:
        fetches.append(route.request.url)
        if len(fetches) == 1:
            route.abort()
        else:
            route.continue_()

    page.route("**/static/camera.js", first_fails)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    with page.expect_response("**/later.json"):  # its words in, not the script
        page.goto(camera_table.url + "/")
    start_game(page, camera_table)
    expect(page.locator("section.camera")).to_contain_text("The camera saw 6 6 5 2 1 1",
                                                           timeout=20_000)
    assert len(fetches) == 2
    assert errors == []
    context.close()


def test_a_game_read_on_its_sheet_links_the_sheet_to_print(browser: Browser,
                                                          tmp_path: Path) -> None:
    """Dalek Dice is read on its printed sheet: with dice but no sheet in view, the phone says
    to lay the sheet down and links its PDF, in the phone's language."""
    frames = tmp_path / "frames"
    write_film(Plan([DALEK], [PlannedRest((), 6.0, None, hand=False),
                              PlannedRest(dice([6, 6, 5, 2, 1, 1], PLACES, 0), 60.0, 0)]),
               frames, seed=4)
    with ServedTable(tmp_path / "state", args=["--camera", str(frames)]) as table:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT")
        page = context.new_page()
        page.goto(table.url + "/")
        start_game(page, table, DALEK)
        camera = page.locator("section.camera")
        expect(camera).to_contain_text("Mettete il foglio stampato di Dalek Dice",
                                       timeout=20_000)
        expect(camera.locator("figcaption")).to_have_text(
            "Ciò che la fotocamera ha visto (tocca per ingrandire)")  # no pips on Dalek dice
        link = camera.get_by_role("link", name="A4")
        assert link.get_attribute("href") == "/print/dalek-a4.pdf?lang=it"
        sheet = page.request.get(table.url + "/print/dalek-a4.pdf?lang=it")
        assert sheet.ok and sheet.body().startswith(b"%PDF-")
        context.close()


@pytest.mark.parametrize(("over", "told"), [
    ((200, 180, 160), "Se um ficar cortado na borda do papel, imprime a folha de novo em "
                      "tamanho real"),
    ((255, 255, 255), "Um reflexo esconde um quadrado de um canto da folha")],
    ids=["covered", "glare"])
def test_a_corner_square_out_of_sight_links_the_sheet_to_print_at_actual_size(
        browser: Browser, tmp_path: Path, over: tuple[int, int, int], told: str) -> None:
    """A corner square that cannot be seen may be cut off at the paper's edge (a sheet printed
    on the other paper), or what looks like a reflection may be a white table where it was
    cut off: the phone says what it sees and links the sheets to print at actual size."""
    frames = tmp_path / "frames"  # 8 s of an empty row, a hand, then a card in the row
    write_sheet_film(frames, [SheetRest(), SheetRest(cards={"row-1": "3"})], game="17", seed=5,
                     hold=120)
    pictures = sorted(frames.glob("*.jpg"))
    corners = np.array(calibrate(cv2.imread(str(pictures[0]))).markers[2]).astype(np.int32)
    for picture in pictures:  # the bottom-right square out of sight all along
        frame = cv2.imread(str(picture))
        cv2.fillConvexPoly(frame, cv2.convexHull(corners), over)
        picture.unlink()  # held frames are hard links: write each anew
        cv2.imwrite(str(picture), frame)
    with ServedTable(tmp_path / "state", args=["--camera", str(frames)]) as table:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-PT")
        page = context.new_page()
        page.goto(table.url + "/")
        start_game(page, table, {"game": "17", "players": ["Ana", "Ben"]})
        camera = page.locator("section.camera")
        expect(camera).to_contain_text(told, timeout=20_000)
        expect(camera).to_contain_text("A folha para imprimir em tamanho real (100 %): A4 · Letter")
        link = camera.get_by_role("link", name="Letter")
        assert link.get_attribute("href") == "/print/17-letter.pdf?lang=pt"
        page.screenshot(path=str(tmp_path / "unseen.png"))
        context.close()


def test_the_host_is_told_in_their_language_why_the_camera_is_out(browser: Browser,
                                                                   tmp_path: Path) -> None:
    # The camera is a folder of iPhone photos: the host's phone (the PIN) says why in Spanish,
    # naming the folder; a watcher's says the camera is out, not where the host keeps photos.
    folder = tmp_path / "fotos del iPhone"
    folder.mkdir()
    for n in (1, 2):
        (folder / f"IMG_000{n}.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    with ServedTable(tmp_path / "state", args=["--camera", str(folder)]) as table, \
            host_and_guest(browser, table.url, table.pin, "es-ES") as (host_page, watcher):
        expect(host_page.locator("section.camera .camera-status.out")).to_have_text(
            "La cámara no responde: mientras tanto, introducid los dados en el móvil. "
            "Reintentando…", timeout=20_000)
        expect(host_page.locator("section.camera .camera-why")).to_have_text(
            f"La carpeta {folder} tiene fotos HEIC (como las hace un iPhone), que la mesa no "
            "puede leer: guardadlas como imágenes JPEG")
        # a capital for a reason's first letter, not the first of a path it starts with
        # ('/Dev/video0 is not there', '«/Home/pi/fotos»'): the style made one of any
        assert host_page.locator(".camera-why").evaluate(
            "(e) => getComputedStyle(e, '::first-letter').textTransform") == "none"
        expect(watcher.locator("section.camera .camera-status.out")).to_be_visible()
        expect(watcher.locator(".camera-why")).to_have_count(0)
        assert str(folder) not in watcher.locator("body").inner_text()


def test_a_host_whose_pin_was_renewed_is_asked_for_it_when_the_camera_is_out_anew(
        browser: Browser, tmp_path: Path) -> None:
    # `dicetable pin --new` while the camera is out: the host's phone, asking why it is out for
    # a new reason, got "not signed in" and forgot its ask, to ask again at every update
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "IMG_0001.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    with ServedTable(tmp_path / "state", args=["--camera", str(folder)]) as table:
        context = browser.new_context(viewport={"width": 360, "height": 740})
        page = context.new_page()
        page.goto(table.url + "/")
        sign_in(page, table.pin)
        expect(page.locator("section.camera .camera-why")).to_contain_text("HEIC",
                                                                          timeout=20_000)
        asks: list[str] = []
        page.on("request", lambda request: asks.append(request.url)
                if request.url.endswith("/api/camera/why") else None)
        assert main(["pin", "--new", "--state", str(table.state)]) == 0
        inner = folder / "DCIM" / "100APPLE"
        inner.mkdir(parents=True)
        cv2.imwrite(str(inner / "IMG_0002.JPG"), np.full((48, 64, 3), 128, np.uint8))
        (folder / "IMG_0001.HEIC").unlink()  # saved as JPEG: out for another reason
        expect(page.locator("#pin-dialog")).to_be_visible(timeout=20_000)
        page.wait_for_timeout(2_000)
        assert len(asks) == 1  # asked once, then the PIN: not again at every update
        context.close()


class SilentCamera:
    """A camera that opens and then sends no picture until ``released`` (a hung driver)."""

    paced = True
    description = "a silent camera"

    def __init__(self, released: threading.Event) -> None:
        self._released = released

    def open(self) -> None:
        """Opened (it says nothing of the hang to come)."""

    def read(self) -> Frame:
        """Waits until released, then says it is not open."""
        self._released.wait()
        raise CameraError("camera.why.not_open")

    def close(self) -> None:
        """Nothing to free."""


def test_the_host_sees_how_long_the_camera_has_sent_no_picture_counted_on_the_pad(
        browser: Browser, tmp_path: Path) -> None:
    # The seconds were the loop's latest patience, told at each stall: 5 s, then "10 s" at
    # 15 s, "20 s" at 35 s, and "120 s" from 275 s on for good
    released = threading.Event()
    with table_here(tmp_path) as (session, url):
        loop = LiveLoop(lambda: SilentCamera(released), DiceObserver(DiceReader(threads=1)),
                        session, stall_s=0.5)
        context = browser.new_context(viewport={"width": 360, "height": 740})
        try:
            page = context.new_page()
            page.clock.install()  # the phone's clocks, to put it to sleep below; time flows
            asks: list[str] = []
            page.on("request", lambda request: asks.append(request.url)
                    if request.url.endswith("/api/camera/why") else None)
            page.goto(url + "/")
            sign_in(page, session.journal.pin())
            started = time.monotonic()
            loop.start()
            why = page.locator("section.camera .camera-why")
            expect(why).to_contain_text("The camera sent no picture for ")
            for wait_s in (3.0, 5.0):  # (on 2 loaded cores the first shown may come after 3 s)
                page.wait_for_timeout(max(0.0, 1000 * (wait_s - (time.monotonic() - started))))
                shown = int(re.fullmatch(r"The camera sent no picture for (\d+) s",
                                         why.inner_text())[1])  # type: ignore[index]
                silent = time.monotonic() - started
                assert silent - 2.5 <= shown <= silent + 0.5, (shown, silent)  # (told rounded)
            assert len(asks) == 1  # counted on the pad, not asked again
            # The phone sleeps a minute: its clock of the day goes on, its clock of the page
            # does not tick (Android, iOS, macOS, Linux): the minute was left out of the count
            awake = page.evaluate("[Date.now(), performance.now()]")
            page.clock.set_system_time(awake[0] / 1000 + 60)
            page.wait_for_timeout(1500)
            shown = int(re.fullmatch(r"The camera sent no picture for (\d+) s",
                                     why.inner_text())[1])  # type: ignore[index]
            now = page.evaluate("[Date.now(), performance.now()]")
            slept_s = (now[0] - awake[0] - (now[1] - awake[1])) / 1000
            assert abs(slept_s - 60) < 1, slept_s
            silent = time.monotonic() - started + slept_s
            assert silent - 2.5 <= shown <= silent + 0.5, (shown, silent)  # (told rounded)
            page.screenshot(path=str(tmp_path / "silent.png"))
        finally:
            context.close()
            released.set()
            loop.stop()


def test_the_systems_own_words_are_on_a_line_of_their_own_named_as_such(
        browser: Browser, tmp_path: Path) -> None:
    # The OS's words ("Not a directory") stood in English inside the Spanish sentence
    folder = tmp_path / "fotos"
    folder.mkdir()
    cv2.imwrite(str(folder / "IMG_0001.JPG"), np.full((48, 64, 3), 128, np.uint8))
    with ServedTable(tmp_path / "state", args=["--camera", str(folder)]) as table:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
        page = context.new_page()
        page.goto(table.url + "/")
        sign_in(page, table.pin)
        expect(page.locator("section.camera .camera-status")).to_be_visible(timeout=20_000)
        (folder / "IMG_0001.JPG").unlink()
        folder.rmdir()
        folder.write_bytes(b"")  # a file where the folder was: it cannot be listed
        expect(page.locator("section.camera .camera-why")).to_have_text(
            f"No se puede leer la carpeta {folder}", timeout=20_000)
        expect(page.locator("section.camera .camera-detail")).to_have_text(
            "En palabras del propio sistema: Not a directory")
        page.screenshot(path=str(tmp_path / "system-words.png"))
        context.close()



@pytest.mark.parametrize(("name", "picture", "words"), [
    ("IMG_0001.png", None, "La imagen IMG_0001.png es demasiado grande para leerla "
                           "(8000×7000 píxeles; como máximo 50 megapíxeles)"),  # (8000×7000)
    ("IMG_0001.jpg", b"", "No se puede leer la imagen IMG_0001.jpg"),
    ("IMG_0001.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF", "No se puede leer la imagen IMG_0001.jpg")])
def test_a_camera_sending_only_pictures_that_cannot_be_read_says_so_and_the_host_why(
        browser: Browser, tmp_path: Path, name: str, picture: bytes | None,
        words: str) -> None:
    # The camera's only picture cannot be read (too large, empty, cut short): the panel said
    # "Starting the camera…" for ever, and which picture and why was in the host's log alone
    folder = tmp_path / "fotos"
    folder.mkdir()
    if picture is None:
        assert cv2.imwrite(str(folder / name), np.zeros((7000, 8000), np.uint8))
    else:
        (folder / name).write_bytes(picture)
    with ServedTable(tmp_path / "state", args=["--camera", str(folder)]) as table, \
            host_and_guest(browser, table.url, table.pin, "es-ES") as (host_page, guest):
        for page in (host_page, guest):
            expect(page.locator("section.camera .camera-status")).to_have_text(
                "La cámara envía imágenes que no se pueden leer", timeout=20_000)
        expect(host_page.locator("section.camera .camera-unreadable")).to_have_text(words)
        expect(guest.locator("section.camera .camera-unreadable")).to_have_count(0)
        assert name not in guest.locator("body").inner_text()
        assert str(folder) not in host_page.locator("body").inner_text()




def test_a_guest_is_told_a_picture_could_not_be_read_once_the_camera_is_working(
        browser: Browser, tmp_path: Path) -> None:
    # the pad read a boolean the state also sent beside why (unreadable_why); why alone now
    with table_here(tmp_path, CameraStatus("ok")) as (session, url):
        context = browser.new_context(viewport={"width": 360, "height": 740})
        try:
            page = context.new_page()
            page.goto(url + "/")
            expect(page.locator("section.camera .camera-status")).to_have_text(
                "The camera is watching the table")
            expect(page.locator("section.camera p.muted")).to_have_count(0)
            session.camera_status(CameraStatus("ok", unreadable_why=UnreadableFrame(
                "camera.why.picture_unreadable", name="IMG_0003.jpg")))
            expect(page.locator("section.camera p.muted")).to_have_text(
                "A picture from the camera could not be read.")
            assert "IMG_0003.jpg" not in page.locator("body").inner_text()
        finally:
            context.close()


def test_the_host_reads_why_the_camera_is_out_and_which_picture_failed_asked_once(
        browser: Browser, tmp_path: Path) -> None:
    # A picture too large, then the folder gone: the host's phone asked GET /api/camera/why
    # twice for the one answer that names both (and a 401 would have asked for the PIN twice)
    too_large = CameraStatus("starting", unreadable_why=UnreadableFrame(
        "camera.why.picture_too_large", name="IMG_0002.png", width=8000, height=7000, most=50))
    gone = CameraStatus("out", CameraError("camera.why.folder_gone", folder="/home/pi/fotos"))
    with table_here(tmp_path, too_large, gone) as (session, url):
        context = browser.new_context(viewport={"width": 360, "height": 740})
        try:
            page = context.new_page()
            asks: list[str] = []
            page.on("request", lambda request: asks.append(request.url)
                    if request.url.endswith("/api/camera/why") else None)
            page.goto(url + "/")
            sign_in(page, session.journal.pin())
            expect(page.locator("section.camera .camera-why")).to_contain_text(
                "/home/pi/fotos")
            expect(page.locator("section.camera .camera-unreadable")).to_have_text(
                "The picture IMG_0002.png is too large to read (8000×7000 pixels; at most 50 "
                "megapixels)")
            page.wait_for_timeout(500)
            assert len(asks) == 1, asks
        finally:
            context.close()


class CameraSavingTooLarge:
    """A camera that sends one grey picture until ``saved``, then only a picture too large to
    read (as a folder tells one, :class:`device.camera.FolderSource`)."""

    paced = True
    description = "a camera saving a picture too large"

    def __init__(self, saved: threading.Event) -> None:
        self._saved = saved
        self._number = 0

    def open(self) -> None:
        """Opened."""

    def read(self) -> Frame:
        """The grey picture, 15 a second; once saved, the picture too large, told."""
        time.sleep(1 / 15)
        if self._saved.is_set():
            raise UnreadableFrame("camera.why.picture_too_large", name="IMG_0002.png",
                                  width=8000, height=7000, most=50)
        self._number += 1
        return Frame(np.full((480, 640, 3), 128, np.uint8), time.monotonic(), self._number)

    def close(self) -> None:
        """Nothing to free."""


def test_a_picture_that_cannot_be_read_after_one_that_could_is_named_to_the_host_alone(
        browser: Browser, tmp_path: Path) -> None:
    # The camera watching the table saved a picture too large to read: the host read only "A
    # picture from the camera could not be read." (its name and why in the host's log alone)
    saved = threading.Event()
    with table_here(tmp_path) as (session, url):
        loop = LiveLoop(lambda: CameraSavingTooLarge(saved), DiceObserver(DiceReader(threads=1)),
                        session)
        loop.start()
        try:
            with host_and_guest(browser, url, session.journal.pin(), "pt-PT") as (host_page,
                                                                                 guest):
                for page in (host_page, guest):
                    expect(page.locator("section.camera figure.seen")).to_be_visible(
                        timeout=20_000)  # (a read stands)
                saved.set()
                expect(host_page.locator("section.camera .camera-unreadable")).to_have_text(
                    "A imagem IMG_0002.png é grande demais para ser lida (8000×7000 pixels; no "
                    "máximo 50 megapixels)")
                expect(host_page.locator("section.camera p.muted")).to_have_count(0)  # (better)
                expect(guest.locator("section.camera p.muted")).to_have_text(
                    "Não foi possível ler uma imagem da câmara.")
                for page in (host_page, guest):
                    expect(page.locator("section.camera .camera-status.ok")).to_be_visible()
                assert "IMG_0002" not in guest.locator("body").inner_text()
        finally:
            loop.stop()
