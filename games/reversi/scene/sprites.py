"""Pixel-art pieces drawn once in code and cached: discs (also squashed, for flipping), the
board with its frame, the translucent hint marks and the preview highlights."""

from __future__ import annotations

import functools

import pygame

from firmware.gfx import text, widgets
from games.reversi.scene import layout

DISC = 16  # a disc sprite is DISC x DISC, centred in its CELL square

# Colours of the board and its decorations.
FELT = (38, 138, 72)
FELT_DARK = (30, 116, 60)
GRID = (16, 72, 36)
WOOD = (132, 86, 44)
LABEL = (240, 212, 160)
TABLE = (22, 40, 34)
TABLE_STRIPE = (26, 47, 40)
PINK_FRAME = (244, 72, 148)
LIGHT_PINK = (255, 192, 214)
GREY_OUT = (118, 128, 122)
HINT_GREY = (120, 126, 138)
HINT_BLUE = (52, 112, 216)
HINT_ORANGE = (236, 132, 32)
RED = (236, 48, 48)
LAST_MOVE = (232, 64, 64)

# Disc shading: outline, rim (lower right), body, highlight, specular spot.
_DISC_COLORS = {
    "black": ((6, 6, 10), (22, 22, 28), (46, 46, 56), (92, 92, 108), (170, 170, 186)),
    "white": ((52, 56, 64), (186, 188, 196), (234, 234, 230), (250, 250, 250), (255, 255, 255)),
}
_EDGE = {"black": (70, 70, 80), "white": (150, 150, 160)}


@functools.cache
def disc(color: str, width: int = DISC) -> pygame.Surface:
    """A shaded round disc, squashed to `width` pixels (1..DISC) for the flip."""
    full = pygame.Surface((DISC, DISC), pygame.SRCALPHA)
    outline, rim, body, light, spot = _DISC_COLORS[color]
    c = DISC // 2
    pygame.draw.circle(full, outline, (c, c), c - 1)
    pygame.draw.circle(full, rim, (c, c), c - 2)
    pygame.draw.circle(full, body, (c - 1, c - 1), c - 3)
    pygame.draw.circle(full, light, (c - 3, c - 3), 2)
    full.fill(spot, (c - 4, c - 4, 2, 1))
    if width >= DISC:
        return full
    if width <= 2:  # edge-on: the disc's rim as a thin bar
        edge = pygame.Surface((2, DISC), pygame.SRCALPHA)
        edge.fill(outline, (0, 2, 2, DISC - 4))
        edge.fill(_EDGE[color], (0, 3, 1, DISC - 6))
        return edge
    return pygame.transform.scale(full, (width, DISC))


@functools.cache
def small_disc(color: str, size: int) -> pygame.Surface:
    """A disc picture for text lines (scoreboard, messages, move list)."""
    return pygame.transform.scale(disc(color), (size, size))


@functools.cache
def shadow() -> pygame.Surface:
    """The soft shadow a disc casts on the felt."""
    surf = pygame.Surface((DISC, DISC), pygame.SRCALPHA)
    pygame.draw.circle(surf, (0, 30, 10, 90), (DISC // 2, DISC // 2), DISC // 2 - 1)
    return surf


@functools.cache
def board_image() -> pygame.Surface:
    """The lower screen's fixed part: table, wooden frame, green felt, grid and star points."""
    surf = pygame.Surface((256, 192))
    widgets.background(surf, TABLE, TABLE_STRIPE)
    frame = layout.FRAME_RECT
    widgets.bevel_rect(surf, frame, WOOD, radius=4, depth=2)
    pygame.draw.rect(surf, GRID, layout.BOARD_RECT.inflate(2, 2))
    for i in range(64):
        r = layout.square_rect(i)
        inner = pygame.Rect(r.x + 1, r.y + 1, r.w - 1, r.h - 1)
        surf.fill(FELT, inner)
        surf.fill(FELT_DARK, (inner.x, inner.bottom - 1, inner.w, 1))
        surf.fill(widgets.shade(FELT, 0.12), (inner.x, inner.y, inner.w, 1))
    x0, y0, c = layout.BOARD_X, layout.BOARD_Y, layout.CELL
    for gx, gy in ((2, 2), (6, 2), (2, 6), (6, 6)):  # the four star points
        pygame.draw.rect(surf, GRID, (x0 + gx * c - 1, y0 + gy * c - 1, 3, 3))
    # Coordinates along the frame: a..h above, 1..8 to the left.
    for i in range(8):
        text.draw(surf, "abcdefgh"[i], (x0 + i * c + c // 2, 2), LABEL, align="center")
        text.draw(surf, str(i + 1), (x0 - 5, y0 + i * c + 6), LABEL, align="center")
    return surf


@functools.cache
def square_fill(color: tuple[int, int, int]) -> pygame.Surface:
    """A square's felt replaced by a colour (light pink / grey preview highlights)."""
    surf = pygame.Surface((layout.CELL - 1, layout.CELL - 1))
    surf.fill(color)
    surf.fill(widgets.shade(color, -0.15), (0, layout.CELL - 2, layout.CELL - 1, 1))
    return surf


@functools.cache
def grey_veil() -> pygame.Surface:
    """Greys out a disc that would not flip (R-REV-VIEW-9)."""
    surf = pygame.Surface((layout.CELL - 1, layout.CELL - 1), pygame.SRCALPHA)
    surf.fill((*GREY_OUT, 150))
    return surf


@functools.cache
def hint_mark(color: str) -> pygame.Surface:
    """The translucent round mark on a placeable square (R-REV-VIEW-8)."""
    surf = pygame.Surface((DISC, DISC), pygame.SRCALPHA)
    rgb = (0, 0, 0) if color == "black" else (255, 255, 255)
    pygame.draw.circle(surf, (*rgb, 96), (DISC // 2, DISC // 2), 5)
    pygame.draw.circle(surf, (*rgb, 150), (DISC // 2, DISC // 2), 5, 1)
    return surf


@functools.cache
def hint_number(count: int, color: str) -> pygame.Surface:
    """The translucent flip count on a legal square (R-REV-VIEW-8, full hints)."""
    rgb = (0, 0, 0) if color == "black" else (255, 255, 255)
    img = text.render(str(count), rgb, 2).copy()
    img.set_alpha(150)
    return img


@functools.cache
def ghost(color: str) -> pygame.Surface:
    """The mover's disc, translucent, on the previewed square."""
    img = disc(color).copy()
    img.set_alpha(110)
    return img
