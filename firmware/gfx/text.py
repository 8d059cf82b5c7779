"""Text on a 256x192 panel: the built-in pixel font for Latin, the shipped bitmap font for
Japanese, on one baseline.

Latin text uses the crisp 5x7 font from `glyphs`; kana, kanji and full-width forms come from
`japanese` (12x12 Shinonome glyphs shipped with the firmware), so every unit draws Japanese
the same way with no font installed. A line holding Japanese is 12 rows tall (10 above the
baseline, 2 below); its Latin characters sit on the same baseline, 3 rows down. Characters
neither font has show as a box (`missing_glyphs` finds them). Rendered strings are cached:
a frame redraws the same labels many times.
"""

from __future__ import annotations

import functools

import pygame

from firmware.gfx import japanese, trace
from firmware.gfx.glyphs import GLYPH_H, GLYPH_W, glyph_rows, has_glyph

ADVANCE = GLYPH_W + 1
LINE_H = GLYPH_H + 2
LATIN_ASCENT = 7  # rows of the pixel font above its baseline (capitals and digits)
JA_ADVANCE = japanese.CELL
JA_H = japanese.CELL
JA_SHIFT = japanese.ASCENT - LATIN_ASCENT  # how far Latin moves down in a Japanese line

Color = tuple[int, int, int] | tuple[int, int, int, int]


def is_japanese(ch: str) -> bool:
    """True when `ch` is drawn from the Japanese font (the pixel font lacks it)."""
    return not has_glyph(ch) and japanese.has_glyph(ch)


def missing_glyphs(text: str) -> set[str]:
    """The characters of `text` that neither font draws (they would show as boxes)."""
    return {ch for ch in text if not has_glyph(ch) and not japanese.has_glyph(ch)}


def _has_japanese(text: str) -> bool:
    return any(is_japanese(ch) for ch in text)


def is_tall(text: str) -> bool:
    """True when `text` is set as a Japanese line: 12 rows (10 above the baseline), not the
    pixel font's 9 (7 above). Layouts give such a line its extra rows."""
    return _has_japanese(text)


@functools.lru_cache(maxsize=4096)
def _glyph(ch: str, color: Color) -> pygame.Surface:
    """One character as a transparent surface: 5x9 from the pixel font, else 12x12."""
    rows = None if has_glyph(ch) else japanese.glyph_rows(ch)
    if rows is None:
        rows, width, top_bit = glyph_rows(ch), GLYPH_W, 0x10
    else:
        width, top_bit = JA_ADVANCE, 1 << (japanese.CELL - 1)
    ink = bytes((*color[:3], color[3] if len(color) == 4 else 255))
    clear = bytes(4)
    pixels = b"".join(ink if row & (top_bit >> x) else clear for row in rows for x in range(width))
    return pygame.image.frombuffer(pixels, (width, len(rows)), "RGBA").copy()


def _advance(ch: str) -> int:
    return JA_ADVANCE if is_japanese(ch) else ADVANCE


def _width(text: str) -> int:
    """Pixel width of one line at scale 1 (a Latin last character has no gap after it)."""
    if not text:
        return 0
    return sum(_advance(ch) for ch in text) - (0 if is_japanese(text[-1]) else 1)


def baseline(text: str, scale: int = 1) -> int:
    """Rows from the top of `text`'s rendered line down to its baseline."""
    return (japanese.ASCENT if _has_japanese(text) else LATIN_ASCENT) * scale


@functools.lru_cache(maxsize=2048)
def render(text: str, color: Color, scale: int = 1) -> pygame.Surface:
    """One line of text as a transparent surface (cached)."""
    japanese_line = _has_japanese(text)
    height = JA_H if japanese_line else GLYPH_H
    line = pygame.Surface((max(1, _width(text)), height), pygame.SRCALPHA)
    x = 0
    for ch in text:
        if is_japanese(ch):
            line.blit(_glyph(ch, color), (x, 0))
            x += JA_ADVANCE
        else:
            line.blit(_glyph(ch, color), (x, JA_SHIFT if japanese_line else 0))
            x += ADVANCE
    if scale != 1:
        line = pygame.transform.scale(line, (line.get_width() * scale, line.get_height() * scale))
    return line


def size(text: str, scale: int = 1) -> tuple[int, int]:
    if not text:
        return (0, GLYPH_H * scale)
    height = JA_H if _has_japanese(text) else GLYPH_H
    return (max(1, _width(text)) * scale, height * scale)


