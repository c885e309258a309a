"""Room kept on the memory card for when it fills up: a file of RESERVE_BYTES in the state
folder, made by ``dicetable serve`` while the card has room to spare. When the card is full, the
table lets it go: a table that could not start (SQLite needs room beside the journal to open
it) starts, and a move refused as the card filled goes in when tried again. The host is told to
free room; the table makes the file again at its next start, where there is room.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

from device.notice import Notice

RESERVE = "room-kept"
RESERVE_BYTES = 4 << 20
SPARE_FACTOR = 4  # the file is made only where the card has this many times its size free
CARD_FULL = Notice("notice.card_full")  # what the host is told once it is let go


def keep_room(folder: Path) -> bool:
    """Make the reserve in ``folder`` if it is not there and the card has room to spare;
    returns whether it is there now. Its blocks are the card's (allocated, not a sparse
    file)."""
    reserve = folder / RESERVE
    if reserve.is_file() and reserve.stat().st_size >= RESERVE_BYTES:
        return True
    try:
        disk = os.statvfs(folder)
        if disk.f_bavail * disk.f_frsize < SPARE_FACTOR * RESERVE_BYTES:
            return False
        with reserve.open("wb") as file:
            os.posix_fallocate(file.fileno(), 0, RESERVE_BYTES)
            os.fsync(file.fileno())
    except OSError:
        with suppress(OSError):
            reserve.unlink(missing_ok=True)
        return False
    return True


def let_go(folder: Path) -> bool:
    """Free the reserve in ``folder``; returns whether there was one."""
    try:
        (folder / RESERVE).unlink()
    except OSError:
        return False
    return True
