"""The handheld's own Japanese bitmap font: 12x12 glyphs shipped in `japanese12.bin`.

Every unit draws Japanese the same way with nothing installed: the glyphs come from the
public-domain Shinonome 12-dot Gothic font (the whole JIS X 0208 set: kana, punctuation,
full-width forms, level 1 and 2 kanji), converted once by `tools/make_japanese_font.py`.

The file is zlib-compressed; inside, after a header, come the code points (sorted), the glyph
index of each (several code points may share a glyph, e.g. 〜 and ～) and the glyphs, each 12
rows of 12 bits packed into 18 bytes, row-major, most significant bit leftmost.
"""

from __future__ import annotations

import functools
import struct
import zlib
from collections.abc import Mapping
from importlib import resources

CELL = 12
ASCENT = 10  # rows above the baseline; the other two hold descenders (like the pixel font's)
GLYPH_BYTES = CELL * CELL // 8
DATA_FILE = "japanese12.bin"

_MAGIC = b"TFJP"
_VERSION = 1
_HEADER = struct.Struct("<4sBBBBHH")  # magic, version, cell w, cell h, ascent, codes, glyphs


class FontDataError(ValueError):
    """The shipped glyph file is damaged or of another format."""


def pack(glyphs: Mapping[str, tuple[int, ...]]) -> bytes:
    """The uncompressed file body for `glyphs` (character -> 12 row bitmasks)."""
    shapes: dict[tuple[int, ...], int] = {}
    codes = sorted(glyphs)
    index = []
    for ch in codes:
        rows = glyphs[ch]
        if len(rows) != CELL or any(r >> CELL for r in rows):
            raise ValueError(f"glyph U+{ord(ch):04X} is not {CELL}x{CELL}")
        index.append(shapes.setdefault(rows, len(shapes)))
    out = bytearray(_HEADER.pack(_MAGIC, _VERSION, CELL, CELL, ASCENT, len(codes), len(shapes)))
    out += struct.pack(f"<{len(codes)}H", *(ord(ch) for ch in codes))
    out += struct.pack(f"<{len(codes)}H", *index)
    for rows in shapes:
        bits = 0
        for row in rows:
            bits = bits << CELL | row
        out += bits.to_bytes(GLYPH_BYTES, "big")
    return bytes(out)


def compress(body: bytes) -> bytes:
    return zlib.compress(body, 9)


def unpack(body: bytes) -> dict[str, bytes]:
    """Character -> its 18 packed glyph bytes, from an uncompressed file body."""
    try:
        magic, version, w, h, ascent, n_codes, n_glyphs = _HEADER.unpack_from(body)
    except struct.error as exc:
        raise FontDataError("Japanese font data is truncated") from exc
    if (magic, version, w, h, ascent) != (_MAGIC, _VERSION, CELL, CELL, ASCENT):
        raise FontDataError("Japanese font data has an unknown format")
    at = _HEADER.size
    end = at + 4 * n_codes + GLYPH_BYTES * n_glyphs
    if len(body) != end:
        raise FontDataError("Japanese font data has the wrong length")
    codes = struct.unpack_from(f"<{n_codes}H", body, at)
    index = struct.unpack_from(f"<{n_codes}H", body, at + 2 * n_codes)
    base = at + 4 * n_codes
    out = {}
    for code, i in zip(codes, index, strict=True):
        if i >= n_glyphs:
            raise FontDataError("Japanese font data points past its glyphs")
        out[chr(code)] = body[base + i * GLYPH_BYTES : base + (i + 1) * GLYPH_BYTES]
    return out


def shipped_body() -> bytes:
    """The uncompressed body of the shipped data file."""
    data = resources.files("firmware.gfx").joinpath(DATA_FILE).read_bytes()
    try:
        return zlib.decompress(data)
    except zlib.error as exc:
        raise FontDataError(f"{DATA_FILE} is damaged: {exc}") from exc


@functools.cache
def _glyphs() -> dict[str, bytes]:
    return unpack(shipped_body())


def has_glyph(ch: str) -> bool:
    return ch in _glyphs()


def glyph_rows(ch: str) -> tuple[int, ...] | None:
    """The 12 rows of `ch` as 12-bit masks (MSB leftmost), or None when the font lacks it."""
    packed = _glyphs().get(ch)
    if packed is None:
        return None
    bits = int.from_bytes(packed, "big")
    mask = (1 << CELL) - 1
    return tuple(bits >> (CELL * (CELL - 1 - y)) & mask for y in range(CELL))


def characters() -> frozenset[str]:
    """Every character the font draws."""
    return frozenset(_glyphs())
