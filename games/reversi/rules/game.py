"""A game in progress: start position, move list, automatic passes, result, JSON form.

This is the state the handheld scene, the link layer, records and the NBoard engine share.
Passes are automatic (R-REV-OP-2): after a move, a side without a legal square is skipped
and the pass is recorded in `plies` (as "pass") but not in `moves` (the standard move list).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.reversi.rules.notation import NotationError, parse_square, square_name
from games.reversi.rules.position import BLACK, COLORS, WHITE, IllegalMoveError, Position

PASS = "pass"


class GameDataError(ValueError):
    """Serialised game data that is malformed or describes an impossible game."""


@dataclass(frozen=True)
class MoveOutcome:
    """What one move did: for the scene's animation and messages."""

    color: str
    square: str
    flipped: list[str]  # nearest first: the order the discs turn over (R-REV-VIEW-7)
    passed: str | None  # the colour that had to pass right after this move, if any
    over: bool


class Game:
    """A Reversi game: positions follow from the start position and the move list."""

    def __init__(self, start: Position | None = None, moves: Iterable[str] = ()) -> None:
        self.start = start if start is not None else Position.start()
        self.position = self.start
        self.moves: list[str] = []
        self.plies: list[str] = []
        self.last_pass: str | None = None
        self._auto_pass()
        for m in moves:
            self.play(m)

    # --- state -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Neither side can move."""
        return self.position.is_over()

    @property
    def turn(self) -> str | None:
        """Colour to move, None once the game is over."""
        return None if self.over else self.position.turn

    @property
    def status(self) -> str:
        """ "playing", "passed" (the last move forced a pass) or "over" (R-REV-STATE)."""
        if self.over:
            return "over"
        return "passed" if self.last_pass else "playing"

    def score(self) -> dict[str, int]:
        """Disc counts."""
        return self.position.counts()

    @property
    def winner(self) -> str | None:
        """ "black", "white", "draw" once over (more discs wins, R-REV-RULE-6), else None."""
        if not self.over:
            return None
        c = self.score()
        if c[BLACK] == c[WHITE]:
            return "draw"
        return BLACK if c[BLACK] > c[WHITE] else WHITE

    def legal(self) -> dict[str, list[str]]:
        """Legal squares of the side to move with the discs each would flip."""
        return {} if self.over else self.position.legal_flips()

    def is_legal(self, square: str) -> bool:
        """Whether `square` (any text) is a legal move now; never raises."""
        try:
            sq = parse_square(square)
        except NotationError:
            return False
        return not self.over and bool((self.position.legal_bits() >> sq) & 1)

    def state(self) -> dict[str, Any]:
        """The rules part of the dump's `game` object (the scene adds its own fields)."""
        return {
            "board": self.position.rows(),
            "turn": self.turn,
            "score": self.score(),
            "status": self.status,
            "winner": self.winner,
            "legal": list(self.legal()),
            "moves": list(self.moves),
        }

    # --- transitions -------------------------------------------------------------------
    def play(self, square: str) -> MoveOutcome:
        """Play `square` for the side to move; illegal moves raise and change nothing."""
        if self.over:
            raise IllegalMoveError("the game is over")
        before = self.position
        flipped = before.flips_of(square)  # raises for an illegal or malformed square
        name = square_name(parse_square(square))
        self.position = before.play(name)
        self.moves.append(name)
        self.plies.append(name)
        self.last_pass = None
        self._auto_pass()
        return MoveOutcome(before.turn, name, flipped, self.last_pass, self.over)

    def _auto_pass(self) -> None:
        if not self.position.has_move() and not self.position.is_over():
            self.last_pass = self.position.turn
            self.plies.append(PASS)
            self.position = self.position.pass_turn()

    def positions(self) -> list[Position]:
        """The position before each ply and after the last (passes included)."""
        out = [self.start]
        pos = self.start
        for ply in self.plies:
            pos = pos.pass_turn() if ply == PASS else pos.play(ply)
            out.append(pos)
        return out

    # --- serialisation -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain JSON data that `from_json` turns back into an equal game."""
        return {
            "start": {"board": self.start.rows(), "turn": self.start.turn},
            "moves": list(self.moves),
        }

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """Rebuild a game from `to_json` data; anything malformed raises GameDataError."""
        if not isinstance(data, dict):
            raise GameDataError("game data must be an object")
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise GameDataError("moves must be a list of squares")
        start = Position.start()
        if "start" in data:
            s = data["start"]
            if (
                not isinstance(s, dict)
                or s.get("turn") not in COLORS
                or not isinstance(s.get("board"), list)
            ):
                raise GameDataError("start must be {board: [8 rows], turn: black|white}")
            try:
                start = Position.from_rows(s["board"], s["turn"])
            except (NotationError, TypeError) as exc:
                raise GameDataError(f"bad start board: {exc}") from None
        try:
            return cls(start, moves)
        except (IllegalMoveError, NotationError) as exc:
            raise GameDataError(f"impossible move list: {exc}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.start == other.start and self.moves == other.moves

    def __repr__(self) -> str:
        return f"Game(moves={' '.join(self.moves)!r}, status={self.status!r})"


__all__ = ["BLACK", "PASS", "WHITE", "Game", "GameDataError", "MoveOutcome"]
