"""The battery on the top screen (P-HW-8): a small pixel-art icon drawn in code, crisp at
256x192 (whole pixels only, no scaling, no anti-aliasing), and the banner that warns.

The icon sits in the bottom-right corner on a dark backing, on the system's own screens
(launcher, settings, setup, menus): there that corner is free (the top corners hold titles
and the computer's thinking badge; tests/project/test_battery_corner.py checks that no text
of those screens lies under it in either language). A game owns its whole screen (Killing
Sevens and Panel Link write scores into that corner), so during play the icon is not drawn
and only the warnings show. It is a 12x7 body with a 1x3 terminal, ten one-pixel columns of
charge (green, yellow at the low threshold, red at the critical one) and, while charging, a
5x7 bolt.
"""

from __future__ import annotations

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets

ICON = pygame.Rect(256 - 23, 192 - 12, 22, 11)  # the backing while charging (with the bolt)
BOLT = ("..##.", ".##..", "####.", ".####", "..##.", ".##..", "##...")


def icon_rect(charging: bool) -> pygame.Rect:
    """Where the icon draws: narrower without the bolt (its right edge stays put)."""
    return ICON if charging else pygame.Rect(ICON.right - 17, ICON.y, 17, ICON.h)


def draw_icon(
    surface: pygame.Surface, level: int, charging: bool, low: int, critical: int
) -> None:
    """The battery icon in the bottom-right corner for a charge of `level` percent."""
    backing = icon_rect(charging)
    surface.fill(pal.OUTLINE, backing)
    x, y = backing.x + 2, backing.y + 2
    frame = pal.TEXT
    surface.fill(frame, (x, y, 12, 1))
    surface.fill(frame, (x, y + 6, 12, 1))
    surface.fill(frame, (x, y, 1, 7))
    surface.fill(frame, (x + 11, y, 1, 7))
    surface.fill(frame, (x + 12, y + 2, 1, 3))  # the terminal
    color = pal.DANGER if level <= critical else pal.ACCENT if level <= low else pal.OK
    columns = min(10, max(1 if level > 0 else 0, (level * 10 + 5) // 100))
    if columns:
        surface.fill(color, (x + 1, y + 1, columns, 5))
    if charging:
        for row, line in enumerate(BOLT):
            for col, dot in enumerate(line):
                if dot == "#":
                    surface.fill(pal.ACCENT, (x + 14 + col, y + row, 1, 1))


def draw_banner(surface: pygame.Surface, message: str, color: text.Color) -> None:
    """A warning across the top screen's middle, wrapped to fit its panel."""
    lines = text.wrap(message, 200)[:3]
    pitch = text.line_pitch(lines)
    box = pygame.Rect(20, 0, 216, 16 + pitch * len(lines))
    box.centery = 96
    widgets.panel(surface, box, pal.PANEL_LO)
    pygame.draw.rect(surface, color, box, 1)
    text.draw_block(surface, lines, (128, box.y + 9), color, align="center")
