"""Speech bubbles: the personalities' lines (and the people's plain announcements) shown one
after another, each long enough to read at the chosen bubble speed (R-SEV-AI voices).

Lines come from the engine's `Narrator` at the moments the events give them. The queue is
plain data, so suspend keeps the bubble on screen and its remaining time exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.sevens.ai.voices import Speech
from games.sevens.scene.setup import BUBBLE_TIMING

MAX_WAITING = 3  # with more lines waiting, each is shown for half its time: play keeps going


@dataclass
class Bubble:
    seat: int
    situation: str
    en: str
    ja: str
    personality: str | None
    left: int  # ticks still to show

    def text(self, ja: bool) -> str:
        return self.ja if ja and self.ja else self.en

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "situation": self.situation,
            "en": self.en,
            "ja": self.ja,
            "personality": self.personality,
            "left": self.left,
        }

    @classmethod
    def from_json(cls, data: Any) -> Bubble:
        if not isinstance(data, dict):
            raise ValueError("a bubble is an object")
        seat, left = data["seat"], data["left"]
        if seat not in range(4) or not isinstance(left, int) or left < 0:
            raise ValueError("bad bubble")
        return cls(
            seat,
            str(data["situation"]),
            str(data["en"]),
            str(data["ja"]),
            data["personality"],
            left,
        )


def reading_ticks(text: str, speed: str) -> int:
    base, per_char = BUBBLE_TIMING[speed]
    return int(base + per_char * len(text))


class Talk:
    """The bubble on screen and those waiting; `last` is the last line shown (the dump)."""

    def __init__(self) -> None:
        self.queue: list[Bubble] = []
        self.last: Bubble | None = None

    @property
    def current(self) -> Bubble | None:
        return self.queue[0] if self.queue else None

    @property
    def busy(self) -> bool:
        return bool(self.queue)

    def say(self, speeches: list[Speech], speed: str, ja: bool) -> None:
        for s in speeches:
            text = s.ja if ja else s.en
            self.queue.append(
                Bubble(s.seat, s.situation, s.en, s.ja, s.personality, reading_ticks(text, speed))
            )
        if self.queue:
            self.last = replace(self.queue[0])  # a copy: its own time does not run down

    def step(self) -> None:
        if not self.queue:
            return
        head = self.queue[0]
        head.left -= 2 if len(self.queue) > MAX_WAITING else 1
        if head.left <= 0:
            self.skip()

    def skip(self) -> None:
        """The bubble on screen goes (a tap on it); the next one shows."""
        if self.queue:
            self.queue.pop(0)
        if self.queue:
            self.last = replace(self.queue[0])

    def clear(self) -> None:
        self.queue.clear()

    def to_json(self) -> dict[str, Any]:
        return {
            "queue": [b.to_json() for b in self.queue],
            "last": self.last.to_json() if self.last else None,
        }

    def load(self, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("queue"), list):
            raise ValueError("bad speech queue")
        self.queue = [Bubble.from_json(b) for b in data["queue"]]
        self.last = Bubble.from_json(data["last"]) if data.get("last") is not None else None
