"""The match protocol: what every game's rules offer the match layer (P-LINK-3, issue 10).

A game keeps its own rich engine API for its scene; `games/<id>/match.py` wraps it in a thin,
typed class that satisfies `MatchRules`. Everything above (seats, the match driver, records,
replays, the peer link) speaks only this protocol, so one driver serves every game.

Vocabulary, the same in every game:

- **seat**: an `int` from 0 (Reversi black = 0, white = 1; Arimaa gold = 0, silver = 1;
  Killing Sevens seats 0..3; Panel Link players 0..n-1; Region Select the one solver = 0).
- **action**: the game's own immutable value for one move (a square, a whole Arimaa turn, a
  card play...). `encode(action)` gives its compact wire form (at most `MAX_ACTION_BYTES`),
  `decode(data)` parses it back or raises `ActionError`. Encodings are documented per game.
- **event**: a JSON-able dict with a `"type"` key describing what one applied action did, in
  order (placed, flipped, captured, killed, scored...), for the scene to animate.
- **digest**: `digest()` is a hex SHA-256 of the whole rules state in a canonical form
  (`firmware.match.digest.canonical_digest`), equal across processes, machines and Python
  versions; both units of a link session compare it after every action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

MAX_ACTION_BYTES = 48  # one link frame's payload (issue 10): every encoded action fits

A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)  # produced only (Thinker, ComputerPlayer)

Event = dict[str, Any]


class ActionError(ValueError):
    """An action that cannot be decoded, or that the rules refuse now; the text says why."""


@dataclass(frozen=True)
class MatchResult:
    """How a finished match ended. `winner` None with `draw` True is a draw; `ranking` lists
    seats best first where the game ranks everyone (Killing Sevens, Panel Link)."""

    winner: int | None
    reason: str
    ranking: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    draw: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "ranking": list(self.ranking),
            "scores": list(self.scores),
            "draw": self.draw,
        }

    @classmethod
    def from_json(cls, data: Any) -> MatchResult:
        if not isinstance(data, dict):
            raise ValueError("a match result is an object")
        winner = data.get("winner")
        if winner is not None and not isinstance(winner, int):
            raise ValueError("winner must be a seat number or null")
        return cls(
            winner,
            str(data.get("reason", "")),
            tuple(int(s) for s in data.get("ranking", ())),
            tuple(int(s) for s in data.get("scores", ())),
            bool(data.get("draw", False)),
        )


class MatchRules(Protocol[A]):
    """A game's rules as the match layer sees them. Implementations are pure (no I/O)."""

    game_id: str
    seats: int  # how many seats this match has

    def to_move(self) -> int | None:
        """The seat whose action is awaited, or None when the game is over."""
        ...

    def legal_actions(self) -> Sequence[A] | None:
        """Every legal action of the seat to move, or None where enumerating them is
        impractical (then `check` alone decides)."""
        ...

    def check(self, seat: int, action: A) -> str | None:
        """None if `seat` may play `action` now, else the reason in words. Never raises,
        never changes anything."""
        ...

    def apply(self, seat: int, action: A) -> list[Event]:
        """Play a checked action; returns what happened, in order. Raises ActionError (and
        changes nothing) if the action is illegal."""
        ...

    def result(self) -> MatchResult | None:
        """The result once the game is over, else None."""
        ...

    def digest(self) -> str:
        """Hex SHA-256 of the whole rules state in canonical form."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The whole rules state (JSON); `from_json(to_json())` has the same digest."""
        ...

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Rebuild from `to_json`; raises ValueError on anything malformed."""
        ...

    def encode(self, action: A) -> bytes:
        """The action's compact wire form, at most MAX_ACTION_BYTES."""
        ...

    def decode(self, data: bytes) -> A:
        """Parse a wire form; raises ActionError on anything malformed."""
        ...


@runtime_checkable
class SealedRules(Protocol):
    """A hidden-information game (cards in hands): the whole state lives on the dealer (the
    link's host); every other unit holds only its seat's `sealed_view` and is sent, with each
    action, the `disclosure` it needs to apply it (who held the cards a play killed). Views
    compare `public_digest` after every action; the dealer's whole game is checked by every
    view at the end (`SealedView.unseal`)."""

    def sealed_view(self, seat: int) -> MatchRules[Any]:
        """The rules as `seat` may know them now (a `SealedView`)."""
        ...

    def disclosure(self, events: list[Event]) -> bytes:
        """What a view needs besides an action's wire form to apply it (appended to it);
        `events` are what the action did here."""
        ...

    def public_digest(self) -> str:
        """Hex SHA-256 of what every seat knows; every view's `digest()` equals it."""
        ...


@runtime_checkable
class SealedView(Protocol):
    """One seat's knowledge of a `SealedRules` game. Its `digest()` is the public digest; an
    action's wire form from the dealer carries the disclosure after it."""

    def plain(self, data: bytes) -> bytes:
        """The action's wire form without the disclosure (what the dealer's rules decode)."""
        ...

    def unseal(self, full: Any) -> str | None:
        """None if the dealer's whole game agrees with everything this seat saw (its hand,
        every public event), else the reason in words."""
        ...


class Thinker(Protocol[A_co]):
    """One decision of a computer player, computed in slices.

    `think(budget)` does about `budget` units of work and returns the action once decided;
    a call that does not decide does at least `budget` units. A unit is calibrated to about
    a microsecond of the development machine (weigh costlier nodes more), and `units` counts
    the work done so far: the match applies the action at a tick fixed by it. The same
    state, seed and level give the same action and `units` however the work is sliced, and
    the player must be picklable (a worker process may run the search)."""

    @property
    def units(self) -> int:
        """The work done so far (read only here: an attribute or a property satisfies it)."""
        ...

    def think(self, budget: int) -> A_co | None: ...


class ComputerPlayer(Protocol[A_co]):
    """A game's computer opponent for the match layer's computer seat."""

    units_per_tick: int  # work units per tick that keep a slice under ~4 ms on the desktop

    def start(self, rules: Any, seat: int) -> Thinker[A_co]:
        """Begin deciding for `seat` in the current state of `rules` (not mutated)."""
        ...


@runtime_checkable
class SplitPlayer(Protocol[A_co]):
    """A computer player whose decision can run as parts on a pool of processes (issue 36):
    the parts are picklable objects with `start(rules, seat)` returning a thinker (like a
    player's), their number fixed by the player (never by the pool's size), and `join`
    makes the decision from their results, so every pool size gives the same action."""

    def split(self, rules: Any, seat: int) -> list[Any] | None:
        """The parts for `seat` in `rules`' state, or None to decide in one process."""
        ...

    def join(self, rules: Any, seat: int, results: list[Any]) -> A_co:
        """The action from the parts' results, in the parts' order."""
        ...


@dataclass
class Counted:
    """Refusals the driver counted, by seat kind: shown in dumps and logged."""

    refused: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str) -> None:
        self.refused[kind] = self.refused.get(kind, 0) + 1
