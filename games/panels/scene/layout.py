"""Where everything sits on the 256x192 lower screen (R-PAN-VIEW): the 8x8 field of 22-pixel
squares on the left, the stock, item field and buttons in the column on the right."""

from __future__ import annotations

import pygame

CELL = 22
FIELD_X, FIELD_Y = 4, 8
STOCK_X, STOCK_Y = 186, 16  # three cards on the first row, two on the second
STOCK_GAP = 1
ITEM_Y = 80
ITEM_W, ITEM_H = 21, 18
BUTTONS_X, BUTTONS_W = 186, 66
DETERMINE_RECT = pygame.Rect(BUTTONS_X, 124, BUTTONS_W, 26)
BACK_RECT = pygame.Rect(BUTTONS_X, 154, 44, 20)
HELP_RECT = pygame.Rect(BUTTONS_X + 48, 154, 18, 20)
PLUS_RECT = pygame.Rect(BUTTONS_X, 98, 32, 20)
MINUS_RECT = pygame.Rect(BUTTONS_X + 34, 98, 32, 20)
PLAY_AGAIN_RECT = pygame.Rect(74, 128, 108, 22)
REPLAY_RECTS = {
    "first": pygame.Rect(BUTTONS_X, 124, 32, 22),
    "last": pygame.Rect(BUTTONS_X + 34, 124, 32, 22),
    "back": pygame.Rect(BUTTONS_X, 150, 32, 22),
    "forward": pygame.Rect(BUTTONS_X + 34, 150, 32, 22),
}
REPLAY_HELP_RECT = pygame.Rect(BUTTONS_X + 48, 100, 18, 20)
HOWTO_NEXT_RECT = pygame.Rect(196, 166, 54, 20)
HOWTO_PREV_RECT = pygame.Rect(6, 166, 54, 20)
HOWTO_CLOSE_RECT = pygame.Rect(100, 166, 56, 20)
OPPONENT_ORIGIN = (FIELD_X + 8 * CELL // 2, -CELL)  # the opponent's cards come from above


def square_rect(row: int, col: int) -> pygame.Rect:
    return pygame.Rect(FIELD_X + col * CELL, FIELD_Y + row * CELL, CELL, CELL)


def field_rect(rows: int, cols: int) -> pygame.Rect:
    return pygame.Rect(FIELD_X, FIELD_Y, cols * CELL, rows * CELL)


def stock_rect(index: int) -> pygame.Rect:
    row, col = divmod(index, 3)
    x = STOCK_X + col * (CELL + STOCK_GAP) + (CELL // 2 + 1 if row else 0)
    return pygame.Rect(x, STOCK_Y + row * (CELL + 4), CELL, CELL)


def item_rect(slot: int) -> pygame.Rect:
    return pygame.Rect(BUTTONS_X + slot * (ITEM_W + 1), ITEM_Y, ITEM_W, ITEM_H)
