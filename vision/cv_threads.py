"""OpenCV on one thread while a frame's small patches are worked on.

OpenCV shares even a 60-pixel warp, blur or colour conversion between its threads; on such
small images the second thread costs more processor time than it saves (a die's turn, its
cut-out, the centring's crops: about twice the processor time on two threads). The setting
is the process's: the first ``with`` block entered sets it, and the last one left (of any
threads' blocks that overlap) restores it.

>>> import cv2
>>> before = cv2.getNumThreads()
>>> with one_cv_thread():
...     with one_cv_thread():
...         cv2.getNumThreads()
1
>>> cv2.getNumThreads() == before
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import cv2

_lock = threading.Lock()
_inside = 0  # blocks entered and not yet left, over all threads
_before = 0  # OpenCV's threads when the first of them was entered


@contextmanager
def one_cv_thread() -> Iterator[None]:
    """A context in which OpenCV runs on one thread (its threads restored when the last
    overlapping context is left)."""
    global _inside, _before
    with _lock:
        if _inside == 0:
            _before = cv2.getNumThreads()
            cv2.setNumThreads(1)
        _inside += 1
    try:
        yield
    finally:
        with _lock:
            _inside -= 1
            if _inside == 0:
                cv2.setNumThreads(_before)
