"""Cards, squares and item icons drawn in code at 22 pixels (R-PAN-CARD, R-PAN-VIEW): the
number in a circle, a bar from the circle to the middle of each side with a connector, the
owner's colour (player 1 blue, 2 red, 3 green, 4 yellow; rainbow stripes for nobody)."""

from __future__ import annotations

import functools

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text
from firmware.gfx.widgets import shade
from games.panels.rules.cards import DOWN, LEFT, RAINBOW, RIGHT, UP

Color = tuple[int, int, int]
PLAYER_COLORS: tuple[Color, ...] = ((64, 120, 232), (224, 72, 72), (64, 176, 96), (224, 184, 48))
RAINBOW_BANDS: tuple[Color, ...] = (
    (232, 80, 80), (240, 160, 64), (232, 216, 72), (96, 200, 96), (80, 144, 232), (168, 104, 216),
)
FIELD_BG = (34, 52, 44)
SQUARE = (54, 80, 66)
SQUARE_HI = (70, 100, 84)
UNUSABLE = (22, 30, 28)
SHADE = (0, 0, 0, 130)
PERMITTED = (170, 236, 190)


def owner_color(owner: int) -> Color:
    return (200, 200, 200) if owner == RAINBOW else PLAYER_COLORS[owner % len(PLAYER_COLORS)]


@functools.lru_cache(maxsize=512)
def card_image(number: int, connectors: int, owner: int, size: int = 22, dim: bool = False) -> (
    pygame.Surface
):
    """One card as a `size` x `size` picture (cached: cards repeat a lot)."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    body = pygame.Rect(1, 1, size - 2, size - 2)
    if owner == RAINBOW:
        band_h = max(1, (size - 2) // len(RAINBOW_BANDS))
        for i, band in enumerate(RAINBOW_BANDS):
            y = 1 + i * band_h
            h = size - 1 - y if i == len(RAINBOW_BANDS) - 1 else band_h
            surf.fill(shade(band, 0.15), (1, y, size - 2, h))
        face = (236, 236, 236)
    else:
        face = owner_color(owner)
        surf.fill(face, body)
        pygame.draw.line(surf, shade(face, 0.4), (2, 1), (size - 3, 1))
        pygame.draw.line(surf, shade(face, -0.4), (2, size - 2), (size - 3, size - 2))
    pygame.draw.rect(surf, pal.OUTLINE, body, 1, border_radius=2)
    c = size // 2
    bar = (250, 250, 250) if owner != RAINBOW else (40, 40, 48)
    edge = (20, 24, 40)
    for d, (dx, dy) in ((UP, (0, -1)), (RIGHT, (1, 0)), (DOWN, (0, 1)), (LEFT, (-1, 0))):
        if connectors & d:
            end = (c + dx * (c - 1), c + dy * (c - 1))
            pygame.draw.line(surf, edge, (c, c), end, 4)
            pygame.draw.line(surf, bar, (c, c), end, 2)
    radius = max(5, size // 3)
    pygame.draw.circle(surf, edge, (c, c), radius)
    pygame.draw.circle(surf, (255, 248, 220), (c, c), radius - 1)
    label = text.render(str(number), (16, 18, 28))
    surf.blit(label, (c - label.get_width() // 2, c - label.get_height() // 2 + 1))
    if dim:
        veil = pygame.Surface((size, size), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 110))
        surf.blit(veil, (0, 0))
    return surf


def provisional_frame(surf: pygame.Surface, rect: pygame.Rect, tick: int) -> None:
    """The blinking frame of a provisionally placed card (not fixed yet)."""
    color = pal.ACCENT if (tick // 10) % 2 == 0 else pal.WHITE
    pygame.draw.rect(surf, color, rect.inflate(2, 2), 2, border_radius=3)


def glow(surf: pygame.Surface, rect: pygame.Rect, color: Color, strength: int) -> None:
    veil = pygame.Surface(rect.size, pygame.SRCALPHA)
    veil.fill((*color, max(0, min(255, strength))))
    surf.blit(veil, rect.topleft)
    pygame.draw.rect(surf, color, rect, 2, border_radius=2)


@functools.lru_cache(maxsize=16)
def item_icon(kind: str, w: int = 21, h: int = 18) -> pygame.Surface:
    """A small picture per item kind: arrows for reshuffle, +-1 for renumber, a turning
    arrow for swivel, a prism for prism."""
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, (60, 56, 96), (0, 0, w, h), border_radius=4)
    pygame.draw.rect(surf, pal.OUTLINE, (0, 0, w, h), 1, border_radius=4)
    cx, cy = w // 2, h // 2
    ink = (250, 236, 160)
    if kind == "reshuffle":
        pygame.draw.line(surf, ink, (4, 6), (w - 6, 6), 2)
        pygame.draw.polygon(surf, ink, [(w - 7, 3), (w - 3, 6), (w - 7, 9)])
        pygame.draw.line(surf, ink, (6, h - 6), (w - 4, h - 6), 2)
        pygame.draw.polygon(surf, ink, [(6, h - 9), (2, h - 6), (6, h - 3)])
    elif kind == "renumber":
        text.draw(surf, "+-1", (cx, cy - 4), ink, align="center")
    elif kind == "swivel":
        pygame.draw.arc(surf, ink, (cx - 6, cy - 6, 12, 12), 0.3, 4.8, 2)
        pygame.draw.polygon(surf, ink, [(cx + 3, cy - 8), (cx + 8, cy - 4), (cx + 2, cy - 2)])
    else:  # prism
        pygame.draw.polygon(surf, (220, 230, 255), [(cx, 2), (cx - 7, h - 3), (cx + 7, h - 3)], 0)
        for i, band in enumerate(RAINBOW_BANDS[:4]):
            pygame.draw.line(surf, band, (cx + 2, cy + 1), (w - 1, cy - 3 + 2 * i))
    return surf
