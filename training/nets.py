"""The two small networks of the dice reader (PyTorch, exported to ONNX)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def cbr(i: int, o: int, k: int = 3, s: int = 1) -> nn.Sequential:
    """Convolution, batch norm, ReLU."""
    return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, bias=False), nn.BatchNorm2d(o),
                         nn.ReLU(inplace=True))


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
