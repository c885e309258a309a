"""The reader reports to no one: onnxruntime's usage reports are off, so it keeps no device id
in the user's home (it does from 1.29 on, unless told not to)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

READ = """
import numpy as np
from vision.reader import DiceReader
DiceReader(threads=1).read(np.zeros((720, 1280, 3), np.uint8))
"""


def test_reading_leaves_nothing_in_the_users_home(tmp_path: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    subprocess.run([sys.executable, "-c", READ], env={**environment, "HOME": str(tmp_path)},
                   check=True, cwd=Path(__file__).parents[2])
    assert list(tmp_path.rglob("*")) == []
