"""The Dalek sheet's centre network trains from rendered sheets and exports an ONNX file that
onnxruntime reads as the reader does.

torch and onnx are the training extra (`pip install -e '.[train]' onnx`), not needed to run
or test the table, so this module is skipped where they are not installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]
import pytest

pytest.importorskip("torch", reason="torch is the training extra, not installed here")
pytest.importorskip("onnx", reason="onnx (for the export) comes with the training extra")

SCRIPT = Path(__file__).resolve().parents[2] / "training" / "train_centre.py"


def test_a_short_run_writes_a_centre_network_that_reads_patches(tmp_path: Path) -> None:
    out = tmp_path / "centre.onnx"
    run = subprocess.run([sys.executable, str(SCRIPT), "--scenes", "10", "--steps", "3",
                          "--batch", "8", "--cache", str(tmp_path / "patches.npz"),
                          "--out", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "held out:" in run.stdout, run.stdout
    patches = np.random.default_rng(0).random((5, 3, 48, 48), dtype=np.float32)
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    (offsets,) = session.run(None, {"patch": patches})
    assert offsets.shape == (5, 2) and np.isfinite(offsets).all()
