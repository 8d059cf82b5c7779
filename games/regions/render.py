"""Pictures of a surface drawing with pygame (what the handheld scene will show).

Kept apart from `rules` because it needs pygame; `regions-gen --png` uses it.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from games.regions.rules.layout import Drawing
from games.regions.rules.surface import Surface

if TYPE_CHECKING:  # pygame itself is imported when a picture is made
    import pygame

BACKGROUND = (212, 222, 236)
SURROUND = (250, 250, 246)
WHITE = (255, 255, 255)
GREY = (150, 156, 166)
STATE_COLOURS = [
    (150, 156, 166),
    (255, 255, 255),
    (246, 200, 120),
    (150, 200, 240),
    (200, 160, 220),
    (170, 220, 160),
]
LINE = (40, 52, 84)
HIDDEN = (170, 178, 196)
POINT = (214, 64, 64)
POINT_RIM = (255, 255, 255)
SCALE = 3


def render_png(
    surface: Surface,
    drawing: Drawing,
    path: str | Path | BinaryIO,
    cells: Sequence[int] | None = None,
) -> None:
    """Write the drawing as a PNG (scaled up 3x, anti-aliased), cells coloured by state,
    to a file (always PNG, whatever its name) or an open binary stream."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    import pygame.gfxdraw

    x0, y0, w, h = drawing.rect
    sx = round((x0 + w) * SCALE)
    sy = round((y0 + h) * SCALE)
    image = pygame.Surface((sx, sy))
    image.fill(BACKGROUND)
    states = list(cells) if cells is not None else [1] * surface.region_count

    def px(p: tuple[float, float]) -> tuple[int, int]:
        return round(p[0] * SCALE), round(p[1] * SCALE)

    outer_colour = STATE_COLOURS[states[drawing.outer] % len(STATE_COLOURS)]
    pygame.draw.rect(
        image,
        _mix(outer_colour, SURROUND),
        pygame.Rect(px((x0, y0)), (int(w * SCALE), int(h * SCALE))),
    )
    for r, poly in enumerate(drawing.polygons):
        if poly is None:
            continue
        colour = STATE_COLOURS[states[r] % len(STATE_COLOURS)]
        pts = [px(p) for p in poly]
        pygame.gfxdraw.filled_polygon(image, pts, colour)
    for i, line_path in enumerate(drawing.lines):
        colour = HIDDEN if i in surface.hidden_lines else LINE
        pts = [px(p) for p in line_path]
        for a, b in itertools.pairwise(pts):
            _thick_line(image, a, b, colour, 2 * SCALE // 2 + 1)
    for p, q in enumerate(drawing.points):
        c = px(q)
        hidden = p in surface.hidden_points
        rad = 4 * SCALE if not hidden else 3 * SCALE
        pygame.gfxdraw.filled_circle(image, c[0], c[1], rad + SCALE, POINT_RIM)
        pygame.gfxdraw.aacircle(image, c[0], c[1], rad + SCALE, LINE)
        pygame.gfxdraw.filled_circle(image, c[0], c[1], rad, HIDDEN if hidden else POINT)
        pygame.gfxdraw.aacircle(image, c[0], c[1], rad, HIDDEN if hidden else POINT)
    if isinstance(path, (str, Path)):
        with open(path, "wb") as out:  # PNG whatever the name (pygame would go by the suffix)
            pygame.image.save(image, out, "surface.png")
    else:
        pygame.image.save(image, path, "surface.png")


def _mix(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2, (a[2] + b[2]) // 2)


def _thick_line(
    image: pygame.Surface,
    a: tuple[int, int],
    b: tuple[int, int],
    colour: tuple[int, int, int],
    width: int,
) -> None:
    import pygame

    pygame.draw.line(image, colour, a, b, width)
    pygame.draw.circle(image, colour, a, width // 2)
    pygame.draw.circle(image, colour, b, width // 2)
