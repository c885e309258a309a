"""Teach mode through the JSON API: bad requests are refused in the phone's words and change
nothing; a table's taught profile is downloaded to share with another table. (The photos,
check and save through the real camera loop: tests/device/test_teach_live.py and the
browser's tests/web/test_browser_teach.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from device.session import TableSession
from device.teacher import Teacher, imported
from tests.web.conftest import Phone
from vision.profile import default, load
from vision.sheet_observer import SheetObserver


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def teacher(table_session: TableSession, state: Path) -> Teacher:
    """The table's camera can be taught (no frame seen yet)."""
    table_session.teacher = Teacher(state, lambda profile: None, SheetObserver(None).pips)
    table_session.watch_camera()
    return table_session.teacher


def test_bad_teach_requests_are_refused_and_change_nothing(phone: Phone, watcher: Phone,
                                                           teacher: Teacher) -> None:
    before = phone.state()
    assert before["camera"]["teach"] == {
        "kinds": ["dalek", "dicy-card", "17-card", "d6"], "saved": [], "lesson": None,
        "games": {"dalek": "dalek", "dicy-card": "dicy", "17-card": "17", "d6": "dicy"},
        "game": None}
    refused = {
        "The teaching step is not one the score pad knows; nothing was changed.":
            phone.change("/api/camera/teach", {"do": "dance"}),
        "Say which dice or cards to teach; nothing was changed.":
            phone.change("/api/camera/teach", {"do": "start", "kind": 17}),
        "the camera cannot be taught this kind of component":
            phone.change("/api/camera/teach", {"do": "start", "kind": "chess"}),
        "no teaching is going on: start it again":
            phone.change("/api/camera/teach", {"do": "photo"}),
        "Enter the table's PIN to change the game.":
            watcher.change("/api/camera/teach", {"do": "start", "kind": "dalek"}),
    }
    for message, response in refused.items():
        assert response.status_code in (400, 401, 403), response.json
        assert response.json is not None and response.json["error"] == message
    assert phone.state()["camera"] == before["camera"]
    started = phone.change("/api/camera/teach", {"do": "start", "kind": "dalek"})
    assert started.status_code == 200
    assert started.json is not None and started.json["state"]["camera"]["teach"]["lesson"][
        "steps"][0] == [{"place": "to-roll", "face": "H4"}]
    spanish = phone.post("/api/camera/teach", {"do": "photo",
                                               "base_version": phone.state()["version"]},
                         **{"Accept-Language": "es"})
    assert spanish.status_code == 400 and spanish.json == {
        "error": "la cámara aún no ha visto la mesa: esperad un momento"}


def test_a_table_without_a_camera_cannot_be_taught(phone: Phone) -> None:
    response = phone.change("/api/camera/teach", {"do": "start", "kind": "dalek"})
    assert response.status_code == 400
    assert response.json == {"error": "this table has no camera to teach"}


def test_the_taught_profile_is_downloaded_to_share(phone: Phone, teacher: Teacher,
                                                   state: Path, tmp_path: Path) -> None:
    missing = phone.client.get("/api/camera/profile-dalek.npz")
    assert missing.status_code == 404
    assert missing.json == {"error": "This table has not been taught those dice or cards."}
    shared = tmp_path / "shared.npz"
    default("dalek").save(shared)
    imported(state, shared, "dalek")
    got = phone.client.get("/api/camera/profile-dalek.npz")
    assert got.status_code == 200
    assert "dicetable-profile-dalek.npz" in got.headers["Content-Disposition"]
    (tmp_path / "got.npz").write_bytes(got.data)
    assert load(tmp_path / "got.npz").labels == default("dalek").labels
    assert phone.client.get("/api/camera/profile-..%2Ftable.npz").status_code == 404
