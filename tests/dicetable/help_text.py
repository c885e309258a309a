"""What a command's ``--help`` says, for tests that hold it to what the command does."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterable

from dicetable.cli import main


def option_help(command: str, option: str) -> str:
    """What ``dicetable COMMAND --help`` says of ``option``, its lines joined."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([command, "--help"])
    words = " ".join(out.getvalue().split())
    return words.split(f" {option} ", 1)[1].split(" --", 1)[0]


def unnamed(keys: Iterable[str], said: str) -> list[str]:
    """The ``keys`` that ``said`` does not name as a word."""
    words = set(re.findall(r"\w+", said))
    return [key for key in keys if key not in words]
