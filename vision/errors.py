"""Errors raised by the vision package."""

from __future__ import annotations


class VisionError(Exception):
    """Base class of every error the vision package raises on purpose."""


class UnreadableImage(VisionError, ValueError):
    """The input is not an image the reader can use (wrong type, shape, dtype or size)."""


class ModelMissing(VisionError, FileNotFoundError):
    """A model file the reader needs is not where it should be."""


class ModelUnreadable(VisionError):
    """A model file is there but onnxruntime cannot load it (truncated, not ONNX, ...)."""
