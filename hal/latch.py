"""Presses shorter than a frame: the latch every event-driven backend puts before `poll()`.

A backend learns about its devices through events (pygame's queue, evdev's reads) but the
firmware samples them once per tick (`InputSource.poll`). A click or key tap whose press and
release both arrive between two polls would leave the held-set unchanged and never reach a
game. `InputLatch` remembers every change between two polls and bends the next report just
enough that none is lost:

- a button pressed and released since the last poll is reported held for this poll (the
  firmware sees a press now and the release at the next tick);
- a button reported held that was released and pressed again since the last poll is
  reported up for this poll (the release now, the new press at the next tick, even if it was
  already released again by then);
- a touch that began and ended since the last poll is reported at its first point for this
  poll (a one-frame touch: `touch_down` now, `touch_up` at the next tick);
- a lift and a new touch since the last poll are reported as stylus up for this poll (the
  new touch follows at the next tick);
- the POWER button is treated like the other buttons.

Use: call `observe(held, touch, power)` with the device state after every event (or every
evdev `SYN_REPORT`), and build `poll()`'s `RawInput` from `report(held, touch, power)`.
The result is what the firmware sees, so a recorded movie replays it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hal.interfaces import Button, RawTouch

POWER = "POWER"  # the power button's key in the latch's sets


@dataclass
class InputLatch:
    """Edges seen between two polls (see the module docstring)."""

    _observed: frozenset[Button | str] = frozenset()  # state after the latest event
    _observed_touch: bool = False
    _reported: frozenset[Button | str] = frozenset()  # what the last report said
    _reported_touch: bool = False
    _downs: set[Button | str] = field(default_factory=set)  # down edges since the last report
    _first_touch: RawTouch | None = None  # where a touch began since the last report
    _owed: set[Button | str] = field(default_factory=set)  # a press to show at the next report
    _owed_touch: RawTouch | None = None
    # Polls a touch shorter than a frame lasts. 1 suits exact panels (the emulator's mouse);
    # a backend whose touch filter drops the first samples after pen-down (hal.touch's
    # `settle_samples`) passes settle_samples + 1, so a quick tap still gets through it.
    touch_frames: int = 1
    _tap: RawTouch | None = None  # a short touch still being reported
    _tap_left: int = 0

    def observe(
        self, held: frozenset[Button], touch: RawTouch | None, power: bool = False
    ) -> None:
        """Note the device state after one event."""
        now = _keys(held, power)
        self._downs |= now - self._observed
        self._observed = now
        if touch is not None and not self._observed_touch and self._first_touch is None:
            self._first_touch = touch
        self._observed_touch = touch is not None

    def report(
        self, held: frozenset[Button], touch: RawTouch | None, power: bool = False
    ) -> tuple[frozenset[Button], RawTouch | None, bool]:
        """What this poll should say, given the device state now: (held, touch, power)."""
        self.observe(held, touch, power)
        device = _keys(held, power)
        out = set(device) | self._owed
        self._owed = set()
        for key in self._downs:
            if key not in self._reported:
                out.add(key)  # pressed (and maybe released again) since the last report
            else:
                # reported held, so it went up and down again unseen: the release first
                out.discard(key)
                self._owed.add(key)  # ... and the press at the next report
        if self._owed_touch is not None and touch is None:
            touch = self._owed_touch
        self._owed_touch = None
        if self._first_touch is None and touch is None and self._tap_left > 0:
            touch = self._tap  # a short touch, held for `touch_frames` polls
            self._tap_left -= 1
        elif self._first_touch is not None or touch is not None:
            self._tap_left = 0
        if self._first_touch is not None:
            if not self._reported_touch:
                if touch is None:  # a touch shorter than a frame
                    touch = self._first_touch
                    self._tap, self._tap_left = touch, self.touch_frames - 1
            else:
                self._owed_touch = touch or self._first_touch
                touch = None  # lifted and touched again: the lift first, the touch next
        self._downs.clear()
        self._first_touch = None
        self._reported = frozenset(out)
        self._reported_touch = touch is not None
        buttons = frozenset(k for k in out if isinstance(k, Button))
        return buttons, touch, POWER in out

    def forget(self) -> None:
        """Drop the edges not yet reported (the window lost focus: every key counts as up)."""
        self._downs.clear()
        self._first_touch = None
        self._owed.clear()
        self._owed_touch = None
        self._tap_left = 0


def _keys(held: frozenset[Button], power: bool) -> frozenset[Button | str]:
    keys: frozenset[Button | str] = frozenset(held)
    return keys | {POWER} if power else keys
