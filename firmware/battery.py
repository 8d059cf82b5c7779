"""The battery seen by the firmware (P-HW-8): readings judged over time, one warning when it
runs low, and a clean shutdown with the game saved when it is nearly empty.

Why judge readings: fuel gauges lie. A battery driver may vanish for a moment (an I2C
hiccup), report a capacity that jumps (80 % then 3 % then 80 %: a bad read, or the gauge
re-learning), or report nonsense (the HAL turns that into None). Shutting a unit down on one
bad reading would lose the player's moment for nothing, so:

- the battery is read every `policy.poll_ticks` ticks (tick-counted: no wall clock);
- a reading within `JUMP` points of the believed charge is believed at once; one further
  away is believed only after `CONFIRM` readings in a row agree with it (within `JUMP`);
  the first charge after start (or after the battery was lost) needs `CONFIRM` as well;
- `MISSING` polls in a row without a reading forget the battery (its icon goes away); a
  missing battery never warns nor shuts down (the unit is on mains, or the gauge is gone);
- at or below `policy.low` and not charging the player is told once; the warning comes back
  only after the charge rose `REARM` points above the threshold or the charger was plugged;
- at or below `policy.critical` and not charging for `CONFIRM` believed readings in a row,
  the unit saves the running game and shuts down as a long POWER press does.

A unit without a battery (`present` False: headless, the emulator) is never read and nothing
is drawn, so movies and screenshots stay byte-identical.
"""

from __future__ import annotations

from typing import Literal

from hal.interfaces import Battery, BatteryReading

JUMP = 15
CONFIRM = 3
MISSING = 3
REARM = 5

Event = Literal["low", "critical"]


class BatteryMonitor:
    """Believed charge (`level`, None: unknown), `charging`, and the events it raises."""

    def __init__(self, battery: Battery) -> None:
        self.battery = battery
        self.policy = battery.policy
        self.level: int | None = None
        self.charging = False
        self._candidate: BatteryReading | None = None
        self._agree = 0
        self._missing = 0
        self._warned = False
        self._critical = 0
        self._shut_down = False

    @property
    def present(self) -> bool:
        return self.battery.present

    def tick(self, tick: int) -> Event | None:
        """Read the battery on poll ticks; returns an event to act on, else None."""
        if not self.battery.present or tick % max(1, self.policy.poll_ticks):
            return None
        return self.judge(self.battery.read())

    def judge(self, reading: BatteryReading | None) -> Event | None:
        """Take one reading (None: none that made sense) and say what must happen."""
        if reading is None:  # also breaks a run of agreeing readings: "in a row" means it
            self._candidate, self._agree = None, 0
            self._missing += 1
            if self._missing >= MISSING:
                self.level, self._candidate, self._agree, self._critical = None, None, 0, 0
            return None
        self._missing = 0
        if self.level is not None and abs(reading.percent - self.level) <= JUMP:
            self._believe(reading)
        else:
            near = self._candidate is not None and (
                abs(reading.percent - self._candidate.percent) <= JUMP
            )
            self._agree = self._agree + 1 if near else 1
            self._candidate = reading
            if self._agree < CONFIRM:
                return None
            self._believe(reading)
        return self._event()

    def _believe(self, reading: BatteryReading) -> None:
        self.level, self.charging = reading.percent, reading.charging
        self._candidate, self._agree = None, 0

    def _event(self) -> Event | None:
        level, policy = self.level, self.policy
        assert level is not None
        if self.charging or level > policy.low + REARM:
            self._warned = False
        if self.charging or level > policy.critical:
            self._critical = 0
        else:
            self._critical += 1
            if self._critical >= CONFIRM and not self._shut_down:
                self._shut_down = True
                return "critical"
        if not self.charging and level <= policy.low and not self._warned:
            self._warned = True
            return "low"
        return None
