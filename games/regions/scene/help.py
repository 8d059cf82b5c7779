"""How to play (P-GAME-7): a few pages, text on the upper screen, a picture drawn by the game
on the lower one. Opened with the "?" button on the surface list and in play."""

from __future__ import annotations

from collections.abc import Callable
from math import cos, pi, sin

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.regions.scene import layout
from games.regions.scene import surfaces as srf
from games.regions.scene.surface_view import THREE, SurfaceView, draw_surface

Tr = Callable[[str, str], str]

PAGES: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = (
    (
        ("Selecting a point", "てんを えらぶ"),
        (
            "Tap a red connecting point: every game region touching it switches between "
            "white and grey. Make every region grey to clear the puzzle. The time and the "
            "number of selections are your score.",
            "あかい てんを タッチすると、その てんに ふれている りょういきが ぜんぶ しろ と "
            "はいいろ で いれかわる。ぜんぶ はいいろに すれば クリア。タイムと かいすうが きろく。",
        ),
    ),
    (
        ("Help when stuck", "こまったら"),
        (
            "Hint rings one point of a shortest solution; Solution marks all of them; Undo "
            "takes the last selection back. Every puzzle here can be solved: knot theory "
            "proves it, and the game checks it for every surface.",
            "ヒントは いちばん みじかい こたえの てんを 1つ、こたえは ぜんぶを しめす。"
            "もどすで ひとつ もどる。どの もんだいも かならず とける(むすびめ りろん)。",
        ),
    ),
    (
        ("Draw your own", "じぶんで かく"),
        (
            "Draw one closed curve in one stroke and come back to where you started. Each "
            "crossing becomes a game region. Three strands through one spot, or a curve "
            "that only touches itself, is refused and marked in red.",
            "ひとふでで とじた せんを かいて、はじめの ところに もどろう。こうさが りょういきに "
            "なる。3ほんが 1かしょで まじわる、ふれるだけ は だめ(あかい しるし)。",
        ),
    ),
    (
        ("Three states", "3しょく ルール"),
        (
            "With the three-state rule a selection turns B or C into A, and A into B and C "
            "in turn (A, B, A, C, ...) or at random. Make every region the goal state. Only "
            "starts proven solvable are offered.",
            "3しょく ルール: えらぶと B と C は A に、A は B と C に こうごに(または ランダムに) "
            "かわる。ぜんぶ ゴールの いろに しよう。とける パターン だけが でる。",
        ),
    ),
)


def draw_top(top: pygame.Surface, tr: Tr, page: int) -> None:
    title, body = PAGES[page]
    widgets.background(top)
    widgets.title_bar(top, tr("How to play", "あそびかた"), f"{page + 1}/{len(PAGES)}")
    heading = tr(*title)
    rect = text.draw(top, heading, (10, 24), pal.ACCENT, scale=2 if text.size(heading)[1]
                     <= text.GLYPH_H else 1)
    y = rect.bottom + 8
    for line in text.wrap(tr(*body), 236):
        text.draw(top, line, (10, y), pal.TEXT)
        y += text.LINE_H + 3


def draw_bottom(bottom: pygame.Surface, tr: Tr, page: int, tick: int) -> None:
    bottom.fill((212, 222, 236))
    chosen = srf.catalogue_surface("3_1")
    if page in (0, 1):
        cells = (1, 0, 1) if (tick // 60) % 2 == 0 or page == 1 else (0, 1, 0)
        view = SurfaceView(
            chosen.surface,
            chosen.drawing,
            "classic",
            cells,
            selectable=frozenset(range(chosen.surface.point_count)),
            hint=0 if page == 1 else None,
            solution={0: 1, 1: 1} if page == 1 else {},
            ripple=(4, (tick // 4) % 8) if page == 0 else None,
            tick=tick,
        )
        draw_surface(bottom, view)
    elif page == 2:
        bottom.fill((244, 242, 232), layout.DRAW_RECT)
        shown = min(160, (tick % 200))
        pts = []
        for i in range(shown + 1):
            t = 2 * pi * i / 160
            pts.append(
                (128 + 24 * (sin(t) + 2 * sin(2 * t)), 84 + 24 * (cos(t) - 2 * cos(2 * t)))
            )
        if len(pts) >= 2:
            pygame.draw.lines(bottom, (36, 46, 78), False, pts, 2)
        pygame.draw.circle(bottom, (60, 170, 90), (128, 60), 6, 2)
    else:
        x = 28
        for i, state in enumerate((0, 1, 0, 2, 0)):
            rect = pygame.Rect(x + i * 42, 60, 32, 32)
            pygame.draw.rect(bottom, THREE[state], rect)
            pygame.draw.rect(bottom, pal.OUTLINE, rect, 2)
            text.draw(bottom, "ABC"[state], rect.center, pal.TEXT_DARK, scale=2, align="center")
            if i < 4:
                text.draw(bottom, ">", (rect.right + 5, rect.y + 12), pal.TEXT_DARK)
        text.draw(bottom, tr("one region, selected again and again",
                             "1つの りょういきを くりかえし えらぶと"), (128, 106),
                  pal.TEXT_DARK, align="center")
    pygame.draw.rect(bottom, pal.PANEL_LO, (0, int(layout.SURFACE_RECT[3]), 256, 24))
    labels = {"button:help-prev": "<", "button:help-next": ">",
              "button:help-close": tr("Close", "とじる")}
    for name, rect in layout.HELP_BUTTONS.items():
        off = (name == "button:help-prev" and page == 0) or (
            name == "button:help-next" and page == len(PAGES) - 1)
        widgets.button(bottom, rect, labels[name], disabled=off)
