"""Reversi behind the match protocol (issue 10): the reference for every game's adapter.

Seats: 0 = black, 1 = white. Action: a square name (`"f5"`); passes are automatic in the
rules (R-REV-OP-2), so a pass is never an action. Wire encoding: the square's two ASCII
characters (`b"f5"`), 2 bytes. Digest: `canonical_digest` of `Game.to_json()` (start
position and move list: the whole rules state). Events: one `{"type": "move", "seat",
"square", "flipped": [squares nearest first], "passed": seat or None, "over"}` per action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from firmware.match import ActionError, Event, MatchResult, canonical_digest
from games.reversi.ai import LEVELS, ComputerMove
from games.reversi.ai.players import (
    REFERENCE_UNITS_PER_SECOND,
    evaluator_named,
    join_parts,
    split_root,
)
from games.reversi.rules import Game, GameDataError
from games.reversi.rules.notation import square_name
from games.reversi.rules.position import BLACK, WHITE

SEAT_COLORS = (BLACK, WHITE)


def seat_of(color: str) -> int:
    return SEAT_COLORS.index(color)


class ReversiRules:
    """A Reversi game as a `MatchRules[str]`; `game` is the rich engine for the scene."""

    game_id: str = "reversi"
    seats: int = 2

    def __init__(self, game: Game | None = None) -> None:
        self.game = game if game is not None else Game()

    def to_move(self) -> int | None:
        turn = self.game.turn
        return None if turn is None else seat_of(turn)

    def legal_actions(self) -> Sequence[str]:
        return list(self.game.legal())

    def check(self, seat: int, action: str) -> str | None:
        if self.to_move() != seat:
            return "not this seat's turn" if not self.game.over else "the game is over"
        if not isinstance(action, str) or not self.game.is_legal(action):
            return f"{action!r} is not a legal square for {SEAT_COLORS[seat]}"
        return None

    def apply(self, seat: int, action: str) -> list[Event]:
        reason = self.check(seat, action)
        if reason is not None:
            raise ActionError(reason)
        out = self.game.play(action)
        return [
            {
                "type": "move",
                "seat": seat,
                "square": out.square,
                "flipped": list(out.flipped),
                "passed": None if out.passed is None else seat_of(out.passed),
                "over": out.over,
            }
        ]

    def result(self) -> MatchResult | None:
        if not self.game.over:
            return None
        score = self.game.score()
        scores = (score[BLACK], score[WHITE])
        winner = self.game.winner
        if winner == "draw":
            return MatchResult(None, "discs", scores=scores, draw=True)
        assert winner is not None
        return MatchResult(seat_of(winner), "discs", scores=scores)

    def digest(self) -> str:
        return canonical_digest(self.game.to_json())

    def to_json(self) -> dict[str, Any]:
        return self.game.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Self:
        try:
            return cls(Game.from_json(data))
        except GameDataError as exc:
            raise ValueError(str(exc)) from None

    def encode(self, action: str) -> bytes:
        return action.encode("ascii")

    def decode(self, data: bytes) -> str:
        if len(data) != 2:
            raise ActionError("a Reversi action is two bytes, a file a-h and a rank 1-8")
        file, rank = data[0:1], data[1:2]
        if not (b"a" <= file <= b"h" and b"1" <= rank <= b"8"):
            raise ActionError(f"not a square: {data!r}")
        return data.decode("ascii")


# Work units (about 1 us of the development machine each, issue 18): MID_NODE_UNITS and
# END_NODE_UNITS per node (games/reversi/ai/players.py; bench/reversi_levels.py measures).
UNITS_PER_TICK = 2_500  # about 2.5 ms of search per in-loop tick (slices run up to ~2x long)
TICKS_PER_SECOND = 60


class _ReversiThinker:
    def __init__(self, job: ComputerMove) -> None:
        self.job = job

    @property
    def units(self) -> int:
        return self.job.units

    def think(self, budget: int) -> str | None:
        move = self.job.think_units(budget)
        return None if move == "pass" else move


#: The parts a split search always has (the cores a Raspberry Pi gives the computer),
#: whatever the number of processes running them: every profile plays the same move.
SPLIT_PARTS = 3
#: The share of the level's allowance each part of a split search gets. A whole search often
#: stops early (an iteration it could not finish is not started); of three parts the
#: longest nearly always uses all of its allowance, and the wait is the longest part's. At
#: the full allowance the strongest level's median wait on a Pi Zero 2 W became 1.15 s
#: (issue 36's target: 1 s); three quarters keeps it under (docs/performance.md).
PART_SHARE = 0.75
PartResult = tuple[list[tuple[int, int, int]], int]


class _PartThinker:
    """One part of a split search in a pool process: its iterations and final depth."""

    def __init__(self, job: ComputerMove) -> None:
        self.job = job

    @property
    def units(self) -> int:
        return self.job.units

    def think(self, budget: int) -> PartResult | None:
        if self.job.think_units(budget) is None:
            return None
        result = self.job.result
        assert result is not None
        return self.job.iterations, result.depth


@dataclass(frozen=True)
class ReversiPart:
    """A share of the root moves (`mask`) searched at the level's full budget."""

    level: int
    seed: int
    units_per_second: float | None
    mask: int
    native: bool = False

    def start(self, rules: Any, seat: int) -> _PartThinker:
        assert isinstance(rules, ReversiRules)
        position = rules.game.position
        return _PartThinker(
            ComputerMove(
                position, self.level, self.seed, self.units_per_second, self.mask, self.native
            )
        )


