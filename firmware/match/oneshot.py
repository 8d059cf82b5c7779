"""A ready computer player for a decision made in one call (a rule of thumb, a random legal
move, a lookup): the thinker a simple game would otherwise copy from another game.

What it reports as work matters (`Thinker.units`, firmware/match/protocol.py): the
computer seat applies the action `max(MIN_THINK_TICKS, ceil(units / budget))` ticks after
the turn began, so `units` must depend only on the state (never on the time taken). A
one-shot decision reports `units` as given (default `ONE_SHOT_UNITS`: lands after the
minimum, about 0.4 s, on every profile); weigh a costlier one (about a microsecond of the
development machine per unit) so slower boards do not answer it faster than they think.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

A = TypeVar("A")

ONE_SHOT_UNITS = 1  # a decision too quick to weigh: the seat's minimum delay decides
ONE_SHOT_UNITS_PER_TICK = 2_000  # the slice budget a one-shot player asks for (any will do)


@dataclass
class OneShotPlayer(Generic[A]):
    """A `ComputerPlayer` whose `decide(rules, seat)` returns the action at once.

    `decide` must be deterministic in the rules' state and its own arguments (draw any
    randomness from a `random.Random` seeded by them) and, like the player, picklable: a
    module-level function, not a lambda, since a worker process may run it."""

    decide: Callable[[Any, int], A]
    units: int = ONE_SHOT_UNITS  # the work one decision reports
    units_per_tick: int = ONE_SHOT_UNITS_PER_TICK

    def start(self, rules: Any, seat: int) -> OneShotThinker[A]:
        return OneShotThinker(self, rules, seat)


class OneShotThinker(Generic[A]):
    """One decision of a `OneShotPlayer`: made at the first `think`, whatever the budget."""

    def __init__(self, player: OneShotPlayer[A], rules: Any, seat: int) -> None:
        self.player, self.rules, self.seat = player, rules, seat
        self.units = 0

    def think(self, budget: int) -> A | None:
        action = self.player.decide(self.rules, self.seat)
        self.units = self.player.units
        return action
