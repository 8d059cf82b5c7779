"""Static trap and goal tactics: which enemy pieces a side can capture this turn, and how
many of its own steps a rabbit needs to reach goal (issue 36).

Strong Arimaa programs decide most games by what happens around the four traps and on the
goal ranks within one turn; a search that sees one turn ahead (4 steps) cannot see the
opponent's reply at its leaves. These functions look at the board alone and answer the two
questions cheaply enough to ask at every leaf, so the evaluation sees captures and goals the
opponent can make in its next turn, and the search tries captures first.

Captures: during its own turn a side moves an enemy piece only by a push or a pull, and each
of those costs two of its steps (the enemy's step and its own). A piece on a trap dies once
no friend stands next to the trap, so capturing costs two steps per defender to remove and
two per square the victim must travel to the trap, plus the steps a stronger piece needs to
come next to each piece it moves. `capture_threats` counts exactly those, with the stronger
piece's approach found by a small breadth-first search over empty squares (frozen squares
and unguarded traps avoided). It handles the patterns that fit in one turn: a piece on a
trap with one or two defenders, a piece next to an empty trap (pushed in, or pulled in by a
piece standing on the trap) with at most one other defender, and a piece two squares from an
empty, undefended trap pushed twice. Each defender is counted separately, so two defenders
that one attacker cannot both reach may be reported capturable when they are not; the tests
check the patterns against brute-force enumeration by the `aei` package's reference board.

Goals: `goal_steps` floods forward from all the side's rabbits at once over bitboards: each
rabbit alone over empty squares (never backwards, never on past a square where it would be
frozen, never onto an unguarded trap), one step more for a friendly piece standing in its
way. It ignores pushes and pulls that could clear the way and the enemy's replies, so it is
an estimate; the exact answer for this turn is `goal.find_goal`.
"""

from __future__ import annotations

from ..rules.board import GOAL_RANK, GOLD, NEIGHBOURS, RABBIT_NEIGHBOURS, TRAP_SQUARES, TRAPS
from ..rules.steps import Boards, occupancy

#: (victim square, victim's bitboard index, trap, steps the attacker needs)
Threat = tuple[int, int, int, int]
NONE = 99  # more steps than any turn has

_FULL = (1 << 64) - 1


