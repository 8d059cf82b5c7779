"""Games between computer players, and the statistics `twinfold panels-sim` prints.

Game g of a run uses seed `seed + g`; seats alternate (the first listed level moves first in
even games, second in odd ones) so neither level keeps the first-move advantage. Each seat's
tie-breaking random generator is seeded from the game seed and the seat, so a run is
reproducible exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.panels.ai.player import choose_turn
from games.panels.rules.game import DEFAULT_TARGET, GameConfig, GameState

MAX_TURNS = 10_000  # a safety net far above any real game (see the termination argument)


@dataclass
class LevelStats:
    level: int
    wins: int = 0
    draws: int = 0
    score: int = 0
    yaku: int = 0

    def to_json(self, games: int) -> dict[str, Any]:
        return {
            "level": self.level,
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": self.wins / games if games else 0.0,
            "avg_score": self.score / games if games else 0.0,
            "avg_yaku": self.yaku / games if games else 0.0,
        }


@dataclass
class SimResult:
    games: int
    players: list[LevelStats] = field(default_factory=list)
    turns: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": [p.to_json(self.games) for p in self.players],
            "avg_turns": self.turns / self.games if self.games else 0.0,
        }


def play_game(config: GameConfig, levels: list[int]) -> tuple[GameState, int]:
    """Play one game, seat i at `levels[i]`; returns the final state and turns played."""
    state = GameState.new(config)
    rngs = [random.Random(f"panels-ai/{config.seed}/{i}") for i in range(len(levels))]
    turns = 0
    while not state.over:
        if turns >= MAX_TURNS:
            raise RuntimeError("game did not end")  # would be an engine bug
        player = state.current
        for action in choose_turn(state, levels[player], rngs[player]):
            state.apply(action)
        turns += 1
    return state, turns


def simulate(
    games: int,
    levels: tuple[int, int],
    seed: int = 0,
    target: int = DEFAULT_TARGET,
    removal: bool = False,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play `games` seeded games; `progress(done)` after each (for a progress display)."""
    result = SimResult(games, [LevelStats(levels[0]), LevelStats(levels[1])])
    for g in range(games):
        seats = [0, 1] if g % 2 == 0 else [1, 0]  # seats[s] = which listed level sits at s
        config = GameConfig(seed=seed + g, target=target, removal=removal)
        state, turns = play_game(config, [levels[seats[0]], levels[seats[1]]])
        result.turns += turns
        for seat, who in enumerate(seats):
            stats = result.players[who]
            stats.score += state.players[seat].score
            stats.yaku += state.players[seat].yaku
            if state.winner == seat:
                stats.wins += 1
            elif state.winner is None:
                stats.draws += 1
        if progress is not None:
            progress(g + 1)
    return result
