"""Device profiles: how a unit's computer players get their work done (issue 18).

A game's computer player counts its work in *units* calibrated to about a microsecond of the
development machine's CPU, and states `units_per_tick`: the slice that keeps an in-loop tick
well under its 8 ms bar there. A profile scales that by the unit's speed and picks the mode:

- `sliced`: the search runs inside the frame loop, `budget` units per tick (single core;
  headless runs and tests, deterministic by construction);
- `worker`: the search runs in a worker process on a spare core while the loop keeps
  drawing; the budget is then what most of a core does per tick (`WORKER_UNITS_PER_TICK`
  scaled by speed), whatever the game.

Either way the move is applied at the tick its work fixes (`ceil(units / budget)` after the
request, at least a short pause), so a seed and a movie give the same frames in both modes
as long as the unit keeps up with its profile.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

MODES = ("sliced", "worker")
# A worker has a whole core: per tick, 16.7 ms less a margin for a loaded machine, in units
# of about a microsecond of the development machine, whatever the game.
WORKER_UNITS_PER_TICK = 12_000


@dataclass(frozen=True)
class DeviceProfile:
    name: str
    speed: float  # single-core Python speed relative to the development machine
    mode: str = "sliced"
    #: cores the computer's search may use (a worker profile's pool of processes; issue 36)
    cores: int = 1
    #: the unit runs the games' compiled search accelerators (the image builds them for
    #: arm64; issue 36), so the computer players count a node at its compiled cost and search
    #: more of them in the same wait. Only worker profiles: a whole compiled decision is one
    #: call, which an in-loop tick cannot slice. Where the library is missing (no C compiler)
    #: the pure-Python engine searches the same nodes: the same moves, only slower.
    native: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"profile mode must be one of {', '.join(MODES)}")

    def budget(self, units_per_tick: int) -> int:
        """Work units per tick: in the loop, the player's own slice (`units_per_tick`, tuned
        on the desktop) scaled by speed; in a worker, most of a core's tick."""
        per_tick = WORKER_UNITS_PER_TICK if self.mode == "worker" else units_per_tick
        return max(1, int(per_tick * self.speed))


# Speeds of the Raspberry Pi boards are estimates until measured on the hardware: clock x
# per-clock CPython throughput against the development machine's core (the method and the
# arithmetic are in hal/backends/device/profile.py and docs/performance.md).
# Every Raspberry Pi board has four cores: the frame loop keeps one, the computer gets three.
# A desktop gives it all but one of its cores, at most three (the parts a search splits into).
DESKTOP_CORES = max(1, min(3, (os.cpu_count() or 1) - 1))
PROFILES: dict[str, DeviceProfile] = {
    "desktop": DeviceProfile("desktop", 1.0, "sliced"),
    "desktop-worker": DeviceProfile("desktop-worker", 1.0, "worker", DESKTOP_CORES),
    "pi5": DeviceProfile("pi5", 0.45, "worker", 3, native=True),
    "pi4": DeviceProfile("pi4", 0.2, "worker", 3, native=True),
    "pi3": DeviceProfile("pi3", 0.11, "worker", 3, native=True),
    "pi-zero-2w": DeviceProfile("pi-zero-2w", 0.08, "worker", 3, native=True),
    "pi-zero-2w-sliced": DeviceProfile("pi-zero-2w-sliced", 0.08, "sliced"),
}
DEFAULT_PROFILE = PROFILES["desktop"]
