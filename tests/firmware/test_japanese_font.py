"""The shipped Japanese bitmap font (firmware/gfx/japanese.py, japanese12.bin): its coverage,
its source, its file format, and how it sits beside the pixel font."""

from __future__ import annotations

import ast
import importlib.util
import sys
import unicodedata
from pathlib import Path

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.gfx import japanese, text, widgets
from firmware.gfx import palette as pal

ROOT = Path(__file__).resolve().parents[2]


def _jis(row: int, col: int) -> str:
    """The character of JIS X 0208 cell (row, col), 1-based, through the standard codec."""
    return bytes([row + 0xA0, col + 0xA0]).decode("euc_jp")


def _cells(rows: range) -> list[str]:
    out = []
    for row in rows:
        for col in range(1, 95):
            try:
                out.append(_jis(row, col))
            except UnicodeDecodeError:
                continue  # an unassigned cell
    return out


def test_every_kana_mark_and_full_width_form_is_in_the_font():
    hiragana = [chr(c) for c in range(0x3041, 0x3094)]  # ぁ..ゔ
    katakana = [chr(c) for c in range(0x30A1, 0x30F7)]  # ァ..ヶ
    marks = list("ー、。「」『』・…（）！？〜～゛゜ヽヾゝゞ々〆　")
    full_width = [chr(c) for c in range(0xFF01, 0xFF5F)]  # ！..～
    chars = hiragana + katakana + marks + full_width
    missing = [ch for ch in chars if not japanese.has_glyph(ch)]
    assert missing == []


def test_every_jis_level_1_kanji_and_non_kanji_cell_is_in_the_font():
    non_kanji = _cells(range(1, 9))
    level_1 = _cells(range(16, 48))
    assert len(level_1) == 2965  # JIS X 0208's level 1, as the codec knows it
    missing = [ch for ch in non_kanji + level_1 if not japanese.has_glyph(ch)]
    assert missing == []


def test_glyphs_are_distinct_shapes_within_the_cell():
    chars = ["あ", "ア", "漢", "語", "ー", "。"]
    shapes = [japanese.glyph_rows(ch) for ch in chars]
    assert len(set(shapes)) == len(chars)
    for rows in shapes:
        assert rows is not None and len(rows) == japanese.CELL
        assert any(rows) and all(0 <= r < 1 << japanese.CELL for r in rows)
    assert japanese.glyph_rows("A") is None  # Latin stays the pixel font's


def test_shipped_file_is_regenerated_exactly_from_the_shinonome_source():
    source = Path("/usr/share/fonts/X11/misc/shnmk12.pcf.gz")
    if not source.is_file():
        pytest.skip("xfonts-shinonome is not installed (apt-get install xfonts-shinonome)")
    if importlib.util.find_spec("pcffont") is None:
        pytest.skip("pcffont (a dev dependency) is not installed")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_japanese_font
    finally:
        sys.path.remove(str(ROOT / "tools"))
    body = make_japanese_font.build(source)
    assert body == japanese.shipped_body()
    shipped = (ROOT / "firmware" / "gfx" / japanese.DATA_FILE).read_bytes()
    assert japanese.compress(body) == shipped


_rows = st.tuples(*[st.integers(0, (1 << japanese.CELL) - 1)] * japanese.CELL)
_chars = st.characters(min_codepoint=0x3000, max_codepoint=0xFFEF, exclude_categories=["Cs"])


@given(st.dictionaries(_chars, _rows, min_size=1, max_size=40))
def test_pack_and_unpack_round_trip(glyphs):
    unpacked = japanese.unpack(japanese.pack(glyphs))
    assert set(unpacked) == set(glyphs)
    for ch, rows in glyphs.items():
        bits = int.from_bytes(unpacked[ch], "big")
        back = tuple(bits >> (12 * (11 - y)) & 0xFFF for y in range(12))
        assert back == rows


@given(st.binary(max_size=64))
def test_damaged_data_is_a_clear_error(junk):
    good = japanese.pack({"あ": (1,) * 12})
    for data in (junk, good[:-1], good + b"x", b"XXXX" + good[4:]):
        with pytest.raises(japanese.FontDataError):
            japanese.unpack(data)


def test_latin_and_japanese_share_one_baseline():
    assert text.baseline("Ann") == 7 and text.baseline("アン 7/10") == 10
    line = text.render("Hあ", (255, 255, 255))
    assert line.get_height() == japanese.CELL
    ink_rows = [
        y for y in range(line.get_height()) if any(line.get_at((x, y))[3] for x in range(5))
    ]
    # H's seven rows end on the row above the baseline, as in a Latin-only line.
    assert ink_rows == list(range(3, 10))
    assert text.size("Hあ") == (6 + 12, 12)


def test_title_bar_keeps_clear_rows_above_its_line():
    for title in ("せってい", "Settings", "ぎゃく語gj"):
        surf = pygame.Surface((256, 32))
        widgets.title_bar(surf, title, "7/10")
        row = {tuple(surf.get_at((x, 14)))[:3] for x in range(256)}
        assert row == {pal.PANEL_LO}, title


def _shown_strings(path: Path) -> list[tuple[int, str]]:
    """String constants of a module that are not docstrings (what it may put on screen)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_no_shipped_string_has_a_missing_glyph():
    """Every string constant in the firmware and the games, English and Japanese alike,
    is drawn with real glyphs (no box), so a new text with a new character fails here."""
    problems = []
    for package in ("firmware", "games"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, value in _shown_strings(path):
                # Control and format characters (newlines, a BOM) are never drawn.
                missing = {
                    ch for ch in text.missing_glyphs(value) if unicodedata.category(ch)[0] != "C"
                }
                if missing:
                    where = f"{path.relative_to(ROOT)}:{line}"
                    problems.append(f"{where} {''.join(sorted(missing))!r} in {value[:40]!r}")
    assert problems == []
