"""Fixtures for the device tests: a journal in a temporary folder and a running session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from device.journal import Journal
from device.session import TableSession
from tests.device.small_card import mounted_card


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "table.db"


@pytest.fixture
def session(journal_path: Path) -> Iterator[TableSession]:
    table = TableSession(Journal(journal_path))
    table.start()
    yield table
    table.stop()


@pytest.fixture
def small_card(tmp_path: Path) -> Iterator[Path]:
    """A memory card of 32 MB (a tmpfs: skipped where root cannot mount one)."""
    with mounted_card(tmp_path / "card") as card:
        yield card
