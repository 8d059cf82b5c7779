"""Cumulative results across games (R-SEV-VIEW 5): the engine keeps the sums, the handheld
stores them (to_json) until the player resets them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.sevens.rules.game import SEATS, Game


@dataclass
class MemberTotals:
    """One member's totals: games played, wins, cards killed, kills made, sum of places."""

    games: int = 0
    wins: int = 0
    killed: int = 0
    kills: int = 0
    place_sum: int = 0

    @property
    def average_place(self) -> float:
        return self.place_sum / self.games if self.games else 0.0

    def to_json(self) -> dict[str, int]:
        return {
            "games": self.games,
            "wins": self.wins,
            "killed": self.killed,
            "kills": self.kills,
            "place_sum": self.place_sum,
        }


@dataclass
class Tally:
    """Totals per member name, in the order members first appeared."""

    members: dict[str, MemberTotals] = field(default_factory=dict)

    def add(self, game: Game, names: list[str]) -> None:
        """Count a finished game; names[i] is the member in seat i."""
        if not game.over:
            raise ValueError("only a finished game can be counted")
        if len(names) != SEATS:
            raise ValueError(f"a game has {SEATS} members")
        if len(set(names)) != SEATS:
            raise ValueError("member names must differ")
        ranking = game.ranking()
        for seat, name in enumerate(names):
            t = self.members.setdefault(name, MemberTotals())
            t.games += 1
            place = ranking.index(seat) + 1
            t.place_sum += place
            t.wins += place == 1
            t.killed += game.killed_count[seat]
            t.kills += game.kills_count[seat]

    def reset(self) -> None:
        self.members.clear()

    def to_json(self) -> dict[str, Any]:
        return {"members": {n: t.to_json() for n, t in self.members.items()}}

    @classmethod
    def from_json(cls, data: Any) -> Tally:
        if not isinstance(data, dict) or not isinstance(data.get("members"), dict):
            raise ValueError("a tally must be an object with 'members'")
        out = cls()
        keys = ("games", "wins", "killed", "kills", "place_sum")
        for name, t in data["members"].items():
            if not isinstance(t, dict) or set(t) != set(keys):
                raise ValueError(f"bad totals for member {name!r}")
            vals = [t[k] for k in keys]
            if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in vals):
                raise ValueError(f"bad totals for member {name!r}")
            out.members[str(name)] = MemberTotals(*vals)
        return out
