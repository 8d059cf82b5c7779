"""Panel Link on the handheld (issue 16, P-GAME-10): tick cost in every phase of play, and
the top computer level's thinking sliced across ticks, through the real firmware headless.

    .venv/bin/python bench/panels_scene.py [--games N] [--frames N] [--profile NAME]

Tick cost = Machine.step() + render() + present() on the headless backend, per tick, as CPU
time of this thread (time.thread_time: the tick's own cost, not disturbed by other
processes on a shared machine) and wall time. Figures: p50 / p99 / max in milliseconds.

- idle, card selected: two players, mid-game, a stock card selected (permitted squares
  shaded), nothing moving: the frame a player looks at most;
- animations: every animating tick (glides, rotations, yaku announcements, arrivals) of a
  whole two-player game played by taps;
- level 4 thinking: N games against the top level (the person taps a random legal
  placement); every tick while the computer's seat is deciding;
- decision wait: ticks from the start of the computer's turn to its first visible step
  (the move it chose is then played step by step, each step shown for at least 24 ticks),
  reported in seconds at 60 Hz; and the whole turn's duration.
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
from typing import TYPE_CHECKING

import benchenv  # noqa: F401  (headless SDL; the checkout on sys.path)

if TYPE_CHECKING:
    from firmware.machine import Machine

from firmware.testing import running_game, scripted_input


class Timer:
    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def tick(self, machine: Machine, keep: bool = True) -> None:
        c0, w0 = time.thread_time(), time.perf_counter()
        machine.step()
        machine.render()
        machine.present()
        c1, w1 = time.thread_time(), time.perf_counter()
        if keep:
            self.cpu.append((c1 - c0) * 1000)
            self.wall.append((w1 - w0) * 1000)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def row(name: str, t: Timer) -> str:
    c, w = t.cpu, t.wall
    return (
        f"{name:<26} {len(c):>6}  cpu {statistics.median(c):5.2f} {pct(c, 0.99):5.2f} "
        f"{max(c):6.2f}   wall {statistics.median(w):5.2f} {pct(w, 0.99):5.2f} {max(w):6.2f}"
    )


def machine(tmp: str, seed: int, profile: str, **options: str) -> Machine:
    from firmware.headless import build_machine
    from firmware.match.profiles import PROFILES

    m = build_machine(Path(tmp), game="panels", seed=seed, options=options)
    m.profile = PROFILES[profile]
    m.start_game("panels", options)  # again, so the computer seat takes the profile
    return m


def tap(m: Machine, name: str, t: Timer, keep: bool = False) -> None:
    from hal.interfaces import RawInput, RawTouch

    x, y, w, h = m.dump()["hotspots"][name]
    scripted_input(m).script = lambda _t: RawInput(touch=RawTouch(x + w // 2, y + h // 2))
    for _ in range(3):
        t.tick(m, keep)
    scripted_input(m).script = lambda _t: RawInput()
    t.tick(m, keep)


def settle(m: Machine, t: Timer, keep_anim: bool = False) -> None:
    scene = running_game(m)
    while scene.anims:
        t.tick(m, keep_anim)


def random_turn(m: Machine, rng: random.Random, t: Timer, keep_anim: bool) -> None:
    scene = running_game(m)
    st = scene.state
    placements = st.placements(st.current)
    if not placements:
        tap(m, "button:pass", t)
        settle(m, t, keep_anim)
        return
    stock, index, turns = rng.choice(placements)
    r, c = st.field.square(index)
    tap(m, f"stock:{stock}", t)
    tap(m, f"square:{r},{c}", t)
    settle(m, t, keep_anim)
    for _ in range(turns):
        tap(m, f"square:{r},{c}", t)
        settle(m, t, keep_anim)
    tap(m, "button:determine", t)
    settle(m, t, keep_anim)


def idle_and_animations(frames: int, profile: str) -> tuple[Timer, Timer]:
    idle, anim = Timer(), Timer()
    with tempfile.TemporaryDirectory() as tmp:
        m = machine(tmp, 1, profile, mode="two", target="300", field="square")
        rng = random.Random(1)
        for _ in range(16):
            random_turn(m, rng, anim, keep_anim=True)
        tap(m, "stock:0", anim)
        settle(m, anim)
        for _ in range(frames):
            idle.tick(m)
        scene = running_game(m)
        while not scene.state.over:
            random_turn(m, rng, anim, keep_anim=True)
    return idle, anim


def top_level(games: int, profile: str) -> tuple[Timer, list[int], list[int]]:
    """Thinking ticks, decision waits and whole computer turns (in ticks)."""
    think = Timer()
    waits: list[int] = []
    turns: list[int] = []
    for g in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            m = machine(
                tmp,
                100 + g,
                profile,
                mode="cpu",
                level="4",
                target="300",
                first="2" if g % 2 else "1",
            )
            scene = running_game(m)
            rng = random.Random(g)
            while not scene.state.over:
                if scene.local_to_move() and not scene.anims:
                    random_turn(m, rng, think, keep_anim=False)
                    continue
                start, history = m.tick, len(scene.match.history)
                first = None
                mover = scene.state.current
                while not scene.state.over and (scene.state.current == mover or scene.anims):
                    thinking = scene.thinking_ticks() > 0 or (
                        not scene.anims and not scene.local_to_move()
                    )
                    think.tick(m, keep=thinking)
                    if first is None and len(scene.match.history) > history:
                        first = m.tick - start
                waits.append(first or 0)
                turns.append(m.tick - start)
    return think, waits, turns


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games against the top level")
    ap.add_argument("--frames", type=int, default=600, help="idle frames measured")
    ap.add_argument("--profile", default="desktop", help="device profile (desktop, ...)")
    args = ap.parse_args(argv)
    print(
        f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus, "
        f"profile {args.profile}"
    )
    print(f"{'ms per tick':<26} {'ticks':>6}  cpu   p50   p99    max   wall   p50   p99    max")
    idle, anim = idle_and_animations(args.frames, args.profile)
    print(row("idle, card selected", idle))
    print(row("animations", anim))
    think, waits, turns = top_level(args.games, args.profile)
    print(row("level 4 thinking", think))
    secs = [w / 60 for w in waits]
    whole = [t / 60 for t in turns]
    print(
        f"level 4 decision wait (s): median {statistics.median(secs):.2f}  "
        f"p95 {pct(secs, 0.95):.2f}  max {max(secs):.2f}  ({len(secs)} turns)"
    )
    print(
        f"level 4 whole turn shown (s): median {statistics.median(whole):.2f}  "
        f"p95 {pct(whole, 0.95):.2f}  max {max(whole):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
