"""Which state folder a table is serving: an advisory lock (``flock``) on the folder itself,
held while ``dicetable serve`` runs and let go by the system when the process ends, even by
``kill -9``. ``dicetable restore`` is refused while the lock is held, and so is a second
``serve`` of the same folder; a restore holds it too, so that a table started meanwhile
(systemd restarting one) is refused until the restore is done. (A lock file could be deleted
by a host who took it for one left behind, and a second table would then write the same
journal.) Earlier versions locked ``serving.lock`` in the folder: that file is locked too
(made where it is not), so that a table of either version sees the other while an update is
under way.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with ServingLock(folder):
...     is_serving(folder)
True
>>> is_serving(folder)
False
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from types import TracebackType


class AlreadyServing(Exception):
    """Another process serves this state folder."""


EARLIER_LOCK_FILE = "serving.lock"  # what versions before the lock on the folder locked


class ServingLock:
    """Held while a table serves ``state`` (a folder, created if missing)."""

    def __init__(self, state: Path) -> None:
        self.folder = state
        self._fds: list[int] = []

    def acquire(self) -> None:
        """Take the lock, or AlreadyServing. A folder that cannot be made or opened is not
        locked (the journal then says why it cannot be used)."""
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self._lock(self.folder, os.O_RDONLY | os.O_DIRECTORY)
            self._lock(self.folder / EARLIER_LOCK_FILE, os.O_RDWR | os.O_CREAT)
        except AlreadyServing:
            self.release()
            raise

    def _lock(self, path: Path, flags: int) -> None:
        """Lock ``path`` too, or AlreadyServing; nothing where it cannot be opened."""
        try:
            fd = os.open(path, flags, 0o600)
        except OSError:
            try:  # (a folder this user may only read: the file as it is, if it is there)
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise AlreadyServing(f"another dicetable serves {self.folder}, or restores a "
                                 "backup into it") from None
        self._fds.append(fd)

    def release(self) -> None:
        """Let the lock go."""
        while self._fds:
            os.close(self._fds.pop())

    def __enter__(self) -> ServingLock:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()


def is_serving(state: Path) -> bool:
    """Whether a table serves ``state`` now: the folder's lock and the earlier versions' file,
    where it is there, tried and let go at once; nothing is made. (``flock`` has no way to
    look without taking: a serve starting in that very moment is refused, and says so.)"""
    for path, flags in ((state, os.O_RDONLY | os.O_DIRECTORY),
                        (state / EARLIER_LOCK_FILE, os.O_RDONLY)):
        try:
            fd = os.open(path, flags)
        except OSError:
            continue  # not there (nobody serves it), or not ours to open
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
    return False
