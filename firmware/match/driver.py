"""The match driver: one loop for every game and every kind of player (issue 10).

Each tick the scene calls `step()`: the seat to move is asked for an action; the driver
checks it against the rules, applies it, records it (wire bytes and the digest after it),
tells the listeners (the link sends local moves out) and returns the events for the scene
to animate. An illegal action from any seat is refused with a reason, counted, logged and
changes nothing.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from firmware.match.protocol import ActionError, Event, MatchResult, MatchRules

log = logging.getLogger("twinfold.match")

A = TypeVar("A")


@dataclass(frozen=True)
class Played:
    """One applied action as recorded: who, its wire form, and the digest after it."""

    seat: int
    data: bytes
    digest: str

    def to_json(self) -> list[Any]:
        return [self.seat, self.data.hex(), self.digest]

    @classmethod
    def from_json(cls, item: Any) -> Played:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], int)):
            raise ValueError("a played action is [seat, hex, digest]")
        return cls(item[0], bytes.fromhex(str(item[1])), str(item[2]))


class Seat(ABC, Generic[A]):
    """One player's source of actions."""

    kind: ClassVar[str] = "seat"

    def begin(self, match: Match[A], seat: int) -> None:
        """It has become this seat's turn (a computer starts thinking here)."""

    @abstractmethod
    def poll(self, match: Match[A], seat: int) -> A | None:
        """The action this seat plays now, or None (not decided yet)."""

    def expected_digest(self) -> str | None:
        """The digest the action's sender reached after it (remote seats), else None."""
        return None

    def cancel(self) -> None:
        """Forget any decision in progress (restart, quit, resync)."""

    def close(self) -> None:
        """Release held resources (a worker process); the seat may be used again."""
        self.cancel()

    def save(self) -> dict[str, Any]:
        """What suspend must keep to continue exactly (JSON)."""
        return {}

    def load(self, data: dict[str, Any], match: Match[A], seat: int) -> None:
        """Continue from `save()`'s output in `match`'s restored state."""


Listener = Callable[[Played, list[Event]], None]


class Match(Generic[A]):
    """Rules plus one seat per player; `step()` once per tick."""

    def __init__(self, rules: MatchRules[A], seats: Sequence[Seat[A]]) -> None:
        if len(seats) != rules.seats:
            raise ValueError(f"{rules.game_id} needs {rules.seats} seats, got {len(seats)}")
        self.rules = rules
        self.seats = list(seats)
        self.history: list[Played] = []
        self.refused: dict[str, int] = {}
        self.last_refusal: str | None = None
        self.divergences = 0
        self.listeners: list[Listener] = []
        self.divergence_listeners: list[Callable[[int, str, str], None]] = []
        self._begun: int | None = None

    # ----------------------------------------------------------------------------- state
    @property
    def to_move(self) -> int | None:
        return self.rules.to_move()

    @property
    def over(self) -> bool:
        return self.rules.to_move() is None

    def result(self) -> MatchResult | None:
        return self.rules.result()

    def seat_kind(self, seat: int) -> str:
        return self.seats[seat].kind

    # ------------------------------------------------------------------------ the loop
    def step(self) -> list[Event]:
        """Ask the seat to move; apply what it answers. Returns the events (maybe none)."""
        seat = self.rules.to_move()
        if seat is None:
            return []
        source = self.seats[seat]
        if self._begun != seat:
            self._begun = seat
            source.begin(self, seat)
        action = source.poll(self, seat)
        if action is None:
            return []
        return self.submit(seat, action, source.kind, source.expected_digest())

    def submit(
        self, seat: int, action: A, kind: str = "local", expected: str | None = None
    ) -> list[Event]:
        """Check and apply one action for `seat`; refused actions change nothing."""
        if self.rules.to_move() != seat:
            self.refuse(seat, kind, "not this seat's turn")
            return []
        reason = self.rules.check(seat, action)
        if reason is not None:
            self.refuse(seat, kind, reason)
            return []
        data = self.rules.encode(action)
        try:
            events = self.rules.apply(seat, action)
        except ActionError as exc:  # check() and apply() disagreed: still nothing changed
            self.refuse(seat, kind, str(exc))
            return []
        played = Played(seat, data, self.rules.digest())
        self.history.append(played)
        self.last_refusal = None
        self._begun = None
        for listener in list(self.listeners):
            listener(played, events)
        if self.rules.to_move() is None:
            self.close()  # game over: worker processes stop now
        if expected is not None and not played.digest.startswith(expected):
            self.divergences += 1
            log.warning("match %s diverged after seat %d's action", self.rules.game_id, seat)
            for on_divergence in list(self.divergence_listeners):
                on_divergence(seat, expected, played.digest)
        return events

    def refuse(self, seat: int, kind: str, reason: str) -> None:
        """Count and log a refused action (P-REL-4)."""
        self.refused[kind] = self.refused.get(kind, 0) + 1
        self.last_refusal = reason
        log.warning("%s: refused an action from seat %d (%s): %s", self.rules.game_id,
                    seat, kind, reason)

    def cancel(self) -> None:
        """Drop every decision in progress (restart, quit)."""
        for seat in self.seats:
            seat.cancel()
        self._begun = None

    def close(self) -> None:
        """Release what seats hold (a computer's worker process)."""
        for seat in self.seats:
            seat.close()

    def replace_rules(self, rules: MatchRules[A]) -> None:
        """Adopt another state (the host's on a resync); decisions in progress restart."""
        self.rules = rules
        self.cancel()

    def replace_seat(self, seat: int, source: Seat[A]) -> None:
        """Another source plays `seat` from now on (a versus match: the computer takes the
        seat of a unit that is gone, or the unit takes it back); the old one's decision in
        progress is dropped and, if it is that seat's turn, the new one begins it."""
        old, self.seats[seat] = self.seats[seat], source
        old.close()
        if self._begun == seat:
            self._begun = None

    def load_seat(self, seat: int, saved: dict[str, Any]) -> None:
        """Restore one seat's saved decision in progress (a game's own save format)."""
        self.seats[seat].load(saved, self, seat)
        if saved and self.rules.to_move() == seat:
            self._begun = seat

    # ----------------------------------------------------------------------- suspend
    def save(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "history": [p.to_json() for p in self.history],
            "seats": [seat.save() for seat in self.seats],
            "refused": dict(self.refused),
        }

    def load(self, data: Any) -> None:
        """Restore `save()`'s output into this match (same game, same seat kinds)."""
        if not isinstance(data, dict):
            raise ValueError("a saved match is an object")
        rules = type(self.rules).from_json(data["rules"])
        history = [Played.from_json(item) for item in data.get("history", [])]
        seats = data.get("seats", [])
        if not isinstance(seats, list) or len(seats) != len(self.seats):
            raise ValueError("saved seats do not match this match")
        self.rules, self.history = rules, history
        self.refused = {str(k): int(v) for k, v in dict(data.get("refused", {})).items()}
        self.cancel()
        for number, saved in enumerate(seats):
            self.load_seat(number, dict(saved))
