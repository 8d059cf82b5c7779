import pygame

from firmware.gfx import text
from firmware.gfx.glyphs import GLYPH_H, glyph_rows, has_glyph


def test_every_printable_ascii_has_a_distinct_glyph():
    chars = [chr(c) for c in range(33, 127)]
    assert all(has_glyph(c) for c in chars)
    shapes = {glyph_rows(c) for c in chars}
    assert len(shapes) == len(chars)


def test_rendered_width_and_pixels():
    w, h = text.size("Hi")
    assert (w, h) == (11, GLYPH_H)
    surf = pygame.Surface((20, 12))
    surf.fill((0, 0, 0))
    text.draw(surf, "I", (0, 0), (255, 0, 0))
    assert surf.get_at((2, 0))[:3] == (255, 0, 0)  # the top bar of I
    assert surf.get_at((0, 3))[:3] == (0, 0, 0)


def test_wrap_fits_width():
    lines = text.wrap("the quick brown fox jumps over the lazy dog " * 3, 100)
    assert len(lines) > 1
    assert all(text.size(line)[0] <= 100 for line in lines)


def test_wrap_never_starts_a_line_with_closing_punctuation():
    sentence = "うかんでいくあわをタッチしてわろう。つづけてわるとコンボ！みっつにがすとおわり。"
    for width in range(30, 200, 7):
        lines = text.wrap(sentence, width)
        assert "".join(lines) == sentence
        assert all(line[0] not in "。、！" for line in lines if line)


def test_wrap_keeps_japanese_lines_inside_their_width():
    """Issue 34: a "。" that may not start a line went onto the end of a full one, so Region
    Select's message ran out of its box; now the character before it goes down with it."""
    sentence = "こうさせずに ふれている(しるしの ところ)。つづけて まじわっている。"
    for width in range(40, 240, 3):
        lines = text.wrap(sentence, width)
        assert "".join(lines).replace(" ", "") == sentence.replace(" ", "")
        assert all(text.size(line)[0] <= width for line in lines), (width, lines)
        assert all(line[0] not in "。、)" for line in lines if line)


def test_japanese_lines_are_spaced_for_their_height():
    lines = ["せってい", "がめん"]
    assert text.line_pitch(lines) >= text.size(lines[0])[1] + 2
    assert text.size("せってい")[1] > text.size("Settings")[1]
