"""Where everything sits on the two 256x192 screens (lower: board and buttons; upper: info).

One place for the geometry, so the drawing code, the hotspots (touch, D-pad cursor, dump)
and the tests agree to the pixel.
"""

from __future__ import annotations

import pygame

from games.reversi.rules.notation import square_name

CELL = 18  # square size in pixels
BOARD_X, BOARD_Y = 56, 10  # top-left of square a1
BOARD_RECT = pygame.Rect(BOARD_X, BOARD_Y, 8 * CELL, 8 * CELL)
# The wooden frame: wide enough at the top and left for the coordinates a-h and 1-8.
FRAME_RECT = pygame.Rect(BOARD_X - 10, 0, 8 * CELL + 20, 8 * CELL + 14)

BUTTON_Y, BUTTON_H = 159, 32  # restart and hint buttons: same height (R-REV-VIEW-4)
RESTART_RECT = pygame.Rect(30, BUTTON_Y, 94, BUTTON_H)
HINT_RECT = pygame.Rect(132, BUTTON_Y, 94, BUTTON_H)

# Replay controls under the board: first, back, forward, last.
REPLAY_RECTS = {
    name: pygame.Rect(28 + i * 52, BUTTON_Y, 44, BUTTON_H)
    for i, name in enumerate(("first", "back", "forward", "last"))
}

RESULT_PANEL = pygame.Rect(44, 48, 168, 96)  # centred on the lower screen (R-REV-VIEW-6)
PLAY_AGAIN_RECT = pygame.Rect(78, 110, 100, 24)


def square_rect(index: int) -> pygame.Rect:
    """Screen rectangle of square `index` (0 = a1, 7 = h1, 63 = h8)."""
    row, col = divmod(index, 8)
    return pygame.Rect(BOARD_X + col * CELL, BOARD_Y + row * CELL, CELL, CELL)


SQUARE_RECTS: dict[str, pygame.Rect] = {square_name(i): square_rect(i) for i in range(64)}


def square_at(x: int, y: int) -> str | None:
    """The square under a lower-screen point, if any."""
    if not BOARD_RECT.collidepoint(x, y):
        return None
    col, row = (x - BOARD_X) // CELL, (y - BOARD_Y) // CELL
    return square_name(row * 8 + col)
