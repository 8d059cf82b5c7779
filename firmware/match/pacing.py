"""When a computer's answer from a worker process is applied, kept so replays repeat it.

A computer seat with a worker process (`ComputerSeat`, worker=True) plays its move at the
poll its work fixes; in real time, when the worker is late, the move is applied at the first
poll after the answer arrives, which depends on the host's load. Frames rebuilt later from
a checkpoint and the recorded input (the emulator's rewind and clips) must show the move at
the same tick, so the tick is recorded like an input:

- live, the seat tells the machine's `Pacing` the poll each request's answer was applied at
  (`landed`; a request is known by the tick it was made at); a `PacingLog` (the emulator's
  rewind history) keeps them with the tick;
- while the log's ticks are replayed (`replaying`), the seat asks `landing(request)`: the
  recorded poll (it waits for its answer there, however late the worker is this time), or
  `PENDING`: no answer was applied live (yet), so it holds.

With no log (headless, the device) nothing is kept and nothing changes: a seat then waits
for a late answer (headless) or takes it when it comes (real time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

PENDING = -1  # requested, not applied by the end of the recording


class PacingLog(Protocol):
    def landed(self, request: int, polls: int, late: bool, tick: int) -> None: ...

    def landing(self, request: int) -> int: ...


class Pacing:
    """The machine's record keeper for worker answers (shared, never rewound)."""

    def __init__(self, now: Callable[[], int]) -> None:
        self.now = now
        self.log: PacingLog | None = None
        self.replaying = False

    def landed(self, request: int, polls: int, late: bool) -> None:
        """Live: the answer to `request` was applied at poll `polls` (now)."""
        if self.log is not None and not self.replaying:
            self.log.landed(request, polls, late, self.now())

    def landing(self, request: int) -> int | None:
        """While replaying: the poll the request's answer was applied at, or PENDING; None
        when not replaying a log (the seat's own rule applies)."""
        if self.log is None or not self.replaying:
            return None
        return self.log.landing(request)
