"""Animations of the Panel Link scene, played one after another (P-GAME-4).

Each is plain data (kind, length, tick, JSON details) so a suspend keeps the exact phase.
Kinds: `arrive` (a new stock card slides in), `glide` (a card moves to a square), `rotate`
(a provisional card turns a quarter), `yaku` (a group lights up with its yaku and points),
`remove` (cards that formed yaku leave), `note` (a short message, e.g. an item earned).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("arrive", "glide", "rotate", "yaku", "remove", "note")


@dataclass
class Anim:
    kind: str
    length: int
    data: dict[str, Any] = field(default_factory=dict)
    t: int = 0

    @property
    def progress(self) -> float:
        """0.0 at the start, 1.0 at the end (drawing only; never feeds the game state)."""
        return min(1.0, self.t / self.length) if self.length > 0 else 1.0

    @property
    def done(self) -> bool:
        return self.t >= self.length

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "length": self.length, "t": self.t, "data": self.data}

    @classmethod
    def from_json(cls, data: Any) -> Anim:
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise ValueError(f"bad animation: {data!r}")
        length, t = data.get("length"), data.get("t")
        if not isinstance(length, int) or not isinstance(t, int) or not 0 <= t <= length:
            raise ValueError("bad animation timing")
        details = data.get("data", {})
        if not isinstance(details, dict):
            raise ValueError("bad animation details")
        return cls(data["kind"], length, details, t)
