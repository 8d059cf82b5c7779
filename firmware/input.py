"""Per-tick input as games see it: held / pressed / released buttons, key repeat, the stylus.

Backends only report what is held (P-HW-3); edges and repeat are derived here so they are
identical on every backend and in replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hal.interfaces import Button, RawInput, RawTouch, TouchPoint

REPEAT_DELAY = 18  # ticks before a held button starts repeating
REPEAT_EVERY = 5  # ticks between repeats


@dataclass(frozen=True, slots=True)
class InputState:
    """What one tick's update sees."""

    tick: int = 0
    held: frozenset[Button] = frozenset()
    pressed: frozenset[Button] = frozenset()
    released: frozenset[Button] = frozenset()
    repeated: frozenset[Button] = frozenset()  # pressed now, or auto-repeating (menus)
    touch: TouchPoint | None = None  # stylus position (None: up)
    touch_down: bool = False  # the stylus touched down this tick
    touch_up: bool = False  # the stylus was lifted this tick
    last_touch: TouchPoint | None = None  # on touch_up: where it was lifted
    raw_touch: RawTouch | None = None  # before calibration (used by the calibration screen)

    def tapped_at(self) -> TouchPoint | None:
        """Where the stylus touched down this tick, if it did."""
        return self.touch if self.touch_down else None


EMPTY = InputState()


@dataclass
class InputTracker:
    """Turns a sequence of held-sets and touch points into InputStates."""

    _held: frozenset[Button] = frozenset()
    _held_for: dict[Button, int] = field(default_factory=dict)
    _touch: TouchPoint | None = None

    def reset(self) -> None:
        self._held = frozenset()
        self._held_for.clear()
        self._touch = None

    def next(self, tick: int, raw: RawInput, touch: TouchPoint | None) -> InputState:
        held = raw.held
        pressed = held - self._held
        released = self._held - held
        repeated = set(pressed)
        for button in held:
            count = self._held_for.get(button, -1) + 1
            self._held_for[button] = count
            if count >= REPEAT_DELAY and (count - REPEAT_DELAY) % REPEAT_EVERY == 0:
                repeated.add(button)
        for button in released:
            self._held_for.pop(button, None)
        previous = self._touch
        self._held, self._touch = held, touch
        return InputState(
            tick=tick,
            held=held,
            pressed=frozenset(pressed),
            released=frozenset(released),
            repeated=frozenset(repeated),
            touch=touch,
            touch_down=touch is not None and previous is None,
            touch_up=touch is None and previous is not None,
            last_touch=previous if touch is None else None,
            raw_touch=raw.touch,
        )
