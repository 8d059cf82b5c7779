"""How to play (P-GAME-7): seven pages, each a small board picture drawn here and a text."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.arimaa.scene import layout, sprites
from games.arimaa.scene import texts as tx

CELL = 20
GRID = 5
PIC = pygame.Rect(8, 24, CELL * GRID, CELL * GRID)
G, S = 0, 1
R, C, D, H, M, E = range(6)


@dataclass(frozen=True)
class Picture:
    """A 5x5 corner of a board: pieces at (col, row), arrows, traps, frozen marks."""

    pieces: dict[tuple[int, int], tuple[int, int]]
    arrows: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()
    traps: tuple[tuple[int, int], ...] = ()
    frozen: tuple[tuple[int, int], ...] = ()
    crossed: tuple[tuple[int, int], ...] = field(default_factory=tuple)


PICTURES: tuple[Picture, ...] = (
    Picture({(0, 2): (G, E), (1, 2): (G, M), (2, 2): (G, H), (3, 2): (G, D), (4, 2): (G, C),
             (2, 4): (G, R)}),
    Picture({(2, 2): (G, H), (1, 4): (G, R)},
            arrows=(((2, 2), (2, 1)), ((2, 2), (3, 2)), ((1, 4), (1, 3)))),
    Picture({(2, 2): (G, E), (2, 1): (S, D)}, arrows=(((2, 1), (3, 1)), ((2, 2), (2, 1)))),
    Picture({(2, 2): (G, M), (2, 1): (S, H)}, arrows=(((2, 2), (2, 3)), ((2, 1), (2, 2)))),
    Picture({(2, 2): (G, C), (2, 1): (S, D), (3, 3): (G, R), (4, 3): (G, D), (0, 3): (S, E)},
            frozen=((2, 2),)),
    Picture({(2, 2): (S, C), (2, 1): (G, H)}, traps=((2, 2),), arrows=(((3, 2), (2, 2)),),
            crossed=((2, 2),)),
    Picture({(2, 1): (G, R)}, arrows=(((2, 1), (2, 0)),)),
)
GOAL_ROW = 6  # the page whose picture marks the far row


def hotspots() -> dict[str, pygame.Rect]:
    return {
        "button:prev": layout.HELP_PREV_RECT,
        "button:close": layout.HELP_CLOSE_RECT,
        "button:next": layout.HELP_NEXT_RECT,
    }


def draw_help(surf: pygame.Surface, tr: tx.Tr, page: int) -> None:
    widgets.background(surf, (34, 30, 28), (40, 35, 32))
    title, body = tx.HELP_PAGES[page]
    text.draw(surf, f"{tr(*title)}  {page + 1}/{len(tx.HELP_PAGES)}", (8, 6), pal.ACCENT,
              shadow=pal.OUTLINE)
    _picture(surf, PICTURES[page], page == GOAL_ROW)
    y = PIC.y
    for line in text.wrap(tr(*body), 256 - PIC.right - 14):
        text.draw(surf, line, (PIC.right + 8, y), pal.TEXT)
        y += text.LINE_H + 2
    widgets.button(surf, layout.HELP_PREV_RECT, tr(*tx.PREV), disabled=page == 0)
    widgets.button(surf, layout.HELP_CLOSE_RECT, tr(*tx.CLOSE), face=pal.BUTTON_LO)
    widgets.button(surf, layout.HELP_NEXT_RECT, tr(*tx.NEXT),
                   disabled=page == len(tx.HELP_PAGES) - 1)


def _cell(col: int, row: int) -> pygame.Rect:
    return pygame.Rect(PIC.x + col * CELL, PIC.y + row * CELL, CELL, CELL)


def _picture(surf: pygame.Surface, pic: Picture, goal_row: bool) -> None:
    pygame.draw.rect(surf, (90, 70, 50), PIC.inflate(4, 4))
    for col in range(GRID):
        for row in range(GRID):
            surf.blit(sprites.square((col, row) in pic.traps, CELL), _cell(col, row))
    if goal_row:
        for col in range(GRID):
            pygame.draw.rect(surf, pal.OK, _cell(col, 0).inflate(-2, -2), 2)
    for (col, row), (side, kind) in pic.pieces.items():
        rect = _cell(col, row)
        surf.blit(sprites.piece(side, kind, 18), rect.move(1, 1))
        if (col, row) in pic.frozen:
            sprites.frozen_mark(surf, rect)
    for (a, b) in pic.arrows:
        _arrow(surf, _cell(*a).center, _cell(*b).center)
    for cell in pic.crossed:
        sprites.target_mark(surf, _cell(*cell), True)


def _arrow(surf: pygame.Surface, a: tuple[int, int], b: tuple[int, int]) -> None:
    """From the edge of the moving piece to the middle of its target square."""
    color = sprites.PUSH
    dx, dy = (b[0] - a[0]) // CELL, (b[1] - a[1]) // CELL
    start = (a[0] + dx * 7, a[1] + dy * 7)
    tip = (b[0] + dx * 3, b[1] + dy * 3)
    pygame.draw.line(surf, color, start, tip, 2)
    left = (tip[0] - dx * 5 - dy * 4, tip[1] - dy * 5 - dx * 4)
    right = (tip[0] - dx * 5 + dy * 4, tip[1] - dy * 5 + dx * 4)
    pygame.draw.polygon(surf, color, (tip, left, right))
