"""``dicetable serve`` as a child process on a free local port: what the benchmark and the
end-to-end tests run, exactly as a table runs it (and restart, or kill, mid-game)."""

from __future__ import annotations

import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from device.journal import Journal
from device.state_dir import journal_path

START_TIMEOUT_S = 20.0


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServedTable:
    """A ``dicetable serve`` child process with its own state folder and port."""

    def __init__(self, state: Path, *, port: int | None = None, max_streams: int = 40,
                 args: Sequence[str] = (), log: Path | None = None,
                 file_size_limit: int | None = None) -> None:
        self.state = state
        self.port = port or free_port()
        self.max_streams = max_streams
        self.args = tuple(args)
        """More options of ``dicetable serve`` (e.g. ``--camera FOLDER``)."""
        self.log = log
        """Where the process's output goes (appended); None: nowhere."""
        self.file_size_limit = file_size_limit
        """The largest file the process may write (RLIMIT_FSIZE, as a disk about to fill)."""
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
        """Start serving; returns once the port takes connections."""
        command = [sys.executable, "-m", "dicetable", "serve", "--state", str(self.state),
                   "--host", "127.0.0.1", "--port", str(self.port),
                   "--max-streams", str(self.max_streams), *self.args]
        output = subprocess.DEVNULL if self.log is None else self.log.open("ab")
        self._process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT,
                                         preexec_fn=self._limit)
        if self.log is not None:
            output.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"dicetable serve exited with {self._process.returncode}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"dicetable serve did not listen on port {self.port}")

    def _limit(self) -> None:
        if self.file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE,
                               (self.file_size_limit, self.file_size_limit))

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
