"""The serving lock: one table to a state folder, also across an update."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from device.serving import AlreadyServing, ServingLock, is_serving


def test_a_table_of_an_earlier_version_still_serving_the_folder_is_seen(tmp_path: Path) -> None:
    # versions before the lock on the folder held one on STATE/serving.lock: during an update
    # the old table may still serve
    fd = os.open(tmp_path / "serving.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert is_serving(tmp_path)
        with pytest.raises(AlreadyServing, match="another dicetable serves"):
            ServingLock(tmp_path).acquire()
    finally:
        os.close(fd)
    with ServingLock(tmp_path):  # once it has stopped; and an earlier version started now
        old = os.open(tmp_path / "serving.lock", os.O_RDWR)  # would find the file locked
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(old, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(old)
    assert not is_serving(tmp_path)


def test_an_earlier_version_started_during_a_table_of_this_one_sees_it(tmp_path: Path) -> None:
    with ServingLock(tmp_path):  # no serving.lock was there: this table makes it
        old = os.open(tmp_path / "serving.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(old, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(old)
