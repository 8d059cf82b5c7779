"""64-bit bitboards: the fast core every other Reversi layer builds on.

Square index = row * 8 + column, with a1 = 0 (column a, row 1) and h8 = 63; bit i of a board
is square i. A position is a pair (player, opponent): the discs of the side to move and of the
other side. Python integers are unbounded, so every left shift is masked back to 64 bits.
"""

from __future__ import annotations

FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE  # every square except column a
NOT_H = 0x7F7F7F7F7F7F7F7F  # every square except column h
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)

# Start position (R-REV-RULE-2): d4 white, e4 black, d5 black, e5 white; black moves first.
START_BLACK = (1 << (3 * 8 + 4)) | (1 << (4 * 8 + 3))
START_WHITE = (1 << (3 * 8 + 3)) | (1 << (4 * 8 + 4))

# (row step, column step) of the eight directions.
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _rays() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per square, the rays towards higher and towards lower square indexes."""
    up: list[int] = []
    down: list[int] = []
    for sq in range(64):
        r0, c0 = divmod(sq, 8)
        for dr, dc in DIRECTIONS:
            ray = 0
            r, c = r0 + dr, c0 + dc
            while 0 <= r < 8 and 0 <= c < 8:
                ray |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            # A direction points upwards when its first step raises the index.
            (up if dr * 8 + dc > 0 else down).append(ray)
    return tuple(up), tuple(down)


_UP, _DOWN = _rays()
# Four rays per square and sense, flattened: square sq uses [4*sq, 4*sq+4).
RAYS_UP: tuple[int, ...] = _UP
RAYS_DOWN: tuple[int, ...] = _DOWN


def legal_moves(player: int, opponent: int) -> int:
    """Bitboard of the squares where `player` may place a disc.

    Per direction, a fill grows runs of opponent discs outwards from the player's discs; one
    more step lands on the candidate squares. The fill doubles its reach after two single
    steps (1, 2, then 4 and 6 squares: `pairs` marks opponent discs whose neighbour in that
    direction is one too), a fifth fewer operations than six single steps (issue 36: this
    runs twice at every leaf). Horizontal and diagonal runs use only opponent discs off the
    a and h columns, so no run wraps a row. `reference_legal_moves` is the plain version.
    """
    p, o = player, opponent
    m = o & 0x7E7E7E7E7E7E7E7E
    t = m & (p << 1)
    t |= m & (t << 1)
    mm = m & (m << 1)
    t |= mm & (t << 2)
    t |= mm & (t << 2)
    moves = t << 1
    t = m & (p >> 1)
    t |= m & (t >> 1)
    mm = m & (m >> 1)
    t |= mm & (t >> 2)
    t |= mm & (t >> 2)
    moves |= t >> 1
    t = o & (p << 8)
    t |= o & (t << 8)
    mm = o & (o << 8)
    t |= mm & (t << 16)
    t |= mm & (t << 16)
    moves |= t << 8
    t = o & (p >> 8)
    t |= o & (t >> 8)
    mm = o & (o >> 8)
    t |= mm & (t >> 16)
    t |= mm & (t >> 16)
    moves |= t >> 8
    t = m & (p << 9)
    t |= m & (t << 9)
    mm = m & (m << 9)
    t |= mm & (t << 18)
    t |= mm & (t << 18)
    moves |= t << 9
    t = m & (p >> 9)
    t |= m & (t >> 9)
    mm = m & (m >> 9)
    t |= mm & (t >> 18)
    t |= mm & (t >> 18)
    moves |= t >> 9
    t = m & (p << 7)
    t |= m & (t << 7)
    mm = m & (m << 7)
    t |= mm & (t << 14)
    t |= mm & (t << 14)
    moves |= t << 7
    t = m & (p >> 7)
    t |= m & (t >> 7)
    mm = m & (m >> 7)
    t |= mm & (t >> 14)
    t |= mm & (t >> 14)
    moves |= t >> 7
    return moves & ~(p | o) & FULL


def reference_legal_moves(player: int, opponent: int) -> int:
    """`legal_moves` by six single steps per direction: the plain version it is tested
    against."""
    inner = opponent & 0x7E7E7E7E7E7E7E7E
    moves = 0
    for shift, mask in ((1, inner), (8, opponent), (9, inner), (7, inner)):
        t = (player << shift) & mask
        for _ in range(5):
            t |= (t << shift) & mask
        moves |= t << shift
        t = (player >> shift) & mask
        for _ in range(5):
            t |= (t >> shift) & mask
        moves |= t >> shift
    return moves & ~(player | opponent) & FULL


def both_legal_moves(player: int, opponent: int) -> tuple[int, int]:
    """(legal_moves(player, opponent), legal_moves(opponent, player)) in one pass: the two
    sides travel as two 64-bit lanes of one integer, 96 bits apart, so every shift and mask
    serves both (the evaluation's mobility needs both at every leaf; issue 36). A lane never
    reaches the other: every fill step is masked by the lanes' opponents, which are zero in
    the 32 bits between them, and the final shift moves at most 9 bits."""
    p, o = player, opponent
    a = p | (o << 96)
    m = (o & 0x7E7E7E7E7E7E7E7E) | ((p & 0x7E7E7E7E7E7E7E7E) << 96)
    v = o | (p << 96)
    t = m & (a << 1)
    t |= m & (t << 1)
    mm = m & (m << 1)
    t |= mm & (t << 2)
    t |= mm & (t << 2)
    moves = t << 1
    t = m & (a >> 1)
    t |= m & (t >> 1)
    mm = m & (m >> 1)
    t |= mm & (t >> 2)
    t |= mm & (t >> 2)
    moves |= t >> 1
    t = v & (a << 8)
    t |= v & (t << 8)
    mm = v & (v << 8)
    t |= mm & (t << 16)
    t |= mm & (t << 16)
    moves |= t << 8
    t = v & (a >> 8)
    t |= v & (t >> 8)
    mm = v & (v >> 8)
    t |= mm & (t >> 16)
    t |= mm & (t >> 16)
    moves |= t >> 8
    t = m & (a << 9)
    t |= m & (t << 9)
    mm = m & (m << 9)
    t |= mm & (t << 18)
    t |= mm & (t << 18)
    moves |= t << 9
    t = m & (a >> 9)
    t |= m & (t >> 9)
    mm = m & (m >> 9)
    t |= mm & (t >> 18)
    t |= mm & (t >> 18)
    moves |= t >> 9
    t = m & (a << 7)
    t |= m & (t << 7)
    mm = m & (m << 7)
    t |= mm & (t << 14)
    t |= mm & (t << 14)
    moves |= t << 7
    t = m & (a >> 7)
    t |= m & (t >> 7)
    mm = m & (m >> 7)
    t |= mm & (t >> 14)
    t |= mm & (t >> 14)
    moves |= t >> 7
    e = ~(p | o) & FULL
    moves &= e | (e << 96)
    return moves & FULL, moves >> 96


def flips(player: int, opponent: int, sq: int) -> int:
    """Bitboard of the opponent discs a disc of `player` on empty square `sq` would flip.

    Along each ray the first square that is not an opponent disc is found with one bit trick
    (lowest set bit upwards, highest set bit downwards); if it holds a player disc, everything
    on the ray before it flips.
    """
    result = 0
    not_opp = ~opponent
    base = sq * 4
    for i in range(base, base + 4):
        ray = RAYS_UP[i]
        stop = ray & not_opp
        if stop:
            first = stop & -stop
            if first & player:
                result |= ray & (first - 1)
        ray = RAYS_DOWN[i]
        stop = ray & not_opp
        if stop:
            first = 1 << (stop.bit_length() - 1)
            if first & player:
                result |= ray & ~((first << 1) - 1)
    return result


def squares(board: int) -> list[int]:
    """The square indexes set in `board`, lowest first."""
    out = []
    while board:
        low = board & -board
        out.append(low.bit_length() - 1)
        board ^= low
    return out


def perft(player: int, opponent: int, depth: int, passed: bool = False) -> int:
    """Leaf count of the move tree `depth` plies deep (a pass is a ply; a finished game a leaf).

    Counts the last ply in bulk (popcount of the legal moves) instead of playing it out.
    """
    moves = legal_moves(player, opponent)
    if not moves:
        if passed:
            return 1  # game over: neither side can move
        return perft(opponent, player, depth - 1, True) if depth > 1 else 1
    if depth == 1:
        return moves.bit_count()
    total = 0
    while moves:
        low = moves & -moves
        moves ^= low
        f = flips(player, opponent, low.bit_length() - 1)
        total += perft(opponent ^ f, player | f | low, depth - 1)
    return total
