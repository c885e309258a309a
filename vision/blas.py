"""numpy's matrix products on one thread while a frame is read.

The readers' products (embeddings against taught examples) are small: OpenBLAS's worker
threads only wait for a core there, which on a busy machine (onnxruntime's threads, other
processes, a Pi's few cores) costs tens of milliseconds a product, where one thread takes a
fraction of one. threadpoolctl sets OpenBLAS's threads for the span of a ``with`` block.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

_CONTROLLER = ThreadpoolController()


def one_thread() -> AbstractContextManager[Any]:
    """A context in which numpy's BLAS runs on one thread (restored on leaving it)."""
    limit: AbstractContextManager[Any] = _CONTROLLER.limit(limits=1, user_api="blas")
    return limit
