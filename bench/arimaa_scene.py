"""Arimaa on the handheld (issue 13): tick cost per phase through the real firmware headless,
and the computer's move time at each level.

    .venv/bin/python bench/arimaa_scene.py [--games N] [--levels 1,2,3,4,5] [--moves N]

Tick cost = Machine.step() + render() + present() on the headless backend, per tick, as CPU
time of this thread (time.thread_time) and wall time; p50 / p99 / max in milliseconds.

Phases: `setup` (the setup screen, swaps tapped), `play` (a person's turn: pieces selected
and steps tapped, pushes and pulls included), `animation` (the computer's turn sliding on
the board), `thinking` (every tick while the computer decides, at the given level), `over`
(the result overlay), `replay` (stepping through the stored record).

Move time: the computer's whole decision (in-loop search, no frame loop) on positions from
seeded games, per level: CPU seconds mean and max, and the estimate for the device profiles
(CPU time divided by the profile's speed). The first few ticks after the game starts
(glyphs drawn once) are not timed.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import benchenv  # noqa: F401  (headless SDL; the checkout on sys.path)
from ticktime import GC, Timer, pct

from firmware.testing import running_game, scripted_input

WARM_TICKS = 5  # the game's first frames draw the fonts' glyphs once: not timed


def row(name: str, t: Timer) -> str:
    c, w = t.cpu, t.wall
    if not c:
        return f"{name:<12} (no ticks)"
    return (
        f"{name:<12} {len(c):>6}  cpu {statistics.median(c):5.2f} {pct(c, 0.99):5.2f} "
        f"{max(c):6.2f}   wall {statistics.median(w):5.2f} {pct(w, 0.99):5.2f} {max(w):6.2f}"
    )


class Bench:
    """One headless machine running Arimaa, every tick timed into the phase it belongs to."""

    def __init__(self, tmp: str, seed: int, **options: str) -> None:
        from firmware.testing import machine_from_movie

        self.m = machine_from_movie(Path(tmp), game="arimaa", seed=seed, options=options)
        self.phases: dict[str, Timer] = {}

    @property
    def scene(self) -> Any:
        return running_game(self.m)

    def phase(self) -> str:
        s = self.scene
        if s.is_replay:
            return "replay"
        if s.anim is not None:
            return "animation"
        if s.phase == "over":
            return "over"
        if s.thinking:
            return "thinking"
        phase: str = s.phase
        return phase

    def tick(self, touch: tuple[int, int] | None = None) -> None:
        from hal.interfaces import RawInput, RawTouch

        raw = RawInput(touch=RawTouch(*touch)) if touch else RawInput()
        scripted_input(self.m).script = lambda t: raw
        name = self.phase()
        GC.spent = 0.0
        c0, w0 = time.thread_time(), time.perf_counter()
        self.m.step()
        self.m.render()
        self.m.present()
        c1, w1 = time.thread_time(), time.perf_counter()
        if self.m.tick <= WARM_TICKS:
            return
        self.phases.setdefault(name, Timer()).add((c1 - c0) * 1000, (w1 - w0) * 1000, GC.spent)

    def tap(self, name: str) -> None:
        x, y, w, h = self.m.dump()["hotspots"][name]
        for _ in range(3):
            self.tick((x + w // 2, y + h // 2))
        self.tick()
        self.tick()


def play_games(games: int, level: int) -> dict[str, Timer]:
    """Games as gold against `level`: a few swaps in setup, random turns entered by taps."""
    from games.arimaa.ai.goal import find_goal
    from games.arimaa.rules.board import square_name
    from games.arimaa.rules.randomplay import random_turn

    total: dict[str, Timer] = {}
    for g in range(games):
        rng = random.Random(g)
        with tempfile.TemporaryDirectory() as tmp:
            b = Bench(tmp, g, mode="cpu", level=str(level), clock="0:30/5/100/3/0/0")
            for a, c in (("a1", "d2"), ("b1", "e2"), ("h1", "a2")):
                b.tap(f"square:{a}")
                b.tap(f"square:{c}")
            for _ in range(30):
                b.tick()
            b.tap("button:ok")
            for _ in range(4000):
                s = b.scene
                if s.phase == "over" and s.anim is None:
                    break
                if s.local_to_move() and s.phase == "play" and len(s.game.turns) < 80:
                    game = s.game
                    goal = find_goal(game.position.boards, game.position.side)
                    if goal:
                        steps = goal
                    else:
                        twin = game.copy()
                        random_turn(twin, rng)
                        steps = [(st.frm, st.to) for st in twin.turns[-1]]
                    for frm, to in steps:
                        b.tap(f"square:{square_name(frm)}")
                        for _ in range(10):
                            b.tick()  # looking at the targets
                        b.tap(f"square:{square_name(to)}")
                    b.tap("button:done")
                elif s.local_to_move() and s.phase == "play":
                    b.tap("button:resign")
                    b.tap("button:resign")
                else:
                    b.tick()
            for _ in range(120):
                b.tick()
            # Replay the stored record from the scene's own replay path.
            from games.arimaa.cartridge import CARTRIDGE

            record = b.m.store.list_records("arimaa")[0].record
            ctx = b.scene.ctx
            scene = CARTRIDGE.replay(ctx, record) if CARTRIDGE.replay else None
            assert scene is not None
            running = b.m.game_scene()
            assert running is not None
            running.game = scene
            for _ in range(min(60, len(record["actions"]))):
                b.tap("button:forward")
                for _ in range(30):
                    b.tick()
        for name, t in b.phases.items():
            acc = total.setdefault(name, Timer())
            acc.cpu += t.cpu
            acc.wall += t.wall
            acc.gc += t.gc
    return total


def move_times(levels: list[int], moves: int) -> list[str]:
    from firmware.match.profiles import PROFILES
    from games.arimaa.match import UNITS_PER_TICK, ArimaaComputer, ArimaaRules
    from games.arimaa.rules.randomplay import random_game

    out = []
    positions = []
    for seed in range(moves):
        game = random_game(seed, 8 + 3 * seed)
        if game.result is None:
            positions.append(game)
    for level in levels:
        cpu: list[float] = []
        units: list[int] = []
        for game in positions:
            rules = ArimaaRules(game)
            thinker = ArimaaComputer(level, 1).start(rules, game.side_to_move)
            c0 = time.thread_time()
            while thinker.think(4_000) is None:
                pass
            cpu.append(time.thread_time() - c0)
            units.append(thinker.units)
        per_unit = sum(cpu) / max(1, sum(units)) * 1e6
        est = ", ".join(
            f"{name} {statistics.mean(cpu) / p.speed:.1f} s"
            for name, p in PROFILES.items()
            if name in ("pi5", "pi4", "pi-zero-2w")
        )
        out.append(
            f"level {level}: {len(cpu)} moves, cpu mean {statistics.mean(cpu):.2f} s, max "
            f"{max(cpu):.2f} s; {per_unit:.2f} us cpu per work unit (calibrated to 1); "
            f"in the frame loop {statistics.mean(units) / UNITS_PER_TICK:.0f} ticks mean; "
            f"estimated mean on {est}"
        )
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="games against the computer")
    ap.add_argument("--level", type=int, default=3, help="the computer's level in the games")
    ap.add_argument("--levels", default="1,2,3,4,5", help="levels for the move-time part")
    ap.add_argument("--moves", type=int, default=8, help="positions for the move-time part")
    ap.add_argument("--part", choices=("all", "ticks", "movetime"), default="all")
    args = ap.parse_args(argv)
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus")
    if args.part in ("all", "ticks"):
        print(f"{'ms per tick':<12} {'ticks':>6}  cpu   p50   p99    max   wall   p50   p99    max")
        phases = play_games(args.games, args.level)
        for name in ("setup", "play", "animation", "thinking", "over", "replay"):
            print(row(name, phases.get(name, Timer())))
        print("thinking:", phases.get("thinking", Timer()).over(8.0))
        for name in ("setup", "play", "animation", "over", "replay"):
            print(f"{name}:", phases.get(name, Timer()).over(2.0))
    if args.part in ("all", "movetime"):
        levels = [int(x) for x in args.levels.split(",")]
        for line in move_times(levels, args.moves):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
