"""Which state folder a table is serving: an advisory lock (``flock``) on ``serving.lock`` in
it, held while ``dicetable serve`` runs and let go by the system when the process ends, even
by ``kill -9``. ``dicetable restore`` is refused while the lock is held, and so is a second
``serve`` of the same folder.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with ServingLock(folder):
...     is_serving(folder)
True
>>> is_serving(folder)
False
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

LOCK_FILE = "serving.lock"


class AlreadyServing(Exception):
    """Another process serves this state folder."""


class ServingLock:
    """Held while a table serves ``state`` (a folder, created if missing)."""

    def __init__(self, state: Path) -> None:
        self.path = state / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or AlreadyServing. A folder that cannot be written is locked
        through a lock file already there, else not at all (the journal then says why it
        cannot be used)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except OSError:
                return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise AlreadyServing(f"another dicetable serves {self.path.parent}") from None
        self._fd = fd

    def release(self) -> None:
        """Let the lock go."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> ServingLock:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()


def is_serving(state: Path) -> bool:
    """Whether a table serves ``state`` now."""
    lock = ServingLock(state)
    if not lock.path.exists():
        return False
    try:
        lock.acquire()
    except AlreadyServing:
        return True
    lock.release()
    return False
