"""The classifier made 8-bit reads as its float self, and training takes its weights back.

torch and onnx are the training extra (`pip install -e '.[train]' onnx`), not needed to run
or test the table, so this module is skipped where they are not installed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]
import pytest

torch = pytest.importorskip("torch", reason="torch is the training extra, not installed here")
onnx = pytest.importorskip("onnx", reason="onnx (for the export) comes with the training extra")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))
import train  # noqa: E402
from data import synthetic  # noqa: E402
from nets import Classifier  # noqa: E402
from quantize import calibration_patches, float_weighted, quantize_classifier  # noqa: E402

from vision.reader import FLOAT_CLASSIFIER, MODELS  # noqa: E402


def logits(path: Path, patches: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    out: np.ndarray = session.run(None, {"patch": patches})[0]
    return out


@pytest.fixture(scope="module")
def float_and_8bit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, np.ndarray]:
    """The shipped float classifier exported again by training, its 8-bit form calibrated on
    rendered scenes, and other patches drawn from the same scenes to compare them on."""
    folder = tmp_path_factory.mktemp("classifier")
    net = train.from_onnx(Classifier(), MODELS / FLOAT_CLASSIFIER).eval()
    train.export_classifier(net, folder / "float.onnx")
    pool = synthetic(seed=5, n=12)
    quantize_classifier(folder / "float.onnx", folder / "8bit.onnx",
                        calibration_patches(pool, [], seed=1, n=256))
    return folder / "float.onnx", folder / "8bit.onnx", calibration_patches(pool, [], seed=2,
                                                                             n=256)


def test_the_8bit_classifier_reads_what_the_float_one_reads(
        float_and_8bit: tuple[Path, Path, np.ndarray]) -> None:
    floats, eight_bit, patches = float_and_8bit
    a, b = logits(floats, patches), logits(eight_bit, patches)
    assert (a[:, :7].argmax(1) == b[:, :7].argmax(1)).mean() >= 0.95
    assert np.abs(a[:, 7:] - b[:, 7:]).max() < 0.05  # the centre, in patch widths
    assert eight_bit.stat().st_size < floats.stat().st_size / 2
    layers = [node.name for node in onnx.load(str(floats)).graph.node
              if node.op_type in ("Conv", "Gemm")]
    assert float_weighted(floats) == layers
    assert float_weighted(eight_bit) == [layers[0], layers[-1]]  # the first and the head


def test_training_takes_the_weights_of_an_8bit_classifier_back(
        float_and_8bit: tuple[Path, Path, np.ndarray]) -> None:
    _, eight_bit, patches = float_and_8bit
    net = train.from_onnx(Classifier(), eight_bit).eval()
    with torch.no_grad():
        taken = net(torch.from_numpy(patches)).numpy()
    assert (taken[:, :7].argmax(1) == logits(eight_bit, patches)[:, :7].argmax(1)).mean() >= 0.95


def test_an_8bit_classifier_is_not_quantized_twice(
        float_and_8bit: tuple[Path, Path, np.ndarray], tmp_path: Path) -> None:
    _, eight_bit, patches = float_and_8bit
    with pytest.raises(SystemExit, match="8-bit already"):
        quantize_classifier(eight_bit, tmp_path / "again.onnx", patches)


@pytest.mark.parametrize("scale, zero, axis", [
    (np.float32(0.5), np.uint8(3), None),  # one scale for the tensor, a zero point off 0
    (np.array([0.5, 0.25, 2.0], np.float32), np.array([1, 0, 2], np.uint8), None),  # axis 1
    (np.array([0.1, 0.2], np.float32), np.array([0, 5], np.uint8), 0),
])
def test_weights_dequantize_as_onnxruntime_dequantizes_them(
        scale: np.ndarray, zero: np.ndarray, axis: int | None) -> None:
    stored = np.arange(6, dtype=np.uint8).reshape(2, 3) * 7
    node = onnx.helper.make_node("DequantizeLinear", ["q", "scale", "zero"], ["w"],
                                 **({} if axis is None else {"axis": axis}))
    graph = onnx.helper.make_graph(
        [node], "dequantize", [],
        [onnx.helper.make_tensor_value_info("w", onnx.TensorProto.FLOAT, [2, 3])],
        [onnx.numpy_helper.from_array(np.asarray(a), n)
         for a, n in ((stored, "q"), (scale, "scale"), (zero, "zero"))])
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17)])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(train._weights(graph)["w"], session.run(None, {})[0])
