"""numpy's matrix products on one thread while a frame is read.

The readers' products (embeddings against taught examples) are small: OpenBLAS's worker
threads only wait for a core there, which on a busy machine (onnxruntime's threads, other
processes, a Pi's few cores) costs tens of milliseconds a product, where one thread takes a
fraction of one. threadpoolctl sets OpenBLAS's threads for the span of a ``with`` block.
A reader's principal axes are built on one thread too (vision.neighbours): OpenBLAS's threads
share out a sum's terms, so that another number of threads rounds it otherwise.

>>> import numpy as np
>>> from threadpoolctl import threadpool_info
>>> with one_thread():
...     {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}
{1}
"""

from __future__ import annotations

import functools
from contextlib import AbstractContextManager
from typing import Any

from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]


def one_thread() -> AbstractContextManager[Any]:
    """A context in which numpy's BLAS runs on one thread (restored on leaving it)."""
    limit: AbstractContextManager[Any] = _controller().limit(limits=1, user_api="blas")
    return limit


@functools.cache
def _controller() -> ThreadpoolController:
    """The thread pools of the libraries loaded (made once numpy's BLAS is: on first use)."""
    return ThreadpoolController()
