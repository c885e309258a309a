"""The Dalek's voice: "Exterminate!" (``device/sounds/exterminate.wav``, made by
``device/sounds/make_exterminate.py``), played with the system's player when there is a
sound card to play it on.

>>> voice = Voice(player=None)
>>> voice.available, voice.say()
(False, False)
"""

from __future__ import annotations

import shutil
import subprocess
from importlib.resources import files
from pathlib import Path

CARDS = Path("/proc/asound/cards")
SOUND = Path(str(files("device").joinpath("sounds", "exterminate.wav")))


def has_sound_card(cards: Path = CARDS) -> bool:
    """Whether the machine has a sound card (ALSA lists one)."""
    try:
        listed = cards.read_text("utf-8", errors="replace")
    except OSError:
        return False
    return bool(listed.strip()) and "no soundcards" not in listed


class Voice:
    """Plays :data:`SOUND` with ``player`` (ALSA's ``aplay``, looked up on the PATH) in the
    background; nothing when there is no player or no sound card. One at a time: a shout
    while it speaks is not queued."""

    def __init__(self, *, player: str | None = "aplay", cards: Path = CARDS,
                 sound: Path = SOUND) -> None:
        self.player = None if player is None else shutil.which(player)
        self.sound = sound
        self.available = player is not None and has_sound_card(cards)
        self._playing: subprocess.Popen[bytes] | None = None

    def say(self) -> bool:
        """Start saying it; True if it started."""
        if not self.available or self.player is None:
            return False
        if self._playing is not None and self._playing.poll() is None:
            return False
        try:
            self._playing = subprocess.Popen([self.player, "-q", str(self.sound)],
                                             stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL)
        except OSError:
            return False
        return True
