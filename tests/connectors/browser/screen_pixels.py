"""The colours a browser actually drew (a PNG screenshot), and their WCAG contrast.

A style's computed value says what was asked for; the pixels say what a person sees, with
box-shadows stacked, borders and the page's own colour as they fell. Chromium's screenshots are
8-bit RGB or RGBA, not interlaced: that much PNG is read here, with zlib alone.
"""

from __future__ import annotations

import struct
import zlib

RGB = tuple[int, int, int]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {2: 3, 6: 4}  # PNG colour type -> bytes per pixel (RGB, RGBA)


def png_pixels(data: bytes) -> list[list[RGB]]:
    """The rows of an 8-bit, non-interlaced RGB(A) PNG, each a list of (r, g, b)."""
    assert data.startswith(_SIGNATURE), "not a PNG"
    at, header, packed = len(_SIGNATURE), b"", b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        at += 12 + length  # length, type, data, CRC
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            packed += body
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in _CHANNELS and interlace == 0, (depth, colour, interlace)
    size = _CHANNELS[colour]
    raw, stride = zlib.decompress(packed), width * size
    rows: list[list[RGB]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)  # each row opens with its filter's byte
        filtered = bytearray(raw[start + 1 : start + 1 + stride])
        row = _unfiltered(raw[start], filtered, previous, size)
        rows.append([(row[x], row[x + 1], row[x + 2]) for x in range(0, stride, size)])
        previous = row
    return rows


def _unfiltered(kind: int, row: bytearray, above: bytearray, size: int) -> bytearray:
    # PNG's five row filters, each undone byte by byte from the left (RFC 2083, 6)
    for x in range(len(row)):
        left = row[x - size] if x >= size else 0
        up, corner = above[x], above[x - size] if x >= size else 0
        if kind == 1:
            row[x] = (row[x] + left) & 0xFF
        elif kind == 2:
            row[x] = (row[x] + up) & 0xFF
        elif kind == 3:
            row[x] = (row[x] + (left + up) // 2) & 0xFF
        elif kind == 4:
            row[x] = (row[x] + _paeth(left, up, corner)) & 0xFF
    return row


def _paeth(left: int, up: int, corner: int) -> int:
    guess = left + up - corner
    near_left, near_up, near_corner = abs(guess - left), abs(guess - up), abs(guess - corner)
    if near_left <= near_up and near_left <= near_corner:
        return left
    return up if near_up <= near_corner else corner


def luminance(colour: RGB) -> float:
    """WCAG relative luminance."""
    linear = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        for c in (v / 255 for v in colour)
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def hex_colour(colour: str) -> RGB:
    """``#rrggbb`` as (r, g, b)."""
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
