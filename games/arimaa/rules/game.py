"""A whole Arimaa game: setup, turns built step by step, end of game, clocks (R-ARI-*).

`Game` is what the handheld scene and the linked-play layer drive. Everything it holds is
plain data: `to_json()` / `from_json()` suspend and resume a game exactly (mid-turn too).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .board import (
    GOLD,
    SIDE_NAMES,
    SILVER,
    parse_square,
    square_name,
)
from .clock import Clock, TimeControl
from .position import EMPTY_BOARDS, Position, SetupError, place, validate_setup
from .score import score_winner
from .steps import Boards, expand, frozen_mask, turn_results


class IllegalStep(ValueError):
    """A step, turn or action the rules forbid now; the message says why."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step as played: which piece moved where, and what the step captured."""

    frm: int
    to: int
    side: int
    kind: int
    captured: tuple[int, int, int] | None = None  # (square, side, kind)
    role: str = "step"  # step | push | push-finish | pull

    def to_json(self) -> list[int]:
        return [self.frm, self.to]


@dataclass(frozen=True, slots=True)
class Action:
    """What a touch UI offers for a piece: a plain step (1 step), a push or a pull (2 steps).

    `steps` are the (from, to) steps in order; `target` is where the dragged piece ends up and,
    for pushes and pulls, `victim`/`victim_to` say which enemy piece moves where."""

    kind: str  # step | push | pull
    steps: tuple[tuple[int, int], ...]
    target: int
    victim: int = -1
    victim_to: int = -1


@dataclass(frozen=True, slots=True)
class Result:
    winner: int | None  # None: drawn on equal score
    reason: str  # goal | elimination | immobilisation | time | score | resignation

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}


# An in-turn state: (boards, steps_left, push_sq, push_kind, pull_sq, pull_kind)
_State = tuple[Boards, int, int, int, int, int]


