"""Reversi levels on the learned evaluation: strength (Elo), thinking time per device profile,
and the work-unit calibration behind both.

    .venv/bin/python bench/reversi_levels.py calibrate [--positions 40]
    .venv/bin/python bench/reversi_levels.py solves [--positions 14]
    .venv/bin/python bench/reversi_levels.py think [--games 4] [--profile NAME ...]
    .venv/bin/python bench/reversi_levels.py match A B [--openings 10] [--first 0]
    .venv/bin/python bench/reversi_levels.py elo [--openings 6]

- calibrate: CPU microseconds per node of the strongest level's midgame search (learned
  evaluation, ordering included) and of the exact solver, on positions from seeded games:
  the `MID_NODE_UNITS` / `END_NODE_UNITS` of games/reversi/ai/players.py.
- solves: the solver nodes at 8-14 empties (positions from seeded games of the novice and
  intermediate levels): what `WORST_SOLVE_NODES` (how many empties each profile solves)
  was set from.
- think: the strongest level (white) against the intermediate level, on every device
  profile's budget: the wait the player sees per move, in seconds at 60 Hz ticks, exactly
  as the match layer's computer seat paces it (`max(24, ceil(units / tick budget))` ticks).
- match: two players from `PLAYERS` over `--openings` seeded openings (6 random plies),
  each opening played with both colours: wins, draws, losses, score and Elo difference.
- elo: the fixed opponent set as matches: the levels among themselves (L2-L1, L3-L2,
  L4-L3, then one Elo scale by least squares, L1 = 0) and the new evaluation against the
  previous strongest at equal nodes (new32k-prev).

Players: L1..L4 are the handheld levels at the reference budget (a desktop core,
`desktop-worker`); `prev` is the previous strongest level (hand-written evaluation, 32 000
midgame nodes, exact from 14 empties with 400 000 nodes); `new32k` is the new evaluation
with exactly that search and those budgets (the "equal nodes" comparison).
Everything is node-limited and seeded: results do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware.match.profiles import DeviceProfile
from games.reversi.ai import LEVELS, STRONGEST, ComputerMove, Level, Search, Thinker
from games.reversi.ai.players import END_NODE_UNITS, MID_NODE_UNITS, learned_evaluator
from games.reversi.rules import Game, Position

PREVIOUS = Level(
    4, "previous", depth=30, node_limit=32_000, exact_empties=14, exact_node_limit=400_000,
    evaluator="handwritten",
)  # fmt: skip
NEW_EQUAL = Level(
    4, "new32k", depth=30, node_limit=32_000, exact_empties=14, exact_node_limit=400_000,
    evaluator="learned",
)  # fmt: skip
PLAYERS: dict[str, int | Level] = {
    "L1": 1, "L2": 2, "L3": 3, "L4": 4, "prev": PREVIOUS, "new32k": NEW_EQUAL,
}  # fmt: skip
MIN_THINK_TICKS = 24
OPENING_PLIES = 6


def opening(index: int) -> Game:
    rng = random.Random(f"reversi-levels-opening:{index}")
    while True:
        g = Game()
        for _ in range(OPENING_PLIES):
            g.play(rng.choice(sorted(g.legal())))
        if not g.over:
            return g


def play(black: str, white: str, index: int, seed: int) -> int:
    """One game from opening `index`; black's disc margin."""
    g = opening(index)
    who = {"black": PLAYERS[black], "white": PLAYERS[white]}
    while not g.over:
        assert g.turn is not None
        g.play(ComputerMove(g.position, who[g.turn], seed).finish())
    score = g.score()
    return score["black"] - score["white"]


def elo(score: float, games: int) -> float:
    s = min(max(score, 0.5 / games), 1 - 0.5 / games)
    return -400 * math.log10(1 / s - 1)


class MatchResult(TypedDict):
    """One match: the two players, A's score (0..1) and the number of games."""

    a: str
    b: str
    score: float
    games: int


def match(
    a: str, b: str, openings: int, log: Callable[[str], None] = print, first: int = 0
) -> MatchResult:
    """A against B from openings `first` .. `first + openings - 1`, each with both colours
    (a game depends only on its opening number, so runs over disjoint ranges add up)."""
    wins = draws = losses = 0
    margins = []
    t0 = time.process_time()
    for i in range(first, first + openings):
        for a_black in (True, False):
            m = play(a, b, i, seed=i) if a_black else -play(b, a, i, seed=i)
            margins.append(m)
            wins += m > 0
            draws += m == 0
            losses += m < 0
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    log(
        f"{a} vs {b}: {score_text(wins, draws, losses)}, "
        f"mean margin {statistics.mean(margins):+.1f} discs [{time.process_time() - t0:.0f} s CPU]"
    )
    return {"a": a, "b": b, "score": score, "games": n}


