"""Device profiles: how much computer-player work one tick may do on each kind of unit.

A game's computer player states `units_per_tick` for the development machine; the profile
scales it by the unit's speed relative to that machine, so a Raspberry Pi Zero 2 W thinks
in smaller slices and every tick stays within its budget (P-LOOP-3, P-GAME-5).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeviceProfile:
    name: str
    speed: float  # single-core Python speed relative to the development machine
    cores: int  # cores available for a computer player's worker process

    def budget(self, units_per_tick: int) -> int:
        """The per-tick work budget for a player tuned to `units_per_tick` on the desktop."""
        return max(1, int(units_per_tick * self.speed))


# Speeds are estimates until measured on the hardware (docs/performance.md states the method).
PROFILES: dict[str, DeviceProfile] = {
    "desktop": DeviceProfile("desktop", 1.0, 1),
    "pi5": DeviceProfile("pi5", 0.6, 4),
    "pi4": DeviceProfile("pi4", 0.3, 4),
    "pi3": DeviceProfile("pi3", 0.15, 4),
    "pi-zero-2w": DeviceProfile("pi-zero-2w", 0.12, 4),
}
DEFAULT_PROFILE = PROFILES["desktop"]
