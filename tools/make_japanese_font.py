"""Generate firmware/gfx/japanese12.bin, the handheld's Japanese bitmap font, from its source.

    .venv/bin/python tools/make_japanese_font.py            # write the data file
    .venv/bin/python tools/make_japanese_font.py --check    # exit 1 if it differs from the source

Source: the Shinonome ("東雲") 12-dot Gothic font, `shnmk12.pcf.gz`, as Debian's package
`xfonts-shinonome` installs it (/usr/share/fonts/X11/misc/; `apt-get install xfonts-shinonome`).
Upstream: the /efont/ project, http://openlab.ring.gr.jp/efont/shinonome/ (Yasuyuki Furukawa
and the /efont/ Project, 2001-2004).
Licence: public domain. The authors release all font data into the public domain and, as
Japanese law allows no waiver of copyright, declare that they do not exercise it (Debian's
copyright file for the package quotes the statement); free to modify, convert, embed and
redistribute.

What is taken: every glyph of the font (the whole JIS X 0208 set: kana, small kana, the long
mark, Japanese punctuation, full-width forms, Greek/Cyrillic, box drawing, level 1 and level 2
kanji). JIS codes become Unicode through Python's own codecs (EUC-JP and Windows-932, which
differ on six cells such as 〜/～; both spellings are kept), plus the em dash for the JIS
horizontal bar. The PCF is read with `pcffont` (a dev-time dependency only: the firmware reads
the generated file, never a font).
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware.gfx import japanese  # noqa: E402

SOURCE = Path("/usr/share/fonts/X11/misc/shnmk12.pcf.gz")
TARGET = ROOT / "firmware" / "gfx" / japanese.DATA_FILE

# Unicode spellings the codecs do not produce for a JIS cell, mapped to the cell's glyph.
# JIS X 0208 has no full-width straight quotes; the primes (′ ″) are their closest shapes.
EXTRA_ALIASES = {
    "\u2014": 0x213D,  # EM DASH -> JIS horizontal bar (U+2015)
    "\uff02": 0x216D,  # FULLWIDTH QUOTATION MARK -> double prime
    "\uff07": 0x216C,  # FULLWIDTH APOSTROPHE -> prime
}


def _jis_to_sjis(code: int) -> bytes:
    row, col = code >> 8, code & 0xFF
    first = ((row + 1) >> 1) + (0x70 if row <= 0x5E else 0xB0)
    second = col + (0x1F if row & 1 else 0x7E)
    if row & 1 and second >= 0x7F:
        second += 1
    return bytes([first, second])


def unicode_names(code: int) -> set[str]:
    """The Unicode characters one JIS X 0208 cell stands for."""
    names = set()
    for codec, raw in (
        ("euc_jp", bytes([code >> 8 | 0x80, code & 0xFF | 0x80])),
        ("cp932", _jis_to_sjis(code)),
    ):
        try:
            names.add(raw.decode(codec))
        except UnicodeDecodeError:
            continue
    return {ch for ch in names if len(ch) == 1}


def read_source(path: Path = SOURCE) -> dict[str, tuple[int, ...]]:
    """Character -> 12 row bitmasks, from the Shinonome PCF."""
    from pcffont import PcfFont

    font = PcfFont.parse(gzip.decompress(path.read_bytes()))
    if font.properties.get("CHARSET_REGISTRY") != "JISX0208.1990":
        raise SystemExit(f"{path}: not a JIS X 0208 font")
    by_code: dict[int, tuple[int, ...]] = {}
    for code, index in font.bdf_encodings.items():
        metric = font.metrics[index]
        if (metric.character_width, metric.ascent, metric.descent) != (
            japanese.CELL,
            japanese.ASCENT,
            japanese.CELL - japanese.ASCENT,
        ):
            raise SystemExit(f"{path}: glyph {code:04X} is not a 12x12 cell")
        rows = []
        for row in font.bitmaps[index]:
            bits = 0
            for x in range(japanese.CELL):
                bits = bits << 1 | (1 if x < len(row) and row[x] else 0)
            rows.append(bits)
        by_code[code] = tuple(rows)
    glyphs: dict[str, tuple[int, ...]] = {}
    for code, shape in by_code.items():
        for ch in unicode_names(code):
            glyphs[ch] = shape
    for ch, code in EXTRA_ALIASES.items():
        glyphs[ch] = by_code[code]
    return glyphs


def build(path: Path = SOURCE) -> bytes:
    """The uncompressed data file body generated from the source font."""
    return japanese.pack(read_source(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="the shnmk12.pcf.gz")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        print(
            f"make_japanese_font: {args.source} not found (apt-get install xfonts-shinonome)",
            file=sys.stderr,
        )
        return 2
    body = build(args.source)
    if args.check:
        same = japanese.shipped_body() == body
        print("make_japanese_font: shipped file " + ("matches" if same else "DIFFERS"))
        return 0 if same else 1
    TARGET.write_bytes(japanese.compress(body))
    print(
        f"make_japanese_font: wrote {TARGET.relative_to(ROOT)} "
        f"({TARGET.stat().st_size} bytes, {len(body)} uncompressed)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
