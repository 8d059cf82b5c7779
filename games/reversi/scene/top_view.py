"""The upper screen: scoreboard (disc pictures and counts, the leader's count in red), the
"(disc) to move" indicator in its middle, the message area and the move list."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.reversi.scene import sprites
from games.reversi.scene import texts as tx
from games.reversi.scene.bottom_view import disc_sentence
from games.reversi.scene.texts import Tr

SCORE_RECT = pygame.Rect(4, 4, 248, 56)
MESSAGE_RECT = pygame.Rect(4, 63, 248, 20)
MOVES_RECT = pygame.Rect(4, 86, 248, 102)
# Where each side's count is drawn (tests sample these for the red leader colour).
COUNT_POS = {"black": (36, 12), "white": (220, 12)}
COUNT_SCALE = 3
TURN_Y = 24  # centre line of "(disc) to move"
MOVE_COLS, MOVE_ROWS, MOVE_W, MOVE_H = 4, 8, 60, 10


@dataclass
class TopView:
    """What the upper screen shows this frame."""

    score: dict[str, int]
    turn: str | None
    names: dict[str, str]
    message: str  # sentence text after the disc picture (or plain text)
    message_color: str | None  # the disc drawn before the message, if any
    moves: list[tuple[str, str]]  # (colour, square) per placed disc
    thinking: int | None = None  # dots after "Thinking" (1-3) while the computer thinks
    highlight: int | None = None  # index of the move shown in a replay
    title: str = ""
    tip: str = ""  # a quiet line for the message area when there is no event


@functools.cache
def _backdrop() -> pygame.Surface:
    surf = pygame.Surface((256, 192))
    widgets.background(surf, sprites.TABLE, sprites.TABLE_STRIPE)
    widgets.panel(surf, SCORE_RECT, (44, 60, 56))
    widgets.panel(surf, MESSAGE_RECT, (30, 44, 40))
    widgets.panel(surf, MOVES_RECT, (30, 44, 40))
    return surf


def draw_top(surf: pygame.Surface, tr: Tr, view: TopView) -> None:
    surf.blit(_backdrop(), (0, 0))
    _scoreboard(surf, tr, view)
    _message(surf, view)
    _moves(surf, tr, view)


def count_color(score: dict[str, int], color: str) -> tuple[int, int, int]:
    other = "white" if color == "black" else "black"
    return sprites.RED if score[color] > score[other] else pal.TEXT


def _scoreboard(surf: pygame.Surface, tr: Tr, view: TopView) -> None:
    score = view.score
    for color in ("black", "white"):
        cx, cy = COUNT_POS[color]
        left = color == "black"
        disc_x = 10 if left else 230
        surf.blit(sprites.shadow(), (disc_x + 1, 11))
        surf.blit(sprites.disc(color), (disc_x, 10))
        text.draw(
            surf,
            str(score[color]),
            (cx, cy),
            count_color(score, color),
            scale=COUNT_SCALE,
            align="left" if left else "right",
            shadow=pal.OUTLINE,
        )
        name_x = 10 if left else 246
        text.draw(
            surf, view.names[color], (name_x, 41), pal.TEXT_DIM, align="left" if left else "right"
        )
        if view.turn == color:  # a little marker under the side to move
            pygame.draw.rect(surf, pal.ACCENT, (disc_x + 2, 28, 12, 2))
    if view.title:
        # a Japanese title (12 rows) starts higher, clear of the sentence under it
        top = 2 if text.is_tall(view.title) else 7
        text.draw(surf, view.title, (128, top), pal.ACCENT, align="center", valign="top")
    if view.turn is not None:
        disc_sentence(surf, view.turn, tr(*tx.TO_MOVE), (128, TURN_Y), pal.TEXT)
        if view.thinking is not None:
            dots = "." * view.thinking
            text.draw(surf, tr(*tx.THINKING) + dots, (128 - 28, 38), pal.TEAL)


def _message(surf: pygame.Surface, view: TopView) -> None:
    center = (MESSAGE_RECT.centerx, MESSAGE_RECT.centery)
    if view.message_color is not None:
        disc_sentence(surf, view.message_color, view.message, center, pal.ACCENT)
    elif view.message:
        y = center[1] - text.size(view.message)[1] // 2
        text.draw(surf, view.message, (center[0], y), pal.ACCENT, align="center", valign="top")
    elif view.tip:
        y = center[1] - text.size(view.tip)[1] // 2
        text.draw(surf, view.tip, (center[0], y), pal.TEXT_DIM, align="center", valign="top")


def _moves(surf: pygame.Surface, tr: Tr, view: TopView) -> None:
    r = MOVES_RECT
    text.draw(surf, tr(*tx.MOVES_TITLE), (r.x + 8, r.y + 4), pal.TEXT_DIM)
    total = len(view.moves)
    focus = view.highlight if view.highlight is not None else total - 1
    first_row = max(0, focus // MOVE_COLS - (MOVE_ROWS - 1))  # scroll to keep the focus shown
    for i in range(first_row * MOVE_COLS, min(total, (first_row + MOVE_ROWS) * MOVE_COLS)):
        color, square = view.moves[i]
        row, col = divmod(i - first_row * MOVE_COLS, MOVE_COLS)
        x, y = r.x + 8 + col * MOVE_W, r.y + 21 + row * MOVE_H
        current = i == focus
        if current:
            pygame.draw.rect(surf, (70, 96, 84), (x - 2, y - 2, MOVE_W - 4, MOVE_H))
        text.draw(surf, f"{i + 1:2d}", (x, y), pal.TEXT_DIM)
        surf.blit(sprites.small_disc(color, 7), (x + 14, y))
        text.draw(surf, square, (x + 24, y), pal.ACCENT if current else pal.TEXT)