class Game:
    """Setup, then turns of 1-4 steps, with history for repetition and a record."""

    def __init__(
        self, time_control: TimeControl | None = None, start: Position | None = None
    ) -> None:
        self.time_control = time_control
        self.start = start
        self.clock = Clock(time_control) if time_control else None
        self.setups: list[dict[int, int]] = []
        self.turns: list[list[Step]] = []
        self.position = Position(EMPTY_BOARDS, GOLD)
        self.repetitions: Counter[tuple[Boards, int]] = Counter()
        self.result: Result | None = None
        self._states: list[_State] = []
        self._steps: list[Step] = []
        if start is not None:
            self.position = start
            self.repetitions[(start.boards, start.side)] += 1
            self._start_turn()

    # ---- phase ---------------------------------------------------------------------------
    @property
    def in_setup(self) -> bool:
        return self.start is None and len(self.setups) < 2

    @property
    def first_turn_index(self) -> int:
        """Index (0 = 1g, 1 = 1s, 2 = 2g ...) of the first turn after setup."""
        return 2 if self.start is None else 2 + self.start.side

    @property
    def side_to_move(self) -> int:
        return len(self.setups) % 2 if self.in_setup else self.position.side

    @property
    def turn_label(self) -> str:
        """The record label of the turn now being played: `1g`, `1s` (setups), `2g` ..."""
        index = (len(self.setups) if self.in_setup else self.first_turn_index) + len(self.turns)
        return f"{index // 2 + 1}{'gs'[index % 2]}"

    def _check_playing(self) -> None:
        if self.result is not None:
            raise IllegalStep("the game is over")
        if self.in_setup:
            raise IllegalStep(f"{SIDE_NAMES[self.side_to_move]} must set up first")

    # ---- setup ---------------------------------------------------------------------------
    def setup(self, placement: dict[int, int]) -> None:
        """The side to set up places all 16 pieces (square -> kind)."""
        if self.result is not None:
            raise IllegalStep("the game is over")
        if not self.in_setup:
            raise IllegalStep("both sides have already set up")
        side = self.side_to_move
        try:
            validate_setup(side, placement)
        except SetupError as exc:
            raise IllegalStep(str(exc)) from None
        self.setups.append(dict(placement))
        boards = place(self.position.boards, side, placement)
        self.position = Position(boards, SILVER if side == GOLD else GOLD)
        self._settle_clock(side)
        if not self.in_setup:
            self.repetitions[(boards, GOLD)] += 1
            self._start_turn()
        self._check_turn_limit()

    # ---- the turn in progress --------------------------------------------------------------
    def _start_turn(self) -> None:
        self._states = [(self.position.boards, 4, -1, 0, -1, 0)]
        self._steps = []

    @property
    def boards(self) -> Boards:
        """The board as it stands now, with the steps of the current turn applied."""
        return self._states[-1][0] if self._states else self.position.boards

    @property
    def current(self) -> Position:
        return Position(self.boards, self.side_to_move)

    @property
    def turn_steps(self) -> list[Step]:
        """Steps taken so far in this turn."""
        return list(self._steps)

    @property
    def steps_left(self) -> int:
        return self._states[-1][1] if self._states else 4

    @property
    def pending_push(self) -> int:
        """Square a pushing piece must move into to finish a push, or -1."""
        return self._states[-1][2] if self._states else -1

    def legal_steps(self) -> list[Step]:
        """Every step legal now (pushes' first halves, push completions and pulls included)."""
        if self.result is not None or self.in_setup:
            return []
        state = self._states[-1]
        side = self.position.side
        out = []
        for frm, to, new, ps, _pk, _ls, _lk, cap, _i, _ci in expand(state[0], side, *state[1:]):
            out.append(self._make_step(state, frm, to, new, ps, cap))
        return out

    def _make_step(self, state: _State, frm: int, to: int, new: Boards, ps: int, cap: int) -> Step:
        mover = Position(state[0]).piece_at(frm)
        assert mover is not None
        if mover[0] != self.position.side:
            role = "push" if ps >= 0 else "pull"
        elif state[2] >= 0:
            role = "push-finish"
        else:
            role = "step"
        captured = None
        if cap >= 0:
            before = Position(state[0]).piece_at(cap if cap != to else frm)
            assert before is not None
            captured = (cap, before[0], before[1])
        return Step(frm, to, mover[0], mover[1], captured, role)

    def step(self, frm: int | str, to: int | str) -> Step:
        """Play one step of the current turn; IllegalStep says why it is not allowed."""
        self._check_playing()
        try:
            frm_sq = parse_square(frm) if isinstance(frm, str) else frm
            to_sq = parse_square(to) if isinstance(to, str) else to
        except ValueError as exc:
            raise IllegalStep(str(exc)) from None
        state = self._states[-1]
        side = self.position.side
        for child in expand(state[0], side, *state[1:]):
            if child[0] == frm_sq and child[1] == to_sq:
                record = self._make_step(state, frm_sq, to_sq, child[2], child[3], child[7])
                self._states.append((child[2], state[1] - 1, *child[3:7]))
                self._steps.append(record)
                return record
        raise IllegalStep(self.why_not(frm_sq, to_sq))

    def why_not(self, frm: int, to: int) -> str:
        """Why the step frm->to is illegal now (for the UI and for notation errors)."""
        state = self._states[-1]
        boards, steps_left, push_sq = state[0], state[1], state[2]
        where = f"{square_name(frm)}-{square_name(to)}"
        pos = Position(boards)
        piece = pos.piece_at(frm)
        if steps_left <= 0:
            return "no steps left in this turn"
        if piece is None:
            return f"{where}: no piece on {square_name(frm)}"
        if (
            not 0 <= to < 64
            or abs(frm - to) not in (1, 8)
            or (abs(frm - to) == 1 and frm // 8 != to // 8)
        ):
            return f"{where}: a step goes to an adjacent square"
        if pos.piece_at(to) is not None:
            return f"{where}: {square_name(to)} is occupied"
        side = self.position.side
        if push_sq >= 0:
            into = square_name(push_sq)
            return f"{where}: finish the push by moving a stronger piece into {into}"
        if piece[0] == side:
            if frozen_mask(boards) >> frm & 1:
                return f"{where}: the piece on {square_name(frm)} is frozen"
            if piece[1] == 0:
                return f"{where}: rabbits may not step backwards"
            return f"{where}: not legal now"
        if steps_left < 2:
            return f"{where}: not enough steps left to push, and no pull is possible"
        return f"{where}: no stronger unfrozen friendly piece can push or pull that piece"

    def undo_step(self) -> Step:
        """Take back the last step of the current turn."""
        if len(self._steps) == 0:
            raise IllegalStep("no step to undo in this turn")
        self._states.pop()
        return self._steps.pop()

    def can_end_turn(self) -> tuple[bool, str | None]:
        """Whether `end_turn()` is legal now, and if not, why."""
        if self.result is not None:
            return False, "the game is over"
        if self.in_setup:
            return False, "setup is not finished"
        if not self._steps:
            return False, "take at least one step"
        if self.pending_push >= 0:
            return False, "finish the push first"
        if self.boards == self.position.boards:
            return False, "the turn must change the position"
        if self.repetitions[(self.boards, 1 - self.position.side)] >= 2:
            return False, "that position would occur for the third time"
        return True, None

    def end_turn(self) -> Result | None:
        """Finish the turn, apply the end-of-game checks in the official order."""
        ok, why = self.can_end_turn()
        if not ok:
            raise IllegalStep(why or "cannot end the turn")
        mover = self.position.side
        self.turns.append(list(self._steps))
        self.position = Position(self.boards, 1 - mover)
        self.repetitions[(self.position.boards, self.position.side)] += 1
        self._settle_clock(mover)
        self.result = self._end_check(mover)
        self._start_turn()  # also after the last turn: no steps left "in progress" to save
        if self.result is None:
            self._check_turn_limit()
        return self.result

    def play_turn(self, steps: list[tuple[int, int]]) -> Result | None:
        """Play a whole turn; on any illegal step the turn in progress is left untouched."""
        self._check_playing()
        if self._steps:
            raise IllegalStep("a turn is already in progress")
        try:
            for frm, to in steps:
                self.step(frm, to)
            return self.end_turn()
        except IllegalStep:
            self._start_turn()
            raise

    def _end_check(self, mover: int) -> Result | None:
        pos = self.position
        other = 1 - mover
        if pos.goal_rabbits(mover):
            return Result(mover, "goal")
        if pos.goal_rabbits(other):
            return Result(other, "goal")
        if not pos.rabbits(other):
            return Result(mover, "elimination")
        if not pos.rabbits(mover):
            return Result(other, "elimination")
        if not self.has_legal_turn():
            return Result(mover, "immobilisation")
        return None

    # ---- whole turns ---------------------------------------------------------------------
    def legal_turns(self) -> dict[Boards, tuple[tuple[int, int], ...]]:
        """Every distinct legal turn result for the side to move (repetitions removed)."""
        if self.result is not None or self.in_setup:
            return {}
        side = self.position.side
        results = turn_results(self.position.boards, side)
        return {b: s for b, s in results.items() if self.repetitions[(b, 1 - side)] < 2}

    def has_legal_turn(self) -> bool:
        """Cheap when some one-step turn is legal; full generation only otherwise."""
        boards, side = self.position.boards, self.position.side
        for child in expand(boards, side, 4):
            if child[3] < 0 and self.repetitions[(child[2], 1 - side)] < 2:
                return True
        if not expand(boards, side, 4):
            return False
        return any(self.repetitions[(b, 1 - side)] < 2 for b in turn_results(boards, side))

    # ---- UI helpers ----------------------------------------------------------------------
    def frozen_squares(self) -> list[int]:
        mask = frozen_mask(self.boards)
        return [sq for sq in range(64) if mask >> sq & 1]

    def capture_if(self, frm: int, to: int) -> tuple[int, int, int] | None:
        """What the step frm->to would capture now: (square, side, kind), or None."""
        for step in self.legal_steps():
            if step.frm == frm and step.to == to:
                return step.captured
        raise IllegalStep(self.why_not(frm, to))

    def actions_from(self, square: int) -> list[Action]:
        """What the piece of the side to move on `square` can do now: steps, pushes (enemy
        victim and where it goes) and pulls (where the piece goes and which enemy follows)."""
        if self.result is not None or self.in_setup:
            return []
        state = self._states[-1]
        side = self.position.side
        pos = Position(state[0])
        mine = pos.piece_at(square)
        if mine is None or mine[0] != side:
            return []
        out: list[Action] = []
        children = expand(state[0], side, *state[1:])
        for frm, to, new, ps, pk, ls, lk, *_rest in children:
            if frm == square:
                out.append(Action("step", ((frm, to),), to))
                if state[1] >= 2 and ls >= 0:
                    for c2 in expand(new, side, state[1] - 1, ps, pk, ls, lk):
                        if c2[1] == square and c2[0] != to:
                            out.append(
                                Action("pull", ((frm, to), (c2[0], square)), to, c2[0], square)
                            )
            elif ps >= 0 and state[2] < 0:
                for c2 in expand(new, side, state[1] - 1, ps, pk, ls, lk):
                    if c2[0] == square and c2[1] == frm:
                        out.append(Action("push", ((frm, to), (square, frm)), frm, frm, to))
        return out

    # ---- clocks --------------------------------------------------------------------------
    def tick(self, ticks: int = 1) -> Result | None:
        """Advance the clock of the side to move by `ticks` frames (no-op without a clock)."""
        if self.clock is None or self.result is not None:
            return self.result
        side = self.side_to_move
        event = self.clock.tick(side, ticks)
        if event == "time":
            self.result = Result(1 - side, "time")
        elif event == "halt":
            self.result = self._score_result()
        return self.result

    def _settle_clock(self, side: int) -> None:
        if self.clock is not None:
            self.clock.turn_done(side)

    def _check_turn_limit(self) -> None:
        """G given in turns: halt once both sides completed that many turns (setup is 1)."""
        if self.clock is None or self.result is not None:
            return
        limit = self.clock.control.game_turns
        if limit and self.first_turn_index + len(self.turns) >= 2 * limit:
            self.result = self._score_result()

    def _score_result(self) -> Result:
        return Result(score_winner(self.current.boards), "score")

    def resign(self, side: int) -> Result:
        if self.result is not None:
            raise IllegalStep("the game is over")
        self.result = Result(1 - side, "resignation")
        return self.result

    # ---- serialisation ---------------------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy, cheap enough for a tick (no replay, unlike `from_json`): the
        scene builds a turn on a copy and the match adapter checks actions on one."""
        twin = Game.__new__(Game)
        twin.time_control = self.time_control
        twin.start = self.start
        twin.clock = None if self.clock is None else Clock.from_json(self.clock.to_json())
        twin.setups = [dict(s) for s in self.setups]
        twin.turns = [list(t) for t in self.turns]
        twin.position = self.position
        twin.repetitions = Counter(self.repetitions)
        twin.result = self.result
        twin._states = list(self._states)
        twin._steps = list(self._steps)
        return twin

    def to_json(self) -> dict[str, Any]:
        return {
            "start": None if self.start is None else self.start.to_json(),
            "time_control": None if self.time_control is None else self.time_control.notation(),
            "setups": [{square_name(sq): kind for sq, kind in s.items()} for s in self.setups],
            "turns": [[s.to_json() for s in turn] for turn in self.turns],
            "current": [s.to_json() for s in self._steps],
            "clock": None if self.clock is None else self.clock.to_json(),
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild by replaying; ValueError if the data is not a legal game."""
        try:
            tc = data["time_control"]
            start = Position.from_json(data["start"]) if data.get("start") else None
            game = cls(TimeControl.parse(tc) if tc else None, start)
            game.clock = None  # replay without the clock, restore it afterwards
            for setup in data["setups"]:
                game.setup({parse_square(sq): int(kind) for sq, kind in setup.items()})
            for turn in data["turns"]:
                game.play_turn([(int(a), int(b)) for a, b in turn])
            for frm, to in data["current"]:
                game.step(int(frm), int(to))
            if data["clock"] is not None:
                game.clock = Clock.from_json(data["clock"])
            if data["result"] is not None:
                game.result = Result(data["result"]["winner"], data["result"]["reason"])
        except (KeyError, TypeError, IllegalStep) as exc:
            raise ValueError(f"not a saved Arimaa game: {exc}") from None
        return game
