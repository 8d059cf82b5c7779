"""Many seeded games between computer personalities, with per-seat figures (issue item 4).

Game i of a run with seed S is dealt from `random.Random("sevens:S:i")` and seat s plays with
`random.Random("sevens:S:i:s")`, so every game of a run can be replayed on its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from games.sevens.ai.personalities import make_player
from games.sevens.rules.game import SEATS, Game
from games.sevens.rules.options import Options
from games.sevens.rules.view import seat_view


def game_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"sevens:{seed}:{index}")


def seat_rng(seed: int, index: int, seat: int) -> random.Random:
    return random.Random(f"sevens:{seed}:{index}:{seat}")


def play_game(
    keys: Sequence[str], seed: int, index: int = 0, options: Options | None = None
) -> Game:
    """Play one whole game between the given personalities."""
    if len(keys) != SEATS:
        raise ValueError(f"a game needs {SEATS} seats")
    game = Game.new(game_rng(seed, index), options)
    players = [make_player(k, seat_rng(seed, index, s)) for s, k in enumerate(keys)]
    while not game.over:
        seat = game.current
        assert seat is not None
        game.apply(players[seat].choose(seat_view(game, seat)))
    return game


@dataclass
class SeatFigures:
    personality: str
    wins: int = 0
    killed: int = 0
    kills: int = 0
    place_sum: int = 0


class SeatDump(TypedDict):
    """One seat's figures as `twinfold sevens-sim --json` prints them."""

    personality: str
    wins: int
    avg_killed: float
    avg_kills: float
    avg_place: float


class SimDump(TypedDict):
    games: int
    seats: list[SeatDump]


@dataclass
class SimResult:
    games: int
    seats: list[SeatFigures] = field(default_factory=list)

    def to_json(self) -> SimDump:
        n = self.games or 1
        return {
            "games": self.games,
            "seats": [
                {
                    "personality": f.personality,
                    "wins": f.wins,
                    "avg_killed": round(f.killed / n, 4),
                    "avg_kills": round(f.kills / n, 4),
                    "avg_place": round(f.place_sum / n, 4),
                }
                for f in self.seats
            ],
        }


def simulate(
    games: int,
    keys: Sequence[str],
    seed: int = 0,
    options: Options | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play `games` games and sum the figures per seat; progress(done) after each game."""
    for k in keys:
        make_player(k, random.Random(0))  # unknown names fail before any game is played
    result = SimResult(games, [SeatFigures(k) for k in keys])
    for i in range(games):
        game = play_game(keys, seed, i, options)
        ranking = game.ranking()
        for s, f in enumerate(result.seats):
            place = ranking.index(s) + 1
            f.wins += place == 1
            f.killed += game.killed_count[s]
            f.kills += game.kills_count[s]
            f.place_sum += place
        if progress is not None:
            progress(i + 1)
    return result
