"""Drive the real firmware (headless) through Region Select: taps, strokes, waits, dumps."""

from __future__ import annotations

from pathlib import Path

import pygame

from firmware.testing import GameDriver, run, tap_script
from hal.interfaces import RawInput, RawTouch


class Driver(GameDriver):
    """A headless machine running Region Select, with the inputs a player would give."""

    game_id = "regions"

    def settle(self, limit: int = 2000) -> None:
        """Run until no job, search or animation is under way."""
        for _ in range(limit):
            s = self.scene
            if s.job is None and not s.searching and s.anim is None and s.pending_pattern is None:
                return
            self.frames(1)
        raise AssertionError("the scene never settled")

    def tap_xy(self, x: int, y: int, after: int = 2) -> None:
        start = self.m.tick
        self.m.hal.input.script = tap_script({start: (x, y)})  # type: ignore[attr-defined]
        run(self.m, 3 + after, draw=self.draw)
        self.m.hal.input.script = lambda t: RawInput()  # type: ignore[attr-defined]

    def tap(self, name: str, after: int = 2) -> None:
        x, y, w, h = self.hotspots()[name]
        self.tap_xy(x + w // 2, y + h // 2, after)

    def stroke(self, points: list[tuple[int, int]], after: int = 2) -> None:
        """The stylus held down along `points`, one sample per tick, then lifted."""
        start = self.m.tick
        pts = list(points)

        def script(t: int) -> RawInput:
            i = t - start
            if 0 <= i < len(pts):
                return RawInput(touch=RawTouch(*pts[i]))
            return RawInput()

        self.m.hal.input.script = script  # type: ignore[attr-defined]
        run(self.m, len(pts) + after, draw=self.draw)
        self.m.hal.input.script = lambda t: RawInput()  # type: ignore[attr-defined]

    def choose_surface(self, name: str) -> None:
        """Page through the list to a catalogue surface and tap it, then wait for it."""
        for _ in range(10):
            if f"choice:surface:{name}" in self.hotspots():
                self.tap(f"choice:surface:{name}")
                self.settle()
                return
            self.tap("choice:page:next")
        raise AssertionError(f"{name} is not in the list")

    def select(self, point: int) -> None:
        """Tap a connecting point at its centre as drawn."""
        p = self.game["points"][point]
        self.tap_xy(p["x"], p["y"])

    def shots(self, directory: Path, name: str) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.m.top, str(directory / f"{name}-top.png"))
        pygame.image.save(self.m.bottom, str(directory / f"{name}-bottom.png"))