def score_text(wins: int, draws: int, losses: int) -> str:
    """W-D-L, score and Elo difference with its 95% interval (binomial error of the score)."""
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    half = 1.96 * math.sqrt(max(score * (1 - score), 0.25 / n) / n)
    lo, hi = elo(score - half, n), elo(score + half, n)
    return (
        f"{wins}-{draws}-{losses} of {n} ({100 * score:.1f}%), "
        f"Elo {elo(score, n):+.0f} (95% {lo:+.0f}..{hi:+.0f})"
    )


def elo_scale(results: list[MatchResult]) -> dict[str, float]:
    """Ratings (L1 = 0) whose differences best fit every match's Elo difference."""
    names = sorted({r["a"] for r in results} | {r["b"] for r in results})
    rating = dict.fromkeys(names, 0.0)
    for _ in range(2000):  # Gauss-Seidel on the least-squares normal equations
        for name in names:
            terms = []
            for r in results:
                d = elo(r["score"], r["games"])
                if r["a"] == name:
                    terms.append(rating[r["b"]] + d)
                elif r["b"] == name:
                    terms.append(rating[r["a"]] - d)
            if terms:
                rating[name] = sum(terms) / len(terms)
        base = rating.get("L1", 0.0)
        rating = {k: v - base for k, v in rating.items()}
    return rating


