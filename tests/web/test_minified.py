"""The pad's scripts and styles are served minified, the files in the repo as written."""

from __future__ import annotations

import re
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
