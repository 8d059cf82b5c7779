"""Region Select speed figures (docs/performance.md, ## Region Select).

    .venv/bin/python bench/regions.py

1. random shadow + surface + drawing for n = 12 (median over seeds; target <= 100 ms),
2. one shortest solution for a random pattern on n = 10..15 surfaces (target <= 5 ms),
3. the whole catalogue check: every start pattern of every catalogue surface with n <= 10
   solved and replayed (target <= 10 s), and drawing the whole catalogue.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.regions.rules.catalogue import CATALOGUE
from games.regions.rules.generate import random_shadow, random_surface
from games.regions.rules.layout import draw
from games.regions.rules.puzzle import Board
from games.regions.rules.surface import Surface


def bench_generation(n: int, seeds: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds per surface (the machine is shared, so both are shown)."""
    wall, cpu = [], []
    for seed in range(seeds):
        t, c = time.perf_counter(), time.process_time()
        random_surface(n, random.Random(seed))
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


def bench_solve(samples: int) -> list[float]:
    rng = random.Random(7)
    times = []
    for i in range(samples):
        n = 10 + i % 6
        board = Board(Surface(random_shadow(n, rng)))
        cells = board.pattern(rng.randrange(1, board.pattern_count + 1))
        t = time.perf_counter()
        board.shortest_solution(cells)
        times.append(time.perf_counter() - t)
    return times


def catalogue_check() -> tuple[float, int]:
    t = time.perf_counter()
    count = 0
    for e in CATALOGUE:
        if e.shadow.crossings > 10:
            continue
        surface = Surface(e.shadow)
        board = Board(surface)
        touches = surface.touches
        for number in range(1, board.pattern_count + 1):
            cells = list(board.pattern(number))
            for p in board.shortest_solution(tuple(cells)):
                for r in touches[p]:
                    cells[r] ^= 1
            assert not any(cells)
            count += 1
    return time.perf_counter() - t, count


def main() -> None:
    for n in (8, 12, 15):
        gen, cpu = bench_generation(n, 15)
        print(
            f"n={n} shadow+surface+drawing: median {statistics.median(gen) * 1000:.0f} ms wall, "
            f"{statistics.median(cpu) * 1000:.0f} ms CPU "
            f"(min {min(gen) * 1000:.0f}, max {max(gen) * 1000:.0f} ms wall; 15 seeds)"
        )
    solve = bench_solve(300)
    print(
        f"shortest solution, n=10..15: median {statistics.median(solve) * 1000:.2f} ms, "
        f"max {max(solve) * 1000:.2f} ms (300 patterns)"
    )
    seconds, count = catalogue_check()
    print(f"catalogue check: {count} patterns solved and replayed in {seconds:.2f} s")
    t = time.perf_counter()
    for e in CATALOGUE:
        draw(Surface(e.shadow))
    print(f"drawing all {len(CATALOGUE)} catalogue surfaces: {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
