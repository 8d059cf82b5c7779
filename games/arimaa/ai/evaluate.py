"""Static evaluation: material (non-linear), trap control, frozen pieces, rabbit advancement
and pieces in danger on traps. Scores are in centi-rabbits from gold's point of view."""

from __future__ import annotations

from ..rules.board import NEIGHBOURS, TRAP_SQUARES
from ..rules.steps import Boards, frozen_mask, occupancy

#: Value of a non-rabbit piece by how many enemy pieces are stronger than it: a piece with
#: nothing stronger on the other side does the elephant's job whatever its kind.
PIECE_VALUE = (900, 620, 460, 380, 320, 280, 250, 230, 215, 205, 200)
#: Total value of n rabbits: each rabbit lost costs more than the one before (the last ones
#: decide whether goal is still possible; none at all loses the game).
RABBIT_TOTAL = (0, 700, 1150, 1500, 1780, 2000, 2190, 2360, 2520)
#: Bonus for a rabbit by row counted from its own side (index 0 = first rank).
RABBIT_ROW = (0, 0, 10, 25, 45, 90, 160, 0)
FROZEN_FRACTION = 8  # a frozen piece loses 1/8 of its value
TRAP_CONTROL = 45  # two or more pieces next to a trap
TRAP_STRONGEST = 25  # the strongest piece next to a trap
_TRAP_NEIGHBOURS = tuple(NEIGHBOURS[t] for t in TRAP_SQUARES)
WIN = 1_000_000


def evaluate(boards: Boards) -> int:
    """Gold's advantage in this position (side to move not considered)."""
    gold_occ, silver_occ = occupancy(boards)
    counts = [[boards[6 * s + k].bit_count() for k in range(6)] for s in (0, 1)]
    frozen = frozen_mask(boards)
    score = 0
    for side in (0, 1):
        sign = 1 if side == 0 else -1
        enemy = counts[1 - side]
        value = RABBIT_TOTAL[min(counts[side][0], 8)]
        stronger = 0
        piece_values = [0] * 6
        for kind in range(5, 0, -1):
            pv = PIECE_VALUE[min(stronger, 10)]
            piece_values[kind] = pv
            value += pv * counts[side][kind]
            stronger += enemy[kind]
        piece_values[0] = 100
        # frozen pieces
        for kind in range(6):
            f = boards[6 * side + kind] & frozen
            if f:
                value -= f.bit_count() * piece_values[kind] // FROZEN_FRACTION
        # rabbit advancement, worth more as the enemy thins out
        rabbits = boards[6 * side]
        thin = 16 - sum(enemy[1:])  # enemy non-rabbits gone
        while rabbits:
            low = rabbits & -rabbits
            rabbits ^= low
            row = (low.bit_length() - 1) // 8
            if side == 1:
                row = 7 - row
            value += RABBIT_ROW[row] * (8 + thin) // 8
        score += sign * value
    # trap control and pieces hanging on traps
    for trap, tn in zip(TRAP_SQUARES, _TRAP_NEIGHBOURS, strict=True):
        g = tn & gold_occ
        s = tn & silver_occ
        gc, sc = g.bit_count(), s.bit_count()
        if gc >= 2 and gc > sc:
            score += TRAP_CONTROL
        elif sc >= 2 and sc > gc:
            score -= TRAP_CONTROL
        strongest = -1
        owner = 0
        for index in range(11, -1, -1):
            if boards[index] & tn:
                kind = index % 6
                if kind > strongest:
                    strongest, owner = kind, index // 6
                elif kind == strongest and owner != index // 6:
                    owner = -1
        if strongest >= 0 and owner >= 0:
            score += TRAP_STRONGEST if owner == 0 else -TRAP_STRONGEST
        bit = 1 << trap
        if gold_occ & bit and gc == 1 and sc >= 1:
            score -= 60
        if silver_occ & bit and sc == 1 and gc >= 1:
            score += 60
    return score
