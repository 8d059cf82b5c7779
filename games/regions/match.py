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
from typing import Any, Self

from firmware.match import ActionError, Event, Match, MatchResult, Seat, canonical_digest
from games.regions.rules.play import UNDO, Action, Puzzle, Setup
from games.regions.rules.puzzle import PuzzleError

MAX_DIGITS = 4


def decode_action(data: bytes) -> Action:
    """A point number in ASCII decimal (no leading zeros) or b"u" for undo."""
    if data == b"u":
        return UNDO
    if not 1 <= len(data) <= MAX_DIGITS or not data.isdigit() or data[:1] == b"0" != data:
        raise ActionError(f"a Region Select action is a point number or 'u', not {data!r}")
    return int(data)


class RegionsRules:
    """A Region Select puzzle as a `MatchRules[int | str]`; `puzzle` is the engine."""

    game_id: str = "regions"
    seats: int = 1

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
        return decode_action(data)


WAIT = "wait"
RaceAction = int | str


class RaceRules:
    """Two players race on the same puzzle (`link` mode): seat 0 the host, seat 1 the guest,
    each solving their own copy of one `Setup`. The match layer and the link are turn-based
    (one seat to move, a single agreed history), so the race takes turns too: seat 0, seat
    1, seat 0, ... and a player with nothing to do when their turn comes answers `"wait"`
    (the scene does that after a few ticks). Both units therefore hold the same interleaved
    history, so "the first to clear" is a fact of the shared state that both agree on, not
    a question of clocks. Wire forms as for one player, plus `b"w"` for wait. Digest: the
    setup, the real actions with their turn numbers, and the turn count."""

    game_id: str = "regions"
    seats: int = 2

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.puzzles = (Puzzle(setup), Puzzle(setup))
        self.turns = 0
        self.log: list[tuple[int, int, Action]] = []  # (turn, seat, action), waits left out
        self.winner: int | None = None

    def to_move(self) -> int | None:
        return None if self.winner is not None else self.turns % 2

    def legal_actions(self) -> Sequence[RaceAction]:
        seat = self.to_move()
        if seat is None:
            return []
        acts: list[RaceAction] = [WAIT, *self.puzzles[seat].selectable]
        if self.puzzles[seat].moves:
            acts.append(UNDO)
        return acts

    def check(self, seat: int, action: RaceAction) -> str | None:
        if self.winner is not None:
            return "the race is over"
        if seat != self.to_move():
            return "not this seat's turn"
        if action == WAIT:
            return None
        return self.puzzles[seat].check(action)

    def apply(self, seat: int, action: RaceAction) -> list[Event]:
        reason = self.check(seat, action)
        if reason is not None:
            raise ActionError(reason)
        turn = self.turns
        self.turns += 1
        if action == WAIT:
            return [{"type": "wait", "seat": seat}]
        event = self.puzzles[seat].act(action)
        self.log.append((turn, seat, action))
        if self.puzzles[seat].clear:
            self.winner = seat
        return [{**event, "seat": seat}]

    def result(self) -> MatchResult | None:
        if self.winner is None:
            return None
        w = self.winner
        return MatchResult(
            w,
            "first clear",
            ranking=(w, 1 - w),
            scores=(self.puzzles[0].selections, self.puzzles[1].selections),
        )

    def digest(self) -> str:
        return canonical_digest(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "race": self.setup.to_json(),
            "log": [[t, s, a] for t, s, a in self.log],
            "turns": self.turns,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        try:
            race = cls(Setup.from_json(data["race"]))
            for t, s, a in data["log"]:
                if not isinstance(t, int) or t < race.turns or s not in (0, 1):
                    raise ValueError(f"bad log entry {[t, s, a]!r}")
                race.turns = t
                race.apply(s, a)
            turns = data["turns"]
            if not isinstance(turns, int) or turns < race.turns:
                raise ValueError("bad turn count")
            race.turns = turns
            return race
        except (KeyError, TypeError, PuzzleError, ActionError) as exc:
            raise ValueError(f"not a saved race: {exc}") from None

    def encode(self, action: RaceAction) -> bytes:
        if action == WAIT:
            return b"w"
        if action == UNDO:
            return b"u"
        return str(int(action)).encode("ascii")

    def decode(self, data: bytes) -> RaceAction:
        if data == b"w":
            return WAIT
        return decode_action(data)


class AbsentSeat(Seat[RaceAction]):
    """The partner's side of a race once the partner is gone for good and the player
    finishes the puzzle alone: every turn of it waits (nobody else can clear first)."""

    kind = "computer"

    def poll(self, match: Match[RaceAction], seat: int) -> RaceAction | None:
        return WAIT