class ReversiComputer:
    """The computer player at one level for the match layer's computer seat.

    `tick_budget` is the seat's work units per tick on this unit (`ctx.computer_budget(
    UNITS_PER_TICK)`): the level's budgets follow it, so the strongest level answers in
    about the same time on every device profile. None: the reference (a desktop core).
    `native`: the profile's (`ctx.computer_native`): nodes are counted at the compiled
    engine's cost, which searches them where its library is built."""

    units_per_tick = UNITS_PER_TICK

    def __init__(
        self, level: int, seed: int, tick_budget: int | None = None, native: bool = False
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level}")
        if tick_budget is not None and tick_budget < 1:
            raise ValueError("tick_budget must be positive")
        self.level, self.seed, self.native = level, seed, native
        self.units_per_second = None if tick_budget is None else tick_budget * TICKS_PER_SECOND
        if not LEVELS[level].greedy:
            # The evaluation's weights load once per process (about 0.1 s): here, at the
            # game's start, not in the first thinking tick, where a pool's split needs them
            # to order the root moves (issue 36: a 123-139 ms loop tick on `pi-zero-2w`).
            evaluator_named(LEVELS[level].evaluator)

    def start(self, rules: Any, seat: int) -> _ReversiThinker:
        assert isinstance(rules, ReversiRules)
        job = ComputerMove(
            rules.game.position, self.level, self.seed, self.units_per_second, native=self.native
        )
        return _ReversiThinker(job)

    def split(self, rules: Any, seat: int) -> list[ReversiPart] | None:
        """The root moves dealt to SPLIT_PARTS searches, each with PART_SHARE of the level's
        budget (the spare cores buy depth in about the same time; issue 36); None where
        splitting has nothing to gain (`players.split_root`)."""
        assert isinstance(rules, ReversiRules)
        masks = split_root(
            rules.game.position, self.level, SPLIT_PARTS, self.units_per_second, self.native
        )
        if masks is None:
            return None
        ups = (self.units_per_second or REFERENCE_UNITS_PER_SECOND) * PART_SHARE
        return [ReversiPart(self.level, self.seed, ups, m, self.native) for m in masks]

    def join(self, rules: Any, seat: int, results: list[PartResult]) -> str:
        """The move the parts agree on (`players.join_parts`)."""
        return square_name(join_parts(results))