def draw(
    surface: pygame.Surface,
    text: str,
    pos: tuple[int, int],
    color: Color,
    *,
    scale: int = 1,
    align: str = "left",
    shadow: Color | None = None,
    valign: str = "latin",
) -> pygame.Rect:
    """Draw one line; `align` is left, center or right about `pos[0]`. Returns its rect.

    `valign` says what `pos[1]` is: "latin" (the default) the top of the pixel font's
    capitals, so every text drawn at one y stands on one baseline and Japanese rises
    `JA_SHIFT` rows higher; "top" the top of the rendered line (for centring by `size`);
    "baseline" the row just under the baseline.
    """
    if not text:
        return pygame.Rect(pos, (0, 0))
    img = render(text, color, scale)
    x, y = pos
    if valign == "latin":
        y -= baseline(text, scale) - LATIN_ASCENT * scale
    elif valign == "baseline":
        y -= baseline(text, scale)
    if align == "center":
        x -= img.get_width() // 2
    elif align == "right":
        x -= img.get_width()
    if shadow is not None:
        surface.blit(render(text, shadow, scale), (x + scale, y + scale))
    surface.blit(img, (x, y))
    if trace.active():
        trace.drew_text(surface, text, img.get_bounding_rect().move(x, y),
                        y + baseline(text, scale), scale)
    return img.get_rect(topleft=(x, y))  # where the line is, even where the surface clips it


def line_pitch(lines: list[str], scale: int = 1, minimum: int = LINE_H) -> int:
    """Distance between the baselines of `lines` drawn as a block (taller for CJK)."""
    tallest = max((size(line, scale)[1] for line in lines if line), default=GLYPH_H * scale)
    return max(minimum * scale, tallest + 2 * scale)


def draw_block(
    surface: pygame.Surface,
    lines: list[str],
    pos: tuple[int, int],
    color: Color,
    *,
    align: str = "left",
    minimum: int = LINE_H,
    shadow: Color | None = None,
) -> int:
    """Draw lines one under another; returns the y just below the block."""
    x, y = pos
    pitch = line_pitch(lines, minimum=minimum)
    for line in lines:
        draw(surface, line, (x, y), color, align=align, shadow=shadow)
        y += pitch
    return y


def fit(text: str, width: int, scale: int = 1) -> str:
    """`text` as it is when it fits `width` pixels, else shortened to fit with a visible "…"."""
    if size(text, scale)[0] <= width:
        return text
    while text and size(text + "…", scale)[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, width: int, scale: int = 1) -> list[str]:
    """Break `text` into lines that fit `width` pixels (at spaces; CJK text anywhere)."""
    return list(_wrap(text, width, scale))


@functools.lru_cache(maxsize=512)
def _wrap(text: str, width: int, scale: int) -> tuple[str, ...]:
    """`wrap`, cached: scenes wrap the same descriptions every frame."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line: list[str] = []  # the tokens of the line being filled
        for token in _tokens(paragraph):
            if not line or size("".join([*line, token]).rstrip(), scale)[0] <= width:
                line.append(token)
                continue
            # Kinsoku: closing punctuation and small kana never start a line; the token
            # before goes down with it (the line stays inside `width`), unless it may not
            # start a line either.
            cut = len(line)
            if token[0] in _NO_LINE_START:
                cut = next((i for i in range(len(line) - 1, 0, -1)
                            if line[i][0] not in _NO_LINE_START), 0)
            if cut == 0:
                line.append(token)  # nothing may go down: the line runs over
                continue
            lines.append("".join(line[:cut]).rstrip())
            rest = line[cut:]
            line = [rest[0].lstrip(), *rest[1:], token] if rest else [token.lstrip()]
        lines.append("".join(line).rstrip())
    return tuple(lines)


_NO_LINE_START = frozenset(
    "、。，．・ー」』）】〕！？!?,.:;)ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ"
)


def _tokens(text: str) -> list[str]:
    tokens: list[str] = []
    word = ""
    for ch in text:
        if ch == " ":
            tokens.append(word + " ")
            word = ""
        elif not has_glyph(ch):
            if word:
                tokens.append(word)
                word = ""
            tokens.append(ch)
        else:
            word += ch
    if word:
        tokens.append(word)
    return tokens


def reset_caches() -> None:
    """Forget everything rendered (benches measure a cold start with it)."""
    _glyph.cache_clear()
    render.cache_clear()
    _wrap.cache_clear()
