"""A small memory card for tests: a tmpfs of 32 MB that root mounts, and filling it up."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest


@contextmanager
def mounted_card(folder: Path) -> Iterator[Path]:
    """``folder`` (made) as a card of 32 MB for the duration; the test is skipped where no
    tmpfs can be mounted (not root)."""
    if os.geteuid() != 0:
        pytest.skip("a small card is a tmpfs: root mounts one")
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(folder)],
                      check=False).returncode != 0:
        pytest.skip("no tmpfs can be mounted here")
    try:
        yield folder
    finally:  # lazily: a connection a session's thread still holds lets go with it
        subprocess.run(["umount", "--lazy", str(folder)], check=False)


def fill(card: Path) -> None:
    """Fill ``card`` up, as photos copied onto it would."""
    with suppress(OSError), (card / "photos.bin").open("wb") as filler:
        while True:
            filler.write(bytes(1 << 16))
            filler.flush()
