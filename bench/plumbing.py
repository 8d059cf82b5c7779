"""Costs of the plumbing: the input latch per tick, booting a machine, starting `twinfold`.

    .venv/bin/python bench/plumbing.py

Figures go to docs/performance.md ("Plumbing: boot path, input latch, command line").
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchenv import ROOT

from firmware.boot import BootConfig, boot
from hal.backends.headless import headless_hal
from hal.interfaces import Button, RawTouch
from hal.latch import InputLatch


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_latch(ticks: int = 20000) -> None:
    """A busy tick: four events (a key tap and a mouse click) and one report."""
    latch = InputLatch()
    down, none = frozenset({Button.A}), frozenset[Button]()
    touch = RawTouch(10.0, 20.0)
    costs = []
    for _ in range(ticks):
        t0 = time.perf_counter()
        latch.observe(down, None)
        latch.observe(none, None)
        latch.observe(none, touch)
        latch.observe(none, None)
        latch.report(none, None)
        costs.append(time.perf_counter() - t0)
    us = [c * 1e6 for c in costs]
    print(
        f"latch: 4 events + report per tick   n={ticks}  median {pct(us, 0.5):6.2f} us"
        f"  p99 {pct(us, 0.99):6.2f} us"
    )


def bench_boot(runs: int = 20) -> None:
    """boot(): log, store (created), machine with the launcher, then with a game."""
    for game in (None, "pop"):
        costs = []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as tmp:
                t0 = time.perf_counter()
                machine = boot(headless_hal(Path(tmp)), BootConfig(game=game))
                costs.append(time.perf_counter() - t0)
                machine.store.close()
        ms = [c * 1000 for c in costs[1:]]  # the first run pays for imports
        print(
            f"boot(hal, BootConfig(game={game!r:6}))   n={runs - 1}  median {pct(ms, 0.5):6.1f} ms"
            f"  max {max(ms):6.1f} ms"
        )


def bench_cli(runs: int = 7) -> None:
    """A fresh process: `twinfold --help` (discovers backend and game commands)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    costs = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "firmware.cli", "--help"],
            env=env,
            capture_output=True,
            check=True,
        )
        costs.append(time.perf_counter() - t0)
    ms = [c * 1000 for c in costs]
    print(
        f"twinfold --help (new process)       n={runs}  median {statistics.median(ms):6.0f} ms"
        f"  max {max(ms):6.0f} ms"
    )


if __name__ == "__main__":
    bench_latch()
    bench_boot()
    bench_cli()
