"""A vertical menu of buttons on the lower screen, shared by pause, settings and prompts.

Items are actions (tap runs them) or values (tap or ▶ steps forward, ◀ steps back). Each
item is a hotspot `item:<key>`; value arrows are `item:<key>:-` and `item:<key>:+`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import Scene, hit
from hal.interfaces import SCREEN_W, Button

if TYPE_CHECKING:
    from firmware.scene import Host


@dataclass
class MenuItem:
    key: str
    label: Callable[[], str]
    on_tap: Callable[[], None] | None = None
    value: Callable[[], str] | None = None
    on_step: Callable[[int], None] | None = None  # value items: +1 / -1
    face: tuple[int, int, int] = pal.BUTTON


LABEL_GAP = 8  # the least room between an option's name and its value


def draw_label_value(surface: pygame.Surface, rect: pygame.Rect, label: str, value: str) -> None:
    """An option's name (left) and value (right) in `rect`, on one baseline; when both do not
    fit on one line with a gap, the name goes up and the value down (rows tall enough for
    two lines), else the name is shortened with a visible "…": the two never touch."""
    label_w, label_h = text.size(label)
    value_w, value_h = text.size(value)
    room = rect.w - 12
    if label_w + LABEL_GAP + value_w > room and rect.h >= label_h + value_h + 4:
        text.draw(surface, label, (rect.x + 6, rect.y + 2), pal.TEXT_DIM, valign="top")
        text.draw(
            surface,
            value,
            (rect.right - 6, rect.bottom - value_h - 2),
            pal.ACCENT,
            align="right",
            shadow=pal.OUTLINE,
            valign="top",
        )
        return
    # The line (12 rows with Japanese, 9 without) centred in the row, clear of its frame; the
    # name and the value on its one baseline.
    line_top = max(rect.y + 2, rect.centery - (max(label_h, value_h) + 1) // 2)
    base = line_top + text.baseline(label + value)
    label = text.fit(label, max(0, room - LABEL_GAP - value_w))
    text.draw(surface, label, (rect.x + 6, base), pal.TEXT_DIM, valign="baseline")
    text.draw(
        surface, value, (rect.right - 6, base), pal.ACCENT, align="right", shadow=pal.OUTLINE,
        valign="baseline",
    )


class MenuScene(Scene):
    """Subclasses fill `items` and draw the upper screen in `draw_top`."""

    title = ""
    top_y = 22
    back_key: str | None = None  # item activated by B

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        self.items: list[MenuItem] = []
        self._pressed: str | None = None
        self._pressed_ticks = 0

    def _layout(self) -> dict[str, pygame.Rect]:
        n = max(1, len(self.items))
        avail = 192 - self.top_y - 4
        pitch = min(28, avail // n)
        h = max(16, pitch - 4)
        rects: dict[str, pygame.Rect] = {}
        for i, item in enumerate(self.items):
            y = self.top_y + i * pitch
            if item.value is not None:
                rects[f"item:{item.key}:-"] = pygame.Rect(20, y, 22, h)
                rects[f"item:{item.key}"] = pygame.Rect(46, y, SCREEN_W - 92, h)
                rects[f"item:{item.key}:+"] = pygame.Rect(SCREEN_W - 42, y, 22, h)
            else:
                rects[f"item:{item.key}"] = pygame.Rect(20, y, SCREEN_W - 40, h)
        return rects

    def hotspots(self) -> dict[str, pygame.Rect]:
        return self._layout()

    def item(self, key: str) -> MenuItem:
        return next(i for i in self.items if i.key == key)

    def update(self, inp: InputState) -> None:
        if self._pressed_ticks:
            self._pressed_ticks -= 1
        if Button.B in inp.pressed and self.back_key is not None:
            self.activate(f"item:{self.back_key}")
            return
        name = hit(self.hotspots(), inp)
        if name is not None:
            self.activate(name)

    def activate(self, name: str) -> None:
        self._pressed, self._pressed_ticks = name, 6
        self.machine.play("select")
        parts = name.split(":")
        item = self.item(parts[1])
        if len(parts) == 3 and item.on_step is not None:
            item.on_step(-1 if parts[2] == "-" else 1)
        elif item.on_tap is not None:
            item.on_tap()
        elif item.on_step is not None:
            item.on_step(1)

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        self.draw_top(top)
        self.draw_bottom_backdrop(bottom)
        for name, rect in self._layout().items():
            parts = name.split(":")
            item = self.item(parts[1])
            pressed = self._pressed == name and self._pressed_ticks > 0
            if len(parts) == 3:
                widgets.button(bottom, rect, "◀" if parts[2] == "-" else "▶", pressed=pressed)
            elif item.value is not None:
                widgets.bevel_rect(bottom, rect, pal.PANEL_HI)
                draw_label_value(bottom, rect, item.label(), item.value())
            else:
                widgets.button(bottom, rect, item.label(), face=item.face, pressed=pressed)

    def draw_bottom_backdrop(self, bottom: pygame.Surface) -> None:
        widgets.background(bottom)
        if self.title:
            widgets.title_bar(bottom, self.title)

    def draw_top(self, top: pygame.Surface) -> None:
        widgets.background(top)

    def dump(self) -> dict[str, object]:
        return {"items": [i.key for i in self.items]}
