"""Panel Link benchmarks (docs/performance.md, "## Panel Link").

    .venv/bin/python bench/panels.py [--games 200]

Prints:
1. yaku evaluation time of one placement on crowded fields (median, p95, max over many
   placements): real late-game positions (>= 75% of usable squares taken) and the worst
   case, a full 8x8 field of one player's four-connector cards (one 63-card group);
2. the top level's (4) whole-turn time over positions from real games, with three items in
   hand so the item search runs (median, p95, max);
3. the top level against the lowest (1) over N seeded games (seeds 0..N-1, seats alternate).
Targets: 1) median <= 1 ms, 2) <= 500 ms, 3) top wins >= 75%.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.panels.ai.match import simulate
from games.panels.ai.player import choose_turn
from games.panels.rules import items as it
from games.panels.rules.cards import Card
from games.panels.rules.combination import evaluate, find_groups
from games.panels.rules.field import Field
from games.panels.rules.game import GameConfig, GameState


def crowded_positions(count: int) -> list[GameState]:
    """Late-game states: greedy players on a target no one reaches, stopped at >= 75% full."""
    out: list[GameState] = []
    seed = 0
    while len(out) < count:
        state = GameState.new(GameConfig(seed=seed, target=100_000, shape="square"))
        rng = random.Random(seed)
        while not state.over:
            usable = sum(state.field.usable)
            taken = sum(c is not None for c in state.field.cells)
            if taken >= 0.75 * usable:
                out.append(state)
                break
            for action in choose_turn(state, 2, rng):
                state.apply(action)
        seed += 1
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_evaluation(states: list[GameState]) -> tuple[list[float], list[float]]:
    """Times of every placement, and of those that join at least one group."""
    times, joined = [], []
    for state in states:
        p = state.current
        for stock, square, turns in state.placements(p):
            card = state.players[p].stock[stock].rotated(turns)
            state.field.cells[square] = card
            t0 = time.perf_counter()
            evaluate(state.field, square, p)
            elapsed = time.perf_counter() - t0
            found_groups = find_groups(state.field, square, p)
            times.append(elapsed)
            if found_groups:
                joined.append(elapsed)
            state.field.cells[square] = None
    return times, joined


def time_worst_case(repeat: int) -> list[float]:
    fld = Field.from_rows(["........"] * 8)
    for i in range(64):
        fld.cells[i] = Card(1 + i % 5, 0xF, 0)
    fld.cells[27] = None
    times = []
    for turns in range(repeat):
        fld.cells[27] = Card(1 + turns % 5, 0xF, 0)
        t0 = time.perf_counter()
        evaluate(fld, 27, 0)
        times.append(time.perf_counter() - t0)
    return times


def time_top_turns(games: int) -> list[float]:
    times = []
    for seed in range(games):
        state = GameState.new(GameConfig(seed=10_000 + seed))
        rng = random.Random(seed)
        while not state.over:
            state.players[state.current].items = [it.RENUMBER, it.SWIVEL, it.PRISM]
            t0 = time.perf_counter()
            actions = choose_turn(state, 4, rng)
            times.append(time.perf_counter() - t0)
            for action in actions:
                state.apply(action)
    return times


def ms(value: float) -> str:
    return f"{value * 1000:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games for the strength test")
    args = parser.parse_args()

    states = crowded_positions(20)
    fill = statistics.mean(
        sum(c is not None for c in s.field.cells) / sum(s.field.usable) for s in states
    )
    real, joined = time_evaluation(states)
    print(
        f"yaku evaluation, crowded real fields ({len(states)} positions, mean fill "
        f"{fill:.0%}, {len(real)} placements): median {ms(statistics.median(real))}, "
        f"p95 {ms(percentile(real, 0.95))}, max {ms(max(real))}"
    )
    print(
        f"  of which joining at least one group ({len(joined)}): "
        f"median {ms(statistics.median(joined))}, p95 {ms(percentile(joined, 0.95))}"
    )
    worst = time_worst_case(2000)
    print(
        f"yaku evaluation, worst case (full field, one 63-card group, 2000 runs): "
        f"median {ms(statistics.median(worst))}, p95 {ms(percentile(worst, 0.95))}, "
        f"max {ms(max(worst))}"
    )
    turns = time_top_turns(10)
    print(
        f"level 4 whole turn with 3 items in hand ({len(turns)} turns of 10 games): "
        f"median {ms(statistics.median(turns))}, p95 {ms(percentile(turns, 0.95))}, "
        f"max {ms(max(turns))}"
    )
    t0 = time.perf_counter()
    result = simulate(args.games, (4, 1), seed=0)
    top, low = result.players
    print(
        f"level 4 vs level 1, {args.games} seeded games: level 4 won {top.wins} "
        f"({top.wins / args.games:.1%}), level 1 won {low.wins}, draws {top.draws}; "
        f"avg score {top.score / args.games:.1f} vs {low.score / args.games:.1f} "
        f"({time.perf_counter() - t0:.1f} s)"
    )


if __name__ == "__main__":
    main()
