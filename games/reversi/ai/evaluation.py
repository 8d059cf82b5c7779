"""Static evaluation for the midgame search, from the side to move's point of view.

Units are hundredths of a disc, roughly. Terms (all as "mine minus theirs"):
mobility (legal moves), potential mobility (empty squares next to the other side's discs:
future moves), corners, X squares (b2, g2, b7, g7 next to an empty corner), C squares and edge
discs, and edge stability (discs on an edge that can never flip: runs anchored in an owned
corner, and discs of a full edge). The four edges come from one precomputed table indexed by
the edge's two 8-bit patterns, so the per-leaf cost is a few shifts and lookups.
"""

from __future__ import annotations

from games.reversi.rules.bitboard import FULL, NOT_A, NOT_H, legal_moves

# --- weights (centidiscs) -------------------------------------------------------------------
W_MOBILITY = 70
W_POTENTIAL = 25
W_CORNER = 330  # per corner; each corner is seen by two edges, so half in each
W_STABLE = 110
W_EDGE = 18
W_C_SQUARE = -110  # C square next to an empty corner
W_X_SQUARE = -320  # X square next to an empty corner
W_PARITY = 40  # last-move advantage (even/odd empties)

X_SQUARES = ((9, 0), (14, 7), (49, 56), (54, 63))  # (X square, its corner)


def _edge_score(mine: int, theirs: int) -> int:
    """Value of one 8-square edge for `mine`: corners, C squares, stable runs, plain discs."""

    def side(me: int, them: int) -> int:
        occupied = me | them
        stable = 0
        if occupied == 0xFF:  # a full edge can no longer change along the edge
            stable = me
        else:
            for start, step in ((0, 1), (7, -1)):
                i = start
                while 0 <= i < 8 and (me >> i) & 1:
                    stable |= 1 << i
                    i += step
        value = W_STABLE * stable.bit_count()
        value += W_EDGE * (me & ~stable & 0x7E).bit_count()
        value += (W_CORNER // 2) * (me & 0x81).bit_count()
        for c_sq, corner in ((1, 0), (6, 7)):
            if (me >> c_sq) & 1 and not (occupied >> corner) & 1:
                value += W_C_SQUARE
        return value

    return side(mine, theirs) - side(theirs, mine)


def _build_edge_table() -> list[int]:
    table = [0] * 65536
    for code in range(6561):  # every edge as 8 base-3 digits
        me = them = 0
        c = code
        for i in range(8):
            c, d = divmod(c, 3)
            if d == 1:
                me |= 1 << i
            elif d == 2:
                them |= 1 << i
        table[(me << 8) | them] = _edge_score(me, them)
    return table


EDGE_TABLE = _build_edge_table()

_COL_A = 0x0101010101010101
_GATHER = 0x0102040810204080  # multiplier that packs column-a bits into the top byte


def _column(board: int, col: int) -> int:
    return ((((board >> col) & _COL_A) * _GATHER) & FULL) >> 56


def edges(p: int, o: int) -> int:
    """Sum of the edge table over the four edges."""
    t = EDGE_TABLE
    return (
        t[((p & 0xFF) << 8) | (o & 0xFF)]
        + t[((p >> 56) << 8) | (o >> 56)]
        + t[(_column(p, 0) << 8) | _column(o, 0)]
        + t[(_column(p, 7) << 8) | _column(o, 7)]
    )


def _around(b: int) -> int:
    return (
        ((b << 1) & NOT_A)
        | ((b >> 1) & NOT_H)
        | ((b << 8) & FULL)
        | (b >> 8)
        | ((b << 9) & NOT_A & FULL)
        | ((b << 7) & NOT_H & FULL)
        | ((b >> 7) & NOT_A)
        | ((b >> 9) & NOT_H)
    )


WIN = 10000  # added to a finished game's disc difference so that wins beat any heuristic


def terminal_score(p: int, o: int) -> int:
    """Value of a finished game: the disc difference (x100) pushed beyond every heuristic."""
    diff = p.bit_count() - o.bit_count()
    return diff * 100 + (WIN if diff > 0 else -WIN if diff < 0 else 0)


def evaluate(p: int, o: int) -> int:
    """Heuristic value of the position for the side to move (discs p) against o."""
    empty = ~(p | o) & FULL
    my_moves = legal_moves(p, o).bit_count()
    their_moves = legal_moves(o, p).bit_count()
    if not my_moves and not their_moves:
        return terminal_score(p, o)
    mob = my_moves - their_moves
    # Potential mobility: empties next to their discs are my future moves, and vice versa.
    pot = (_around(o) & empty).bit_count() - (_around(p) & empty).bit_count()
    score = W_MOBILITY * mob + W_POTENTIAL * pot + edges(p, o)
    for x, corner in X_SQUARES:
        if (empty >> corner) & 1:
            if (p >> x) & 1:
                score += W_X_SQUARE
            elif (o >> x) & 1:
                score -= W_X_SQUARE
    if empty.bit_count() & 1:
        score += W_PARITY
    return score


def evaluate_simple(p: int, o: int) -> int:
    """A weaker, purely positional evaluation (square weights) for the lower levels."""
    if not legal_moves(p, o) and not legal_moves(o, p):
        return terminal_score(p, o)
    score = 0
    for weight, mask in SQUARE_CLASSES:
        score += weight * ((p & mask).bit_count() - (o & mask).bit_count())
    return score


def _mask(names: str) -> int:
    m = 0
    for n in names.split():
        m |= 1 << ((int(n[1]) - 1) * 8 + "abcdefgh".index(n[0]))
    return m


SQUARE_CLASSES = (
    (100, _mask("a1 h1 a8 h8")),
    (-40, _mask("b2 g2 b7 g7")),
    (-20, _mask("b1 a2 g1 h2 a7 b8 h7 g8")),
    (10, _mask("c1 f1 a3 h3 a6 h6 c8 f8")),
    (5, _mask("d1 e1 a4 h4 a5 h5 d8 e8 c3 f3 c6 f6")),
)
