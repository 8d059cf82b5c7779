"""P-BE-1: in-memory screens, scripted input, a simulated clock. No window, no audio device."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from hal.clock import SimClock
from hal.interfaces import SCREEN_SIZE, Display, Hal, InputSource, RawInput

__all__ = ["MemoryDisplay", "ScriptedInput", "SimClock", "headless_hal"]


class MemoryDisplay(Display):
    """Keeps copies of the last presented panels (what a photo of the device would show)."""

    def __init__(self) -> None:
        self.upper = pygame.Surface(SCREEN_SIZE)
        self.lower = pygame.Surface(SCREEN_SIZE)
        self.presented = 0
        self.blanked = False

    def present(self, upper: pygame.Surface, lower: pygame.Surface) -> None:
        self.upper.blit(upper, (0, 0))
        self.lower.blit(lower, (0, 0))
        self.presented += 1
        self.blanked = False

    def blank(self) -> None:
        self.upper.fill((0, 0, 0))
        self.lower.fill((0, 0, 0))
        self.blanked = True


class ScriptedInput(InputSource):
    """Input from a function of the tick (an input movie's player, a test script)."""

    def __init__(self, script: Callable[[int], RawInput] | None = None) -> None:
        self.script = script or (lambda tick: RawInput())

    def poll(self, tick: int) -> RawInput:
        return self.script(tick)


def headless_hal(data_dir: Path, script: Callable[[int], RawInput] | None = None) -> Hal:
    """A Hal with memory screens and scripted input; `data_dir` holds the store and logs."""
    return Hal(
        name="headless",
        display=MemoryDisplay(),
        input=ScriptedInput(script),
        clock=SimClock(),
        data_dir=data_dir,
        realtime=False,
    )
