"""The one-by-one flip animation (R-REV-VIEW-7) as plain tick-counted state.

The placed disc pops in, then the flipped discs turn over one after another (in the engine's
flip order: nearest first). Each disc squashes horizontally to its edge in the old colour
and opens out again in the new one. Ticks only, so it replays and resumes exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

PLACE_TICKS = 4  # the placed disc grows in
FLIP_TICKS = 8  # one disc's turn, edge-on at the half
STAGGER = 4  # ticks between the starts of consecutive discs


@dataclass
class FlipAnimation:
    square: str  # where the disc was placed
    color: str  # the mover's colour (the flipped discs' new colour)
    flipped: list[str]  # in flip order
    age: int = 0

    @property
    def length(self) -> int:
        if not self.flipped:
            return PLACE_TICKS
        return PLACE_TICKS + (len(self.flipped) - 1) * STAGGER + FLIP_TICKS

    @property
    def done(self) -> bool:
        return self.age >= self.length

    def step(self) -> None:
        self.age += 1

    def placed_scale(self) -> float:
        """Size of the placed disc, 0..1."""
        return min(1.0, (self.age + 1) / PLACE_TICKS)

    def disc_phase(self, index: int) -> float:
        """Progress of the `index`-th flipping disc: <= 0 not started, >= 1 finished."""
        return (self.age - PLACE_TICKS - index * STAGGER) / FLIP_TICKS

    def flip_view(self) -> dict[str, tuple[bool, float]]:
        """Each flipping square -> (shows the new colour, width 0..1) at this tick."""
        view = {}
        for i, sq in enumerate(self.flipped):
            t = min(1.0, max(0.0, self.disc_phase(i)))
            view[sq] = (t >= 0.5, abs(math.cos(math.pi * t)))
        return view

    def to_json(self) -> dict[str, Any]:
        return {
            "square": self.square,
            "color": self.color,
            "flipped": self.flipped,
            "age": self.age,
        }

    @classmethod
    def from_json(cls, data: Any) -> FlipAnimation:
        if not isinstance(data, dict):
            raise ValueError("animation must be an object")
        anim = cls(
            str(data["square"]),
            str(data["color"]),
            [str(s) for s in data["flipped"]],
            int(data["age"]),
        )
        if anim.color not in ("black", "white") or not 0 <= anim.age <= anim.length:
            raise ValueError("bad animation state")
        return anim
