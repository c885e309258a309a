"""The pad's scripts and styles are served minified, the files in the repo as written."""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.minified import serve_minified

STATIC = Path(__file__).parents[2] / "web" / "static"
SCRIPTS_AND_STYLES = sorted(p.name for p in STATIC.iterdir() if p.suffix in (".js", ".css"))


def comments(text: str) -> list[str]:
    """The words of every comment in a script or style sheet as written."""
    block = re.findall(r"/\*(.*?)\*/", text, re.S)
    line = re.findall(r"^\s*//(.*)$", text, re.M)
    return [words.strip() for words in block + line if words.strip()]


@pytest.mark.parametrize("name", SCRIPTS_AND_STYLES)
def test_a_script_or_style_comes_without_its_comments_and_keeps_its_names(
        client: FlaskClient, name: str) -> None:
    written = (STATIC / name).read_text(encoding="utf-8")
    served = client.get(f"/static/{name}")
    assert served.status_code == 200
    assert served.mimetype == {".js": "text/javascript", ".css": "text/css"}[Path(name).suffix]
    body = served.get_data(as_text=True)
    assert len(body) < 0.85 * len(written), (len(body), len(written))
    said = comments(written)
    assert said and not [words for words in said if words in body]
    # nothing renamed: what each script declares at its top is there for the others
    for declared in re.findall(r"^(?:async )?function\*? (\w+)|^(?:const|let) (\w+) =", written,
                               re.M):
        name_declared = "".join(declared)
        assert re.search(rf"\b(?:function\*?|const|let) {name_declared}\b", body), name_declared


def test_a_script_served_is_asked_again_and_not_sent_twice(client: FlaskClient) -> None:
    first = client.get("/static/pad.js")
    assert first.headers["Cache-Control"] == "no-cache" and first.headers["Last-Modified"]
    again = client.get("/static/pad.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.get_data()
    assert client.get("/static/pad.js").get_data() == first.get_data()
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_a_script_changed_on_disk_is_served_as_it_is_now(tmp_path: Path) -> None:
    app = Flask(__name__, static_folder=str(tmp_path), static_url_path="/static")
    serve_minified(app)
    client = app.test_client()
    script = tmp_path / "a.js"
    script.write_text("/* one */\nconst one = 1;\n")
    before = client.get("/static/a.js")
    script.write_text("/* two, a longer comment */\nconst two = 2;\n")
    after = client.get("/static/a.js")
    assert before.get_data(as_text=True) == "const one=1;"
    assert after.get_data(as_text=True) == "const two=2;"
    assert before.headers["ETag"] != after.headers["ETag"]


def static_client(folder: Path) -> FlaskClient:
    """A client of an app serving ``folder``'s scripts and styles minified."""
    app = Flask(__name__, static_folder=str(folder), static_url_path="/static")
    serve_minified(app)
    return app.test_client()


def test_a_script_not_in_utf_8_is_served_as_written(tmp_path: Path) -> None:
    # it was answered 500: the minifier reads a script as UTF-8
    written = "/* café */\nconst name = 'café';\n".encode("latin-1")
    (tmp_path / "a.js").write_bytes(written)
    served = static_client(tmp_path).get("/static/a.js")
    assert served.status_code == 200 and served.get_data() == written


def test_a_script_removed_while_it_is_asked_for_is_not_there(tmp_path: Path) -> None:
    # a script removed after the route saw it was there was answered 500
    client = static_client(tmp_path)
    script = tmp_path / "a.js"
    stop = threading.Event()

    def come_and_go() -> None:
        while not stop.is_set():
            script.write_text("const a = 1;\n")
            script.unlink()

    other = threading.Thread(target=come_and_go)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the threads take turns often: the file goes mid-request
    other.start()
    try:
        answers = {client.get("/static/a.js").status_code for _ in range(2000)}
    finally:
        stop.set()
        other.join()
        sys.setswitchinterval(switch)
    assert answers <= {200, 404}, answers
