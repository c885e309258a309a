"""Make a trained classifier 8-bit: static quantization, calibrated on training patches.

    .venv/bin/python training/quantize.py --models runs/nb --exclude byler-d6 --out runs/nb-int8

Reads the float classifier of --models (``dice_classifier-float.onnx``, the float export a
run of train.py keeps, or else ``dice_classifier.onnx`` of a run from before 2026-11-29), draws
calibration patches as training draws them (data.classifier_batch: the train splits of the sets
not left out, rendered scenes and the locator's hard negatives; not Blender's patches, which
train.py's --blender-patches adds), and writes the 8-bit classifier (onnxruntime's QDQ format,
weights per output channel) to --out beside a copy of the float locator. The test splits are never
read here.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from numpy.typing import NDArray
from onnxruntime.quantization import (  # type: ignore[import-untyped]
    CalibrationDataReader,
    QuantFormat,
    QuantType,
    quant_pre_process,
    quantize_static,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import (  # noqa: E402
    SETS,
    SHARE,
    Negative,
    Sample,
    classifier_batch,
    mine_negatives,
    source_weights,
    synthetic,
    train_photos,
)

from vision.reader import CLASSIFIER, FLOAT_CLASSIFIER, LOCATOR  # noqa: E402

CALIBRATION_BATCH = 64  # patches per calibration run
PATCHES = 2048  # calibration patches


class _Patches(CalibrationDataReader):  # type: ignore[misc]
    """The calibration patches, CALIBRATION_BATCH at a time, as the classifier's input."""

    def __init__(self, patches: NDArray[np.float32]) -> None:
        self._batches = iter([{"patch": patches[i:i + CALIBRATION_BATCH]}
                              for i in range(0, len(patches), CALIBRATION_BATCH)])

    def get_next(self) -> dict[str, NDArray[np.float32]] | None:
        return next(self._batches, None)


def float_nodes(model: Path) -> list[str]:
    """The classifier's nodes kept in floats: its first convolution and all after its last
    but the ReLU (which the quantizer fuses into the convolution before it)."""
    nodes = onnx.load(str(model)).graph.node
    convs = [i for i, node in enumerate(nodes) if node.op_type == "Conv"]
    return [nodes[convs[0]].name] + [node.name for node in nodes[convs[-1] + 1:]
                                     if node.op_type != "Relu"]


def float_weighted(model: Path) -> list[str]:
    """The convolutions and linear layers of a model whose weights are stored in floats (not
    dequantized from 8 bits)."""
    nodes = onnx.load(str(model)).graph.node
    dequantized = {out for node in nodes if node.op_type == "DequantizeLinear"
                   for out in node.output}
    return [node.name for node in nodes
            if node.op_type in ("Conv", "Gemm") and node.input[1] not in dequantized]


def calibration_patches(pool: list[Sample], negatives: list[Negative], seed: int,
                        n: int = PATCHES) -> NDArray[np.float32]:
    """n patches drawn as the classifier's training draws them (N×3×CROP×CROP)."""
    rng = np.random.default_rng([seed, 8])
    patches: NDArray[np.float32] = classifier_batch(
        rng, pool, source_weights(pool, SHARE), negatives, n)[0]
    return patches


def quantize_classifier(source: Path, target: Path, patches: NDArray[np.float32]) -> None:
    """Write the 8-bit form of the float classifier ``source`` to ``target``, its activation
    ranges calibrated on ``patches`` (N×3×CROP×CROP, as the reader feeds it) by their least and
    greatest values (min-max: entropy and percentile calibration read no better)."""
    if any(node.op_type == "DequantizeLinear" for node in onnx.load(str(source)).graph.node):
        raise SystemExit(f"{source} is 8-bit already: quantize the float export it came from")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        kept = float_nodes(prepared)
        quantize_static(str(prepared), str(target), _Patches(patches),
                        quant_format=QuantFormat.QDQ, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, per_channel=True, nodes_to_exclude=kept)
        layers = set(float_weighted(prepared)) & set(kept)
    if set(float_weighted(target)) != layers:
        raise SystemExit(f"{target}: the layers left in floats are not {sorted(layers)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, required=True,
                    help="folder of dice_locator.onnx and the float classifier "
                         "(dice_classifier-float.onnx, else dice_classifier.onnx)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "datasets")
    ap.add_argument("--exclude", choices=SETS, action="append", default=[],
                    help="a set the models were trained without (its photos are not used)")
    ap.add_argument("--patches", type=int, default=PATCHES, help="calibration patches")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--synthetic", type=int, default=1200, help="rendered scenes")
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "cache",
                    help="where rendered scenes are kept between runs")
    args = ap.parse_args()
    real = train_photos(args.data, args.exclude)
    pool = real + synthetic(args.seed, args.synthetic, args.cache)
    negatives = mine_negatives(args.models / LOCATOR, pool)
    patches = calibration_patches(pool, negatives, args.seed, args.patches)
    args.out.mkdir(parents=True, exist_ok=True)
    source = args.models / FLOAT_CLASSIFIER
    quantize_classifier(source if source.is_file() else args.models / CLASSIFIER,
                        args.out / CLASSIFIER, patches)
    if args.out.resolve() != args.models.resolve():
        shutil.copyfile(args.models / LOCATOR, args.out / LOCATOR)
    print(f"{args.out / CLASSIFIER}: 8-bit, calibrated on {len(patches)} patches", flush=True)


if __name__ == "__main__":
    main()
