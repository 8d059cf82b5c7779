"""Killing Sevens benchmarks (issue 5): strength of the personalities and speed.

    .venv/bin/python bench/sevens.py            # the full run recorded in docs/performance.md
    .venv/bin/python bench/sevens.py --quick    # a few hundred games, to try things out

1. Each of Cool, Hitman, Coward, Brute against three Simpletons, 2,000 seeded games each
   (targets: Cool and Hitman >= 40% wins, Coward and Brute >= 33%; a random seat wins 25%).
2. Cool, Hitman, Coward and Brute at one table, 10,000 seeded games with the seating rotated
   (2,500 games per rotation), timed in one process (target: Cool and Hitman together win
   more than half; 10,000 games in under 10 minutes).
3. Time per decision of each personality over 300 games of that table (target <= 5 ms).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import defaultdict

from games.sevens.ai.personalities import make_player
from games.sevens.rules import Game, seat_view
from games.sevens.simulator import game_rng, seat_rng, simulate

STRONG = ["cool", "hitman", "coward", "brute"]


def vs_simpletons(games: int, seed: int) -> None:
    print(f"## each personality against three Simpletons ({games} games each, seed {seed})")
    print(
        f"{'personality':<12}{'wins':>7}{'win %':>8}{'killed':>9}{'kills':>8}{'place':>8}"
        f"{'simpleton killed':>18}"
    )
    for key in STRONG:
        t0 = time.perf_counter()
        res = simulate(games, [key, "simpleton", "simpleton", "simpleton"], seed).to_json()
        dt = time.perf_counter() - t0
        me = res["seats"][0]
        simple_killed = sum(s["avg_killed"] for s in res["seats"][1:]) / 3
        print(
            f"{key:<12}{me['wins']:>7}{100 * me['wins'] / games:>7.1f}%{me['avg_killed']:>9.2f}"
            f"{me['avg_kills']:>8.2f}{me['avg_place']:>8.2f}{simple_killed:>18.2f}"
            f"   ({dt:.0f} s)"
        )
    print()


def mixed_table(games: int, seed: int) -> None:
    per = games // 4
    print(
        f"## Cool, Hitman, Coward, Brute at one table ({4 * per} games, seating rotated, "
        f"seed {seed})"
    )
    wins: dict[str, int] = defaultdict(int)
    killed: dict[str, float] = defaultdict(float)
    kills: dict[str, float] = defaultdict(float)
    place: dict[str, float] = defaultdict(float)
    t0 = time.perf_counter()
    for rot in range(4):
        seats = STRONG[rot:] + STRONG[:rot]
        res = simulate(per, seats, seed * 10 + rot).to_json()
        for s in res["seats"]:
            k = s["personality"]
            wins[k] += s["wins"]
            killed[k] += s["avg_killed"] * per
            kills[k] += s["avg_kills"] * per
            place[k] += s["avg_place"] * per
    dt = time.perf_counter() - t0
    n = 4 * per
    print(f"{'personality':<12}{'wins':>7}{'win %':>8}{'killed':>9}{'kills':>8}{'place':>8}")
    for k in STRONG:
        print(
            f"{k:<12}{wins[k]:>7}{100 * wins[k] / n:>7.1f}%{killed[k] / n:>9.2f}"
            f"{kills[k] / n:>8.2f}{place[k] / n:>8.2f}"
        )
    both = wins["cool"] + wins["hitman"]
    print(f"Cool + Hitman: {both} of {n} games ({100 * both / n:.1f}%)")
    print(f"time: {dt:.1f} s for {n} games ({1000 * dt / n:.1f} ms per game), one process")
    print()


def decision_times(games: int, seed: int) -> None:
    print(f"## time per decision ({games} games of the four-personality table)")
    total: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    choice_total: dict[str, float] = defaultdict(float)
    choice_count: dict[str, int] = defaultdict(int)
    worst: dict[str, float] = defaultdict(float)
    for i in range(games):
        seats = STRONG[i % 4 :] + STRONG[: i % 4]
        game = Game.new(game_rng(seed, i))
        players = [make_player(k, seat_rng(seed, i, s)) for s, k in enumerate(seats)]
        while not game.over:
            seat = game.current
            assert seat is not None  # a game not over has a seat to play
            t0 = time.perf_counter()
            view = seat_view(game, seat)  # building the seat's view counts as deciding
            action = players[seat].choose(view)
            dt = time.perf_counter() - t0
            key = seats[seat]
            total[key] += dt
            count[key] += 1
            if len(view.legal_cards()) > 1:
                choice_total[key] += dt
                choice_count[key] += 1
                worst[key] = max(worst[key], dt)
            game.apply(action)
    print(f"{'personality':<12}{'all decisions':>16}{'real choices':>16}{'slowest':>10}")
    for k in STRONG:
        print(
            f"{k:<12}{1000 * total[k] / count[k]:>13.3f} ms"
            f"{1000 * choice_total[k] / max(1, choice_count[k]):>13.3f} ms"
            f"{1000 * worst[k]:>7.2f} ms"
        )
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred games only")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    vs_simpletons(300 if args.quick else 2000, args.seed)
    mixed_table(400 if args.quick else 10_000, args.seed)
    decision_times(40 if args.quick else 300, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
