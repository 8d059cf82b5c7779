"""Region Select's lower screen for every phase: the surface list, the drawing pad, the
surface with its buttons, the clear dialog. Drawn from a `BottomView` the scene builds each
frame (the drawing reads nothing else, changes nothing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.regions.records import Best
from games.regions.rules.catalogue import entry
from games.regions.rules.play import Puzzle
from games.regions.scene import layout
from games.regions.scene import surfaces as srf
from games.regions.scene.surface_view import GREY, WHITE, SurfaceView, draw_surface
from games.regions.scene.top_view import CLEAR_BG, clock, working


@dataclass(frozen=True)
class BottomView:
    """What the lower screen shows this frame. Fields a phase does not show keep their
    defaults."""

    tr: Callable[[str, str], str]
    phase: str  # "choose", "draw", "play", "clear" or "replay"
    step: str  # choose: "surface" list or "pattern"
    age: int
    busy: bool  # a surface is being made or a pattern searched ("working")
    surface: SurfaceView | None = None  # the pattern preview or the puzzle
    puzzle: Puzzle | None = None  # playing (Undo needs a move to take back)
    partner: Puzzle | None = None  # clear, in a race
    race_won: bool = False
    clear_buttons: dict[str, pygame.Rect] = field(default_factory=dict)
    replay_ends: tuple[bool, bool] | None = None  # (at start, at end) of a replay
    page: int = 0  # the surface list
    pages: int = 0
    random_n: int = 0
    surface_bests: dict[str, Best | None] = field(default_factory=dict)  # this page's rows
    stroke: tuple[tuple[int, int], ...] = ()  # drawing a curve
    mark: tuple[float, float] | None = None


def draw_bottom(bottom: pygame.Surface, view: BottomView) -> None:
    tr = view.tr
    if view.phase == "draw":
        _bottom_draw(bottom, view)
    elif view.phase == "choose" and view.step == "surface":
        _bottom_list(bottom, view)
    else:
        _bottom_surface(bottom, view)
    if view.busy:
        widgets.dim(bottom, 90)
        working(bottom, view.age, view.tr("working", "けいさんちゅう"))
    del tr


def _bar(bottom: pygame.Surface) -> None:
    pygame.draw.rect(bottom, pal.PANEL_LO, (0, int(layout.SURFACE_RECT[3]), 256, 24))


def _bottom_surface(bottom: pygame.Surface, view: BottomView) -> None:
    tr = view.tr
    _bar(bottom)
    if view.surface is not None:
        draw_surface(bottom, view.surface)
    if view.phase == "play":
        puzzle = view.puzzle
        assert puzzle is not None
        labels = {
            "button:undo": tr("Undo", "もどす"),
            "button:hint": tr("Hint", "ヒント"),
            "button:solution": tr("Solution", "こたえ"),
            "button:help": "?",
        }
        for name, rect in layout.PLAY_BUTTONS.items():
            disabled = name == "button:undo" and not puzzle.moves
            widgets.button(bottom, rect, labels[name], disabled=disabled)
    elif view.phase == "replay":
        labels = {"button:first": "|<", "button:back": "<", "button:forward": ">",
                  "button:last": ">|"}
        if view.replay_ends is not None:
            at_start, at_end = view.replay_ends
            for name, rect in layout.REPLAY_BUTTONS.items():
                off = (name in ("button:first", "button:back") and at_start) or (
                    name in ("button:forward", "button:last") and at_end)
                widgets.button(bottom, rect, labels[name], disabled=off)
    elif view.phase == "clear":
        widgets.dim(bottom, 110, CLEAR_BG)
        pygame.draw.rect(bottom, CLEAR_BG, (20, 40, 216, 132), border_radius=6)
        pygame.draw.rect(bottom, pal.ACCENT, (20, 40, 216, 132), 2, border_radius=6)
        title = tr("Clear!", "クリア!")
        if view.partner is not None:
            won = view.race_won
            title = tr("You win!", "かち!") if won else tr("Partner first", "あいての かち")
        text.draw(bottom, title, (128, 50), pal.WHITE, scale=2, align="center",
                  shadow=pal.OUTLINE)
        labels = {
            "choice:another": tr("Choose another surface", "べつの めん"),
            "choice:new-pattern": tr("Same surface, new pattern", "おなじ めん、べつの パターン"),
            "choice:quit": tr("Quit", "やめる"),
        }
        for name, rect in view.clear_buttons.items():
            if name in labels:
                widgets.button(bottom, rect, labels[name])
    else:
        labels = {
            "choice:back": tr("Back", "もどる"),
            "choice:pattern:less10": "-10",
            "choice:pattern:less": "-",
            "choice:pattern:more": "+",
            "choice:pattern:more10": "+10",
            "choice:pattern:random": tr("Random", "ランダム"),
            "choice:start": tr("Start", "スタート"),
        }
        for name, rect in layout.PATTERN_BUTTONS.items():
            face = pal.OK if name == "choice:start" else pal.BUTTON
            widgets.button(bottom, rect, labels[name], face=face)


def _bottom_list(bottom: pygame.Surface, view: BottomView) -> None:
    tr = view.tr
    widgets.background(bottom)
    widgets.title_bar(bottom, tr("Choose a surface", "めんを えらぶ")
                      + f"  {view.page + 1}/{view.pages}")
    widgets.button(bottom, layout.HELP_LIST_BUTTON, "?")
    names = srf.catalogue_names()
    for slot in range(layout.ROWS):
        i = view.page * layout.ROWS + slot
        if i >= len(names):
            break
        name = names[i]
        rect = layout.row_rect(slot)
        widgets.bevel_rect(bottom, rect, pal.PANEL_HI if slot % 2 else pal.PANEL)
        n = entry(name).shadow.crossings
        _mini_regions(bottom, rect.x + 4, rect.y + 4, n)
        text.draw(bottom, name, (rect.x + 40, rect.y + 6), pal.WHITE)
        text.draw(bottom, tr(f"{n} regions", f"{n} りょういき"), (rect.x + 116, rect.y + 6),
                  pal.TEXT_DIM)
        best = view.surface_bests.get(name)
        shown = f"{clock(best.ticks)}  {best.selections}" if best else "-"
        text.draw(bottom, shown, (rect.right - 6, rect.y + 6),
                  pal.OK if best else pal.TEXT_DIM, align="right")
    labels: dict[str, str | list[str]] = {
        "choice:page:prev": "<",
        "choice:page:next": ">",
        "choice:random:less": "-",
        "choice:random": [tr("Random", "ランダム"), f"N = {view.random_n}"],
        "choice:random:more": "+",
        # (two Japanese lines are taller than the button: one word, as the top screen says it)
        "choice:draw": tr("Draw\nyour own", "かく").splitlines(),
    }
    for name, rect in layout.LIST_BUTTONS.items():
        face = pal.ACCENT_LO if name in ("choice:random", "choice:draw") else pal.BUTTON
        widgets.button(bottom, rect, labels[name], face=face)


def _mini_regions(surf: pygame.Surface, x: int, y: int, n: int) -> None:
    """A little row of squares standing for the number of regions (up to 10)."""
    for i in range(min(n, 10)):
        c = WHITE if i % 2 == 0 else GREY
        surf.fill(c, (x + (i % 5) * 6, y + (i // 5) * 6, 5, 5))


def _bottom_draw(bottom: pygame.Surface, view: BottomView) -> None:
    tr = view.tr
    bottom.fill((244, 242, 232), layout.DRAW_RECT)
    for gx in range(0, 256, 16):
        pygame.draw.line(bottom, (226, 224, 212), (gx, 0), (gx, layout.DRAW_RECT.bottom - 1))
    for gy in range(0, layout.DRAW_RECT.bottom, 16):
        pygame.draw.line(bottom, (226, 224, 212), (0, gy), (255, gy))
    if len(view.stroke) >= 2:
        pygame.draw.lines(bottom, (36, 46, 78), False, view.stroke, 2)
    if view.stroke:
        sx, sy = view.stroke[0]
        pygame.draw.circle(bottom, (60, 170, 90), (sx, sy), 6, 2)  # where to come back to
    if view.mark is not None:
        mx, my = round(view.mark[0]), round(view.mark[1])
        pygame.draw.circle(bottom, pal.DANGER, (mx, my), 10, 3)
        pygame.draw.line(bottom, pal.DANGER, (mx - 14, my), (mx + 14, my), 1)
        pygame.draw.line(bottom, pal.DANGER, (mx, my - 14), (mx, my + 14), 1)
    _bar(bottom)
    labels = {"choice:back": tr("Back", "もどる"), "choice:draw:clear": tr("Erase", "けす")}
    for name, rect in layout.DRAW_BUTTONS.items():
        widgets.button(bottom, rect, labels[name])
