"""The game surface on the lower screen: regions in their states, lines, points, marks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame
import pygame.gfxdraw

from firmware.gfx import text
from games.regions.rules.layout import Drawing
from games.regions.rules.surface import Surface
from games.regions.scene import layout

Color = tuple[int, int, int]

WHITE: Color = (252, 252, 248)
GREY: Color = (142, 150, 164)
THREE: tuple[Color, ...] = ((250, 222, 120), (120, 184, 240), (236, 132, 160))  # A, B, C
CYCLIC: tuple[Color, ...] = (GREY, WHITE, (246, 196, 110), (130, 200, 150))
LINE: Color = (36, 46, 78)
POINT: Color = (214, 58, 58)
POINT_RIM: Color = (255, 255, 255)
BLOCKED: Color = (96, 100, 112)
HINT: Color = (255, 200, 40)
SOLUTION: Color = (40, 200, 210)
FRAME: Color = (24, 28, 46)
LABEL: Color = (30, 34, 50)


def colour(variant: str, state: int) -> Color:
    if variant == "classic":
        return WHITE if state else GREY
    if variant.startswith("three"):
        return THREE[state]
    return CYCLIC[state % len(CYCLIC)]


def label(variant: str, state: int) -> str:
    """Text on a region where colour alone would not tell the state (not for classic)."""
    if variant == "classic":
        return ""
    if variant.startswith("three"):
        return "ABC"[state]
    return str(state)


def blend(a: Color, b: Color, t: float) -> Color:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True)
class SurfaceView:
    """Everything the picture of the surface depends on."""

    surface: Surface
    drawing: Drawing
    variant: str
    cells: tuple[int, ...]
    before: tuple[int, ...] | None = None  # states before the last selection (animating)
    progress: float = 1.0  # 0..1 of the change from `before` to `cells`
    selectable: frozenset[int] = frozenset()
    hint: int | None = None
    solution: dict[int, int] = field(default_factory=dict)  # point -> times to select
    large: bool = False
    ripple: tuple[int, int] | None = None  # (point, age in ticks)
    tick: int = 0
    cleared: bool = False


def region_colour(view: SurfaceView, r: int) -> Color:
    now = colour(view.variant, view.cells[r])
    if view.before is None or view.progress >= 1 or view.before[r] == view.cells[r]:
        return now
    return blend(colour(view.variant, view.before[r]), now, view.progress)


def draw_surface(target: pygame.Surface, view: SurfaceView) -> None:
    d = view.drawing
    x0, y0, w, h = (round(v) for v in d.rect)
    target.fill(region_colour(view, d.outer), (x0, y0, w, h))
    for r, poly in enumerate(d.polygons):
        if poly is None:
            continue
        pts = [(round(x), round(y)) for x, y in poly]
        pygame.gfxdraw.filled_polygon(target, pts, region_colour(view, r))
        pygame.gfxdraw.aapolygon(target, pts, region_colour(view, r))
    for path in d.lines:
        pts = [(round(x), round(y)) for x, y in path]
        pygame.draw.lines(target, LINE, False, pts, 2)
    _labels(target, view)
    radius = layout.POINT_R_LARGE if view.large else layout.POINT_R
    for p, (x, y) in enumerate(d.points):
        cx, cy = round(x), round(y)
        if p in view.solution:
            pygame.draw.circle(target, SOLUTION, (cx, cy), radius + 5, 2)
            if view.solution[p] > 1:
                text.draw(target, f"x{view.solution[p]}", (cx + radius + 4, cy - 10), LABEL)
        if p == view.hint:
            grow = (view.tick // 8) % 3
            pygame.draw.circle(target, HINT, (cx, cy), radius + 4 + grow, 3)
        if p in view.selectable:
            pygame.gfxdraw.filled_circle(target, cx, cy, radius + 1, POINT_RIM)
            pygame.gfxdraw.aacircle(target, cx, cy, radius + 1, LINE)
            pygame.gfxdraw.filled_circle(target, cx, cy, radius - 1, POINT)
            pygame.gfxdraw.aacircle(target, cx, cy, radius - 1, POINT)
        else:  # unselectable: a dark disc with a cross
            pygame.gfxdraw.filled_circle(target, cx, cy, radius + 1, BLOCKED)
            pygame.gfxdraw.aacircle(target, cx, cy, radius + 1, LINE)
            k = radius - 2
            pygame.draw.line(target, POINT_RIM, (cx - k, cy - k), (cx + k, cy + k), 2)
            pygame.draw.line(target, POINT_RIM, (cx - k, cy + k), (cx + k, cy - k), 2)
    if view.ripple is not None:
        p, age = view.ripple
        x, y = d.points[p]
        pygame.draw.circle(target, HINT, (round(x), round(y)), radius + 3 + 2 * age, 2)
    pygame.draw.rect(target, FRAME, (x0, y0, w, h), 1)


def _labels(target: pygame.Surface, view: SurfaceView) -> None:
    d = view.drawing
    for r, anchor in enumerate(d.anchors):
        tag = label(view.variant, view.cells[r])
        if not tag:
            continue
        # the surrounding region has no anchor: its label sits in the corner
        spot = (d.rect[0] + 8, d.rect[1] + 6) if anchor is None else (anchor[0], anchor[1] - 3)
        text.draw(target, tag, (round(spot[0]), round(spot[1])), LABEL, align="center")


def nearest_point(drawing: Drawing, x: float, y: float, reach: float) -> int | None:
    """The connecting point nearest (x, y) within `reach`, if any."""
    best, best_d = None, reach * reach
    for p, (px, py) in enumerate(drawing.points):
        dd = (px - x) ** 2 + (py - y) ** 2
        if dd <= best_d:
            best, best_d = p, dd
    return best


def point_rects(points: Sequence[tuple[float, float]], reach: float) -> list[pygame.Rect]:
    size = round(2 * reach)
    return [pygame.Rect(round(x - reach), round(y - reach), size, size) for x, y in points]
