"""Where everything sits on the two 256x192 screens.

Upper screen: a status strip, the 4x13 table (cells 18x24 on a 19x25 pitch: every rank and
suit readable) and the information area (one row per player).

Lower screen: the talk area (a face and a speech bubble), a status line, the hand and a
button row. The hand is **two rows of up to seven full-size cards** (34x46, no overlap): all
13 cards stay fully visible, each a 34x46 stylus target (larger than any fan or overlap
would give on 256 pixels), and no scrolling hides a card. The first row holds the lower half
of the hand in card order, so suits run left to right, top to bottom.
"""

from __future__ import annotations

import pygame

from firmware.gfx import text

SLIDE_TICKS = 10  # a card played travels this long from its player's row to its place

# ---------------------------------------------------------------- upper screen
# The status strip holds a Japanese line (rows 1-12) above the table's felt.
TABLE_X, TABLE_Y = 5, 16
CELL_W, CELL_H = 18, 24
PITCH_X, PITCH_Y = 19, 25
TABLE_RECT = pygame.Rect(TABLE_X - 3, TABLE_Y - 3, 13 * PITCH_X + 5, 4 * PITCH_Y + 5)
INFO_Y = 123  # the header's Latin capitals (a Japanese header rises 3 rows, to 120)
INFO_ROW_H = 14
INFO_RECT = pygame.Rect(2, INFO_Y - 5, 252, 192 - INFO_Y + 4)
INFO_COLS = {"name": 22, "left": 140, "killed": 170, "kills": 203, "out": 236}


def info_row_y(seat: int) -> int:
    """The Latin capitals' top of a seat's row in the information area."""
    return INFO_Y + 13 + seat * INFO_ROW_H


def strip_top(line: str) -> int:
    """The top of the status strip's line: a Japanese one (12 rows) a little higher, so it
    stays clear of the screen's edge and of the table."""
    return 1 if text.is_tall(line) else 3


def cell_rect(card: int) -> pygame.Rect:
    row, col = divmod(card, 13)
    return pygame.Rect(TABLE_X + col * PITCH_X, TABLE_Y + row * PITCH_Y, CELL_W, CELL_H)


# ---------------------------------------------------------------- lower screen
TALK_RECT = pygame.Rect(0, 0, 256, 50)
FACE_POS = (4, 6)
BUBBLE_RECT = pygame.Rect(46, 3, 206, 44)
STATUS_Y = 53
HAND_Y = 66
CARD_W, CARD_H = 34, 46
HAND_PITCH_X, HAND_PITCH_Y = 36, 50
PER_ROW = 7
BUTTON_ROW = pygame.Rect(0, 166, 256, 26)
PASS_RECT = pygame.Rect(88, 167, 80, 22)


def hand_rects(count: int) -> list[pygame.Rect]:
    """Rects of `count` cards in two centred rows (7 on top, the rest below)."""
    rows = [min(count, PER_ROW), max(0, count - PER_ROW)]
    out = []
    for r, n in enumerate(rows):
        x0 = (256 - (n * HAND_PITCH_X - 2)) // 2
        for i in range(n):
            out.append(
                pygame.Rect(x0 + i * HAND_PITCH_X, HAND_Y + r * HAND_PITCH_Y, CARD_W, CARD_H)
            )
    return out


# dialogs
DIALOG_ROWS_Y = 20
DIALOG_ROW_H = 22
CHOICE_RECT_X, CHOICE_RECT_W = 180, 70
OK_RECT = pygame.Rect(168, 166, 80, 22)
HANDOFF_OK_RECT = pygame.Rect(88, 120, 80, 26)
PLAY_AGAIN_RECT = pygame.Rect(4, 166, 80, 22)
MEMBERS_RECT = pygame.Rect(88, 166, 80, 22)
RESET_RECT = pygame.Rect(172, 166, 80, 22)
REPLAY_BUTTONS = {
    "first": pygame.Rect(8, 166, 54, 22),
    "back": pygame.Rect(70, 166, 54, 22),
    "forward": pygame.Rect(132, 166, 54, 22),
    "last": pygame.Rect(194, 166, 54, 22),
}


def choice_rect(row: int) -> pygame.Rect:
    return pygame.Rect(
        CHOICE_RECT_X, DIALOG_ROWS_Y + row * (DIALOG_ROW_H + 2), CHOICE_RECT_W, DIALOG_ROW_H
    )
