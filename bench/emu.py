"""Emulator frame cost: window composition per layout and scale, and whole frames of the app.

    .venv/bin/python bench/emu.py            # SDL's dummy video driver (no screen)
    SDL_VIDEODRIVER=x11 DISPLAY=:N .venv/bin/python bench/emu.py   # a real X server

Prints p50 / p99 milliseconds (wall clock, and CPU time of this process, which a busy shared
host does not inflate) of `WindowDisplay.present` (scale both panels, compose, flip)
and of a whole app frame (input, update, draw, present) on the launcher and in Bubble Pop.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (headless SDL; the checkout on sys.path)
import pygame

from emulator.app import App
from emulator.display import WindowDisplay
from emulator.layout import Layout
from firmware.cli import build_parser
from hal.clock import SimClock
from hal.interfaces import SCREEN_SIZE

FRAMES = 600


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_present() -> None:
    pygame.display.init()
    upper, lower = pygame.Surface(SCREEN_SIZE), pygame.Surface(SCREEN_SIZE)
    print(f"WindowDisplay.present, {FRAMES} frames ({pygame.display.get_driver()} driver)")
    print(
        f"{'layout':<11} {'scale':>5} {'window':>10} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'cpu p50':>8} {'cpu p99':>8}"
    )
    for kind in ("vertical", "horizontal", "hybrid", "single"):
        for scale in (1, 2, 3, 4):
            display = WindowDisplay(Layout(kind, scale, 8))
            times, cpu = [], []
            for i in range(FRAMES):
                upper.fill((i % 256, 30, 60))
                lower.fill((30, i % 256, 60))
                t0, c0 = time.perf_counter(), time.process_time()
                display.present(upper, lower)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            w, h = display.geometry.size
            print(
                f"{kind:<11} {scale:>5} {f'{w}x{h}':>10} {pct(times, 0.5):8.3f} "
                f"{pct(times, 0.99):8.3f} {pct(cpu, 0.5):8.3f} {pct(cpu, 0.99):8.3f}"
            )


def bench_app(game: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        argv = ["emu", "--store", str(Path(tmp) / "store.db"), "--scale", "2", "--seed", "0"]
        if game:
            argv += ["--game", game]
        app = App(build_parser().parse_args(argv), clock=SimClock())
        costs: list[float] = []
        for _ in range(FRAMES):
            app.pass_once()
            costs.append(app.timed.frame_costs[-1])
        app.shutdown()
    where = game or "launcher"
    print(
        f"app frame ({where}, vertical x2): p50 {pct(costs, 0.5):.3f} ms, "
        f"p99 {pct(costs, 0.99):.3f} ms, mean {1000 * statistics.fmean(costs):.3f} ms"
    )


if __name__ == "__main__":
    bench_present()
    bench_app(None)
    bench_app("pop")
