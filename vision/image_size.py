"""An image's size from its header, before decoding it: a small compressed file can decode to
gigabytes (a PNG of 20000×20000 black pixels is 0.4 MB), so the size is checked first.

PNG, JPEG, WebP, TIFF, BMP and GIF headers are read (the formats of a camera's folder,
vision.picture_formats); for another format the size is not known (None).

>>> import struct
>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I4sII", 13, b"IHDR", 640, 480)
>>> image_size(png)
(640, 480)

A TIFF's size is its first image's (the one decoded), its width and length tags a SHORT or a
LONG, in either byte order:

>>> ifd = struct.pack("<HHHIHxxHHII", 2, 256, 3, 1, 8000, 257, 4, 1, 7000)
>>> image_size(b"II*\\x00" + struct.pack("<I", 8) + ifd + b"\\x00" * 4)
(8000, 7000)
>>> ifd = struct.pack(">HHHIIHHIHxx", 2, 256, 4, 1, 640, 257, 3, 1, 480)
>>> image_size(b"MM\\x00*" + struct.pack(">I", 8) + ifd + b"\\x00" * 4)
(640, 480)

A BMP's height is negative where its rows are stored top down:

>>> info = struct.pack("<IiiHHI", 40, 8000, -7000, 1, 24, 0)
>>> image_size(b"BM" + bytes(12) + info + bytes(20))
(8000, 7000)

A BMP is measured as OpenCV reads it, whatever its planes or its header's exact size (36 bytes
or more is an info header), so that no BMP OpenCV would decode goes unmeasured; a file that
starts with "BM" whose header OpenCV refuses (it is no BMP) has no size known:

>>> image_size(b"BM" + bytes(12) + struct.pack("<IiiHHI", 41, 8000, 7000, 0, 8, 1))
(8000, 7000)
>>> image_size(b"BM" + bytes(24)) is None
True
>>> image_size(b"BM" + bytes(range(37, 237))) is None
True

A GIF's size is its logical screen's, the picture OpenCV decodes (its frames are drawn on
it):

>>> image_size(b"GIF89a" + struct.pack("<HH", 8000, 7000) + bytes(3))
(8000, 7000)
>>> image_size(b"GIF89a") is None
True
"""

from __future__ import annotations

import struct

MAX_PIXELS = 50_000_000
"""The largest image read (50 megapixels: past any phone's photo, far under a bomb's)."""
MAX_GIF_PIXELS = 10_000_000
"""The largest GIF read (10 megapixels): OpenCV holds some 12 bytes a pixel as it decodes a
GIF, 3 as a PNG. Peak resident over the interpreter as one is read to a camera's frame
(vision.picture_file, FRAME_PIXELS), each in a fresh process (OpenCV 5.1): a GIF of 3650×2735
118 MB, of random pixels (14 MB of GIF) 129 MB; of 4000×3000 141 MB (as PNG 46 MB), of random
pixels 155 MB; of 7000×7000 (1.2 MB) 565 MB (as PNG 154 MB). So the reader stays under its
150 MB, and one small GIF never pushes a Pi of 1 GB out of memory."""
TOO_LARGE = "too large to read ({width}×{height} pixels; at most {most} megapixels)"
"""The words of an image past :func:`most_pixels` (values: vision.picture_file.too_large):
every command's, and the table camera's after the picture's name (``camera.why.picture_too_large``
in device/camera_errors.py, which the score pad's catalogs translate)."""

_PNG = b"\x89PNG\r\n\x1a\n"
_TIFF_WIDTH, _TIFF_LENGTH = 256, 257  # the tags of a TIFF's ImageWidth and ImageLength
_TIFF_NUMBER = {3: "H", 4: "I"}  # a TIFF value's type (SHORT, LONG): its struct format
_BMP_CORE = 12  # the size of OS/2's BITMAPCOREHEADER: its width and height unsigned 16-bit
_BMP_INFO_LEAST = 36  # OpenCV reads any header of 36 bytes or more as BITMAPINFOHEADER's
_BMP_BITS = {1, 4, 8, 16, 24, 32}  # the bits a pixel OpenCV decodes
_BMP_CODES = {0, 1, 2, 3}  # uncompressed, RLE8, RLE4, bit fields
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from the header of a PNG, JPEG, WebP, TIFF, BMP or GIF image; None
    otherwise."""
    if data.startswith(_PNG) and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(data)
    if data.startswith(b"BM"):
        return _bmp_size(data)
    if _is_gif(data) and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    return None


def most_pixels(data: bytes) -> int:
    """How many pixels at most the image ``data`` holds may have to be read:
    :data:`MAX_GIF_PIXELS` for a GIF, :data:`MAX_PIXELS` for any other.

    >>> most_pixels(b"GIF89a" + bytes(7)), most_pixels(b"\\xff\\xd8\\xff")
    (10000000, 50000000)
    """
    return MAX_GIF_PIXELS if _is_gif(data) else MAX_PIXELS


def _is_gif(data: bytes) -> bool:
    return data[:6] in (b"GIF87a", b"GIF89a")


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:  # bytes before a marker, which libjpeg passes over too
            at = data.find(b"\xff", at)
            if at < 0:
                return None
            continue
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2:at + 4])
        if marker in _JPEG_SOF:
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return int(width), int(height)
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data.startswith(b"II") else ">"
    if len(data) < 8:
        return None
    (at,) = struct.unpack(order + "I", data[4:8])
    if at + 2 > len(data):
        return None
    (count,) = struct.unpack(order + "H", data[at:at + 2])
    found: dict[int, int] = {}
    for entry in range(at + 2, min(at + 2 + 12 * count, len(data) - 11), 12):
        tag, kind = struct.unpack(order + "HH", data[entry:entry + 4])
        if tag in (_TIFF_WIDTH, _TIFF_LENGTH) and kind in _TIFF_NUMBER:
            (found[tag],) = struct.unpack_from(order + _TIFF_NUMBER[kind], data, entry + 8)
    if _TIFF_WIDTH in found and _TIFF_LENGTH in found:
        return found[_TIFF_WIDTH], found[_TIFF_LENGTH]
    return None


def _bmp_size(data: bytes) -> tuple[int, int] | None:
    """A BMP's size as OpenCV reads its header (its planes are not looked at; a header of 36
    bytes or more is an info header), where its bits a pixel and compression are ones OpenCV
    decodes; None where OpenCV would refuse it too."""
    if len(data) < 34:
        return None
    (header,) = struct.unpack("<I", data[14:18])
    if header == _BMP_CORE:
        width, height, _planes, bits = struct.unpack("<HHHH", data[18:26])
        compression = 0
    elif header >= _BMP_INFO_LEAST:
        width, height, _planes, bits, compression = struct.unpack("<iiHHI", data[18:34])
    else:
        return None
    if width <= 0 or height == 0 or bits not in _BMP_BITS or compression not in _BMP_CODES:
        return None
    return int(width), abs(int(height))
