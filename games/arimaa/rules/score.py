"""Score of a halted game (R-ARI-SCORE, claim 29): Score = Rp + P * (C + 1)."""

from __future__ import annotations

from .board import GOLD, RABBIT, bits
from .steps import Boards

#: Piece points by kind (rabbit 1 ... elephant 6), increasing with strength.
PIECE_POINTS = (1, 2, 3, 4, 5, 6)


def score(boards: Boards, side: int) -> int:
    """Claim 29's score of `side`: cubed row values of its rabbits (row 1 = its own first
    rank, 8 = its goal rank) plus piece points times (rabbit count + 1)."""
    rabbits = list(bits(boards[6 * side + RABBIT]))
    rp = sum((sq // 8 + 1 if side == GOLD else 8 - sq // 8) ** 3 for sq in rabbits)
    points = sum(PIECE_POINTS[kind] * boards[6 * side + kind].bit_count() for kind in range(6))
    return rp + points * (len(rabbits) + 1)


def score_winner(boards: Boards) -> int | None:
    """The side with the higher score, or None when the scores are equal (a draw)."""
    gold, silver = score(boards, 0), score(boards, 1)
    if gold == silver:
        return None
    return 0 if gold > silver else 1
