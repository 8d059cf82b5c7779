"""Pixel art for Killing Sevens, drawn in code: cards at three sizes, suits, the felt, the
personalities' faces. Suits are the firmware font's 5x7 suit glyphs, scaled by whole pixels
so they stay crisp."""

from __future__ import annotations

import functools

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text
from firmware.gfx.glyphs import GLYPH_W, glyph_rows
from games.sevens.rules.cards import RANK_NAMES, SUIT_SYMBOLS

Color = tuple[int, int, int]

FELT = (22, 86, 58)
FELT_DARK = (14, 60, 40)
FELT_LINE = (34, 108, 74)
SLOT = (16, 68, 46)
SLOT_TEXT = (44, 112, 80)
FACE = (248, 244, 230)
FACE_DIM = (168, 166, 158)
EDGE = (40, 36, 30)
RED = (206, 32, 44)
INK = (24, 24, 34)
PINK = (255, 170, 196)
PINK_DARK = (150, 20, 60)
FLASH = (255, 255, 255)
PLAYABLE = (255, 220, 40)  # the yellow frame
BLOCKED = (236, 40, 40)  # the red frame
SEAT_COLORS: tuple[Color, ...] = ((255, 196, 64), (72, 204, 204), (240, 120, 200), (150, 220, 90))


def suit_color(card: int) -> Color:
    return RED if card // 13 in (1, 2) else INK


def rank_text(card: int) -> str:
    return RANK_NAMES[card % 13]


@functools.cache
def suit_icon(suit: int, scale: int, color: Color) -> pygame.Surface:
    """The suit glyph (5x7) at a whole-pixel scale."""
    surf = pygame.Surface((GLYPH_W * scale, 7 * scale), pygame.SRCALPHA)
    for y, row in enumerate(glyph_rows(SUIT_SYMBOLS[suit])[:7]):
        for x in range(GLYPH_W):
            if row & (0x10 >> x):
                surf.fill(color, (x * scale, y * scale, scale, scale))
    return surf


