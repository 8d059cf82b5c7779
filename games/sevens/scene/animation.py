"""The card just played (and the cards it killed) animating on the table: how long it runs
and how it is saved."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.sevens.scene import layout

SLIDE_TICKS = layout.SLIDE_TICKS  # the card travels from its player's row to its place
PLAY_TICKS = SLIDE_TICKS + 14  # then glows a moment
KILL_TICKS = SLIDE_TICKS + 48  # killed cards flash this long: a kill is an event


@dataclass
class Anim:
    """The card just played and the cards it killed, animating on the table."""

    card: int | None
    killed: list[int]
    age: int = 0
    seat: int | None = None  # who played it (the card slides from their row)

    @property
    def length(self) -> int:
        return KILL_TICKS if self.killed else PLAY_TICKS

    @property
    def done(self) -> bool:
        return self.age >= self.length

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "killed": list(self.killed), "age": self.age, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Any) -> Anim:
        card = data["card"]
        killed = [int(c) for c in data["killed"]]
        seat = data.get("seat")
        if (card is not None and card not in range(52)) or any(c not in range(52) for c in killed):
            raise ValueError("bad animation")
        if seat is not None and seat not in range(4):
            raise ValueError("bad animation seat")
        return cls(card, killed, int(data["age"]), seat)
