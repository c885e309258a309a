"""The process's heap kept at its size: glibc's allocator set as the table runs it.

A camera frame and the locator's tiles are large blocks, allocated and freed on every read.
Left to its defaults, glibc raises its mmap threshold after the first large block is freed and
serves the next ones from the heap, whose freed space it keeps: the resident size then creeps up
over hours. Set here, large blocks are mapped and given back at once, and two arenas are kept
instead of one per thread. The table's process calls this at start, and so do the benchmarks
that measure it.
"""

from __future__ import annotations

import ctypes

M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8  # glibc's mallopt parameters (malloc.h)
MMAP_THRESHOLD = 128 * 1024  # bytes: blocks this large or larger are mapped, not heap
ARENAS = 2


def keep_memory_flat() -> None:
    """Ask glibc's allocator to give large blocks back to the system at once and to keep two
    arenas, not one per thread (a no-op where the C library is not glibc)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    libc.mallopt(M_ARENA_MAX, ARENAS)
