"""Arimaa time controls (R-ARI-TIME, claim 28) counted in frame ticks (1/60 s).

Notation `M/R/P/L/G/T`: M turn time and R initial reserve are required; P (percent of unused
turn time added to the reserve, default 100), L (reserve limit, 0 = none), G (game limit:
hours, `h:mm`, or a number of turns written `Nt`; 0 = none) and T (maximum turn time, 0 = none)
are optional. A time field is `minutes`, `minutes:seconds` (G: `hours`, `hours:minutes`), or
units such as `1m30s` / `2h`.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

TICKS_PER_SECOND = 60
_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_UNIT_FIELD = re.compile(r"(?:\d+[dhms])+")
_COLON_FIELD = re.compile(r"\d+(?::\d+){0,2}")


class TimeControlError(ValueError):
    """Malformed time-control notation; the message names the field."""


def _parse_field(name: str, text: str, first_unit: str) -> int:
    """Seconds in one field."""
    if _UNIT_FIELD.fullmatch(text):
        return sum(int(n) * _UNITS[u] for n, u in re.findall(r"(\d+)([dhms])", text))
    if _COLON_FIELD.fullmatch(text):
        order = "hms"
        start = order.index(first_unit)
        parts = text.split(":")
        if start + len(parts) > len(order):
            raise TimeControlError(f"{name} field {text!r} has too many ':' parts")
        return sum(int(p) * _UNITS[order[start + i]] for i, p in enumerate(parts))
    raise TimeControlError(f"{name} field {text!r} is not a time (e.g. 0:30, 5, 1m30s)")


def _format_seconds(seconds: int) -> str:
    minutes, secs = divmod(seconds, 60)
    return f"{minutes}:{secs:02d}" if secs else str(minutes)


@dataclass(frozen=True)
class TimeControl:
    """All durations in ticks."""

    move: int
    reserve: int
    percent: int = 100
    reserve_limit: int = 0
    game_time: int = 0
    game_turns: int = 0
    max_turn: int = 0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parse `M/R/P/L/G/T` (TimeControlError with the field named on bad input)."""
        fields = text.strip().split("/")
        if len(fields) < 2 or len(fields) > 6:
            raise TimeControlError(f"{text!r}: expected M/R[/P[/L[/G[/T]]]] (2 to 6 fields)")
        if any(not f for f in fields[:2]):
            raise TimeControlError("M (turn time) and R (reserve) are required")
        fields += [""] * (6 - len(fields))
        move = _parse_field("M", fields[0], "m")
        reserve = _parse_field("R", fields[1], "m")
        if fields[2] == "":
            percent = 100
        elif fields[2].isdigit():
            percent = int(fields[2])
        else:
            raise TimeControlError(f"P field {fields[2]!r} is not a whole percentage")
        if percent > 100:
            raise TimeControlError(f"P field {fields[2]!r} is over 100")
        limit = _parse_field("L", fields[3], "m") if fields[3] else 0
        game_time = game_turns = 0
        if fields[4].endswith("t"):
            if not fields[4][:-1].isdigit():
                raise TimeControlError(f"G field {fields[4]!r} is not a number of turns")
            game_turns = int(fields[4][:-1])
        elif fields[4]:
            game_time = _parse_field("G", fields[4], "h")
        max_turn = _parse_field("T", fields[5], "m") if fields[5] else 0
        if move == 0 and max_turn == 0 and reserve == 0:
            raise TimeControlError("M, R and T are all 0: no time to move (use casual instead)")
        t = TICKS_PER_SECOND
        return cls(
            move * t, reserve * t, percent, limit * t, game_time * t, game_turns, max_turn * t
        )

    def notation(self) -> str:
        """Back to `M/R/P/L/G/T` (seconds precision)."""
        t = TICKS_PER_SECOND
        if self.game_turns:
            g = f"{self.game_turns}t"
        else:
            hours, rest = divmod(self.game_time // t, 3600)
            g = f"{hours}:{rest // 60:02d}" if rest else str(hours)
        parts = [
            _format_seconds(self.move // t),
            _format_seconds(self.reserve // t),
            str(self.percent),
            _format_seconds(self.reserve_limit // t),
            g,
            _format_seconds(self.max_turn // t),
        ]
        return "/".join(parts)


#: The handheld's presets (None = casual, no clock).
PRESETS: dict[str, str | None] = {"casual": None, "30s": "0:30/0/100/0/0/0"}


@dataclass
class Clock:
    """Reserves and time used, advanced tick by tick by the game loop."""

    control: TimeControl
    reserves: list[int] = field(default_factory=list)
    turn_used: int = 0
    game_used: int = 0

    def __post_init__(self) -> None:
        if not self.reserves:
            self.reserves = [self.control.reserve, self.control.reserve]

    def allowed(self, side: int) -> int:
        """Ticks `side` may spend on the current turn: min(M + reserve, T)."""
        limit = self.control.move + self.reserves[side]
        if self.control.max_turn:
            limit = min(limit, self.control.max_turn)
        return limit

    def remaining(self, side: int) -> int:
        return self.allowed(side) - self.turn_used

    def tick(self, side: int, ticks: int = 1) -> str | None:
        """Spend time on `side`'s turn: 'time' when it ran out (that side loses), 'halt' when
        the game time limit G was reached, else None."""
        self.turn_used += ticks
        self.game_used += ticks
        if self.turn_used > self.allowed(side):
            return "time"
        if self.control.game_time and self.game_used >= self.control.game_time:
            return "halt"
        return None

    def turn_done(self, side: int) -> None:
        """Settle the reserve when `side` ends its turn: P% of unused turn time is added
        (capped at L); time beyond M comes out of the reserve."""
        unused = self.control.move - self.turn_used
        if unused > 0:
            self.reserves[side] += unused * self.control.percent // 100
        else:
            self.reserves[side] += unused
        if self.control.reserve_limit:
            self.reserves[side] = min(self.reserves[side], self.control.reserve_limit)
        self.turn_used = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "control": asdict(self.control),
            "reserves": list(self.reserves),
            "turn_used": self.turn_used,
            "game_used": self.game_used,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        return cls(
            TimeControl(**data["control"]),
            list(data["reserves"]),
            data["turn_used"],
            data["game_used"],
        )
