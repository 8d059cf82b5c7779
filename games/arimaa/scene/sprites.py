"""Pixel art drawn in code: pieces (a disc with the piece's letter), squares, traps, marks."""

from __future__ import annotations

from functools import cache

import pygame

from firmware.gfx import text
from games.arimaa.rules.board import KIND_LETTERS

LIGHT = (226, 208, 164)
DARK_LINE = (150, 122, 84)
TRAP = (176, 96, 72)
TRAP_X = (120, 56, 40)
GOLD_FACE = (240, 196, 64)
GOLD_RIM = (120, 80, 10)
SILVER_FACE = (206, 212, 226)
SILVER_RIM = (70, 78, 100)
INK = (30, 26, 24)
SELECT = (255, 236, 80)
TARGET = (64, 184, 88)
DANGER = (220, 48, 40)
FROZEN = (72, 150, 255)
PUSH = (255, 140, 40)
LAST = (250, 250, 210)
FACES = ((GOLD_FACE, GOLD_RIM), (SILVER_FACE, SILVER_RIM))


@cache
def piece(side: int, kind: int, size: int = 20) -> pygame.Surface:
    """A disc in the side's colour with the kind's letter (E M H D C R), `size` pixels."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    face, rim = FACES[side]
    c = size // 2
    r = size // 2 - 1
    pygame.draw.circle(surf, (0, 0, 0, 90), (c + 1, c + 1), r)
    pygame.draw.circle(surf, rim, (c, c), r)
    pygame.draw.circle(surf, face, (c, c), r - 1)
    hi = tuple(min(255, v + 30) for v in face)
    pygame.draw.circle(surf, hi, (c - r // 3, c - r // 3), max(1, r // 3))
    img = text.render(KIND_LETTERS[kind], INK, 1)
    x, y = c - img.get_width() // 2, c - img.get_height() // 2 + 1
    if size >= 16:  # bold: the letter twice, one pixel apart
        surf.blit(img, (x - 1, y))
        surf.blit(img, (x, y))
    else:
        surf.blit(img, (x, y))
    return surf


@cache
def square(trap: bool, size: int = 22) -> pygame.Surface:
    surf = pygame.Surface((size, size))
    surf.fill(TRAP if trap else LIGHT)
    pygame.draw.rect(surf, DARK_LINE, (0, 0, size, size), 1)
    if trap:
        pygame.draw.line(surf, TRAP_X, (5, 5), (size - 6, size - 6), 2)
        pygame.draw.line(surf, TRAP_X, (size - 6, 5), (5, size - 6), 2)
    return surf


def frozen_mark(surf: pygame.Surface, rect: pygame.Rect) -> None:
    """A blue ring and a small snowflake: the piece cannot move by itself."""
    pygame.draw.circle(surf, FROZEN, rect.center, rect.w // 2 - 1, 2)
    x, y = rect.right - 6, rect.top + 5
    for dx, dy in ((3, 0), (0, 3), (2, 2), (2, -2)):
        pygame.draw.line(surf, (230, 245, 255), (x - dx, y - dy), (x + dx, y + dy))


def target_mark(surf: pygame.Surface, rect: pygame.Rect, capture: bool) -> None:
    """A green dot for a legal target; a red cross in a ring where the step loses a piece."""
    if capture:
        pygame.draw.circle(surf, DANGER, rect.center, 7, 2)
        pygame.draw.line(surf, DANGER, (rect.centerx - 3, rect.centery - 3),
                         (rect.centerx + 3, rect.centery + 3), 2)
        pygame.draw.line(surf, DANGER, (rect.centerx + 3, rect.centery - 3),
                         (rect.centerx - 3, rect.centery + 3), 2)
    else:
        pygame.draw.circle(surf, (20, 90, 40), rect.center, 5)
        pygame.draw.circle(surf, TARGET, rect.center, 4)


def frame(surf: pygame.Surface, rect: pygame.Rect, color: tuple[int, int, int], width: int = 2
          ) -> None:
    pygame.draw.rect(surf, color, rect, width)
