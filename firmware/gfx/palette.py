"""The firmware's colours: one theme so every system screen looks like the same machine."""

from __future__ import annotations

BG = (18, 22, 38)
BG_STRIPE = (24, 29, 50)
PANEL = (36, 43, 70)
PANEL_HI = (58, 68, 108)
PANEL_LO = (22, 26, 44)
OUTLINE = (8, 10, 18)
TEXT = (236, 240, 248)
TEXT_DIM = (146, 156, 184)
TEXT_DARK = (20, 22, 30)
ACCENT = (255, 196, 64)
ACCENT_LO = (196, 132, 24)
TEAL = (72, 204, 204)
OK = (104, 212, 120)
DANGER = (232, 76, 72)
BUTTON = (70, 84, 132)
BUTTON_HI = (104, 122, 180)
BUTTON_LO = (44, 52, 86)
CURSOR = (255, 232, 96)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
