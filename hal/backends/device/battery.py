"""The battery as the Linux kernel reports it: the power_supply class (P-HW-8).

Each supply is a folder under `/sys/class/power_supply/` (the root is injectable, so tests
build stand-in trees): `type` says what it is (`Battery`, `Mains`, `USB`, ...), a battery's
`capacity` is its charge in percent and `status` is `Charging`, `Discharging`, `Full`,
`Not charging` or `Unknown`; `present` (when there) is 0 for an empty battery bay. A charger
shows up as a `Mains` or `USB` supply whose `online` is 1.

A reading that does not make sense (no battery folder, a capacity that is not a whole number
from 0 to 100, a file that cannot be read) is None: the firmware then keeps what it knew and,
if it stays so, hides the battery (firmware/battery.py judges readings over time: a gauge
that jumps is believed only when it says the same thing several times).
"""

from __future__ import annotations

import logging
from pathlib import Path

from hal.interfaces import Battery, BatteryPolicy, BatteryReading

ROOT = Path("/sys/class/power_supply")
CHARGING = frozenset({"Charging", "Full"})

log = logging.getLogger("twinfold")


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None


class SysfsBattery(Battery):
    """The first supply of type Battery under `root` (or the one named `name`)."""

    def __init__(
        self, root: Path = ROOT, name: str = "", policy: BatteryPolicy | None = None
    ) -> None:
        self.root, self.name = Path(root), name
        self.policy = policy or BatteryPolicy()

    def _battery(self) -> Path | None:
        if self.name:
            folder = self.root / self.name
            return folder if _read(folder / "type") == "Battery" else None
        try:
            folders = sorted(self.root.iterdir())
        except OSError:
            return None
        for folder in folders:
            if _read(folder / "type") == "Battery" and _read(folder / "present") in (None, "1"):
                return folder
        return None

    def _on_charger(self) -> bool:
        try:
            folders = sorted(self.root.iterdir())
        except OSError:
            return False
        return any(
            _read(f / "type") in ("Mains", "USB", "USB_C", "USB_PD") and _read(f / "online") == "1"
            for f in folders
        )

    def read(self) -> BatteryReading | None:
        folder = self._battery()
        if folder is None:
            return None
        text = _read(folder / "capacity")
        if text is None or not text.isdigit():  # "", "-3", "abc", "12.5": not a reading
            return None
        percent = int(text)
        if percent > 100:
            return None
        charging = _read(folder / "status") in CHARGING or self._on_charger()
        return BatteryReading(percent, charging)