def sample_positions(count: int, lo: int, hi: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        g = Game()
        target = rng.randint(lo, hi)
        while not g.over and g.position.empties() > target:
            level = 3 if rng.random() < 0.8 else 1
            g.play(ComputerMove(g.position, level, rng.randint(0, 99)).finish())
        if not g.over and g.position.has_move() and g.position.empties() == target:
            out.append(g.position)
    return out


def calibrate(count: int) -> None:
    evaluator = learned_evaluator()
    learned_evaluator()(0, 0)
    for name, lo, hi, exact in (("midgame", 20, 50, 0), ("exact", 12, 14, 14)):
        nodes = 0
        cpu = 0.0
        for pos in sample_positions(count, lo, hi, seed=7 if exact else 3):
            search = Search(
                pos.player, pos.opponent, max_depth=60, node_limit=20_000,
                exact_empties=exact, exact_node_limit=10**7, evaluator=evaluator,
            )  # fmt: skip
            c = time.process_time()
            result = Thinker(search).finish()
            cpu += time.process_time() - c
            nodes += result.nodes
        units = MID_NODE_UNITS if not exact else END_NODE_UNITS
        print(
            f"{name}: {nodes} nodes in {cpu:.2f} s CPU = {1e6 * cpu / nodes:.1f} us a node "
            f"(units a node in players.py: {units})"
        )


def solves(count: int) -> None:
    """Solver nodes at 8-14 empties, positions from games of the novice and intermediate
    levels after 4 random plies (what `WORST_SOLVE_NODES` in players.py was set from)."""
    for empties in range(8, 15):
        nodes = []
        for i in range(count):
            rng = random.Random(f"s{empties}:{i}")
            g = Game()
            for _ in range(4):
                g.play(rng.choice(sorted(g.legal())))
            while not g.over and g.position.empties() > empties:
                g.play(ComputerMove(g.position, rng.choice((2, 2, 3)), i).finish())
            pos = g.position
            if g.over or pos.empties() != empties or not pos.has_move():
                continue
            search = Search(
                pos.player, pos.opponent, max_depth=60, node_limit=1,
                exact_empties=64, exact_node_limit=10**8,
            )  # fmt: skip
            nodes.append(Thinker(search).finish().nodes)
        print(
            f"{empties} empties: {len(nodes)} solves, nodes median {statistics.median(nodes):.0f}"
            f", max {max(nodes)}"
        )


def seat_move(game: Game, level: int, seed: int, profile: DeviceProfile) -> tuple[str, int]:
    """`level`'s move in `game` as the computer seat makes it on `profile`, and the work
    units that fix its landing tick: on a worker profile with several cores the search is
    split into the pool's parts (`ReversiComputer.split`) and the wait is their makespan."""
    from seat_search import split_decision

    from games.reversi.match import UNITS_PER_TICK, ReversiComputer, ReversiRules

    budget = profile.budget(UNITS_PER_TICK)
    computer = ReversiComputer(level, seed, budget, profile.native)
    rules = ReversiRules(game)
    seat = 0 if game.turn == "black" else 1
    split = split_decision(computer, rules, seat, profile)
    if split is not None:
        move, units = split
        return str(move), units
    job = computer.start(rules, seat)
    return job.job.finish(), job.units


def think(games: int, profiles: list[str]) -> None:
    """The strongest level's waits per profile; on a worker profile with several cores the
    search is split as the computer seat splits it (`split_root`, the parts' makespan)."""
    from firmware.match.profiles import PROFILES
    from games.reversi.match import UNITS_PER_TICK

    for name in profiles:
        profile = PROFILES[name]
        budget = profile.budget(UNITS_PER_TICK)
        ups = budget * 60
        level = LEVELS[STRONGEST].at_speed(ups, profile.native)
        waits: list[float] = []
        solve_waits: list[float] = []
        cpu = 0.0
        for i in range(games):
            g = opening(1000 + i)
            while not g.over:
                if g.turn == "black":
                    g.play(ComputerMove(g.position, 3, i).finish())
                    continue
                empties = g.position.empties()
                c = time.process_time()
                move, units = seat_move(g, STRONGEST, i, profile)
                cpu += time.process_time() - c
                ticks = max(MIN_THINK_TICKS, -(-units // budget))
                (solve_waits if empties <= level.exact_empties else waits).append(ticks / 60)
                g.play(move)
        every = waits + solve_waits
        print(
            f"{name:18} budget {budget:6} units/tick; mid {level.node_limit} nodes, exact from "
            f"{level.exact_empties} empties ({level.exact_node_limit} nodes): "
            f"{len(every)} moves, wait median {statistics.median(every):.2f} s, "
            f"p95 {sorted(every)[int(0.95 * (len(every) - 1))]:.2f} s, max {max(every):.2f} s; "
            f"solves max {max(solve_waits, default=0):.2f} s [{cpu:.0f} s CPU here]"
        )


# The levels in a chain (one Elo scale, L1 = 0), and the equal-nodes comparison with the
# previous strongest level (its own pair: it is not on the chain's scale).
ELO_MATCHES = (("L2", "L1"), ("L3", "L2"), ("L4", "L3"), ("new32k", "prev"))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("calibrate")
    c.add_argument("--positions", type=int, default=40)
    s = sub.add_parser("solves")
    s.add_argument("--positions", type=int, default=14)
    t = sub.add_parser("think")
    t.add_argument("--games", type=int, default=4)
    t.add_argument("--profile", action="append")
    m = sub.add_parser("match")
    m.add_argument("a", choices=sorted(PLAYERS))
    m.add_argument("b", choices=sorted(PLAYERS))
    m.add_argument("--openings", type=int, default=10)
    m.add_argument("--first", type=int, default=0, help="number of the first opening")
    m.add_argument(
        "--nodes", type=int, help="midgame nodes of prev and new32k (default 32 000), equal"
    )
    e = sub.add_parser("elo")
    e.add_argument("--openings", type=int, default=6)
    args = ap.parse_args(argv)
    print(f"weights: {learned_evaluator.__module__} (evaluator {learned_evaluator().__name__})")
    if args.what == "calibrate":
        calibrate(args.positions)
    elif args.what == "solves":
        solves(args.positions)
    elif args.what == "think":
        from firmware.match.profiles import PROFILES

        think(args.games, args.profile or list(PROFILES))
    elif args.what == "match":
        if args.nodes:
            for name in ("prev", "new32k"):
                lv = PLAYERS[name]
                assert isinstance(lv, Level)
                PLAYERS[name] = replace(lv, node_limit=args.nodes)
            print(f"prev and new32k at {args.nodes} midgame nodes")
        match(args.a, args.b, args.openings, first=args.first)
    else:
        results = [match(a, b, args.openings) for a, b in ELO_MATCHES]
        chain = [r for r in results if str(r["a"]).startswith("L")]
        print("Elo scale of the levels (L1 = 0):")
        for name, r in sorted(elo_scale(chain).items(), key=lambda kv: kv[1]):
            print(f"  {name:7} {r:+6.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
