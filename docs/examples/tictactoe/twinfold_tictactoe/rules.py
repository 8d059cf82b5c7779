"""The rules, pure (no pygame, no I/O), as the match layer sees them (`MatchRules[int]`): an
action is a square 0..8, row by row; seat 0 plays X and moves first, seat 1 plays O."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from firmware.match import ActionError, Event, MatchResult, canonical_digest

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EMPTY = -1
MARKS = ("X", "O")


class TicTacToeRules:
    game_id = "tictactoe"
    seats = 2

    def __init__(self, board: Sequence[int] = (EMPTY,) * 9) -> None:
        self.board = list(board)

    def winner(self) -> int | None:
        for a, b, c in LINES:
            if self.board[a] != EMPTY and self.board[a] == self.board[b] == self.board[c]:
                return self.board[a]
        return None

    def to_move(self) -> int | None:
        if self.winner() is not None or EMPTY not in self.board:
            return None
        return (9 - self.board.count(EMPTY)) % 2

    def legal_actions(self) -> list[int]:
        return [] if self.to_move() is None else [i for i in range(9) if self.board[i] == EMPTY]

    def check(self, seat: int, action: int) -> str | None:
        if self.to_move() != seat:
            return "not this seat's turn"
        if not isinstance(action, int) or not 0 <= action < 9:
            return "no such square"
        return None if self.board[action] == EMPTY else "the square is taken"

    def apply(self, seat: int, action: int) -> list[Event]:
        reason = self.check(seat, action)
        if reason is not None:
            raise ActionError(reason)
        self.board[action] = seat
        return [{"type": "placed", "seat": seat, "square": action}]

    def result(self) -> MatchResult | None:
        if self.to_move() is not None:
            return None
        winner = self.winner()
        if winner is None:
            return MatchResult(None, "the board is full", draw=True)
        return MatchResult(winner, "three in a row")

    def digest(self) -> str:
        return canonical_digest(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {"board": list(self.board)}

    @classmethod
    def from_json(cls, data: Any) -> TicTacToeRules:
        board = data.get("board") if isinstance(data, dict) else None
        if not (isinstance(board, list) and len(board) == 9
                and all(v in (EMPTY, 0, 1) for v in board)):
            raise ValueError("a tic-tac-toe board is nine of -1, 0 and 1")
        return cls(board)

    def encode(self, action: int) -> bytes:
        return bytes([action])

    def decode(self, data: bytes) -> int:
        if len(data) != 1 or data[0] > 8:
            raise ActionError("a move is one byte, a square 0..8")
        return data[0]


def random_square(rules: TicTacToeRules, seat: int) -> int:
    """The computer's move (a `OneShotPlayer`'s decision): a random free square, drawn from
    the position alone, so every unit and every replay agrees."""
    return random.Random(rules.digest()).choice(rules.legal_actions())
