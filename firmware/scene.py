"""What the machine runs: a stack of scenes, each updated per tick and drawn per frame."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from firmware.input import InputState

if TYPE_CHECKING:
    from firmware.machine import Machine


class Scene:
    """A screen pair with behaviour. The top scene of the stack gets the input.

    `name` is what the state dump calls it (P-DUMP `scene`). `uses_dpad` turns the firmware's
    hotspot cursor off for scenes that steer with the D-pad themselves.
    """

    name = "scene"
    uses_dpad = False

    def __init__(self, machine: Machine) -> None:
        self.machine = machine

    def update(self, inp: InputState) -> None:
        """Advance one tick."""

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        """Draw both screens completely."""

    def hotspots(self) -> dict[str, pygame.Rect]:
        """Named touch targets in bottom-screen pixels (P-FW-4)."""
        return {}

    def dump(self) -> dict[str, Any]:
        """The scene's own description for the state dump."""
        return {}

    def on_enter(self) -> None:
        """Called when the scene becomes the top of the stack again."""


def hit(hotspots: dict[str, pygame.Rect], inp: InputState) -> str | None:
    """Name of the hotspot the stylus touched down on this tick, if any."""
    point = inp.tapped_at()
    if point is None:
        return None
    for name, rect in hotspots.items():
        if rect.collidepoint(point.x, point.y):
            return name
    return None
