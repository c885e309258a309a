"""What the host must be told at start (a damaged journal, a game that could not be resumed):
a message key of the score pad's catalogs (``web/i18n``) and its params. ``dicetable serve``
prints it in English; the pad shows it in each phone's language until the host dismisses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Notice:
    """One message for the host: ``key`` (``notice.…``) and the values of its fields."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)
    guest: Notice | None = None
    """What a phone without the PIN reads instead, where the values are the host's alone (a
    file's path and settings); None: every phone reads this."""
