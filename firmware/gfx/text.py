"""Text on a 256x192 panel: the built-in pixel font, with a system CJK font for Japanese.

Latin text always uses the crisp 5x7 font from `glyphs`. Characters it lacks (kana, kanji)
are drawn with a Japanese-capable TrueType font when one is installed (found once, at first
use); without one they show as boxes, and `japanese_available()` lets settings say so.
Rendered strings are cached: a frame redraws the same labels many times.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pygame

from firmware.gfx.glyphs import GLYPH_H, GLYPH_W, glyph_rows, has_glyph

ADVANCE = GLYPH_W + 1
LINE_H = GLYPH_H + 2
CJK_PX = 12

Color = tuple[int, int, int] | tuple[int, int, int, int]

_CJK_CANDIDATES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKjp-Regular.otf",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "/usr/share/fonts/truetype/takao-gothic/TakaoPGothic.ttf",
    "/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc",
    "C:/Windows/Fonts/msgothic.ttc",
)
_CJK_NAMES = ("notosanscjkjp", "notosanscjk", "ipagothic", "takaopgothic", "vlgothic", "msgothic")


def _find_cjk_font_path() -> str | None:
    override = os.environ.get("TWINFOLD_CJK_FONT")
    if override is not None:
        return override if override and Path(override).is_file() else None
    for candidate in _CJK_CANDIDATES:
        if Path(candidate).is_file():
            return candidate
    try:
        for name in _CJK_NAMES:
            found = pygame.font.match_font(name)
            if found:
                return found
    except Exception:  # font lookup is a convenience; no font is a valid answer
        return None
    return None


@functools.cache
def _cjk_font() -> pygame.font.Font | None:
    path = _find_cjk_font_path()
    if path is None:
        return None
    if not pygame.font.get_init():
        pygame.font.init()
    try:
        return pygame.font.Font(path, CJK_PX)
    except (OSError, pygame.error):
        return None


def _cjk_band(font: pygame.font.Font) -> tuple[int, int]:
    """Rows (top, height) where the CJK font's ink lies: its surfaces carry empty leading."""
    key = id(font)
    if key not in _BANDS:
        ink = font.render("あ漢アー。ぎゃ語gj", False, (255, 255, 255)).get_bounding_rect()
        _BANDS[key] = (ink.top, max(1, ink.height))
    return _BANDS[key]


_BANDS: dict[int, tuple[int, int]] = {}


def japanese_available() -> bool:
    """True when Japanese text can be drawn (a CJK-capable font is installed)."""
    return _cjk_font() is not None


@functools.lru_cache(maxsize=4096)
def _glyph(ch: str, color: Color) -> pygame.Surface:
    surf = pygame.Surface((GLYPH_W, GLYPH_H), pygame.SRCALPHA)
    for y, row in enumerate(glyph_rows(ch)):
        for x in range(GLYPH_W):
            if row & (0x10 >> x):
                surf.set_at((x, y), color)
    return surf


def _runs(text: str) -> list[tuple[bool, str]]:
    """Split into (is_pixel_font, chunk) runs."""
    runs: list[tuple[bool, str]] = []
    for ch in text:
        pixel = has_glyph(ch) or _cjk_font() is None
        if runs and runs[-1][0] == pixel:
            runs[-1] = (pixel, runs[-1][1] + ch)
        else:
            runs.append((pixel, ch))
    return runs


@functools.lru_cache(maxsize=2048)
def render(text: str, color: Color, scale: int = 1) -> pygame.Surface:
    """One line of text as a transparent surface (cached)."""
    pieces: list[tuple[pygame.Surface, int]] = []
    height = GLYPH_H
    for pixel, chunk in _runs(text):
        if pixel:
            surf = pygame.Surface((max(1, len(chunk) * ADVANCE - 1), GLYPH_H), pygame.SRCALPHA)
            for i, ch in enumerate(chunk):
                surf.blit(_glyph(ch, color), (i * ADVANCE, 0))
            pieces.append((surf, 0))
        else:
            font = _cjk_font()
            assert font is not None
            top, band = _cjk_band(font)
            full = font.render(chunk, False, color[:3])
            crop = pygame.Rect(0, top, full.get_width(), band).clip(full.get_rect())
            surf = full.subsurface(crop).copy()
            band = surf.get_height()
            height = max(height, band)
            pieces.append((surf, 1))
    width = sum(p.get_width() for p, _ in pieces) + max(0, len(pieces) - 1)
    line = pygame.Surface((max(1, width), height), pygame.SRCALPHA)
    x = 0
    for surf, is_cjk in pieces:
        # Pixel-font runs sit so their baseline meets the bottom of the CJK band less its
        # descent: both scripts then share one visual baseline.
        y = 0 if is_cjk or height == GLYPH_H else height - GLYPH_H
        line.blit(surf, (x, y))
        x += surf.get_width() + 1
    if scale != 1:
        line = pygame.transform.scale(line, (line.get_width() * scale, line.get_height() * scale))
    return line


def size(text: str, scale: int = 1) -> tuple[int, int]:
    if not text:
        return (0, GLYPH_H * scale)
    return render(text, (255, 255, 255), scale).get_size()


def draw(
    surface: pygame.Surface,
    text: str,
    pos: tuple[int, int],
    color: Color,
    *,
    scale: int = 1,
    align: str = "left",
    shadow: Color | None = None,
) -> pygame.Rect:
    """Draw one line; `align` is left, center or right about `pos[0]`. Returns its rect."""
    if not text:
        return pygame.Rect(pos, (0, 0))
    img = render(text, color, scale)
    x, y = pos
    if align == "center":
        x -= img.get_width() // 2
    elif align == "right":
        x -= img.get_width()
    if shadow is not None:
        surface.blit(render(text, shadow, scale), (x + scale, y + scale))
    return surface.blit(img, (x, y))


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


def wrap(text: str, width: int, scale: int = 1) -> list[str]:
    """Break `text` into lines that fit `width` pixels (at spaces; CJK text anywhere)."""
    return list(_wrap(text, width, scale))


@functools.lru_cache(maxsize=512)
def _wrap(text: str, width: int, scale: int) -> tuple[str, ...]:
    """`wrap`, cached: scenes wrap the same descriptions every frame."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for token in _tokens(paragraph):
            trial = line + token
            # Kinsoku: closing punctuation and small kana never start a line.
            if line and token[0] in _NO_LINE_START:
                line = trial
            elif line and size(trial.rstrip(), scale)[0] > width:
                lines.append(line.rstrip())
                line = token.lstrip()
            else:
                line = trial
        lines.append(line.rstrip())
    return tuple(lines)


_NO_LINE_START = frozenset(
    "、。，．・ー」』）】〕！？!?,.:;)" "ぁぃぅぇぉっゃゅょゎ" "ァィゥェォッャュョヮ"
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
    """Forget the font lookup and everything rendered (after the installed fonts change)."""
    _cjk_font.cache_clear()
    _BANDS.clear()
    render.cache_clear()
    _wrap.cache_clear()
