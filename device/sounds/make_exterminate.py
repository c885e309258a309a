"""Makes ``exterminate.wav``, the Dalek's voice that a shout plays in Dalek Dice.

The words are spoken by eSpeak NG (a free speech synthesiser: ``apt install espeak-ng``), then
made a Dalek's: ring-modulated by a 30 Hz sine (the BBC Radiophonic Workshop's recipe),
clipped a little, and written as 16 kHz mono 16-bit WAV (about 60 KB). The file ships beside
this script, so a Pi needs neither eSpeak nor this script::

    python -m device.sounds.make_exterminate
"""

from __future__ import annotations

import io
import subprocess
import wave
from pathlib import Path

import numpy as np

WORDS = "Ex-ter-min-ate!"
RATE = 16000
RING_HZ = 30.0
OUT = Path(__file__).with_name("exterminate.wav")


def speak(words: str) -> tuple[np.ndarray, int]:
    """``words`` spoken by eSpeak NG (a low, slow, level male voice): samples and rate."""
    done = subprocess.run(["espeak-ng", "-v", "en+m3", "-s", "115", "-p", "35", "-a", "180",
                           "--stdout", words], capture_output=True, check=True)
    with wave.open(io.BytesIO(done.stdout)) as spoken:
        rate = spoken.getframerate()
        samples = np.frombuffer(spoken.readframes(spoken.getnframes()), np.int16)
    return samples.astype(np.float64) / 32768, rate


def dalek(samples: np.ndarray, rate: int) -> np.ndarray:
    """Ring modulation, a little clipping, and the rate of the shipped file."""
    t = np.arange(len(samples)) / rate
    ringed = samples * np.sin(2 * np.pi * RING_HZ * t)
    ringed = np.tanh(3 * ringed / max(1e-9, float(np.abs(ringed).max())))
    positions = np.arange(0, len(ringed) - 1, rate / RATE)
    resampled = np.interp(positions, np.arange(len(ringed)), ringed)
    return np.asarray(0.9 * resampled / max(1e-9, float(np.abs(resampled).max())))


def write(samples: np.ndarray, path: Path) -> None:
    """Write ``samples`` (-1..1) as 16-bit mono WAV at :data:`RATE`."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes((samples * 32767).astype("<i2").tobytes())


if __name__ == "__main__":
    write(dalek(*speak(WORDS)), OUT)
    print(f"wrote {OUT}")
