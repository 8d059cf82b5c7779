"""Killing Sevens soak (issue 14): whole games through the real firmware, headless, by taps
only, under all 40 combinations of the four rules options, the five personalities taking
turns in the three computer seats, the dump checked against an engine kept alongside after
every action (the same checks as tests/games/sevens/test_sevens_scene_play.py, which runs
six of these games).

    .venv/bin/python bench/sevens_soak.py [--games-per-combination N]

Prints one line per combination and the totals; exit status 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import tempfile
import time
from pathlib import Path

from benchenv import ROOT

sys.path.insert(0, str(ROOT / "tests" / "games" / "sevens"))

PERSONALITIES = ("simpleton", "cool", "hitman", "coward", "brute")


def main(argv: list[str]) -> int:
    from sevens_driver import Driver, play_by_taps

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games-per-combination", type=int, default=1)
    args = ap.parse_args(argv)
    combos = list(itertools.product((1, 4, 6, 9, 12), ("off", "on"), ("off", "on"), ("off", "on")))
    failures = games = 0
    start = time.perf_counter()
    for n, (max_kill, walls, sevens, extra) in enumerate(combos):
        for g in range(args.games_per_combination):
            k = n * args.games_per_combination + g
            seats = {f"seat{i + 1}": PERSONALITIES[(k + i) % 5] for i in range(3)}
            options = {
                "max_kill": str(max_kill),
                "three_walls": walls,
                "sevens_first": sevens,
                "extra_turn": extra,
            }
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    d = Driver(Path(tmp), seed=k, **seats, **options)
                    play_by_taps(d, random.Random(k))
                    result = "ok"
                except AssertionError as exc:
                    failures += 1
                    result = f"MISMATCH {exc}"
            games += 1
            print(
                f"max {max_kill:>2} walls {walls:<3} sevens {sevens:<3} extra {extra:<3} "
                f"{'/'.join(seats.values()):<28} {result}",
                flush=True,
            )
    took = time.perf_counter() - start
    print(f"{games} games, {failures} mismatches, {took:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
