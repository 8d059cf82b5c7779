"""Reversi on the handheld (issue 3): tick cost of a mid-game, of the flip animation, and of
every tick while the strongest computer level thinks.

    .venv/bin/python bench/reversi_scene.py [--games N]

Tick cost = Machine.step() + render() + present() on the headless backend, measured per
tick both as CPU time of this thread (time.thread_time: what the tick itself costs, not
disturbed by other processes on a shared machine) and as wall time (time.perf_counter).
Figures: p50 / p99 / max in milliseconds.

- mid-game: two players, a 20-move position with full hints and a preview shown, idle
  (the frame a player looks at most);
- flip animation: every tick of the flip animations of a whole two-player game;
- strongest level thinking: N games as white against the strongest level (you play the
  first legal square); every tick during which the computer thinks, endgame solve included.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import benchenv  # noqa: F401  (headless SDL; the checkout on sys.path)

if TYPE_CHECKING:
    from firmware.machine import Machine
from ticktime import GC, pct
from ticktime import Timer as BaseTimer

from firmware.testing import running_game, scripted_input

TARGET_P99_MS = 2.0
TARGET_THINK_MAX_MS = 8.0


class Timer(BaseTimer):
    """Per-tick CPU and wall times of one machine (and the GC's share of each tick)."""

    def tick(self, machine: Machine, keep: bool = True) -> None:
        GC.spent = 0.0
        c0, w0 = time.thread_time(), time.perf_counter()
        machine.step()
        machine.render()
        machine.present()
        c1, w1 = time.thread_time(), time.perf_counter()
        if keep:
            self.add((c1 - c0) * 1000, (w1 - w0) * 1000, GC.spent)


def row(name: str, t: Timer) -> str:
    c, w = t.cpu, t.wall
    return (
        f"{name:<28} {len(c):>6}  cpu {statistics.median(c):5.2f} {pct(c, 0.99):5.2f} "
        f"{max(c):6.2f}   wall {statistics.median(w):5.2f} {pct(w, 0.99):5.2f} {max(w):6.2f}"
    )


def machine(tmp: str, **options: str) -> Machine:
    from firmware.testing import machine_from_movie

    m = machine_from_movie(Path(tmp), game="reversi", seed=1, options=options)
    return m


def set_input(m: Machine, touch: tuple[int, int] | None) -> None:
    from hal.interfaces import RawInput, RawTouch

    raw = RawInput(touch=RawTouch(*touch)) if touch else RawInput()
    scripted_input(m).script = lambda t: raw


def tap(m: Machine, square: str, timer: Timer, keep: Callable[[], bool]) -> None:
    from games.reversi.scene import layout

    set_input(m, layout.SQUARE_RECTS[square].center)
    for _ in range(3):
        timer.tick(m, keep())
    set_input(m, None)
    timer.tick(m, keep())


def mid_game(frames: int) -> Timer:
    from games.reversi.ai import choose_move

    t = Timer()
    with tempfile.TemporaryDirectory() as tmp:
        m = machine(tmp, mode="two")
        scene = running_game(m)
        for i in range(20):
            scene._tap_square(choose_move(scene.game.position, 1, seed=i))
            scene.anim = None
        scene.hint_level = 2
        scene.preview = sorted(scene.game.legal())[0]
        for _ in range(30):
            t.tick(m, keep=False)
        for _ in range(frames):
            t.tick(m)
    return t


def flip_animation() -> Timer:
    from games.reversi.ai import choose_move

    t = Timer()
    with tempfile.TemporaryDirectory() as tmp:
        m = machine(tmp, mode="two")
        scene = running_game(m)
        i = 0
        while not scene.game.over:
            move = choose_move(scene.game.position, 1, seed=i)
            i += 1
            tap(m, move, t, keep=lambda: scene.anim is not None)
            while scene.anim is not None:
                t.tick(m)
    return t


def strongest_thinking(games: int) -> tuple[Timer, int]:
    from games.reversi.ai import LEVELS, STRONGEST

    t = Timer()
    ticks = 0
    for g in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            m = machine(tmp, mode="cpu", level=LEVELS[STRONGEST].name, color="white")
            m.seed = g
            scene = running_game(m)
            while not (scene.game.over and scene.anim is None):
                if scene.human_to_move() and scene.anim is None:
                    tap(m, sorted(scene.game.legal())[0], t, keep=lambda: False)
                else:
                    thinking = scene.thinking
                    t.tick(m, keep=thinking)
                    ticks += thinking
    return t, ticks


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games against the strongest level")
    ap.add_argument("--frames", type=int, default=1200, help="mid-game frames")
    ap.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() first (what the firmware could do after boot): shows the GC's share",
    )
    args = ap.parse_args(argv)
    if args.gc_freeze:
        import firmware.machine  # noqa: F401 (load the firmware before freezing)
        import games.reversi.cartridge  # noqa: F401

        gc.collect()
        gc.freeze()
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus")
    print(f"{'ms per tick':<28} {'ticks':>6}  cpu   p50   p99    max   wall   p50   p99    max")
    mid = mid_game(args.frames)
    print(row("mid-game (hints + preview)", mid))
    anim = flip_animation()
    print(row("flip animation", anim))
    think, _ = strongest_thinking(args.games)
    print(row("strongest level thinking", think))
    print(f"strongest level thinking: {think.over(TARGET_THINK_MAX_MS)}")
    ok = (
        pct(mid.cpu, 0.99) <= TARGET_P99_MS
        and pct(anim.cpu, 0.99) <= TARGET_P99_MS
        and max(think.cpu) <= TARGET_THINK_MAX_MS
    )
    print(
        f"targets (cpu time): mid-game and animation p99 <= {TARGET_P99_MS} ms, "
        f"thinking max <= {TARGET_THINK_MAX_MS} ms: {'met' if ok else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
