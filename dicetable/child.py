"""``dicetable serve`` as a child process on a free local port: what the benchmark and the
end-to-end tests run, exactly as a table runs it (and restart, or kill, mid-game)."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from device.journal import Journal
from device.state_dir import journal_path

START_TIMEOUT_S = 20.0


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_serving(command: Sequence[str], *, output: int | IO[bytes] = subprocess.DEVNULL,
                  env: Mapping[str, str] | None = None,
                  preexec_fn: Callable[[], None] | None = None) -> subprocess.Popen[bytes]:
    """Start ``command`` (a ``dicetable serve``) and return once it says it is up: ``READY=1``
    on a notify socket of its own, as under systemd. An answer on its port is no such sign:
    another process may hold the port a moment. RuntimeError if it exits first, or is not up
    within START_TIMEOUT_S (it is then killed)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as manager:
        name = f"dicetable-child-{uuid.uuid4().hex}"
        manager.bind("\0" + name)
        manager.settimeout(0.05)
        env = {**(os.environ if env is None else env), "NOTIFY_SOCKET": "@" + name}
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=env,
                                   preexec_fn=preexec_fn)
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    raise RuntimeError(f"dicetable serve exited with {process.returncode}")
                try:
                    if b"READY=1" in manager.recv(4096).split(b"\n"):
                        return process
                except TimeoutError:
                    continue
            raise RuntimeError(f"dicetable serve was not up within {START_TIMEOUT_S:.0f} s")
        except BaseException:
            process.kill()
            process.wait()
            raise


class ServedTable:
    """A ``dicetable serve`` child process with its own state folder and port."""

    def __init__(self, state: Path, *, port: int | None = None, max_streams: int = 40,
                 args: Sequence[str] = (), log: Path | None = None,
                 file_size_limit: int | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        self.state = state
        self.port = port or free_port()
        self.max_streams = max_streams
        self.args = tuple(args)
        """More options of ``dicetable serve`` (e.g. ``--camera FOLDER``)."""
        self.log = log
        """Where the process's output goes (appended); None: nowhere."""
        self.file_size_limit = file_size_limit
        """The largest file the process may write (RLIMIT_FSIZE, as a disk about to fill)."""
        self.env = dict(env or {})
        """More environment for the process, on each start."""
        self.url = f"http://127.0.0.1:{self.port}"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        """The process id while it runs."""
        return None if self._process is None else self._process.pid

    @property
    def pin(self) -> str:
        """The table's PIN (from its journal)."""
        journal = Journal.existing(journal_path(self.state))
        try:
            return journal.pin()
        finally:
            journal.close()

    def start(self) -> ServedTable:
        """Start serving; returns once the process says it is up (see :func:`start_serving`)."""
        command = [sys.executable, "-m", "dicetable", "serve", "--state", str(self.state),
                   "--host", "127.0.0.1", "--port", str(self.port),
                   "--max-streams", str(self.max_streams), *self.args]
        env = {**os.environ, **self.env}
        # (a function run between fork and exec may deadlock in a process with threads, as a
        # test's with a browser: only where there is a limit to set)
        limit = self._limit if self.file_size_limit is not None else None
        if self.log is None:
            self._process = start_serving(command, env=env, preexec_fn=limit)
        else:
            with self.log.open("ab") as output:
                self._process = start_serving(command, output=output, env=env,
                                              preexec_fn=limit)
        return self

    def _limit(self) -> None:
        assert self.file_size_limit is not None
        resource.setrlimit(resource.RLIMIT_FSIZE, (self.file_size_limit, self.file_size_limit))

    def stop(self, *, kill: bool = False) -> None:
        """Stop the process: SIGTERM (a clean stop) or SIGKILL (a power cut)."""
        if self._process is None:
            return
        self._process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None

    def __enter__(self) -> ServedTable:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()
