"""Pixel-art widgets shared by firmware scenes and games: backgrounds, panels, buttons, cursor."""

from __future__ import annotations

import functools

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, trace

Color = tuple[int, int, int]


def shade(color: Color, amount: float) -> Color:
    """Lighter (amount > 0) or darker (amount < 0) version of `color`."""

    def channel(c: int) -> int:
        return int(c + (255 - c) * amount) if amount >= 0 else int(c * (1 + amount))

    r, g, b = color
    return (channel(r), channel(g), channel(b))


def background(
    surface: pygame.Surface, base: Color = pal.BG, stripe: Color = pal.BG_STRIPE
) -> None:
    """The system backdrop: a dark field with fine diagonal pin-stripes (drawn once, cached)."""
    surface.blit(_backdrop(surface.get_size(), base, stripe), (0, 0))


@functools.lru_cache(maxsize=16)
def _backdrop(size: tuple[int, int], base: Color, stripe: Color) -> pygame.Surface:
    surface = pygame.Surface(size)
    surface.fill(base)
    w, h = size
    for d in range(-h, w, 6):
        pygame.draw.line(surface, stripe, (d, h - 1), (d + h - 1, 0))
    return surface


def bevel_rect(
    surface: pygame.Surface, rect: pygame.Rect, face: Color, *, radius: int = 3, depth: int = 1
) -> None:
    """A raised rounded box with a dark outline, lit top edge and shaded bottom edge."""
    trace.box(surface, rect)
    pygame.draw.rect(surface, pal.OUTLINE, rect, border_radius=radius + 1)
    inner = rect.inflate(-2, -2)
    pygame.draw.rect(surface, shade(face, -0.35), inner, border_radius=radius)
    top = pygame.Rect(inner.x, inner.y, inner.w, inner.h - depth)
    pygame.draw.rect(surface, face, top, border_radius=radius)
    hl = shade(face, 0.35)
    pygame.draw.line(surface, hl, (inner.x + radius, inner.y), (inner.right - radius - 1, inner.y))


def panel(surface: pygame.Surface, rect: pygame.Rect, face: Color = pal.PANEL) -> None:
    """A framed inset panel for text and lists."""
    trace.box(surface, rect)
    pygame.draw.rect(surface, pal.OUTLINE, rect, border_radius=4)
    pygame.draw.rect(surface, face, rect.inflate(-2, -2), border_radius=3)
    pygame.draw.line(
        surface, shade(face, 0.25), (rect.x + 4, rect.y + 1), (rect.right - 5, rect.y + 1)
    )


def button(
    surface: pygame.Surface,
    rect: pygame.Rect,
    label: str | list[str],
    *,
    face: Color = pal.BUTTON,
    fg: Color = pal.TEXT,
    pressed: bool = False,
    disabled: bool = False,
) -> None:
    """A push button whose label (one or more lines) is centred; pressed sinks by one pixel."""
    if disabled:
        face, fg = shade(face, -0.45), pal.TEXT_DIM
    r = rect.move(0, 1) if pressed else rect
    bevel_rect(surface, r, shade(face, -0.15) if pressed else face, depth=0 if pressed else 2)
    lines = [label] if isinstance(label, str) else label
    heights = [text.size(line)[1] for line in lines]  # 12 rows a Japanese line, 9 a Latin one
    block_h = sum(heights) + 2 * (len(lines) - 1)
    y = r.centery - block_h // 2 - 1
    if block_h <= r.h - 4:  # (a Japanese line fills a small button: kept off its lit edge)
        y = max(y, r.y + 2)
    for line, line_h in zip(lines, heights, strict=True):
        text.draw(
            surface,
            line,
            (r.centerx, y),
            fg,
            align="center",
            shadow=shade(face, -0.6),
            valign="top",
        )
        y += line_h + 2


def title_bar(surface: pygame.Surface, title: str, right: str = "") -> None:
    """The strip at the top of a system screen."""
    bar = pygame.Rect(0, 0, surface.get_width(), 15)
    pygame.draw.rect(surface, pal.PANEL_LO, bar)
    pygame.draw.line(surface, pal.ACCENT, (0, 15), (bar.w, 15))
    # One baseline for both texts, Latin or Japanese: two clear rows above the line under it.
    text.draw(surface, title, (6, 4), pal.ACCENT, shadow=pal.OUTLINE)
    if right:
        text.draw(surface, right, (bar.w - 6, 4), pal.TEXT_DIM, align="right")


def cursor(surface: pygame.Surface, rect: pygame.Rect, tick: int) -> None:
    """The D-pad cursor: pulsing corner brackets around a hotspot (P-FW-4)."""
    grow = 1 if (tick // 12) % 2 else 0
    r = rect.inflate(2 + 2 * grow, 2 + 2 * grow)
    arm = max(3, min(7, r.w // 3, r.h // 3))
    for cx, cy, dx, dy in (
        (r.left, r.top, 1, 1),
        (r.right - 1, r.top, -1, 1),
        (r.left, r.bottom - 1, 1, -1),
        (r.right - 1, r.bottom - 1, -1, -1),
    ):
        for off, color in ((1, pal.OUTLINE), (0, pal.CURSOR)):
            ox, oy = cx + off * dx, cy + off * dy
            pygame.draw.line(surface, color, (ox, oy), (ox + arm * dx, oy))
            pygame.draw.line(surface, color, (ox, oy), (ox, oy + arm * dy))


def dim(surface: pygame.Surface, alpha: int = 150, color: Color = (0, 0, 0)) -> None:
    """Darken a whole screen (behind overlays and menus)."""
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((*color, alpha))
    surface.blit(veil, (0, 0))


def draw_thinking(surface: pygame.Surface, tick: int) -> None:
    """The computer-is-thinking indicator: three dots chasing round a small dark badge in
    the upper screen's top-right corner (shown after half a second of thinking)."""
    badge = pygame.Rect(surface.get_width() - 22, 2, 20, 12)
    pygame.draw.rect(surface, (24, 28, 40), badge, border_radius=5)
    pygame.draw.rect(surface, (120, 130, 160), badge, 1, border_radius=5)
    lit = (tick // 8) % 3
    for i in range(3):
        color = (255, 220, 90) if i == lit else (90, 96, 120)
        pygame.draw.rect(surface, color, (badge.x + 4 + i * 5, badge.y + 5, 3, 3))
