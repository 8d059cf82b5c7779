"""When a computer's answer from a worker process is applied, kept so replays repeat it.

A computer seat with a worker process (`ComputerSeat`, worker=True) plays its move at the
poll its work fixes; in real time, when the worker is late, the move is applied at the first
poll after the answer arrives, which depends on the host's load. Frames rebuilt later must
show the move at the same tick, so that poll is recorded like an input (a request is known
by the tick it was made at):

- live, the seat tells the machine's `Pacing` the poll each answer was applied at
  (`landed`); the `log` (the emulator's rewind history) keeps every one with its tick, and
  the `recorder` (a movie being recorded) is told the late ones;
- while the log's ticks are replayed (`replaying`: rewinding, a clip) the seat asks
  `landing(request)` and gets the recorded poll (it waits for its answer there, however
  late the worker is this time) or `PENDING` (not applied live by then: it holds);
- while a movie plays (`script`), the seat gets the movie's poll for a late answer, or
  None: the answer came in time, so it waits for it at the poll its work fixes.

With none of these (headless without a movie, the device) nothing changes: a seat waits for
a late answer (headless) or takes it when it comes (real time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

PENDING = -1  # requested, not applied by the end of the recording


class PacingLog(Protocol):
    """Every applied answer, kept with the tick (the emulator's rewind history)."""

    def landed(self, request: int, polls: int, late: bool, tick: int) -> None: ...

    def landing(self, request: int) -> int: ...


class PacingScript(Protocol):
    """A movie being played: the late answers it recorded."""

    def active(self, tick: int) -> bool: ...

    def landing(self, request: int) -> int | None: ...


class Pacing:
    """The machine's record keeper for worker answers (shared, never rewound)."""

    def __init__(self, now: Callable[[], int]) -> None:
        self.now = now
        self.log: PacingLog | None = None
        self.recorder: Callable[[int, int, int], None] | None = None  # (tick, request, poll)
        self.script: PacingScript | None = None
        self.replaying = False

    def landed(self, request: int, polls: int, late: bool) -> None:
        """Live: the answer to `request` was applied at poll `polls` (now)."""
        if self.replaying:
            return
        tick = self.now()
        if self.log is not None:
            self.log.landed(request, polls, late, tick)
        if late and self.recorder is not None:
            self.recorder(tick, request, polls)

    @property
    def scripted(self) -> bool:
        """Whether the poll of every answer is given (the seat then waits for its worker)."""
        if self.replaying:
            return self.log is not None
        return self.script is not None and self.script.active(self.now())

    def landing(self, request: int) -> int | None:
        """The poll the answer to `request` is to be applied at, PENDING (hold), or None
        (at the poll its work fixes)."""
        if self.replaying:
            return self.log.landing(request) if self.log is not None else None
        if self.script is not None and self.script.active(self.now()):
            return self.script.landing(request)
        return None
