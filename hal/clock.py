"""The two clocks a backend can run on (`hal.interfaces.Clock`).

`MonotonicClock` is real time for the emulator and the device: it never goes backwards and
sleeps for real. `SimClock` is time that moves only when told to (headless runs, tests, a
model of a slow host): sleeping advances it, so nothing ever waits.
"""

from __future__ import annotations

import time

from hal.interfaces import Clock


class MonotonicClock(Clock):
    """Wall time for a real unit or window: `time.monotonic`, `time.sleep`."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class SimClock(Clock):
    """Time that moves only when told to: sleeping advances it, so nothing ever waits."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.t += seconds

    def advance(self, seconds: float) -> None:
        self.t += seconds
