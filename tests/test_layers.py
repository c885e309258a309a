"""The packages import one way only: dicetable → web → device → vision/engine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {
    "engine": set(),
    "vision": set(),
    "device": {"engine", "vision"},
    "web": {"device", "engine", "vision"},
    "dicetable": {"web", "device", "engine", "vision"},
}


def _imported_packages(path: Path) -> set[str]:
    """The top-level names ``path`` imports (at any depth of the module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    ours = set(ALLOWED)
    wrong = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / package).rglob("*.py")
        for name in _imported_packages(path) & ours - ALLOWED[package] - {package}
    }
    assert not wrong, sorted(wrong)


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from web.app import create_app\n")
    assert "web" in _imported_packages(module)
