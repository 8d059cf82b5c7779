"""Arimaa's computer on this machine (issue 36): think time per level, and the speed-up of
the whole-turn search split into parts on a pool of processes.

    .venv/bin/python bench/arimaa_parallel.py [--part levels|parallel|all] [--positions N]
        [--levels 1,2,3,4,5] [--procs 2]

`levels`: CPU time of one decision per level (the search alone, one process) on positions
from seeded random games (`bench/arimaa.py`'s fixed positions). `parallel`: wall-clock
time of a decision at levels 3 and 5 three ways: the whole search in this process, the
three parts one after another in this process (what splitting costs), and the three parts
on a `SearchPool` of `--procs` processes (the pool's processes are started and warmed up
before the clock starts: a game reuses them for every move); and the same in search work
units, which no other load on the machine changes: the parts' total against the whole
search's, and the whole search's work over the parts' makespan on 2 and 3 processes (the
speed-up free cores give). `profiles`: the wait a player sees for each level on each device
profile (issue 36, item 4), as the match layer's computer seat paces it: the level's work cap
from the profile's core speed (`match.work_cap`), the parts' makespan on the profile's cores
where it splits, `max(24, ceil(units / tick budget))` ticks at 60 Hz; in work units, so the
figures do not depend on this machine's load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arimaa import fixed_positions

from firmware.match.pool import SearchPool
from firmware.match.seats import makespan
from games.arimaa.ai.levels import LEVELS, searcher_for
from games.arimaa.ai.split import join
from games.arimaa.match import (
    SEARCH_UNIT_COST,
    SPLIT_PARTS,
    UNITS_PER_TICK,
    ArimaaComputer,
    ArimaaPart,
    ArimaaRules,
    _TurnThinker,
)
from games.arimaa.rules.game import Game
from games.arimaa.rules.position import Position


def _games(count: int) -> list[Game]:
    return [Game(start=Position(b, s)) for b, s in fixed_positions(count)]


def levels(count: int, which: list[int]) -> None:
    games = _games(count)
    print("level | mean s CPU | median | max | nodes mean | depth reached | us CPU per work unit")
    for level in which:
        times, nodes, depths, work = [], [], [], []
        for game in games:
            s = searcher_for(game, level)
            t = time.process_time()
            s.run()
            times.append(time.process_time() - t)
            nodes.append(s.nodes)
            depths.append(s.depth_done)
            work.append(s.work)
        print(
            f"{level} | {statistics.mean(times):.2f} | {statistics.median(times):.2f} | "
            f"{max(times):.2f} | {statistics.mean(nodes):,.0f} | "
            f"{min(depths)}-{max(depths)} | {sum(times) / sum(work) * 1e6:.0f}",
            flush=True,
        )


def parallel(count: int, procs: int) -> None:
    games = _games(count)
    pool = SearchPool(procs)
    warm = ArimaaRules.new(None)
    warm.game = games[0]
    # start the processes and warm them up (imports) on one decision, as a game's first
    # move would
    first = warm.to_move()
    assert first is not None
    pool.submit([ArimaaPart(3, i) for i in range(SPLIT_PARTS)], warm, first)
    pool.poll(wait_for=True)
    print(
        "level | whole s | parts in one process s | parts on the pool s | speed-up vs whole"
        " | work: parts / whole | work speed-up on 2 / 3 processes"
    )
    try:
        for level in (3, 5):
            whole_t, seq_t, pool_t = [], [], []
            whole_w, parts_w, span2, span3 = 0, 0, 0, 0
            player = ArimaaComputer(level, 0)
            for game in games:
                rules = ArimaaRules.new(None)
                rules.game = game
                seat = rules.to_move()
                assert seat is not None
                t = time.perf_counter()
                whole = searcher_for(game, level)
                whole.run()
                whole_t.append(time.perf_counter() - t)
                whole_w += whole.work
                parts = player.split(rules, seat)
                assert parts is not None
                t = time.perf_counter()
                results, units = [], []
                for part in parts:
                    thinker = part.start(rules, seat)
                    while (done := thinker.think(1 << 30)) is None:
                        pass
                    results.append(done)
                    units.append(thinker.units // SEARCH_UNIT_COST)
                seq_t.append(time.perf_counter() - t)
                parts_w += sum(units)
                span2 += makespan(units, 2)
                span3 += makespan(units, 3)
                t = time.perf_counter()
                pool.submit(parts, rules, seat)
                answer = pool.poll(wait_for=True)
                pool_t.append(time.perf_counter() - t)
                assert answer is not None
                pos = game.position
                assert join(pos.boards, pos.side, answer[0]) == join(pos.boards, pos.side, results)
            w, s, p = (sum(x) for x in (whole_t, seq_t, pool_t))
            print(
                f"{level} | {w:.1f} | {s:.1f} | {p:.1f} | {w / p:.2f}x | "
                f"{parts_w / whole_w:.2f} | {whole_w / span2:.2f}x / {whole_w / span3:.2f}x",
                flush=True,
            )
    finally:
        pool.close()


def profiles(count: int, which: list[int], names: list[str]) -> None:
    from firmware.match.profiles import PROFILES, WORKER_UNITS_PER_TICK
    from firmware.match.seats import MIN_THINK_TICKS

    games = _games(count)
    print("profile | level | work cap | turns | wait median s | max s | whole turn searched")
    for name in names:
        profile = PROFILES[name]
        budget = profile.budget(UNITS_PER_TICK)
        for level in which:
            player = ArimaaComputer(
                level, 0, profile.budget(WORKER_UNITS_PER_TICK), profile.native
            )
            waits, whole = [], 0
            for game in games:
                rules = ArimaaRules.new(None)
                rules.game = game
                seat = rules.to_move()
                assert seat is not None
                parts = player.split(rules, seat)
                pooled = profile.mode == "worker" and profile.cores > 1 and parts is not None
                thinkers = (
                    [part.start(rules, seat) for part in parts]
                    if pooled and parts is not None
                    else [player.start(rules, seat)]
                )
                units = []
                for thinker in thinkers:
                    while thinker.think(1 << 30) is None:
                        pass
                    units.append(thinker.units)
                    assert isinstance(thinker, _TurnThinker)
                whole += all(
                    isinstance(t, _TurnThinker) and not t.searcher.capped for t in thinkers
                )
                total = makespan(units, profile.cores) if pooled else units[0]
                waits.append(max(MIN_THINK_TICKS, -(-total // budget)) / 60)
            print(
                f"{name} | {level} | {player.work_cap:,} | {len(waits)} | "
                f"{statistics.median(waits):.2f} | {max(waits):.2f} | {whole}/{len(waits)}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--part", choices=("levels", "parallel", "profiles", "all"), default="all"
    )
    parser.add_argument("--profiles", default="pi-zero-2w,desktop-worker")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--levels", default=",".join(str(k) for k in LEVELS))
    parser.add_argument("--procs", type=int, default=2)
    args = parser.parse_args()
    if args.part in ("levels", "all"):
        levels(args.positions, [int(x) for x in args.levels.split(",")])
    if args.part in ("parallel", "all"):
        parallel(args.positions, args.procs)
    if args.part in ("profiles", "all"):
        levels_ = [int(x) for x in args.levels.split(",")]
        profiles(args.positions, levels_, args.profiles.split(","))


if __name__ == "__main__":
    main()
