"""Arimaa benchmarks (issue 4): turn-generation throughput against pyrimaa.board side by
side, the default level's move time, and playing strength.

    .venv/bin/python bench/arimaa.py [--part throughput|movetime|simple|lowest|all] [--games N]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.arimaa.ai.levels import DEFAULT_LEVEL, LEVELS, TOP_LEVEL, choose_turn, searcher_for
from games.arimaa.rules.game import Game
from games.arimaa.rules.position import random_setup
from games.arimaa.rules.randomplay import random_game
from games.arimaa.rules.score import score_winner
from games.arimaa.rules.steps import turn_results

BIN = Path(sys.executable).parent


def fixed_positions(count: int = 24, seed: int = 2026) -> list[tuple[tuple[int, ...], int]]:
    rng = random.Random(seed)
    out: list[tuple[tuple[int, ...], int]] = []
    while len(out) < count:
        game = random_game(rng.randrange(1 << 30), rng.randint(2, 24))
        if game.result is None:
            out.append((game.position.boards, game.position.side))
    return out


def throughput() -> None:
    from pyrimaa import board as pb

    def to_ref(boards: tuple[int, ...], side: int) -> Any:
        """The position in pyrimaa's board (its bitboards: empty, 6 gold, 2 unused, 6 silver)."""
        bb: list[int | None] = [0] * 15
        bb[7] = bb[8] = None
        gold = silver = 0
        for index, b in enumerate(boards):
            s, kind = divmod(index, 6)
            bb[kind + 1 + 8 * s] = b
            if s:
                silver |= b
            else:
                gold |= b
        bb[0] = ~(gold | silver) & ((1 << 64) - 1)
        return pb.Position(side, 4, bb)

    positions = fixed_positions()
    ours_t = ref_t = 0.0
    total = 0
    for boards, side in positions:
        ref = to_ref(boards, side)
        t0 = time.perf_counter()
        expected = ref.get_moves()
        t1 = time.perf_counter()
        ours = turn_results(boards, side)
        t2 = time.perf_counter()
        assert len(ours) == len(expected)
        ref_t += t1 - t0
        ours_t += t2 - t1
        total += len(ours)
    print(f"turn generation: {len(positions)} positions, {total} distinct turn results")
    print(f"  pyrimaa.board get_moves: {ref_t:.2f} s ({total / ref_t:.0f} results/s)")
    print(f"  twinfold turn_results:   {ours_t:.2f} s ({total / ours_t:.0f} results/s)")
    print(f"  throughput ratio (ours / pyrimaa): {ref_t / ours_t:.2f}x")


def movetime(level: int = DEFAULT_LEVEL, count: int = 12) -> None:
    """Wall-clock and CPU time per move (CPU time is what an unshared machine would see)."""
    times = []
    cpu = []
    for seed in range(count):
        game = random_game(500 + seed, 4 + 2 * seed)
        if game.result is not None:
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        searcher_for(game, level).run()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    print(
        f"level {level} ({LEVELS[level]}): {len(times)} positions, wall mean"
        f" {statistics.mean(times):.2f} s max {max(times):.2f} s; CPU mean"
        f" {statistics.mean(cpu):.2f} s max {max(cpu):.2f} s per move"
    )


def versus_simple(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "rr.cfg"
        cfg.write_text(
            f"[global]\nbots = twinfold simple\nrounds = {games}\ntimecontrol = none\n"
            "strict_setup = true\n\n"
            f"[twinfold]\ncmdline = {BIN / 'twinfold'} aei\nbot_level = {TOP_LEVEL}\n\n"
            f"[simple]\ncmdline = {BIN / 'simple_engine'}\n"
        )
        t0 = time.perf_counter()
        proc = subprocess.run(
            [str(BIN / "roundrobin"), "--config", str(cfg)], cwd=tmp, capture_output=True, text=True
        )
        elapsed = time.perf_counter() - t0
    ours = re.findall(r"twinfold has (\d+) wins", proc.stdout)
    theirs = re.findall(r"simple has (\d+) wins", proc.stdout)
    reasons = re.findall(r"twinfold beat simple because of (\w)", proc.stdout)
    print(
        f"level {TOP_LEVEL} vs simple_engine (roundrobin, {games} games): twinfold "
        f"{ours[-1] if ours else '?'} wins, simple_engine {theirs[-1] if theirs else '?'} wins;"
        f" win reasons {sorted(set(reasons))}; {elapsed:.0f} s; roundrobin exit {proc.returncode}"
    )


def versus_lowest(games: int, max_turns: int = 80, first: int = 0) -> None:
    """Seeded games (random setups from the seed); halted after `max_turns` turns and
    decided by claim 29's score, as a game limit G would."""
    top_wins = 0
    lengths = []
    for seed in range(first, first + games):
        rng = random.Random(seed)
        game = Game()
        game.setup(random_setup(0, rng))
        game.setup(random_setup(1, rng))
        top_side = seed % 2
        turns = 0
        while game.result is None and turns < max_turns:
            level = TOP_LEVEL if game.side_to_move == top_side else 1
            game.play_turn(choose_turn(game, level))
            turns += 1
        winner = game.result.winner if game.result else score_winner(game.position.boards)
        reason = game.result.reason if game.result else f"score at the {max_turns}-turn limit"
        top_wins += winner == top_side
        lengths.append(turns)
        print(
            f"  game {seed}: top plays {'gs'[top_side]}, winner "
            f"{'gs'[winner] if winner is not None else 'draw'} by {reason} after {turns} turns",
            flush=True,
        )
    print(
        f"level {TOP_LEVEL} vs level 1 ({games} seeded games): top won {top_wins}/{games}"
        f" ({100 * top_wins / games:.0f}%), mean length {statistics.mean(lengths):.0f} turns"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--part", default="all", choices=["throughput", "movetime", "simple", "lowest", "all"]
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="first seed (lowest part)")
    args = parser.parse_args()
    if args.part in ("throughput", "all"):
        throughput()
    if args.part in ("movetime", "all"):
        movetime()
    if args.part in ("simple", "all"):
        versus_simple(args.games)
    if args.part in ("lowest", "all"):
        versus_lowest(args.games, first=args.first)


if __name__ == "__main__":
    main()
