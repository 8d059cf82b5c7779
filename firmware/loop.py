"""The fixed-step frame loop (P-LOOP-1): ticks of exactly 1/60 s, bounded catch-up.

Each pass polls and updates as many ticks as wall time owes (at most `max_catchup`), then
draws and presents once. A host too slow even for that drops the backlog instead of
spiralling; game time never changes its step. Headless runs call `Machine.step` directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from hal.interfaces import TICK_HZ, Clock

DT = 1.0 / TICK_HZ


class Steppable(Protocol):
    def step(self) -> None: ...
    def render(self) -> None: ...
    def present(self) -> None: ...


@dataclass
class LoopStats:
    ticks: int = 0
    frames: int = 0
    dropped_ticks: int = 0  # ticks' worth of wall time skipped when hopelessly behind
    max_burst: int = 0  # most ticks run before one draw


class FixedStepLoop:
    def __init__(self, machine: Steppable, clock: Clock, *, max_catchup: int = 4) -> None:
        if max_catchup < 1:
            raise ValueError("max_catchup must be at least 1")
        self.machine = machine
        self.clock = clock
        self.max_catchup = max_catchup
        self.stats = LoopStats()
        self._next = clock.now()
        self.paused = False
        self.speed = 1  # fast-forward multiplier

    def resync(self) -> None:
        """Forget owed time (after a pause or a blocking dialog)."""
        self._next = self.clock.now()

    def pass_once(self) -> int:
        """One pass: run the owed ticks, draw once if any ran, sleep until the next tick."""
        now = self.clock.now()
        steps = 0
        if self.paused:
            self._next = now + DT
        budget = self.max_catchup * self.speed
        while not self.paused and now >= self._next and steps < budget:
            for _ in range(self.speed):
                self.machine.step()
                self.stats.ticks += 1
            steps += self.speed
            self._next += DT
        if not self.paused and now >= self._next:
            behind = int((now - self._next) / DT) + 1
            self.stats.dropped_ticks += behind
            self._next += behind * DT
        if steps:
            self.machine.render()
            self.machine.present()
            self.stats.frames += 1
            self.stats.max_burst = max(self.stats.max_burst, steps)
        wait = self._next - self.clock.now()
        if wait > 0:
            self.clock.sleep(wait)
        return steps

    def run(self, keep_going: Callable[[], bool]) -> LoopStats:
        self.resync()
        while keep_going():
            self.pass_once()
        return self.stats
