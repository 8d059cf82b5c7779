"""Where things are on Region Select's screens (lower-screen pixels)."""

from __future__ import annotations

import pygame

SURFACE_RECT = (0.0, 0.0, 256.0, 168.0)  # the game surface; the button bar is below it
BAR_Y = 170
BAR_H = 20
REACH = 12.0  # a tap selects the nearest point within this many pixels
REACH_LARGE = 18.0
POINT_R = 5
POINT_R_LARGE = 7

# play: undo, hint, show solution
PLAY_BUTTONS = {
    "button:undo": pygame.Rect(4, BAR_Y, 62, BAR_H),
    "button:hint": pygame.Rect(70, BAR_Y, 62, BAR_H),
    "button:solution": pygame.Rect(136, BAR_Y, 80, BAR_H),
    "button:help": pygame.Rect(220, BAR_Y, 32, BAR_H),
}
HELP_LIST_BUTTON = pygame.Rect(226, 1, 28, 14)  # "?" in the surface list's title bar
HELP_BUTTONS = {
    "button:help-prev": pygame.Rect(4, BAR_Y, 60, BAR_H),
    "button:help-next": pygame.Rect(70, BAR_Y, 60, BAR_H),
    "button:help-close": pygame.Rect(172, BAR_Y, 80, BAR_H),
}

# the clear screen's three choices
CLEAR_BUTTONS = {
    "choice:another": pygame.Rect(28, 84, 200, 22),
    "choice:new-pattern": pygame.Rect(28, 112, 200, 22),
    "choice:quit": pygame.Rect(28, 140, 200, 22),
}

# the surface list: rows, paging, random surface, draw your own
ROWS = 6
ROW_Y = 19
ROW_H = 22
LIST_BUTTONS = {
    "choice:page:prev": pygame.Rect(2, 160, 26, 28),
    "choice:page:next": pygame.Rect(30, 160, 26, 28),
    "choice:random:less": pygame.Rect(62, 160, 20, 28),
    "choice:random": pygame.Rect(84, 160, 70, 28),
    "choice:random:more": pygame.Rect(156, 160, 20, 28),
    "choice:draw": pygame.Rect(182, 160, 72, 28),
}


def row_rect(slot: int) -> pygame.Rect:
    return pygame.Rect(2, ROW_Y + slot * ROW_H, 252, ROW_H - 2)


# the pattern choice, under a preview of the surface
PATTERN_BUTTONS = {
    "choice:back": pygame.Rect(2, BAR_Y, 40, BAR_H),
    "choice:pattern:less10": pygame.Rect(44, BAR_Y, 26, BAR_H),
    "choice:pattern:less": pygame.Rect(72, BAR_Y, 22, BAR_H),
    "choice:pattern:more": pygame.Rect(96, BAR_Y, 22, BAR_H),
    "choice:pattern:more10": pygame.Rect(120, BAR_Y, 26, BAR_H),
    # (wide enough for ランダム and スタート, 48 pixels, inside their frames)
    "choice:pattern:random": pygame.Rect(148, BAR_Y, 52, BAR_H),
    "choice:start": pygame.Rect(202, BAR_Y, 52, BAR_H),
}

# drawing a curve
DRAW_RECT = pygame.Rect(0, 0, 256, 168)
DRAW_BUTTONS = {
    "choice:back": pygame.Rect(2, BAR_Y, 60, BAR_H),
    "choice:draw:clear": pygame.Rect(98, BAR_Y, 60, BAR_H),
}

# replaying a stored clear
REPLAY_BUTTONS = {
    "button:first": pygame.Rect(4, BAR_Y, 56, BAR_H),
    "button:back": pygame.Rect(68, BAR_Y, 56, BAR_H),
    "button:forward": pygame.Rect(132, BAR_Y, 56, BAR_H),
    "button:last": pygame.Rect(196, BAR_Y, 56, BAR_H),
}
