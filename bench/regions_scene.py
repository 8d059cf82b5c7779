"""Region Select on the handheld (issue 15): tick cost per phase through the real firmware.

    .venv/bin/python bench/regions_scene.py [--rounds N]

Tick cost = Machine.step() + render() + present() on the headless backend, per tick, as CPU
time of the main thread (time.thread_time) and wall time (time.perf_counter); p50 / p99 /
max in milliseconds. Ticks are paced at 60 Hz as on the handheld (the loop sleeps between
ticks), so a worker thread laying out a surface runs in the gaps as it does on the device;
the wall time of a tick includes any wait for the worker's result at its fixed tick and any
wait for the interpreter lock the worker holds.

Phases:
- choose: the surface list, idle and paging;
- catalogue: loading a catalogue surface (shipped drawing) behind the working animation;
- random 12: generating and laying out a random surface of 12 crossings (worker thread);
- draw: the stylus drawing a trefoil, one sample per tick;
- drawn -> surface: the working ticks in which the drawn curve becomes a surface;
- three-state search: the alternating three-state rule's search on an 8-region surface
  (the largest offered), in slices;
- play: tapping points of the solution, the flip animation, hints and the solution shown;
- clear: the clear screen.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from math import cos, pi, sin
from pathlib import Path
from typing import Any

import benchenv  # noqa: F401  (headless SDL; the checkout on sys.path)

from firmware.headless import build_machine
from firmware.testing import running_game, scripted_input
from hal.interfaces import RawInput, RawTouch

TICK = 1 / 60
TARGET_P99_MS = 2.0
TARGET_MAX_MS = 8.0


class Bench:
    """One machine, paced ticks, and the per-phase times."""

    def __init__(self, tmp: Path, **options: str) -> None:
        self.m = build_machine(tmp, game="regions", seed=1, options=options)
        self.phase = "boot"
        self.cpu: dict[str, list[float]] = {}
        self.wall: dict[str, list[float]] = {}
        self.script: Callable[[int], RawInput] = lambda t: RawInput()
        scripted_input(self.m).script = lambda t: self.script(t)
        self.next = time.perf_counter()

    @property
    def game(self) -> dict[str, Any]:
        dump: dict[str, Any] = running_game(self.m).dump()
        return dump

    @property
    def scene(self) -> Any:
        return running_game(self.m)

    def tick(self) -> None:
        now = time.perf_counter()
        if now < self.next:
            time.sleep(self.next - now)
        self.next = max(self.next + TICK, time.perf_counter() - TICK)
        c0, w0 = time.thread_time(), time.perf_counter()
        self.m.step()
        self.m.render()
        self.m.present()
        c1, w1 = time.thread_time(), time.perf_counter()
        self.cpu.setdefault(self.phase, []).append((c1 - c0) * 1000)
        self.wall.setdefault(self.phase, []).append((w1 - w0) * 1000)

    def idle(self, n: int) -> None:
        self.script = lambda t: RawInput()
        for _ in range(n):
            self.tick()

    def tap(self, x: int, y: int, after: int = 3) -> None:
        start = self.m.tick
        self.script = lambda t: RawInput(touch=RawTouch(x, y)) if t - start < 3 else RawInput()
        for _ in range(3 + after):
            self.tick()

    def tap_name(self, name: str) -> None:
        r = self.scene.hotspots()[name]
        self.tap(r.centerx, r.centery)

    def stroke(self, pts: list[tuple[int, int]]) -> None:
        start = self.m.tick

        def script(t: int) -> RawInput:
            i = t - start
            return RawInput(touch=RawTouch(*pts[i])) if 0 <= i < len(pts) else RawInput()

        self.script = script
        for _ in range(len(pts) + 1):
            self.tick()

    def wait_ready(self, limit: int = 600) -> None:
        for _ in range(limit):
            s = self.scene
            if s.job is None and not s.searching:
                return
            self.tick()
        raise RuntimeError("the scene never finished its work")


def trefoil() -> list[tuple[int, int]]:
    pts = []
    for i in range(161):
        t = 2 * pi * i / 160
        pts.append(
            (
                round(128 + 24 * (sin(t) + 2 * sin(2 * t))),
                round(84 + 24 * (cos(t) - 2 * cos(2 * t))),
            )
        )
    return pts


def solve(b: Bench) -> None:
    b.phase = "play"
    b.tap_name("button:hint")
    b.tap_name("button:solution")
    for p in b.scene.solution():
        x, y = b.scene.chosen.drawing.points[p]
        b.tap(round(x), round(y), after=8)
    b.phase = "clear"
    b.idle(60)


def run_round(tmp: Path) -> Bench:
    b = Bench(tmp / "a")
    b.phase = "choose"
    b.idle(30)
    for _ in range(4):
        b.tap_name("choice:page:next")
    b.tap_name("choice:page:prev")
    b.phase = "catalogue"
    b.tap_name("choice:surface:8_20")
    b.wait_ready()
    b.phase = "choose"
    b.tap_name("choice:pattern:random")
    b.tap_name("choice:start")
    solve(b)
    b.tap_name("choice:another")
    b.phase = "choose"
    for _ in range(7):
        b.tap_name("choice:random:more")
    b.phase = "random 12"
    b.tap_name("choice:random")
    b.wait_ready()
    b.tap_name("choice:start")
    solve(b)
    b.tap_name("choice:another")
    b.phase = "choose"
    b.tap_name("choice:draw")
    b.phase = "draw"
    b.stroke(trefoil())
    b.phase = "drawn -> surface"
    b.wait_ready()
    b.tap_name("choice:start")
    solve(b)

    t = Bench(tmp / "b", variant="three", goal="B", surface="8_18", pattern="random")
    t.phase = "three-state search"
    t.wait_ready()
    t.idle(2)
    solve(t)
    for phase in t.cpu:
        b.cpu.setdefault(phase, []).extend(t.cpu[phase])
        b.wall.setdefault(phase, []).extend(t.wall[phase])
    return b


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            b = run_round(Path(tmp))
            for phase in b.cpu:
                cpu.setdefault(phase, []).extend(b.cpu[phase])
                wall.setdefault(phase, []).extend(b.wall[phase])
    print(f"Python {platform.python_version()}, {platform.machine()}, {args.rounds} rounds")
    print(f"{'phase':22} {'ticks':>6}  {'CPU p50/p99/max ms':>22}  {'wall p50/p99/max ms':>22}")
    for phase in cpu:
        if phase == "boot":
            continue
        c, w = cpu[phase], wall[phase]
        print(
            f"{phase:22} {len(c):6d}  {statistics.median(c):6.2f} {pct(c, 0.99):6.2f} "
            f"{max(c):7.2f}  {statistics.median(w):6.2f} {pct(w, 0.99):6.2f} {max(w):7.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
