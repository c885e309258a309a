"""A raw .mjpeg: JPEG pictures one after another, as a camera streams them, with no container
that counts them or says where each is. Its frames are found by their JPEG markers, reading the
file a chunk at a time (counting them, or going to one, costs a scan of its bytes, not a
decode of each frame), and only a frame shown is decoded.

:class:`JpegStream` is read with the calls :class:`device.camera.VideoSource` makes of a
``cv2.VideoCapture``, which decodes every frame on the way to one: shown before, 500 frames
of 720p (58 MB) went to their last in 2.3 to 2.8 s here (about 50 s on a Raspberry Pi), and
3000 in 12 to 30 s; found by their markers, in 0.14 to 0.22 s and 0.8 to 0.9 s.
"""

from __future__ import annotations

import os
import re
from array import array
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from device.camera_errors import CameraError
from vision.picture_file import decoded

Image = NDArray[np.uint8]
SOI = b"\xff\xd8\xff"  # a JPEG's start, and the marker after it
EOI = b"\xff\xd9"  # a JPEG's end
START = re.compile(re.escape(SOI))
SCAN_END = re.compile(b"\xff[\xc4\xcc\xd8-\xdd\xe0-\xef\xfe]")  # what ends a scan: its JPEG's
#                   EOI, a segment before its next scan (DHT, DAC, SOS, DQT, DNL, DRI, APPn,
#                   COM), or the next JPEG's SOI where it was cut short, as FFmpeg's parser
#                   splits them (entropy-coded data holds none: an FF there is followed by 00,
#                   a restart marker or another FF)
LONGEST = 3  # bytes of the longest of these
SOS = 0xDA  # the start of a JPEG's scan: its entropy-coded data follows
STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})  # markers with no length after them
NOT_IN_HEADERS = frozenset({0x00, 0xD8})  # an FF followed by these is no segment
CHUNK = 1 << 20  # bytes read at a time
RATE = 25.0  # frames a second of a raw .mjpeg, which tells none: FFmpeg's, as OpenCV said


def is_jpeg_stream(path: Path) -> bool:
    """Whether the file at ``path`` starts as a JPEG does (a raw .mjpeg, whatever its name)."""
    try:
        with path.open("rb") as file:
            return file.read(len(SOI)) == SOI
    except OSError:
        return False


class _Bytes:
    """A file's bytes from ``start`` on, read a chunk at a time by ``read`` (a count and an
    offset) as they are asked for, always further on; those before the place last asked for
    are let go."""

    def __init__(self, read: Callable[[int, int], bytes], start: int) -> None:
        self._read = read
        self._base = start  # the file's offset of _data[0]
        self._data = bytearray()

    def take(self, at: int, count: int) -> bytes:
        """The ``count`` bytes from offset ``at`` (fewer where the file ends first)."""
        while at + count > self._base + len(self._data):
            if not self._more(at):
                break
        return bytes(self._data[at - self._base:at - self._base + count])

    def find(self, wanted: re.Pattern[bytes], at: int) -> tuple[int, bytes] | None:
        """The offset and bytes of ``wanted`` (at most LONGEST bytes) first found from ``at``
        on (None: the file ends first)."""
        while (found := wanted.search(self._data, at - self._base)) is None:
            at = max(at, self._base + len(self._data) - LONGEST + 1)
            if not self._more(at):
                return None
        return self._base + found.start(), found.group()

    def _more(self, keep: int) -> bool:
        """Let go of the bytes before offset ``keep`` and read the next chunk (False: none)."""
        if keep > self._base:
            del self._data[:keep - self._base]
            self._base = keep
        chunk = self._read(CHUNK, self._base + len(self._data))
        self._data += chunk
        return bool(chunk)


