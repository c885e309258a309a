"""vision.heap: large blocks stay mapped, so freeing them gives the memory back."""

from __future__ import annotations

import ctypes.util
import subprocess
import sys

import pytest

# Frees one 4 MB block (glibc then, by default, raises its mmap threshold to 4 MB) and counts
# how many of the mapped blocks in use a following 1 MB block adds (mallinfo2's hblks).
_CHILD = """
import ctypes, sys
from vision.heap import keep_memory_flat
names = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
         "fordblks", "keepcost")
class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in names]
libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = MallInfo2
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
if sys.argv[1] == "flat":
    keep_memory_flat()
libc.free(libc.malloc(4 << 20))
before = libc.mallinfo2().hblks
block = libc.malloc(1 << 20)
print(libc.mallinfo2().hblks - before)
"""


def mapped_blocks_added(setting: str) -> int:
    """Mapped blocks a 1 MB allocation adds after a 4 MB one was freed, in a fresh process."""
    done = subprocess.run([sys.executable, "-c", _CHILD, setting], capture_output=True,
                          text=True, check=True)
    return int(done.stdout)


@pytest.mark.skipif(ctypes.util.find_library("c") != "libc.so.6",
                    reason="the allocator settings are glibc's; this C library is another")
def test_keep_memory_flat_keeps_large_blocks_mapped_after_a_larger_one_was_freed() -> None:
    assert mapped_blocks_added("default") == 0  # glibc's own: served from the heap, kept there
    assert mapped_blocks_added("flat") == 1  # set as the table's: mapped, given back when freed
