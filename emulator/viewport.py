"""Where the panels sit in a window of any size, and which lower-panel pixel a point is over.

Pure geometry (no window). The window can be resized freely, so the layout's natural size
(`Layout.geometry()` at an integer scale) is placed inside whatever size the window has:

- integer (the default): the largest whole-number scale whose layout fits, centred, so
  every panel pixel is an exact `scale` x `scale` block (nearest neighbour, crisp);
- fit: the largest size that fits, keeping the proportions, centred; panel pixels become
  blocks of one of two neighbouring widths.

Either way the bezel around the panels is an even border, and a window pixel (wx, wy) is
over the lower-panel pixel of the lower panel's
rectangle (x, y, w, h), the one under the window pixel's centre (as the GPU samples):
((2 (wx - x) + 1) * 256 // 2w, ...); for integer scales that is ((wx - x) // scale, ...).
The GPU draws a texture with nearest-neighbour sampling at the same boundaries.

All of that is in the renderer's output pixels. On a high-DPI display (SDL's
ALLOW_HIGHDPI) a window's size is given in points and its renderer has more pixels than
that (2x, 1.5x...), and mouse positions come in points: `point_to_pixel` maps a mouse point
to the output pixel under the point's centre, so the stylus lands on the panel pixel shown
there; `pixel_to_point` goes back (tests aim at a pixel with it).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from typing import Literal

from emulator.layout import MAX_SCALE, Focus, Layout, Panel
from hal.interfaces import SCREEN_H, SCREEN_W

Mode = Literal["integer", "fit"]
MODES: tuple[Mode, ...] = ("integer", "fit")


@dataclass(frozen=True, slots=True)
class Rect:
    """A panel's rectangle in window pixels."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def contains(self, wx: int, wy: int) -> bool:
        return self.x <= wx < self.right and self.y <= wy < self.bottom

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


