"""An immutable Reversi position: both sides' discs and the side to move."""

from __future__ import annotations

from dataclasses import dataclass

from games.reversi.rules import bitboard as bb
from games.reversi.rules.notation import NotationError, parse_square, square_name

BLACK = "black"
WHITE = "white"
COLORS = (BLACK, WHITE)


def other(color: str) -> str:
    """The opposing colour."""
    return WHITE if color == BLACK else BLACK


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in this position."""


@dataclass(frozen=True)
class Position:
    """Discs of each colour (bitboards) and whose turn it is."""

    black: int
    white: int
    turn: str = BLACK

    @classmethod
    def start(cls) -> Position:
        """The start position of R-REV-RULE-2, black to move."""
        return cls(bb.START_BLACK, bb.START_WHITE, BLACK)

    # --- views -------------------------------------------------------------------------
    @property
    def player(self) -> int:
        """Discs of the side to move."""
        return self.black if self.turn == BLACK else self.white

    @property
    def opponent(self) -> int:
        """Discs of the side not to move."""
        return self.white if self.turn == BLACK else self.black

    def legal_bits(self) -> int:
        """Bitboard of the side to move's legal squares."""
        return bb.legal_moves(self.player, self.opponent)

    def legal_squares(self) -> list[str]:
        """Legal squares of the side to move, a1 first (row by row)."""
        return [square_name(s) for s in bb.squares(self.legal_bits())]

    def flips_of(self, square: str) -> list[str]:
        """Discs a move on `square` would flip, nearest first (the order they turn over)."""
        sq = parse_square(square)
        if not (self.legal_bits() >> sq) & 1:
            raise IllegalMoveError(f"{square_name(sq)} is not a legal move for {self.turn}")
        return flip_order(sq, bb.flips(self.player, self.opponent, sq))

    def legal_flips(self) -> dict[str, list[str]]:
        """Every legal square with the discs it would flip (R-REV-STATE)."""
        p, o = self.player, self.opponent
        return {
            square_name(sq): flip_order(sq, bb.flips(p, o, sq))
            for sq in bb.squares(bb.legal_moves(p, o))
        }

    def has_move(self) -> bool:
        """Whether the side to move has any legal square."""
        return self.legal_bits() != 0

    def is_over(self) -> bool:
        """Neither side can move (this includes a full board)."""
        p, o = self.player, self.opponent
        return bb.legal_moves(p, o) == 0 and bb.legal_moves(o, p) == 0

    def counts(self) -> dict[str, int]:
        """Disc counts {"black": n, "white": n}."""
        return {BLACK: self.black.bit_count(), WHITE: self.white.bit_count()}

    def empties(self) -> int:
        """Number of empty squares."""
        return 64 - (self.black | self.white).bit_count()

    def color_at(self, square: str) -> str | None:
        """ "black", "white" or None for an empty square."""
        bit = 1 << parse_square(square)
        if self.black & bit:
            return BLACK
        if self.white & bit:
            return WHITE
        return None

    # --- transitions -------------------------------------------------------------------
    def play(self, square: str) -> Position:
        """The position after the side to move plays `square` (the turn passes over)."""
        sq = parse_square(square)
        p, o = self.player, self.opponent
        if not (bb.legal_moves(p, o) >> sq) & 1:
            raise IllegalMoveError(f"{square_name(sq)} is not a legal move for {self.turn}")
        f = bb.flips(p, o, sq)
        p |= f | (1 << sq)
        o ^= f
        if self.turn == BLACK:
            return Position(p, o, WHITE)
        return Position(o, p, BLACK)

    def pass_turn(self) -> Position:
        """The same discs with the other side to move (only legal without a move)."""
        if self.has_move():
            raise IllegalMoveError(f"{self.turn} has a legal move and may not pass")
        return Position(self.black, self.white, other(self.turn))

    # --- text --------------------------------------------------------------------------
    def rows(self) -> list[str]:
        """Rows 1..8, columns a..h, as "B", "W" or "." (the dump's board format)."""
        out = []
        for r in range(8):
            line = []
            for c in range(8):
                bit = 1 << (r * 8 + c)
                line.append("B" if self.black & bit else "W" if self.white & bit else ".")
            out.append("".join(line))
        return out

    @classmethod
    def from_rows(cls, rows: list[str], turn: str = BLACK) -> Position:
        """Inverse of `rows()`; bad input raises NotationError."""
        if turn not in COLORS:
            raise NotationError(f"turn must be black or white, not {turn!r}")
        if len(rows) != 8 or any(not isinstance(r, str) or len(r) != 8 for r in rows):
            raise NotationError("a board is 8 rows of 8 characters")
        black = white = 0
        for r, line in enumerate(rows):
            for c, ch in enumerate(line):
                bit = 1 << (r * 8 + c)
                if ch == "B":
                    black |= bit
                elif ch == "W":
                    white |= bit
                elif ch != ".":
                    raise NotationError(f"board squares are B, W or '.', not {ch!r}")
        return cls(black, white, turn)


def flip_order(sq: int, flipped: int) -> list[str]:
    """Flipped squares ordered by distance from the placed disc, then by square index."""
    r0, c0 = divmod(sq, 8)

    def key(s: int) -> tuple[int, int]:
        r, c = divmod(s, 8)
        return (max(abs(r - r0), abs(c - c0)), s)

    return [square_name(s) for s in sorted(bb.squares(flipped), key=key)]
