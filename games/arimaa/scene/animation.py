"""Animations: the opponent's turn step by step, and pieces removed from traps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.arimaa.rules.position import Position
from games.arimaa.rules.steps import Boards

STEP_TICKS = 12  # one step slides this long: a 4-step turn takes 0.8 s
FADE_TICKS = 18  # a captured piece shrinks away this long


def apply_step(boards: Boards, frm: int, to: int, captured: int) -> Boards:
    """`boards` with the piece on `frm` moved to `to` and the piece on `captured` removed."""
    new = list(boards)
    for index, board in enumerate(new):
        if board >> frm & 1:
            new[index] = board & ~(1 << frm) | (1 << to)
            break
    if captured >= 0:
        for index, board in enumerate(new):
            if board >> captured & 1:
                new[index] = board & ~(1 << captured)
                break
    return tuple(new)


@dataclass
class Fade:
    """A captured piece (side, kind) shrinking away on its trap."""

    square: int
    side: int
    kind: int
    tick: int = 0

    @property
    def done(self) -> bool:
        return self.tick >= FADE_TICKS

    def to_json(self) -> list[int]:
        return [self.square, self.side, self.kind, self.tick]

    @classmethod
    def from_json(cls, data: Any) -> Fade:
        square, side, kind, tick = (int(v) for v in data)
        return cls(square, side, kind, tick)


@dataclass
class TurnAnimation:
    """Another player's turn replayed on the board: each step slides, captures fade."""

    start: Boards
    steps: list[tuple[int, int, int]]  # (from, to, captured square or -1)
    tick: int = 0
    fades: list[Fade] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.steps) * STEP_TICKS + FADE_TICKS // 2

    @property
    def done(self) -> bool:
        return self.tick >= self.total

    def step(self) -> None:
        self.tick += 1
        if self.tick % STEP_TICKS == 0 and self.tick // STEP_TICKS <= len(self.steps):
            frm, to, cap = self.steps[self.tick // STEP_TICKS - 1]
            if cap >= 0:
                before = self.boards_after(self.tick // STEP_TICKS - 1)
                moved = apply_step(before, frm, to, -1)
                piece = Position(moved).piece_at(cap)
                if piece is not None:
                    self.fades.append(Fade(cap, piece[0], piece[1]))
        for fade in self.fades:
            fade.tick += 1
        self.fades = [f for f in self.fades if not f.done]

    def boards_after(self, count: int) -> Boards:
        boards = self.start
        for frm, to, cap in self.steps[:count]:
            boards = apply_step(boards, frm, to, cap)
        return boards

    def frame(self) -> tuple[Boards, tuple[int, int, float] | None]:
        """The still board now and the sliding piece (from, to, progress 0..1), if any."""
        index, into = divmod(self.tick, STEP_TICKS)
        if index >= len(self.steps):
            return self.boards_after(len(self.steps)), None
        frm, to, _cap = self.steps[index]
        return self.boards_after(index), (frm, to, into / STEP_TICKS)

    def to_json(self) -> dict[str, Any]:
        return {
            "start": list(self.start),
            "steps": [list(s) for s in self.steps],
            "tick": self.tick,
            "fades": [f.to_json() for f in self.fades],
        }

    @classmethod
    def from_json(cls, data: Any) -> TurnAnimation:
        return cls(
            tuple(int(b) for b in data["start"]),
            [(int(a), int(b), int(c)) for a, b, c in data["steps"]],
            int(data["tick"]),
            [Fade.from_json(f) for f in data["fades"]],
        )
