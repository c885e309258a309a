"""A stopped training run goes on from its checkpoint to the weights of one never stopped.

torch is the training extra (`pip install -e '.[train]'`), not needed to run or test the
table, so this module is skipped where it is not installed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is the training extra, not installed here")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))
import train  # noqa: E402

STEPS = 7


def toy_batch(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    xs = rng.normal(size=(8, 3)).astype(np.float32)
    return xs, (xs @ np.array([1.0, -2.0, 0.5], np.float32))[:, None]


def toy_loss(net: torch.nn.Module, batch: tuple[torch.Tensor, ...]
             ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    xs, ys = batch
    loss = torch.nn.functional.mse_loss(net(xs), ys)
    return loss, {"mse": loss.detach()}


def toy_run(checkpoint: train.Checkpoint | None, stop_at: int | None = None
            ) -> torch.nn.Module:
    """The toy regression trained for STEPS steps, stopped (as by a kill) when its batch
    stop_at is drawn."""
    torch.manual_seed(0)
    drawn = 0

    def make(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        nonlocal drawn
        if drawn == stop_at:
            raise KeyboardInterrupt
        drawn += 1
        return toy_batch(rng)

    draws = train.Draws(make, seed=3, workers=0)
    return train.fit(torch.nn.Linear(3, 1), "toy", STEPS, draws, toy_loss, "cpu",
                     checkpoint=checkpoint)


def test_a_run_stopped_after_a_checkpoint_ends_as_one_never_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(train, "SAVE_EVERY", 3)
    whole = toy_run(None)
    checkpoint = train.Checkpoint(tmp_path / "toy.ckpt", "--seed=3")
    with pytest.raises(KeyboardInterrupt):
        toy_run(checkpoint, stop_at=5)  # steps 0-4 ran; saved after step 2
    assert torch.load(checkpoint.path, weights_only=True)["done"] == 3
    resumed = toy_run(checkpoint)
    assert torch.load(checkpoint.path, weights_only=True)["done"] == STEPS
    for a, b in zip(whole.parameters(), resumed.parameters(), strict=True):
        assert torch.equal(a, b)
    torch.manual_seed(0)
    assert not torch.equal(whole.weight, torch.nn.Linear(3, 1).weight)  # it did train


def test_a_checkpoint_of_another_run_is_not_taken_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(train, "SAVE_EVERY", 3)
    toy_run(train.Checkpoint(tmp_path / "toy.ckpt", "--seed=3"))
    other_steps = train.Checkpoint(tmp_path / "toy.ckpt", "--seed=3")
    with pytest.raises(SystemExit, match="not a toy run of 9 steps"):
        train.fit(torch.nn.Linear(3, 1), "toy", 9, train.Draws(toy_batch, 3, 0), toy_loss,
                  "cpu", checkpoint=other_steps)
    other_arguments = train.Checkpoint(tmp_path / "toy.ckpt", "--seed=4")
    with pytest.raises(SystemExit, match="with --seed=4"):
        train.fit(torch.nn.Linear(3, 1), "toy", STEPS, train.Draws(toy_batch, 4, 0),
                  toy_loss, "cpu", checkpoint=other_arguments)
