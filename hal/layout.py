"""Where the two panels sit on one surface (the emulator window, or one physical panel showing
both screens on the device), and how a point there maps onto the lower screen.

Pure geometry: no window, no pygame. Shared by the emulator (`emulator.layout` re-exports it)
and the device backend's one-panel mode. The layout places the two *physical* panels (the
handheld's upper and lower LCD); which logical screen each panel shows is the firmware's
business (`settings.swap`, P-HW-1). Touch always belongs to the physical lower panel, so the
stylus is the mouse on whichever rectangle shows that panel, wherever the layout put it.

Layouts (P-EMU):

- vertical: upper above lower, as the handheld is held.
- horizontal: upper left of lower.
- hybrid: the focused screen large, the other at half the scale beside it on the right (at
  the top if it is the upper panel, at the bottom if it is the lower one).
- single: only the focused screen.

`focus` names a *logical* screen ("top" or "bottom": the game's screens), so with swap on
the panel that shows the game's top screen, the physical lower one, is the one enlarged or
shown. Scales are whole numbers so every panel pixel is an exact block of window pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from hal.interfaces import SCREEN_H, SCREEN_W

Kind = Literal["vertical", "horizontal", "hybrid", "single"]
LAYOUTS: tuple[Kind, ...] = ("vertical", "horizontal", "hybrid", "single")
Panel = Literal["upper", "lower"]
Focus = Literal["top", "bottom"]

MAX_SCALE = 8
MAX_GAP = 256
DEFAULT_GAP = 8  # window pixels between the panels unless --gap says otherwise


class LayoutError(ValueError):
    """A layout that cannot be built (unknown kind, scale or gap out of range)."""


@dataclass(frozen=True, slots=True)
class PanelRect:
    """A panel drawn at `scale` with its top-left window pixel at (`x`, `y`)."""

    x: int
    y: int
    scale: int

    @property
    def w(self) -> int:
        return SCREEN_W * self.scale

    @property
    def h(self) -> int:
        return SCREEN_H * self.scale

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
class Layout:
    """A layout's settings; `geometry()` turns them into window size and panel rectangles."""

    kind: Kind = "vertical"
    scale: int = 2
    gap: int = 0  # window pixels between the panels (not used by single)
    swap: bool = False  # the firmware's screen swap: the lower panel shows the game's top
    focus: Focus = "bottom"  # hybrid: the large screen; single: the one shown

    def __post_init__(self) -> None:
        if self.kind not in LAYOUTS:
            raise LayoutError(f"unknown layout {self.kind!r} (layouts: {', '.join(LAYOUTS)})")
        if isinstance(self.scale, bool) or not isinstance(self.scale, int):
            raise LayoutError("scale must be a whole number")
        if not 1 <= self.scale <= MAX_SCALE:
            raise LayoutError(f"scale must be between 1 and {MAX_SCALE}, not {self.scale}")
        if isinstance(self.gap, bool) or not isinstance(self.gap, int):
            raise LayoutError("gap must be a whole number")
        if not 0 <= self.gap <= MAX_GAP:
            raise LayoutError(f"gap must be between 0 and {MAX_GAP} pixels, not {self.gap}")
        if self.focus not in ("top", "bottom"):
            raise LayoutError(f"focus must be 'top' or 'bottom', not {self.focus!r}")

    # ----------------------------------------------------------------- derived settings
    @property
    def focused_panel(self) -> Panel:
        """The physical panel showing the focused logical screen."""
        shows_top: Panel = "lower" if self.swap else "upper"
        shows_bottom: Panel = "upper" if self.swap else "lower"
        return shows_top if self.focus == "top" else shows_bottom

    def with_kind(self, kind: Kind) -> Layout:
        return replace(self, kind=kind)

    def next_kind(self) -> Layout:
        """The next layout in `LAYOUTS` order (the layout-cycle hotkey)."""
        return replace(self, kind=LAYOUTS[(LAYOUTS.index(self.kind) + 1) % len(LAYOUTS)])

    def toggle_focus(self) -> Layout:
        return replace(self, focus="top" if self.focus == "bottom" else "bottom")

    def with_scale(self, scale: int) -> Layout:
        return replace(self, scale=min(MAX_SCALE, max(1, scale)))

    def with_swap(self, swap: bool) -> Layout:
        return replace(self, swap=swap)

    # ------------------------------------------------------------------------ geometry
    def geometry(self) -> Geometry:
        s, g = self.scale, self.gap
        w, h = SCREEN_W * s, SCREEN_H * s
        if self.kind == "vertical":
            return Geometry((w, 2 * h + g), PanelRect(0, 0, s), PanelRect(0, h + g, s))
        if self.kind == "horizontal":
            return Geometry((2 * w + g, h), PanelRect(0, 0, s), PanelRect(w + g, 0, s))
        big_panel = self.focused_panel
        if self.kind == "single":
            rect = PanelRect(0, 0, s)
            return Geometry(
                (w, h),
                rect if big_panel == "upper" else None,
                rect if big_panel == "lower" else None,
            )
        small_scale = max(1, s // 2)
        big = PanelRect(0, 0, s)
        small_h = SCREEN_H * small_scale
        small_y = 0 if big_panel == "lower" else h - small_h  # upper small at the top
        small = PanelRect(w + g, small_y, small_scale)
        size = (w + g + SCREEN_W * small_scale, h)
        if big_panel == "upper":
            return Geometry(size, big, small)
        return Geometry(size, small, big)


@dataclass(frozen=True, slots=True)
class Geometry:
    """Window size and each physical panel's rectangle (None: not shown in this layout)."""

    size: tuple[int, int]
    upper: PanelRect | None
    lower: PanelRect | None

    def to_lower(self, wx: int, wy: int) -> tuple[int, int] | None:
        """The lower-panel pixel under window pixel (wx, wy); None off the lower panel."""
        r = self.lower
        if r is None or not r.contains(wx, wy):
            return None
        return ((wx - r.x) // r.scale, (wy - r.y) // r.scale)

    def lower_block(self, x: int, y: int) -> tuple[int, int, int, int]:
        """The window rectangle (x, y, w, h) that shows lower-panel pixel (x, y).

        Raises ValueError when the lower panel is not shown or the pixel is off the panel.
        """
        r = self.lower
        if r is None:
            raise ValueError("the lower panel is not shown in this layout")
        if not (0 <= x < SCREEN_W and 0 <= y < SCREEN_H):
            raise ValueError(f"({x}, {y}) is not a pixel of the {SCREEN_W}x{SCREEN_H} panel")
        return (r.x + x * r.scale, r.y + y * r.scale, r.scale, r.scale)

    def to_window(self, x: int, y: int) -> tuple[int, int]:
        """The window pixel at the centre of lower-panel pixel (x, y) (the inverse mapping)."""
        bx, by, bw, bh = self.lower_block(x, y)
        return (bx + bw // 2, by + bh // 2)

    def panels(self) -> list[tuple[Panel, PanelRect]]:
        out: list[tuple[Panel, PanelRect]] = []
        if self.upper is not None:
            out.append(("upper", self.upper))
        if self.lower is not None:
            out.append(("lower", self.lower))
        return out


def fit_scale(kind: Kind, gap: int, bounds: tuple[int, int], *, focus: Focus = "bottom") -> int:
    """The largest scale whose window fits inside `bounds` (at least 1)."""
    best = 1
    for scale in range(1, MAX_SCALE + 1):
        w, h = Layout(kind, scale, gap, focus=focus).geometry().size
        if w <= bounds[0] and h <= bounds[1]:
            best = scale
    return best
