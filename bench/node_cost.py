"""What one search node costs (issue 36, item 2): fixed searches whose trees do not depend on
the machine, timed, profiled and fingerprinted, so a faster engine can be shown to search the
very same tree.

    .venv/bin/python bench/node_cost.py reversi [--positions 12] [--depth 5] [--profile]
    .venv/bin/python bench/node_cost.py reversi --native [--solve 14]   # pure and compiled
    .venv/bin/python bench/node_cost.py arimaa [--positions 6] [--level 3] [--profile]
    .venv/bin/python bench/node_cost.py arimaa --native [--level 5]     # pure and compiled
    .venv/bin/python bench/node_cost.py arimaa --deepest 5 --positions 12  # compiled depth
    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
        .venv/bin/python bench/node_cost.py reversi --positions 4 --depth 4

Reversi: midgame NegaScout at a fixed depth (no node limit) on positions of seeded games
(20-50 empties). Arimaa: one decision of a level on the first positions of `bench/arimaa.py`.
Each prints the nodes, the CPU time, microseconds a node and a fingerprint (sha256 of every
search's move, score and node count): equal fingerprints before and after a change mean the
same moves, scores and trees. `--profile` adds cProfile's top functions. Under load, compare
instruction counts (callgrind's `Ir` total), which the machine's other work does not move.

`--native` runs the same searches again with the compiled accelerator
(games/reversi/ai/native.py) right after the pure-Python ones and prints both, the
fingerprints (equal: the same trees) and the ratio of their node costs: what
`players.NATIVE_MID_NODE_TENTHS` is (20 units for a pure-Python midgame node, times the
ratio). `--solve E` times exact solves at E empties instead (`NATIVE_END_NODE_TENTHS`,
against the 6 units of a pure-Python solver node). For Arimaa the compiled searches are
games/arimaa/ai/native.py's (`NativeArimaa.search`, the whole decision in C).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def reversi_positions(
    count: int, seed: int = 3, empties: tuple[int, int] = (20, 50)
) -> list[tuple[int, int]]:
    from games.reversi.rules import Game

    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < count:
        g = Game()
        target = rng.randint(*empties)
        while not g.over and g.position.empties() > target:
            g.play(rng.choice(sorted(g.legal())))
        if not g.over and g.position.has_move() and g.position.empties() == target:
            out.append((g.position.player, g.position.opponent))
    return out


def reversi(
    count: int, depth: int, native: bool = False, solve: int = 0
) -> tuple[int, str, float]:
    from games.reversi.ai.learned import shipped_weights
    from games.reversi.ai.native import engine
    from games.reversi.ai.players import learned_evaluator
    from games.reversi.ai.search import Search, SearchResult, Thinker

    evaluator = learned_evaluator()
    evaluator(0, 0)
    compiled = engine() if native else None
    if native and compiled is None:
        sys.exit("node_cost: no compiled accelerator (python3 run.py builds it with cc)")
    positions = reversi_positions(count, empties=(solve, solve) if solve else (20, 50))
    digest = hashlib.sha256()
    nodes = 0
    if compiled is not None:
        compiled.search(shipped_weights(), *positions[0], max_depth=1, node_limit=1)
    cpu = time.process_time()
    for p, o in positions:
        if compiled is not None:
            r = compiled.search(
                shipped_weights(), p, o, max_depth=depth, node_limit=10**9, exact_empties=solve
            )
            result = SearchResult(r.move, r.score, r.depth, r.exact, r.nodes)
        else:
            search = Search(
                p, o, max_depth=depth, node_limit=10**9, exact_empties=solve, evaluator=evaluator
            )
            result = Thinker(search).finish()
        nodes += result.nodes
        digest.update(f"{result.move}:{result.score}:{result.nodes};".encode())
    return nodes, digest.hexdigest(), time.process_time() - cpu


def arimaa(count: int, level: int, native: bool = False) -> tuple[int, str, float]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from arimaa import fixed_positions

    from games.arimaa.ai.levels import LEVELS, forbidden, searcher_for
    from games.arimaa.ai.native import engine
    from games.arimaa.rules.game import Game
    from games.arimaa.rules.position import Position

    compiled = engine() if native else None
    if native and compiled is None:
        sys.exit("node_cost: no compiled accelerator (python3 run.py builds it with cc)")
    games = [Game(start=Position(b, s)) for b, s in fixed_positions(count)]
    digest = hashlib.sha256()
    nodes = 0
    cpu = time.process_time()
    for game in games:
        pos = game.position
        s = (
            compiled.search(pos.boards, pos.side, LEVELS[level], forbidden(game))
            if compiled is not None
            else searcher_for(game, level)
        )
        steps = s.run()
        nodes += s.nodes
        digest.update(f"{steps}:{s.score}:{s.nodes}:{s.work};".encode())
    return nodes, digest.hexdigest(), time.process_time() - cpu


def arimaa_deepest(count: int, seconds: float) -> None:
    """How deep the compiled whole-turn search gets within `seconds` of CPU with no node
    limit: each depth from 4 up a fresh search (iterations 1..depth), on the fixed positions,
    until one takes longer."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from arimaa import fixed_positions

    from games.arimaa.ai.native import engine
    from games.arimaa.ai.search import Limits

    compiled = engine()
    if compiled is None:
        sys.exit("node_cost: no compiled accelerator (python3 run.py builds it with cc)")
    reached = []
    for i, (boards, side) in enumerate(fixed_positions(count)):
        best, line = 0, []
        for depth in range(4, 16):
            cpu = time.process_time()
            r = compiled.search(boards, side, Limits(depth=depth, nodes=0, full_turn=True))
            took = time.process_time() - cpu
            line.append(f"d{depth} {took:.2f}s {r.nodes}n")
            if took > seconds:
                break
            best = r.depth_done
            if r.depth_done < depth:  # a won or lost game ends the iterations
                break
        reached.append(best)
        print(f"{i}: deepest within {seconds:g} s: {best} | {', '.join(line)}", flush=True)
    print(f"deepest iteration finished within {seconds:g} s of CPU: {sorted(reached)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=("reversi", "arimaa"))
    ap.add_argument("--positions", type=int, default=0)
    ap.add_argument("--depth", type=int, default=5, help="Reversi: the fixed depth")
    ap.add_argument("--level", type=int, default=3, help="Arimaa: the level")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--native", action="store_true", help="pure, then compiled")
    ap.add_argument("--solve", type=int, default=0, help="Reversi: exact solves at E empties")
    ap.add_argument(
        "--deepest", type=float, default=0, help="Arimaa: compiled depth within S s of CPU"
    )
    args = ap.parse_args()
    count = args.positions or (12 if args.game == "reversi" else 6)
    if args.deepest:
        arimaa_deepest(count, args.deepest)
        return

    def run() -> tuple[int, str, float]:
        if args.game == "reversi":
            return reversi(count, args.depth, solve=args.solve)
        return arimaa(count, args.level)

    if args.native:
        pure = run()
        if args.game == "arimaa":
            compiled = arimaa(count, args.level, native=True)
        else:
            compiled = reversi(count, args.depth, native=True, solve=args.solve)
        for name, (nodes, digest, cpu) in (("pure", pure), ("compiled", compiled)):
            print(
                f"{args.game} {name:8}: {count} positions, {nodes} nodes, {cpu:.3f} s CPU, "
                f"{1e6 * cpu / nodes:.3f} us a node ({nodes / cpu:,.0f} nodes/s), "
                f"fingerprint {digest[:16]}"
            )
        ratio = (compiled[2] / compiled[0]) / (pure[2] / pure[0])
        if args.game == "arimaa":
            print(f"a compiled node costs {ratio:.4f} of a pure-Python one (same nodes: same tree)")
            return
        units = 6 if args.solve else 20
        print(
            f"a compiled node costs {ratio:.4f} of a pure-Python one: "
            f"{units * ratio:.2f} units (pure: {units})"
        )
        return

    if args.profile:
        prof = cProfile.Profile()
        nodes, digest, cpu = prof.runcall(run)
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
    else:
        nodes, digest, cpu = run()
    print(
        f"{args.game}: {count} positions, {nodes} nodes, {cpu:.2f} s CPU, "
        f"{1e6 * cpu / nodes:.1f} us a node, fingerprint {digest[:16]}"
    )


if __name__ == "__main__":
    main()
