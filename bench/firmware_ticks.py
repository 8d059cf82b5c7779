"""Platform benchmarks (issue 2): tick cost of every firmware scene, cold start, peak RSS.

    .venv/bin/python bench/firmware_ticks.py [--frames N]

Tick cost = Machine.step() + render() + present() on the headless backend, with random input
like the chaos test (no lid), measured per tick: thread CPU time and wall time, p50 / p99 /
max. Each row starts in that scene; random input wanders on to others (scene changes are
included). Only the firmware and the demo game are installed: games have their own benches.
Cold start runs `twinfold headless --frames 1` in a fresh process 10 times (median, best)
and reads the child's peak RSS from getrusage.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from benchenv import ROOT
from ticktime import machine_ticks

from firmware.testing import scripted_input

sys.path.insert(0, str(ROOT / "tests" / "firmware"))


# scene, CPU p50 / p99 / max, wall p50 / p99 / max (ms)
SceneRow = tuple[str, float, float, float, float, float, float]


def scene_costs(frames: int) -> list[SceneRow]:
    from test_chaos import SCENES, chaos_script

    from firmware.testing import machine_from_movie

    rows: list[SceneRow] = []
    for name in ["boot", *SCENES, "pop"]:
        with tempfile.TemporaryDirectory() as tmp:
            m = machine_from_movie(Path(tmp), game="pop" if name == "pop" else None, seed=1)
            # Firmware scenes and the demo game only: each game has its own tick benchmark.
            m.cartridges = {"pop": m.cartridges["pop"]}
            if name in SCENES:
                m.push(SCENES[name](m))
            scripted_input(m).script = chaos_script(zlib.crc32(name.encode()), lid=False)
            cpu, wall = machine_ticks(m, frames)
            rows.append((name, *_pcts(cpu), *_pcts(wall)))
            m.store.close()
    return rows


def _pcts(values: list[float]) -> tuple[float, float, float]:
    values = sorted(values)
    return values[len(values) // 2], values[int(len(values) * 0.99)], values[-1]


def cold_start(runs: int = 10) -> tuple[float, float, float]:
    exe = Path(sys.executable).with_name("twinfold")
    times, rss = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t0 = time.perf_counter()
        subprocess.run([str(exe), "headless", "--frames", "1"], check=True)
        times.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        rss.append(max(before, after) / 1024)
    return statistics.median(times), min(times), max(rss)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=3000)
    args = parser.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    print("tick = step + render + present; CPU = thread CPU time, wall = perf_counter")
    print(
        f"{'scene':12} {'cpu p50':>8} {'cpu p99':>8} {'cpu max':>8} "
        f"{'wall p50':>9} {'wall p99':>9} {'wall max':>9}   (ms)"
    )
    for name, *v in scene_costs(args.frames):
        print(f"{name:12} {v[0]:8.3f} {v[1]:8.3f} {v[2]:8.3f} {v[3]:9.3f} {v[4]:9.3f} {v[5]:9.3f}")
    median, best, rss = cold_start()
    print(f"cold start `twinfold headless --frames 1`: median {median:.3f} s, best {best:.3f} s")
    print(f"peak RSS of that process: {rss:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