class JpegStream:
    """The frames of the raw .mjpeg at ``path``, found as they are asked for (each JPEG from
    its SOI to its EOI; bytes between two are passed over, as FFmpeg has them, and so is a
    JPEG cut short, the next one's SOI or the file's end coming before its EOI: FFmpeg plays
    one cut short in its picture with what it lacks filled from the frame before). ``found``
    is told the number of each frame found while going to a frame further on or counting
    them (skipping), not while reading on."""

    def __init__(self, path: Path, found: Callable[[int], None] | None = None) -> None:
        self._path = path
        try:
            self._fd: int | None = os.open(path, os.O_RDONLY)
        except OSError:
            self._fd = None
        self._found = found
        self._starts = array("q")  # each frame's first byte (8 bytes a frame: a day's
        self._ends = array("q")  # recording, 2 million frames, holds 32 MB) and the one after
        self._after = 0  # where the next frame is looked for
        self._bytes: _Bytes | None = None
        self._position = 0  # the frame read next
        self._image: Image | None = None  # the frame decoded last
        self._undecodable = range(0)  # a run of frames found that cannot be decoded (each
        #                               is tried once: frames one after another are walked
        #                               back over once, not once a frame)

    def isOpened(self) -> bool:  # (named as cv2.VideoCapture's)
        """Whether the file could be opened."""
        return self._fd is not None

    def get(self, prop: int) -> float:
        """The frame read next (CAP_PROP_POS_FRAMES), the frames it holds (CAP_PROP_FRAME_COUNT:
        all found), or its rate (CAP_PROP_FPS); 0 for anything else."""
        if prop == cv2.CAP_PROP_POS_FRAMES:
            return float(self._position)
        if prop == cv2.CAP_PROP_FRAME_COUNT:
            self._find(-1, self._found)
            return float(len(self._starts))
        return RATE if prop == cv2.CAP_PROP_FPS else 0.0

    def set(self, prop: int, value: float) -> bool:
        """Read frame ``value`` next (CAP_PROP_POS_FRAMES; past the last: after the last)."""
        if prop != cv2.CAP_PROP_POS_FRAMES:
            return False
        wanted = max(0, int(value))
        self._position = wanted if self._find(wanted, self._found) else len(self._starts)
        self._image = None  # (decoded before the frames skipped)
        return True

    def grab(self) -> bool:
        """Go past the next frame, not decoded (False: there is none)."""
        if not self._find(self._position, None):
            return False
        self._position += 1
        return True

    def retrieve(self) -> tuple[bool, Image | None]:
        """The frame gone past last, decoded (one that cannot be: the frame decoded before it,
        as FFmpeg leaves it out; gone to with none decoded before it, the nearest before it
        that can be)."""
        if self._fd is None or self._position == 0:
            return False, None
        number = self._position - 1
        image = self._decoded(number)
        while image is None and self._image is None and self._undecodable.start > 0:
            number = self._undecodable.start - 1  # (it and the frames after it cannot be)
            image = self._decoded(number)
        self._image = self._image if image is None else image
        return self._image is not None, self._image

    def read(self) -> tuple[bool, Image | None]:
        """The next frame, decoded (False: there is none)."""
        return self.retrieve() if self.grab() else (False, None)

    def release(self) -> None:
        """Close the file."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _decoded(self, number: int) -> Image | None:
        """Frame ``number`` (found) decoded, as stored (None: it cannot be, then noted in the
        run of frames that cannot be, where it is next to it, else as a run of its own)."""
        if number in self._undecodable:
            return None
        start, end = self._starts[number], self._ends[number]
        image = decoded(self._read(end - start, start), turned=False)
        if image is None:
            run = self._undecodable
            if number == run.stop and run:
                self._undecodable = range(run.start, number + 1)
            elif number == run.start - 1:
                self._undecodable = range(number, run.stop)
            else:
                self._undecodable = range(number, number + 1)
        return image

    def _read(self, count: int, at: int) -> bytes:
        """The ``count`` bytes of the file from offset ``at`` (fewer where it ends first);
        CameraError where they cannot be read (a USB stick pulled out)."""
        assert self._fd is not None
        try:
            return os.pread(self._fd, count, at)
        except OSError:
            raise CameraError("camera.why.video_unreadable", path=self._path) from None

    def _find(self, number: int, found: Callable[[int], None] | None) -> bool:
        """Find the frames up to frame ``number`` (-1: all), telling ``found`` each; whether
        that frame is there."""
        while number < 0 or len(self._starts) <= number:
            if self._fd is None:
                return False
            if self._bytes is None:
                self._bytes = _Bytes(self._read, self._after)
            soi = self._bytes.find(START, self._after)
            start = None if soi is None else soi[0]
            ended = None if start is None else self._end(self._bytes, start)
            if start is None or ended is None:  # the end (looked for again from there later)
                self._bytes = None
                return number < 0
            end, whole = ended
            if not whole:  # (looked for again from there on: the bytes read let go)
                self._after, self._bytes = end, None
                continue
            self._starts.append(start)
            self._ends.append(end)
            self._after = end
            if found is not None:
                found(len(self._starts) - 1)
        return True

    @staticmethod
    def _end(data: _Bytes, start: int) -> tuple[int, bool] | None:
        """The offset after the EOI of the JPEG whose SOI is at ``start``, and True: its
        segments gone past by their lengths (an EXIF thumbnail, a JPEG of its own, is inside
        one, as may be another between the scans of a progressive JPEG), each scan up to the
        marker after it; None where the file ends before it; where it is no frame, the offset
        to look for the next from, and False (a segment that is none: after its SOI; an SOI
        after a scan: there)."""
        at = start + 2
        while True:
            segment = data.take(at, 4)  # its marker, and its length where it has one
            if len(segment) < 2:
                return None
            marker = segment[1]
            if segment[0] != 0xFF or marker in NOT_IN_HEADERS:
                return start + 2, False
            if marker == 0xFF:  # a fill byte
                at += 1
                continue
            if marker in STANDALONE:
                at += 2
                continue
            if marker == EOI[1]:  # (tables alone: a frame that will not decode)
                return at + 2, True
            if len(segment) < 4:
                return None
            length = segment[2] << 8 | segment[3]
            if length < 2:
                return start + 2, False
            if marker == SOS:
                scan_end = data.find(SCAN_END, at + 2 + length)
                if scan_end is None:
                    return None
                at = scan_end[0]
                if scan_end[1] == SOI[:2]:  # cut short: the next JPEG starts here
                    return at, False
                continue  # its EOI, or a segment before its next scan
            at += 2 + length
