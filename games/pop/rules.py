"""Bubble Pop's rules, pure and tick-based: bubbles rise, taps pop them, escapes cost lives.

Positions are integers in 1/16 px so the simulation is exact and replays bit for bit.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

W, H = 256, 192
SUB = 16  # sub-pixel units per pixel
LIVES = 3
COLORS = 5


@dataclass
class Bubble:
    id: int
    x: int  # centre, sub-pixels
    y: int
    r: int  # radius, pixels
    speed: int  # sub-pixels per tick
    color: int
    wobble: int  # phase for the sideways sway


@dataclass
class PopState:
    seed: int
    tick: int = 0
    score: int = 0
    lives: int = LIVES
    combo: int = 0
    best_combo: int = 0
    popped: int = 0
    escaped: int = 0
    next_id: int = 0
    spawn_in: int = 30
    over: bool = False
    bubbles: list[Bubble] = field(default_factory=list)
    rng_state: list[Any] | None = None


class PopGame:
    """One game of Bubble Pop."""

    def __init__(self, seed: int) -> None:
        self.s = PopState(seed=seed)
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ rules
    def level(self) -> int:
        return min(9, self.s.tick // 900)  # a new level every 15 seconds

    def step(self) -> list[Bubble]:
        """Advance one tick; returns the bubbles that escaped this tick."""
        s = self.s
        if s.over:
            return []
        s.tick += 1
        s.spawn_in -= 1
        if s.spawn_in <= 0:
            self._spawn()
            s.spawn_in = max(14, 60 - 5 * self.level()) + self.rng.randrange(20)
        escaped = []
        for b in s.bubbles:
            b.y -= b.speed
            if (b.y // SUB) + b.r < 0:
                escaped.append(b)
        if escaped:
            s.bubbles = [b for b in s.bubbles if b not in escaped]
            s.escaped += len(escaped)
            s.lives = max(0, s.lives - len(escaped))
            s.combo = 0
            if s.lives == 0:
                s.over = True
        return escaped

    def _spawn(self) -> None:
        s = self.s
        r = self.rng.randrange(9, 17)
        x = self.rng.randrange(r + 2, W - r - 2)
        speed = 6 + self.level() * 2 + self.rng.randrange(6)
        s.bubbles.append(
            Bubble(
                s.next_id,
                x * SUB,
                (H + r) * SUB,
                r,
                speed,
                self.rng.randrange(COLORS),
                self.rng.randrange(64),
            )
        )
        s.next_id += 1

    def bubble_at(self, x: int, y: int) -> Bubble | None:
        """The front-most bubble under a point (newest drawn on top)."""
        for b in reversed(self.s.bubbles):
            bx, by = self.position(b)
            if (x - bx) ** 2 + (y - by) ** 2 <= (b.r + 2) ** 2:
                return b
        return None

    def position(self, b: Bubble) -> tuple[int, int]:
        """Pixel centre including the sway (a triangle wave, integer-exact)."""
        phase = (self.s.tick + b.wobble) % 64
        sway = (phase if phase < 32 else 64 - phase) // 8 - 2
        return b.x // SUB + sway, b.y // SUB

    def tap(self, x: int, y: int) -> int:
        """Pop the bubble under the stylus; returns the points won (0 for a miss)."""
        s = self.s
        if s.over:
            return 0
        b = self.bubble_at(x, y)
        if b is None:
            s.combo = 0
            return 0
        s.bubbles.remove(b)
        s.combo += 1
        s.best_combo = max(s.best_combo, s.combo)
        s.popped += 1
        points = (20 - b.r) * (1 + min(s.combo, 10) // 3)
        s.score += points
        return points

    # ------------------------------------------------------------ persistence
    def to_json(self) -> dict[str, Any]:
        data = asdict(self.s)
        version, internal, gauss = self.rng.getstate()
        data["rng_state"] = [version, list(internal), gauss]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PopGame:
        try:
            bubbles = [Bubble(**b) for b in data["bubbles"]]
            fields = {k: v for k, v in data.items() if k not in ("bubbles", "rng_state")}
            state = PopState(**fields, bubbles=bubbles)
            version, internal, gauss = data["rng_state"]
            game = cls(state.seed)
            game.s = state
            game.rng.setstate((version, tuple(internal), gauss))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a Bubble Pop state: {exc}") from None
        return game
