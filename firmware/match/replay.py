"""Replays: a stored record's actions fed through replay seats into a fresh match.

The replay scene is the play scene fed by `ReplaySeat`s: `forward()` releases one action and
lets the driver apply it (events for the usual animation); `back()` and `seek()` rebuild the
match from the record's start and apply the actions up to the wanted point at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from firmware.input import InputState
from firmware.match.driver import Match
from firmware.match.protocol import Event, MatchRules
from firmware.match.seats import ReplaySeat, ReplaySource
from hal.interfaces import Button

A = TypeVar("A")

COMMANDS = ("forward", "back", "first", "last")  # the replay viewer's `button:<command>`s


def replay_command(name: str | None, inp: InputState) -> str | None:
    """What the replay viewer is asked this tick: the tapped `button:<command>`, or L / R
    (with key repeat) for back / forward."""
    if Button.L in inp.repeated:
        return "back"
    if Button.R in inp.repeated:
        return "forward"
    command = name.removeprefix("button:") if name else None
    return command if command in COMMANDS else None


class ReplayCursor(Generic[A]):
    """Steps through `actions` (seat, wire bytes) from the state `start()` builds."""

    def __init__(
        self, start: Callable[[], MatchRules[A]], actions: Sequence[tuple[int, bytes]]
    ) -> None:
        self.start = start
        self.actions = list(actions)
        self.match = self._fresh()

    def _fresh(self) -> Match[A]:
        rules = self.start()
        source = ReplaySource(self.actions)
        return Match(rules, [ReplaySeat[A](source) for _ in range(rules.seats)])

    @property
    def index(self) -> int:
        return len(self.match.history)

    @property
    def total(self) -> int:
        return len(self.actions)

    @property
    def at_start(self) -> bool:
        return self.index == 0

    @property
    def at_end(self) -> bool:
        return self.index >= self.total

    def forward(self) -> list[Event]:
        """Apply the next action (no events at the end, or if the record is refused)."""
        if self.at_end:
            return []
        seat = self.match.seats[0]
        assert isinstance(seat, ReplaySeat)
        seat.source.release()
        return self.match.step()

    def seek(self, index: int) -> None:
        """Show the state after `index` actions (clamped)."""
        index = max(0, min(index, self.total))
        self.match = self._fresh()
        while self.index < index and self.forward():
            pass

    def back(self) -> bool:
        if self.at_start:
            return False
        self.seek(self.index - 1)
        return True

    def go(self, command: str) -> list[Event]:
        """Carry out a `replay_command`; the events of a step forward, else none."""
        if command == "forward":
            return self.forward()
        if command == "back":
            self.back()
        elif command == "first":
            self.seek(0)
        elif command == "last":
            self.seek(self.total)
        return []
