"""Device profiles: how a unit's computer players get their work done (issue 18).

A game's computer player counts its work in *units* calibrated to about a microsecond of the
development machine's CPU, and states `units_per_tick`: the slice that keeps an in-loop tick
well under its 8 ms bar there. A profile scales that by the unit's speed and picks the mode:

- `sliced`: the search runs inside the frame loop, `budget` units per tick (single core;
  headless runs and tests, deterministic by construction);
- `worker`: the search runs in a worker process on a spare core while the loop keeps
  drawing; the budget is then what a whole core does per tick, less a safety margin.

Either way the move is applied at the tick its work fixes (`ceil(units / budget)` after the
request, at least a short pause), so a seed and a movie give the same frames in both modes
as long as the unit keeps up with its profile.
"""

from __future__ import annotations

from dataclasses import dataclass

MODES = ("sliced", "worker")
WORKER_FACTOR = 2.5  # a whole core's 16.7 ms per tick with a margin, against ~5 ms in-loop


@dataclass(frozen=True)
class DeviceProfile:
    name: str
    speed: float  # single-core Python speed relative to the development machine
    mode: str = "sliced"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"profile mode must be one of {', '.join(MODES)}")

    def budget(self, units_per_tick: int) -> int:
        """Work units per tick for a player tuned to `units_per_tick` on the desktop."""
        factor = WORKER_FACTOR if self.mode == "worker" else 1.0
        return max(1, int(units_per_tick * self.speed * factor))


# Speeds of the Raspberry Pi boards are estimates until measured on the hardware: clock x
# per-clock CPython throughput against the development machine's core (the method and the
# arithmetic are in hal/backends/device/profile.py and docs/performance.md).
PROFILES: dict[str, DeviceProfile] = {
    "desktop": DeviceProfile("desktop", 1.0, "sliced"),
    "desktop-worker": DeviceProfile("desktop-worker", 1.0, "worker"),
    "pi5": DeviceProfile("pi5", 0.45, "worker"),
    "pi4": DeviceProfile("pi4", 0.2, "worker"),
    "pi3": DeviceProfile("pi3", 0.11, "worker"),
    "pi-zero-2w": DeviceProfile("pi-zero-2w", 0.08, "worker"),
    "pi-zero-2w-sliced": DeviceProfile("pi-zero-2w-sliced", 0.08, "sliced"),
}
DEFAULT_PROFILE = PROFILES["desktop"]
