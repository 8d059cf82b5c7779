"""The D-pad cursor over a scene's hotspots (P-FW-4): every scene playable with buttons alone.

The first D-pad press shows the cursor; further presses move it to the nearest hotspot in
that direction; A then acts exactly like a stylus tap on the hotspot's centre (down while A
is held). Touching the screen hides the cursor. Scenes that steer with the D-pad themselves
set `uses_dpad` and the cursor stays out of their way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pygame

from firmware.input import InputState
from hal.interfaces import Button, TouchPoint

DIRECTIONS = {
    Button.UP: (0, -1),
    Button.DOWN: (0, 1),
    Button.LEFT: (-1, 0),
    Button.RIGHT: (1, 0),
}


def nearest_in_direction(
    hotspots: dict[str, pygame.Rect], current: str, direction: tuple[int, int]
) -> str | None:
    """The hotspot whose centre lies most directly in `direction` from `current`."""
    cx, cy = hotspots[current].center
    dx, dy = direction
    best: tuple[float, str] | None = None
    for name, rect in hotspots.items():
        if name == current:
            continue
        ox, oy = rect.centerx - cx, rect.centery - cy
        along = ox * dx + oy * dy
        across = abs(ox * dy - oy * dx)
        if along <= 0 or across > along * 2:
            continue
        score = along + 2.5 * across
        if best is None or (score, name) < best:
            best = (score, name)
    return best[1] if best else None


def first_hotspot(hotspots: dict[str, pygame.Rect]) -> str:
    """Reading order: top to bottom, then left to right."""
    return min(hotspots, key=lambda n: (hotspots[n].top // 8, hotspots[n].left, n))


@dataclass
class HotspotCursor:
    current: str | None = None
    visible: bool = False
    _pressing: tuple[int, int] | None = None  # centre held down by A

    def reset(self) -> None:
        self.current, self.visible, self._pressing = None, False, None

    def engaged(self, inp: InputState) -> bool:
        """Whether this tick's input can concern the cursor (else `filter` is a no-op)."""
        return (
            self.visible
            or self._pressing is not None
            or bool(inp.repeated & DIRECTIONS.keys())
        )

    def rect(self, hotspots: dict[str, pygame.Rect]) -> pygame.Rect | None:
        if self.visible and self.current in hotspots:
            return hotspots[self.current]
        return None

    def filter(self, inp: InputState, hotspots: dict[str, pygame.Rect]) -> InputState:
        """Apply cursor movement and turn A into a tap; consumed buttons are hidden."""
        if inp.touch is not None and self._pressing is None:
            self.visible = False
            return inp
        if self.current not in hotspots:
            self.current = None
        consumed: set[Button] = set()
        for button, direction in DIRECTIONS.items():
            if button not in inp.repeated or not hotspots:
                continue
            consumed.add(button)
            if not self.visible or self.current is None:
                self.visible = True
                self.current = self.current or first_hotspot(hotspots)
                continue
            target = nearest_in_direction(hotspots, self.current, direction)
            if target is not None:
                self.current = target
        touch, down, up, last = inp.touch, inp.touch_down, inp.touch_up, inp.last_touch
        if self._pressing is not None:
            consumed.add(Button.A)
            point = TouchPoint(*self._pressing)
            if Button.A in inp.held:
                touch, down, up = point, False, False
            else:
                touch, down, up, last = None, False, True, point
                self._pressing = None
        elif Button.A in inp.pressed and self.visible and self.current in hotspots:
            consumed.add(Button.A)
            self._pressing = hotspots[self.current].center
            touch, down = TouchPoint(*self._pressing), True
        if not consumed and touch is inp.touch:
            return inp
        for button in DIRECTIONS:
            if button in inp.held and self.visible:
                consumed.add(button)
        return replace(
            inp,
            held=inp.held - consumed,
            pressed=inp.pressed - consumed,
            released=inp.released - consumed,
            repeated=inp.repeated - consumed,
            touch=touch,
            touch_down=down,
            touch_up=up,
            last_touch=last,
        )
