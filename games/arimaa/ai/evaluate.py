"""Static evaluation: material (non-linear), trap control, frozen pieces, rabbit advancement
and pieces in danger on traps (`evaluate`, from gold's point of view), and the side to
move's captures and goal threats (`tactics`, from its own). Scores are in centi-rabbits."""

from __future__ import annotations

from ..rules.board import NEIGHBOURS, TRAP_SQUARES
from ..rules.steps import Boards, occupancy
from .tactics import capture_threats, goal_steps

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
_FULL = (1 << 64) - 1
_NOT_A = _FULL ^ 0x0101010101010101  # not on file a
_NOT_H = _FULL ^ (0x0101010101010101 << 7)  # not on file h


def _side_value(own: Boards, enemy: Boards, side: int) -> int:
    """One side's material, frozen pieces and rabbit advancement (its own point of view)."""
    o0, o1, o2, o3, o4, o5 = own
    _, x1, x2, x3, x4, x5 = enemy
    c0, c1, c2, c3, c4, c5 = (
        o0.bit_count(), o1.bit_count(), o2.bit_count(), o3.bit_count(), o4.bit_count(),
        o5.bit_count(),
    )  # fmt: skip
    e1, e2, e3, e4, e5 = (
        x1.bit_count(), x2.bit_count(), x3.bit_count(), x4.bit_count(), x5.bit_count(),
    )  # fmt: skip
    value = RABBIT_TOTAL[min(c0, 8)]
    m = o0 | o1 | o2 | o3 | o4 | o5
    loose = ~((m << 8 | m >> 8 | (m & _NOT_H) << 1 | (m & _NOT_A) >> 1) & _FULL)
    # kinds from the elephant down: value by how many enemy pieces are stronger, and the
    # pieces frozen (next to a stronger enemy piece and to no friend) lose a share of it
    value += PIECE_VALUE[0] * c5
    stronger = e5
    mask = x5
    for own_kind, count, enemy_kind, enemy_count in (
        (o4, c4, x4, e4),
        (o3, c3, x3, e3),
        (o2, c2, x2, e2),
        (o1, c1, x1, e1),
    ):
        pv = PIECE_VALUE[min(stronger, 10)]
        value += pv * count
        if mask and own_kind & loose:
            near = (mask << 8 | mask >> 8 | (mask & _NOT_H) << 1 | (mask & _NOT_A) >> 1) & _FULL
            f = own_kind & loose & near
            if f:
                value -= f.bit_count() * pv // FROZEN_FRACTION
        stronger += enemy_count
        mask |= enemy_kind
    if o0:
        if mask and o0 & loose:
            near = (mask << 8 | mask >> 8 | (mask & _NOT_H) << 1 | (mask & _NOT_A) >> 1) & _FULL
            f = o0 & loose & near
            if f:
                value -= f.bit_count() * 100 // FROZEN_FRACTION
        # rabbit advancement, worth more as the enemy thins out
        thin = 16 - (e1 + e2 + e3 + e4 + e5)  # enemy non-rabbits gone
        rows = _RABBIT_ROWS[side]
        for row in range(2, 7):
            n = (o0 & rows[row]).bit_count()
            if n:
                value += n * (RABBIT_ROW[row] * (8 + thin) // 8)
    return value


#: Per side, the bitboard of each row counted from that side's first rank.
_RABBIT_ROWS = (
    tuple(0xFF << (8 * row) for row in range(8)),
    tuple(0xFF << (8 * (7 - row)) for row in range(8)),
)


def evaluate(boards: Boards) -> int:
    """Gold's advantage in this position (side to move not considered). Bitboard arithmetic
    throughout, the loops over kinds unrolled and empty kinds skipped: it runs at every leaf
    of the search (issue 36 measured it at a third of a node; `reference_evaluate` is the
    plain version, equal on every position)."""
    gold_boards = boards[:6]
    silver_boards = boards[6:]
    score = _side_value(gold_boards, silver_boards, 0) - _side_value(silver_boards, gold_boards, 1)
    # trap control and pieces hanging on traps
    g0, g1, g2, g3, g4, g5, s0, s1, s2, s3, s4, s5 = boards
    gold_occ = g0 | g1 | g2 | g3 | g4 | g5
    silver_occ = s0 | s1 | s2 | s3 | s4 | s5
    for trap, tn in _TRAPS:
        g = tn & gold_occ
        s = tn & silver_occ
        if not (g or s):
            continue
        gc, sc = g.bit_count(), s.bit_count()
        if gc >= 2 and gc > sc:
            score += TRAP_CONTROL
        elif sc >= 2 and sc > gc:
            score -= TRAP_CONTROL
        for gk, sk in ((g5, s5), (g4, s4), (g3, s3), (g2, s2), (g1, s1), (g0, s0)):
            gk &= tn
            sk &= tn
            if gk or sk:
                if not sk:
                    score += TRAP_STRONGEST
                elif not gk:
                    score -= TRAP_STRONGEST
                break
        if gold_occ & trap and gc == 1 and sc >= 1:
            score -= 60
        if silver_occ & trap and sc == 1 and gc >= 1:
            score += 60
    return score


_TRAPS = tuple((1 << t, NEIGHBOURS[t]) for t in TRAP_SQUARES)


def reference_evaluate(boards: Boards) -> int:
    """`evaluate` written plainly, with loops over sides and kinds: the version it is tested
    against (the same value on every position)."""
    occ = occupancy(boards)
    counts = [[boards[6 * s + k].bit_count() for k in range(6)] for s in (0, 1)]
    score = 0
    for side in (0, 1):
        base = 6 * side
        ebase = 6 - base
        enemy = counts[1 - side]
        own = counts[side]
        value = RABBIT_TOTAL[min(own[0], 8)]
        m = occ[side]
        near_friend = (m << 8 | m >> 8 | (m & _NOT_H) << 1 | (m & _NOT_A) >> 1) & _FULL
        stronger = 0
        stronger_mask = 0
        for kind in range(5, -1, -1):
            pv = PIECE_VALUE[min(stronger, 10)] if kind else 100
            if kind:
                value += pv * own[kind]
            if stronger_mask:
                # frozen: next to a stronger enemy piece and to no friend
                m = stronger_mask  # next to it (tactics.around, inlined: every leaf)
                near = (m << 8 | m >> 8 | (m & _NOT_H) << 1 | (m & _NOT_A) >> 1) & _FULL
                f = boards[base + kind] & ~near_friend & near
                if f:
                    value -= f.bit_count() * pv // FROZEN_FRACTION
            stronger += enemy[kind]
            stronger_mask |= boards[ebase + kind]
        # rabbit advancement, worth more as the enemy thins out
        rabbits = boards[base]
        if rabbits:
            thin = 16 - sum(enemy[1:])  # enemy non-rabbits gone
            for row in range(2, 7):
                n = (rabbits >> (8 * (row if side == 0 else 7 - row)) & 0xFF).bit_count()
                if n:
                    value += n * (RABBIT_ROW[row] * (8 + thin) // 8)
        score += value if side == 0 else -value
    # trap control and pieces hanging on traps
    gold_occ, silver_occ = occ
    for trap, tn in zip(TRAP_SQUARES, _TRAP_NEIGHBOURS, strict=True):
        g = tn & gold_occ
        s = tn & silver_occ
        gc, sc = g.bit_count(), s.bit_count()
        if gc >= 2 and gc > sc:
            score += TRAP_CONTROL
        elif sc >= 2 and sc > gc:
            score -= TRAP_CONTROL
        if g or s:
            for kind in range(5, -1, -1):
                gk = boards[kind] & tn
                sk = boards[6 + kind] & tn
                if gk or sk:
                    if not sk:
                        score += TRAP_STRONGEST
                    elif not gk:
                        score -= TRAP_STRONGEST
                    break
        bit = 1 << trap
        if gold_occ & bit and gc == 1 and sc >= 1:
            score -= 60
        if silver_occ & bit and sc == 1 and gc >= 1:
            score += 60
    return score


#: Share of a capturable piece's value credited to the side to move (it will usually take
#: it, but the piece is not off the board yet and the capture may cost it something).
CAPTURE_SHARE_NUM, CAPTURE_SHARE_DEN = 3, 4
#: A rabbit of the side to move that could reach goal unopposed in its next turn, by the
#: steps it would still need then (1..4), and one of the other side that threatens to.
GOAL_THREAT = (0, 300, 200, 120, 60)
GOAL_THREATENED = 150
#: A rabbit of the side to move that can walk to goal with the steps it has left (the exact
#: check at each turn start makes this a win; mid-turn it is nearly one).
GOAL_NOW = 3000


def piece_value(boards: Boards, index: int) -> int:
    """What losing one piece of bitboard `index` costs its side, in the evaluation's terms
    (a non-rabbit by how many enemy pieces are stronger; a rabbit by how many are left)."""
    side, kind = divmod(index, 6)
    if kind == 0:
        n = min(boards[index].bit_count(), 8)
        return RABBIT_TOTAL[n] - RABBIT_TOTAL[n - 1] if n else 0
    ebase = 6 - 6 * side
    stronger = sum(boards[ebase + k].bit_count() for k in range(kind + 1, 6))
    return PIECE_VALUE[min(stronger, 10)]


def best_capture(boards: Boards, side: int, steps_left: int) -> int:
    """The value of the best piece `side` can capture with `steps_left` steps (0 if none)."""
    best = 0
    for _, index, _, _ in capture_threats(boards, side, steps_left):
        value = piece_value(boards, index)
        if value > best:
            best = value
    return best


def tactics(boards: Boards, side: int, steps_left: int, capture_floor: int = 0) -> int:
    """The side to move's tactical prospects, from its point of view: the best piece it can
    capture with the steps it has left (tactics.capture_threats; at least `capture_floor`,
    what it could capture from its turn's start when a search stops inside its turn); its
    rabbits near goal (this turn, or unopposed in its next), less the other side's rabbits
    that could reach goal in the turn after this one (tactics.goal_steps)."""
    best = max(best_capture(boards, side, steps_left), capture_floor)
    score = best * CAPTURE_SHARE_NUM // CAPTURE_SHARE_DEN
    if boards[6 * side]:
        steps = goal_steps(boards, side, steps_left + len(GOAL_THREAT) - 1)
        if steps <= steps_left:
            score += GOAL_NOW
        elif steps <= steps_left + 4:
            score += GOAL_THREAT[steps - steps_left]
    if boards[6 - 6 * side] and goal_steps(boards, 1 - side, 4) <= 4:
        score -= GOAL_THREATENED
    return score
