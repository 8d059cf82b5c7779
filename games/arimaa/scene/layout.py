"""Where everything is on the lower screen (bottom-screen pixels)."""

from __future__ import annotations

import pygame

from games.arimaa.rules.position import NAMED_SETUPS

SQ = 22  # square size: 8 x 22 = 176
BOARD_X, BOARD_Y = 4, 2
BOARD_RECT = pygame.Rect(BOARD_X, BOARD_Y, 8 * SQ, 8 * SQ)
MESSAGE_Y = BOARD_Y + 8 * SQ + 2  # the one-line message strip under the board
PANEL_X = 186
PANEL_W = 66


def square_rect(sq: int, bottom_side: int) -> pygame.Rect:
    """The rect of square `sq` (a1 = 0) with `bottom_side` (0 gold, 1 silver) nearest."""
    rank, file = divmod(sq, 8)
    if bottom_side == 0:
        col, row = file, 7 - rank
    else:
        col, row = 7 - file, rank
    return pygame.Rect(BOARD_X + col * SQ, BOARD_Y + row * SQ, SQ, SQ)


def _panel_button(index: int, height: int = 26, gap: int = 4, top: int = 2) -> pygame.Rect:
    return pygame.Rect(PANEL_X, top + index * (height + gap), PANEL_W, height)


UNDO_RECT = _panel_button(0)
DONE_RECT = _panel_button(1)
STEPS_RECT = pygame.Rect(PANEL_X, 64, PANEL_W, 44)  # steps left (drawn, not a button)
RESIGN_RECT = _panel_button(4, top=4)
HELP_RECT = _panel_button(5, top=4)

SETUP_CHOICES: tuple[str, ...] = (*(n.replace(" ", "-") for n in NAMED_SETUPS), "random", "last")
SETUP_RECTS: dict[str, pygame.Rect] = {
    name: pygame.Rect(PANEL_X, 2 + i * 21, PANEL_W, 18) for i, name in enumerate(SETUP_CHOICES)
}
OK_RECT = pygame.Rect(PANEL_X, 2 + len(SETUP_CHOICES) * 21 + 4, PANEL_W, 26)

RESULT_PANEL = pygame.Rect(20, 50, 216, 96)
PLAY_AGAIN_RECT = pygame.Rect(34, 112, 88, 24)
BACK_RECT = pygame.Rect(134, 112, 88, 24)

HELP_PREV_RECT = pygame.Rect(8, 164, 70, 24)
HELP_CLOSE_RECT = pygame.Rect(93, 164, 70, 24)
HELP_NEXT_RECT = pygame.Rect(178, 164, 70, 24)

REPLAY_RECTS: dict[str, pygame.Rect] = {
    name: pygame.Rect(PANEL_X, 2 + i * 30, PANEL_W, 26)
    for i, name in enumerate(("first", "back", "forward", "last"))
}