@dataclass(frozen=True, slots=True)
class Placement:
    """A window's size and the rectangle of each panel it shows (None: not shown)."""

    size: tuple[int, int]
    upper: Rect | None
    lower: Rect | None

    def panels(self) -> list[tuple[Panel, Rect]]:
        out: list[tuple[Panel, Rect]] = []
        if self.upper is not None:
            out.append(("upper", self.upper))
        if self.lower is not None:
            out.append(("lower", self.lower))
        return out

    def bezel(self) -> list[Rect]:
        """Rectangles covering the window outside the panels (drawn in the backdrop colour,
        so a frame writes each window pixel once)."""
        width, height = self.size
        rects = [r for _, r in self.panels()]
        ys = sorted({0, height, *(v for r in rects for v in (r.y, r.bottom) if 0 < v < height)})
        out: list[Rect] = []
        for y0, y1 in itertools.pairwise(ys):
            x = 0
            for r in sorted((r for r in rects if r.y < y1 and r.bottom > y0), key=lambda r: r.x):
                if r.x > x:
                    out.append(Rect(x, y0, r.x - x, y1 - y0))
                x = max(x, r.right)
            if x < width:
                out.append(Rect(x, y0, width - x, y1 - y0))
        return out

    def to_lower(self, wx: int, wy: int) -> tuple[int, int] | None:
        """The lower-panel pixel under window pixel (wx, wy); None off the lower panel."""
        r = self.lower
        if r is None or not r.contains(wx, wy):
            return None
        return (_source(wx - r.x, r.w, SCREEN_W), _source(wy - r.y, r.h, SCREEN_H))

    def lower_block(self, x: int, y: int) -> tuple[int, int, int, int]:
        """The window rectangle (x, y, w, h) of the pixels that map to lower pixel (x, y)."""
        r = self.lower
        if r is None:
            raise ValueError("the lower panel is not shown in this window")
        if not (0 <= x < SCREEN_W and 0 <= y < SCREEN_H):
            raise ValueError(f"({x}, {y}) is not a pixel of the {SCREEN_W}x{SCREEN_H} panel")
        x0, x1 = _first(x, r.w, SCREEN_W), _first(x + 1, r.w, SCREEN_W)
        y0, y1 = _first(y, r.h, SCREEN_H), _first(y + 1, r.h, SCREEN_H)
        return (r.x + x0, r.y + y0, x1 - x0, y1 - y0)

    def to_window(self, x: int, y: int) -> tuple[int, int]:
        """A window pixel in the middle of lower-panel pixel (x, y)'s block."""
        bx, by, bw, bh = self.lower_block(x, y)
        return (bx + (bw - 1) // 2, by + (bh - 1) // 2)


def _source(d: int, shown: int, native: int) -> int:
    """The panel pixel nearest-neighbour sampling takes for window pixel `d` of `shown`:
    the one under the window pixel's centre, (d + 1/2) * native / shown, rounded down."""
    return (2 * d + 1) * native // (2 * shown)


def _first(p: int, shown: int, native: int) -> int:
    """The first window pixel that samples panel pixel `p` (or beyond)."""
    return -(-(2 * p * shown - native) // (2 * native))


def place(layout: Layout, size: tuple[int, int], mode: Mode = "integer") -> Placement:
    """The layout inside a window of `size` pixels."""
    width, height = max(1, size[0]), max(1, size[1])
    if mode == "integer":
        best = replace(layout, scale=1)
        for scale in range(2, MAX_SCALE + 1):
            candidate = replace(layout, scale=scale)
            w, h = candidate.geometry().size
            if w > width or h > height:
                break
            best = candidate
        geometry = best.geometry()
        factor = 1.0
    else:
        geometry = replace(layout, scale=2).geometry()  # hybrid's half-size panel stays whole
        gw, gh = geometry.size
        factor = min(width / gw, height / gh)
    gw, gh = geometry.size
    ox = (width - round(gw * factor)) // 2
    oy = (height - round(gh * factor)) // 2

    def rect(panel: Panel) -> Rect | None:
        r = geometry.upper if panel == "upper" else geometry.lower
        if r is None:
            return None
        x0, y0 = round(r.x * factor), round(r.y * factor)
        x1, y1 = round((r.x + r.w) * factor), round((r.y + r.h) * factor)
        return Rect(ox + x0, oy + y0, max(1, x1 - x0), max(1, y1 - y0))

    return Placement((width, height), rect("upper"), rect("lower"))


def place_one(panel: Panel, size: tuple[int, int], mode: Mode = "integer") -> Placement:
    """One panel alone in its own window (the `windows` arrangement)."""
    focus: Focus = "top" if panel == "upper" else "bottom"
    return place(Layout("single", 1, 0, focus=focus), size, mode)


def point_to_pixel(
    x: float, y: float, points: tuple[int, int], pixels: tuple[int, int]
) -> tuple[int, int]:
    """The output pixel under the centre of window point (x, y), for a window `points` in
    size whose renderer output is `pixels` (equal without high DPI)."""
    (ww, wh), (pw, ph) = points, pixels
    px = math.floor((x + 0.5) * pw / max(1, ww))
    py = math.floor((y + 0.5) * ph / max(1, wh))
    return (min(max(px, 0), max(pw - 1, 0)), min(max(py, 0), max(ph - 1, 0)))


def pixel_to_point(
    rect: tuple[int, int, int, int], points: tuple[int, int], pixels: tuple[int, int]
) -> tuple[int, int] | None:
    """A window point whose centre lies in the output rectangle (x, y, w, h) of pixels, as
    near its middle as points allow; None when no point's centre falls inside (a block
    narrower than a point)."""
    x, y, w, h = rect

    def axis(start: int, size: int, pts: int, pxs: int) -> int | None:
        middle = (start + size / 2) * pts / max(1, pxs) - 0.5
        for p in sorted({math.floor(middle), math.ceil(middle)}, key=lambda v: abs(v - middle)):
            if start <= (p + 0.5) * pxs / max(1, pts) < start + size:
                return p
        return None

    px, py = axis(x, w, points[0], pixels[0]), axis(y, h, points[1], pixels[1])
    return None if px is None or py is None else (px, py)