@functools.cache
def table_card(card: int, state: str) -> pygame.Surface:
    """A table cell, 18x24: `played`, `killed` (pink), `empty` (a faint slot)."""
    surf = pygame.Surface((18, 24), pygame.SRCALPHA)
    rect = surf.get_rect()
    if state == "empty":
        pygame.draw.rect(surf, SLOT, rect, border_radius=2)
        text.draw(surf, rank_text(card), (9, 4), SLOT_TEXT, align="center")
        surf.blit(suit_icon(card // 13, 1, SLOT_TEXT), (7, 14))
        return surf
    face, ink = (PINK, PINK_DARK) if state == "killed" else (FACE, suit_color(card))
    pygame.draw.rect(surf, EDGE, rect, border_radius=2)
    pygame.draw.rect(surf, face, rect.inflate(-2, -2), border_radius=2)
    text.draw(surf, rank_text(card), (9, 3), ink, align="center")
    surf.blit(suit_icon(card // 13, 1, ink), (7, 13))
    if state == "killed":
        pygame.draw.line(surf, PINK_DARK, (3, 21), (14, 21))
    return surf


@functools.cache
def hand_card(card: int, dim: bool) -> pygame.Surface:
    """A card in the hand, 34x46: big rank and suit, dimmed when it cannot be played."""
    surf = pygame.Surface((34, 46), pygame.SRCALPHA)
    rect = surf.get_rect()
    face = FACE_DIM if dim else FACE
    ink = suit_color(card)
    if dim:
        r, g, b = ink
        ink = (int(r * 0.7 + 60), int(g * 0.7 + 60), int(b * 0.7 + 60))
    pygame.draw.rect(surf, EDGE, rect, border_radius=4)
    pygame.draw.rect(surf, face, rect.inflate(-2, -2), border_radius=3)
    label = rank_text(card)
    text.draw(surf, label, (4, 4), ink, scale=2)
    surf.blit(suit_icon(card // 13, 3, ink), (17 - GLYPH_W * 3 // 2, 22))
    return surf


@functools.cache
def mini_card(card: int, state: str) -> pygame.Surface:
    """A replay hand card, 15x22: `held`, or `gone` (played or killed: a ghost)."""
    surf = pygame.Surface((15, 22), pygame.SRCALPHA)
    rect = surf.get_rect()
    if state == "gone":
        pygame.draw.rect(surf, FELT_DARK, rect, 1, border_radius=2)
        return surf
    ink = suit_color(card)
    pygame.draw.rect(surf, EDGE, rect, border_radius=2)
    pygame.draw.rect(surf, FACE, rect.inflate(-2, -2), border_radius=2)
    text.draw(surf, rank_text(card), (8, 2), ink, align="center")
    surf.blit(suit_icon(card // 13, 1, ink), (5, 12))
    return surf


def frame(surface: pygame.Surface, rect: pygame.Rect, color: Color, width: int = 2) -> None:
    pygame.draw.rect(
        surface, pal.OUTLINE, rect.inflate(2 * width + 2, 2 * width + 2), 1, border_radius=3
    )
    pygame.draw.rect(surface, color, rect.inflate(2 * width, 2 * width), width, border_radius=3)


def badge(surface: pygame.Surface, center: tuple[int, int], color: Color, mark: str) -> None:
    """A small round mark on a hand card: `×` would kill, `!` in danger."""
    pygame.draw.circle(surface, pal.OUTLINE, center, 6)
    pygame.draw.circle(surface, color, center, 5)
    text.draw(surface, mark, (center[0] + 1, center[1] - 4), pal.WHITE, align="center")


@functools.cache
def face(kind: str, seat: int, size: int = 36) -> pygame.Surface:
    """A personality's face (or a person's token), drawn in code at `size` pixels."""
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size // 2
    r = size // 2 - 2
    k = size / 36
    tones = {
        "simpleton": (250, 214, 80),
        "cool": (120, 170, 240),
        "hitman": (150, 150, 160),
        "coward": (170, 220, 170),
        "brute": (236, 96, 80),
    }
    if kind == "random":  # one of the five, drawn per game: a question mark
        pygame.draw.circle(s, pal.OUTLINE, (c, c), r + 1)
        pygame.draw.circle(s, pal.PANEL_HI, (c, c), r)
        text.draw(s, "?", (c + 1, c - 7), pal.ACCENT, scale=2, align="center")
        return s
    if kind not in tones:  # a person: a round token in the seat's colour with its number
        pygame.draw.circle(s, pal.OUTLINE, (c, c), r + 1)
        pygame.draw.circle(s, SEAT_COLORS[seat], (c, c), r)
        text.draw(s, str(seat + 1), (c + 1, c - 7), pal.TEXT_DARK, scale=2, align="center")
        return s

    def p(x: float, y: float) -> tuple[int, int]:
        return (int(c + x * k), int(c + y * k))

    pygame.draw.circle(s, pal.OUTLINE, (c, c), r + 1)
    pygame.draw.circle(s, tones[kind], (c, c), r)
    dark = pal.OUTLINE
    if kind == "simpleton":  # crossed eyes, big open grin
        pygame.draw.circle(s, pal.WHITE, p(-6, -4), int(4 * k))
        pygame.draw.circle(s, pal.WHITE, p(6, -4), int(4 * k))
        pygame.draw.circle(s, dark, p(-4, -3), int(2 * k))
        pygame.draw.circle(s, dark, p(4, -3), int(2 * k))
        pygame.draw.ellipse(s, dark, (*p(-8, 4), int(16 * k), int(9 * k)))
        pygame.draw.rect(s, pal.WHITE, (*p(-5, 4), int(4 * k), int(3 * k)))
    elif kind == "cool":  # dark glasses, flat mouth
        pygame.draw.rect(s, dark, (*p(-11, -7), int(9 * k), int(6 * k)), border_radius=2)
        pygame.draw.rect(s, dark, (*p(2, -7), int(9 * k), int(6 * k)), border_radius=2)
        pygame.draw.line(s, dark, p(-2, -5), p(2, -5), 2)
        pygame.draw.line(s, dark, p(-5, 8), p(5, 8), 2)
    elif kind == "hitman":  # hat, narrow eyes, smirk
        pygame.draw.rect(s, dark, (*p(-15, -16), int(30 * k), int(6 * k)))
        pygame.draw.rect(s, dark, (*p(-9, -20), int(18 * k), int(6 * k)))
        pygame.draw.line(s, dark, p(-9, -3), p(-3, -3), 2)
        pygame.draw.line(s, dark, p(3, -3), p(9, -3), 2)
        pygame.draw.arc(s, dark, (*p(-4, 0), int(12 * k), int(10 * k)), 3.6, 5.6, 2)
    elif kind == "coward":  # raised brows, wobbly mouth, a drop of sweat
        pygame.draw.line(s, dark, p(-10, -9), p(-4, -11), 2)
        pygame.draw.line(s, dark, p(4, -11), p(10, -9), 2)
        pygame.draw.circle(s, dark, p(-6, -4), int(2 * k))
        pygame.draw.circle(s, dark, p(6, -4), int(2 * k))
        for i in range(4):
            pygame.draw.line(
                s, dark, p(-6 + 3 * i, 8 + (i % 2) * 2), p(-3 + 3 * i, 8 + ((i + 1) % 2) * 2), 2
            )
        pygame.draw.circle(s, (120, 190, 255), p(12, -8), int(3 * k))
    elif kind == "brute":  # angry brows, teeth
        pygame.draw.line(s, dark, p(-11, -10), p(-3, -6), 3)
        pygame.draw.line(s, dark, p(3, -6), p(11, -10), 3)
        pygame.draw.circle(s, dark, p(-6, -3), int(2 * k))
        pygame.draw.circle(s, dark, p(6, -3), int(2 * k))
        pygame.draw.rect(s, dark, (*p(-8, 4), int(16 * k), int(8 * k)))
        for i in range(4):
            pygame.draw.rect(s, pal.WHITE, (*p(-7 + 4 * i, 5), int(3 * k), int(3 * k)))
    return s


def felt(surface: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.rect(surface, pal.OUTLINE, rect.inflate(2, 2), border_radius=4)
    pygame.draw.rect(surface, FELT, rect, border_radius=3)
