"""Region Select behind the match protocol (issue 10): one solver, seat 0.

Action: a connecting point number (`int`) or `"undo"` (take the last selection back; it
counts as a selection). The random three-state rule's B-or-C choice is a coin of the
puzzle's seed (`rules.threestate.coin`), never part of an action, so the sender cannot
choose it. Wire encoding: the point number in ASCII decimal (`b"0"` .. `b"29"`), or `b"u"`
for undo; at most 2 bytes for every surface offered (at most 17 points). Digest:
`canonical_digest` of `Puzzle.to_json()` (the setup, shadow included, and the action list:
the whole state). Events: one `{"type": "select" | "undo", "point", "changed": [regions],
"to_goal", "from_goal", "clear"}` per action. The match is over when the puzzle is clear;
the result names seat 0 the winner with the selection count as its score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Self

from firmware.match import ActionError, Event, MatchResult, canonical_digest
from games.regions.rules.play import UNDO, Action, Puzzle
from games.regions.rules.puzzle import PuzzleError

MAX_DIGITS = 4


class RegionsRules:
    """A Region Select puzzle as a `MatchRules[int | str]`; `puzzle` is the engine."""

    game_id: ClassVar[str] = "regions"
    seats: ClassVar[int] = 1

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle

    def to_move(self) -> int | None:
        return None if self.puzzle.clear else 0

    def legal_actions(self) -> Sequence[Action]:
        if self.puzzle.clear:
            return []
        acts: list[Action] = list(self.puzzle.selectable)
        if self.puzzle.moves:
            acts.append(UNDO)
        return acts

    def check(self, seat: int, action: Action) -> str | None:
        if seat != 0:
            return "Region Select has one seat (0)"
        return self.puzzle.check(action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        reason = self.check(seat, action)
        if reason is not None:
            raise ActionError(reason)
        return [self.puzzle.act(action)]

    def result(self) -> MatchResult | None:
        if not self.puzzle.clear:
            return None
        return MatchResult(0, "clear", ranking=(0,), scores=(self.puzzle.selections,))

    def digest(self) -> str:
        return canonical_digest(self.puzzle.to_json())

    def to_json(self) -> dict[str, Any]:
        return self.puzzle.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Self:
        try:
            return cls(Puzzle.from_json(data))
        except PuzzleError as exc:
            raise ValueError(str(exc)) from None

    def encode(self, action: Action) -> bytes:
        if action == UNDO:
            return b"u"
        return str(int(action)).encode("ascii")

    def decode(self, data: bytes) -> Action:
        if data == b"u":
            return UNDO
        if not 1 <= len(data) <= MAX_DIGITS or not data.isdigit() or data[:1] == b"0" != data:
            raise ActionError(f"a Region Select action is a point number or 'u', not {data!r}")
        return int(data)
