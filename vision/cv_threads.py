"""OpenCV on one thread while a frame's small patches are worked on.

OpenCV shares even a 60-pixel warp, blur or colour conversion between its threads; on such
small images the second thread costs more processor time than it saves (a die's turn, its
cut-out, the centring's crops: about twice the processor time on two threads). The setting
is the process's: it is restored on leaving the ``with`` block.

>>> import cv2
>>> before = cv2.getNumThreads()
>>> with one_cv_thread():
...     cv2.getNumThreads()
1
>>> cv2.getNumThreads() == before
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import cv2


@contextmanager
def one_cv_thread() -> Iterator[None]:
    """A context in which OpenCV runs on one thread (its threads restored on leaving it)."""
    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(before)
