"""Per-tick timing shared by the scene benchmarks: CPU and wall time per tick, the garbage
collector's share, percentiles."""

from __future__ import annotations

import gc
import statistics
import time
from typing import Protocol


class Steps(Protocol):
    """A firmware machine as far as a tick's timing needs it."""

    def step(self) -> None: ...
    def render(self) -> None: ...
    def present(self) -> None: ...


class GcWatch:
    """CPU time Python's cyclic garbage collector spends, per tick (gc.callbacks)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.thread_time()
        else:
            self.spent += (time.thread_time() - self._start) * 1000


GC = GcWatch()


class Timer:
    """Per-tick CPU and wall milliseconds, and the GC's share of each tick."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.gc: list[float] = []

    def add(self, cpu: float, wall: float, gc_ms: float = 0.0) -> None:
        self.cpu.append(cpu)
        self.wall.append(wall)
        self.gc.append(gc_ms)

    def over(self, limit: float) -> str:
        slow = [i for i, c in enumerate(self.cpu) if c > limit]
        in_gc = [i for i in slow if self.gc[i] > limit / 2]
        return (
            f"{len(slow)} of {len(self.cpu)} ticks over {limit} ms cpu, "
            f"{len(in_gc)} of them in a GC pass"
        )


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of `values`; NaN for none."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def waits_line(waits: list[float], cpu: float, unit: str = "move") -> str:
    """One line on a computer player's waits in a match against an outside engine."""
    return (
        f"our waits: {len(waits)} {unit}s, median {statistics.median(waits):.2f} s, "
        f"p95 {pct(waits, 0.95):.2f} s, max {max(waits):.2f} s; "
        f"CPU here {cpu:.0f} s, mean {cpu / len(waits):.2f} s a {unit}"
    )


def machine_ticks(m: Steps, frames: int) -> tuple[list[float], list[float]]:
    """CPU and wall milliseconds of each of `frames` whole ticks: step, render, present."""
    cpu, wall = [], []
    for _ in range(frames):
        t0, c0 = time.perf_counter(), time.thread_time()
        m.step()
        m.render()
        m.present()
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    return cpu, wall