def _within(radius: int) -> tuple[int, ...]:
    out = []
    for sq in range(64):
        mask = 0
        for other in range(64):
            if abs(sq // 8 - other // 8) + abs(sq % 8 - other % 8) <= radius:
                mask |= 1 << other
        out.append(mask)
    return tuple(out)


#: WITHIN[r][sq]: the squares at most r steps (Manhattan distance) from sq.
WITHIN: tuple[tuple[int, ...], ...] = tuple(_within(r) for r in range(6))


class _Board:
    """The facts about one position the capture patterns ask for, computed once."""

    __slots__ = ("boards", "empty", "kinds", "mine", "side", "stronger_theirs", "theirs")

    def __init__(self, boards: Boards, side: int) -> None:
        self.boards = boards
        self.side = side
        gold, silver = occupancy(boards)
        self.mine, self.theirs = (gold, silver) if side == GOLD else (silver, gold)
        self.empty = ~(gold | silver) & _FULL
        ebase = 6 - 6 * side
        # stronger_theirs[k]: enemy pieces stronger than my kind k (they freeze it)
        acc = 0
        st = [0] * 6
        for k in range(5, -1, -1):
            st[k] = acc
            acc |= boards[ebase + k]
        self.stronger_theirs = st
        self.kinds: dict[int, int] = {}  # square -> bitboard index (filled lazily)

    def index_at(self, sq: int) -> int:
        hit = self.kinds.get(sq)
        if hit is None:
            bit = 1 << sq
            hit = -1
            for i, board in enumerate(self.boards):
                if board & bit:
                    hit = i
                    break
            self.kinds[sq] = hit
        return hit


def _frozen_at(b: _Board, sq: int, kind: int, friends: int) -> bool:
    n = NEIGHBOURS[sq]
    return not n & friends and bool(n & b.stronger_theirs[kind])


def _move_cost(
    b: _Board, victim: int, vkind: int, dests: int, budget: int, busy: int = 0
) -> tuple[int, int]:
    """Fewest of the attacker's steps to move the enemy piece on `victim` (of kind `vkind`)
    one square onto a square of `dests`: a stronger unfrozen piece (not one of `busy`, the
    squares of pieces with another job) comes next to it (the approach, over empty squares)
    and pushes or pulls it (two steps). (NONE, -1) beyond `budget`; else (steps, the
    attacker's square)."""
    if budget < 2:
        return NONE, -1
    base = 6 * b.side
    vnb = NEIGHBOURS[victim]
    push_to = vnb & b.empty & dests
    best, who = NONE, -1
    for k in range(vkind + 1, 6):
        pieces = b.boards[base + k] & ~busy & WITHIN[budget - 1][victim]
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            a = low.bit_length() - 1
            others = b.mine ^ low
            if _frozen_at(b, a, k, others):
                continue
            if vnb & low:
                # already next to it: push it away, or step away and pull it after
                if push_to or (dests >> a & 1 and NEIGHBOURS[a] & b.empty):
                    return 2, a
                continue
            cost = _approach(b, a, k, others, victim, dests, push_to, budget - 2)
            if cost + 2 < best:
                best, who = cost + 2, a
    return (best, who) if best <= budget else (NONE, -1)


def _approach(
    b: _Board,
    start: int,
    kind: int,
    others: int,
    victim: int,
    dests: int,
    push_to: int,
    limit: int,
) -> int:
    """Steps for the piece on `start` to stand next to `victim` where it can then push it onto
    `dests` (or pull it there: it came from an empty square it can step back to)."""
    vnb = NEIGHBOURS[victim]
    frontier = 1 << start
    seen = frontier
    for dist in range(1, limit + 1):
        nxt = 0
        f = frontier
        while f:
            low = f & -f
            f ^= low
            sq = low.bit_length() - 1
            if dist > 1 and _frozen_at(b, sq, kind, others):
                continue
            nxt |= NEIGHBOURS[sq] & b.empty & ~seen
        # an unguarded trap kills the piece that steps on it
        for t in TRAP_SQUARES:
            if nxt >> t & 1 and not NEIGHBOURS[t] & others:
                nxt ^= 1 << t
        if not nxt:
            return NONE
        arrived = nxt & vnb
        while arrived:
            low = arrived & -arrived
            arrived ^= low
            y = low.bit_length() - 1
            if _frozen_at(b, y, kind, others):
                continue
            if push_to & ~low or dests & low:
                return dist
        seen |= nxt
        frontier = nxt
    return NONE


def capture_threats(boards: Boards, side: int, steps: int = 4) -> list[Threat]:
    """Enemy pieces `side` can capture within `steps` of its own steps, by the trap patterns
    described above: (victim square, its bitboard index, trap, steps needed), cheapest
    first."""
    b = _Board(boards, side)
    out: list[Threat] = []
    theirs = b.theirs
    for trap in TRAP_SQUARES:
        tbit = 1 << trap
        tn = NEIGHBOURS[trap]
        defenders = tn & theirs
        if theirs & tbit:
            # a piece already on the trap: remove every defender
            total = _remove(b, defenders, trap, steps)[0]
            if total <= steps:
                out.append((trap, b.index_at(trap), trap, total))
            continue
        for v in _squares(defenders):
            vbit = 1 << v
            if not _attackable(b, v, steps):
                continue
            total, busy = _remove(b, defenders ^ vbit, trap, steps - 2)
            if total > steps - 2:
                continue
            total += _onto_trap(b, v, trap, steps - total, busy)
            if total <= steps:
                out.append((v, b.index_at(v), trap, total))
        if steps >= 4 and not defenders:
            out.extend(_two_squares_away(b, trap))
    out.sort(key=lambda t: t[3])
    return out


def _attackable(b: _Board, v: int, steps: int) -> bool:
    """A piece of mine stronger than the one on `v` stands within reach of it."""
    vkind = b.index_at(v) % 6
    base = 6 * b.side
    strong = 0
    for k in range(vkind + 1, 6):
        strong |= b.boards[base + k]
    return bool(strong & WITHIN[max(1, steps - 1)][v])


def _remove(b: _Board, defenders: int, trap: int, budget: int) -> tuple[int, int]:
    """Steps to move every enemy piece of `defenders` off the trap's neighbourhood, each by a
    different attacker (one attacker rarely stays next to two of them), and the squares of
    the attackers used."""
    total = 0
    busy = 0
    not_trap = _FULL ^ (1 << trap)
    for d in _squares(defenders):
        cost, who = _move_cost(b, d, b.index_at(d) % 6, not_trap, budget - total, busy)
        total += cost
        if total > budget:
            return NONE, busy
        busy |= 1 << who
    return total, busy


def _two_squares_away(b: _Board, trap: int) -> list[Threat]:
    """Enemy pieces two squares from an undefended trap, pushed or pulled next to it (two
    steps) and then onto it (the patterns above, two steps)."""
    out: list[Threat] = []
    side = b.side
    tbit = 1 << trap
    if not b.theirs & WITHIN[2][trap] or not (b.empty | b.mine) & tbit:
        return out
    for x in _squares(NEIGHBOURS[trap] & ~b.theirs):
        xbit = 1 << x
        for v in _squares(NEIGHBOURS[x] & b.theirs & ~tbit):
            vi = b.index_at(v)
            vkind = vi % 6
            if any(t[0] == v for t in out):
                continue
            for a in _squares(NEIGHBOURS[v] & b.mine if b.empty & xbit else xbit & b.mine):
                ai = b.index_at(a)
                akind = ai % 6
                if akind <= vkind or _frozen_at(b, a, akind, b.mine ^ (1 << a)):
                    continue
                # push: the victim to x, the attacker into its square; pull: the attacker
                # steps off x to an empty square and the victim follows into x
                to_squares = [v] if a != x else _squares(NEIGHBOURS[x] & b.empty)
                for to in to_squares:
                    new = list(b.boards)
                    new[vi] ^= (1 << v) | xbit
                    new[ai] ^= (1 << a) | (1 << to)
                    if to == trap and not NEIGHBOURS[trap] & (b.mine ^ (1 << a)):
                        continue  # the puller would die on the trap
                    nb = _Board(tuple(new), side)
                    if _onto_trap(nb, x, trap, 2) <= 2:
                        out.append((v, vi, trap, 4))
                        break
                else:
                    continue
                break
    return out


def _onto_trap(b: _Board, v: int, trap: int, budget: int, busy: int = 0) -> int:
    """Steps to move the enemy piece on `v` (next to `trap`) onto the trap: pushed in, or,
    when a piece of mine stands on the trap, pulled in as it steps off (2), or pushed in
    once it has stepped off (1 more); not by the attackers on `busy`."""
    tbit = 1 << trap
    vkind = b.index_at(v) % 6
    if b.empty & tbit:
        return _move_cost(b, v, vkind, tbit, budget, busy)[0]
    ai = b.index_at(trap)
    if budget < 2 or ai // 6 != b.side:
        return NONE
    akind = ai % 6
    if _frozen_at(b, trap, akind, b.mine ^ tbit):
        return NONE
    exits = NEIGHBOURS[trap] & b.empty
    if akind > vkind and exits and not busy & tbit:
        return 2
    best = NONE
    for y in _squares(exits if budget >= 3 else 0):
        if akind == 0 and RABBIT_NEIGHBOURS[b.side][trap] >> y & 1 == 0:
            continue  # a rabbit never steps back
        new = list(b.boards)
        new[ai] ^= tbit | (1 << y)
        nb = _Board(tuple(new), b.side)
        cost = _move_cost(nb, v, vkind, tbit, budget - 1, busy | (1 << y))[0]
        best = min(best, cost + 1)
    return best if best <= budget else NONE


def _squares(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


# ---------------------------------------------------------------------------------- goals
_FILE_A = 0x0101010101010101
_FILE_H = _FILE_A << 7


#: _WITHIN_RANKS[side][n]: the squares at most n ranks from that side's goal rank.
_WITHIN_RANKS = (
    tuple(_FULL & ~((1 << (8 * (7 - n))) - 1) for n in range(8)),
    tuple((1 << (8 * (n + 1))) - 1 for n in range(8)),
)


def around(mask: int) -> int:
    """The squares next to any square of `mask`."""
    return (mask << 8 | mask >> 8 | (mask & ~_FILE_H) << 1 | (mask & ~_FILE_A) >> 1) & _FULL


def goal_steps(boards: Boards, side: int, limit: int = 8) -> int:
    """Fewest of `side`'s own steps for one of its rabbits to reach its goal rank, moving
    alone (see the module's note), or NONE beyond `limit`. All rabbits at once: a
    breadth-first flood over bitboards, a friend in the way costing one step more."""
    rabbits = boards[6 * side]
    goal = GOAL_RANK[side]
    if rabbits & goal:
        return 0
    if not rabbits & _WITHIN_RANKS[side][min(limit, 7)]:
        return NONE
    gold, silver = occupancy(boards)
    mine, theirs = (gold, silver) if side == GOLD else (silver, gold)
    empty = ~(gold | silver) & _FULL
    near_friend = around(mine)
    frozen = around(theirs & ~boards[6 - 6 * side]) & ~near_friend
    blocked = empty & TRAPS & ~near_friend  # an unguarded trap
    layer = rabbits & ~frozen
    visited = layer
    delayed = 0
    for k in range(1, limit + 1):
        f = layer & ~frozen
        if side == GOLD:
            step = (f << 8 | (f & ~_FILE_H) << 1 | (f & ~_FILE_A) >> 1) & _FULL
        else:
            step = f >> 8 | (f & ~_FILE_H) << 1 | (f & ~_FILE_A) >> 1
        step &= ~visited
        arrived = (step & empty & ~blocked) | delayed
        if arrived & goal:
            return k
        delayed = step & mine
        visited |= arrived | delayed
        layer = arrived
        if not layer and not delayed:
            break
    return NONE
