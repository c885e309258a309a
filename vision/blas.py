"""numpy's matrix products on one thread, for the whole process.

The readers' products (embeddings against taught examples) are small: OpenBLAS's worker
threads only wait for a core there, which on a busy machine (onnxruntime's threads, other
processes, a Pi's few cores) costs tens of milliseconds a product, where one thread takes a
fraction of one. A reader's principal axes are built on one thread too (vision.neighbours):
OpenBLAS's threads share out a sum's terms, so that another number of threads rounds it
otherwise. Nothing else in the process makes products large enough to want more threads
(onnxruntime has threads of its own).

OpenBLAS's threads are the process's, not a thread's, and readers read and are built on
several threads (the camera's frames, the Dicy dice beside the cards, a reader built for a
teach check on the session's thread): a block that set one thread and restored the threads it
found on leaving restored them while another thread's block was still inside (a reader's axes
built partly on two threads, 3e-4 off), and threadpoolctl lets one thread at a time set them.
So the process is set to one thread, by each reader as it is built (vision.neighbours: every
reader's products are its neighbours'), and left so.

>>> import numpy as np
>>> from threadpoolctl import threadpool_info
>>> one_thread()
>>> {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}
{1}
"""

from __future__ import annotations

import functools

from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]


def one_thread() -> None:
    """Set numpy's BLAS to one thread for the process (again where it was: a caller of
    threadpoolctl may have set it otherwise since)."""
    _controller().limit(limits=1, user_api="blas")


@functools.cache
def _controller() -> ThreadpoolController:
    """The thread pools of the libraries loaded (made once numpy's BLAS is: on first use)."""
    return ThreadpoolController()
