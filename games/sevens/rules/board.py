"""Table geometry as bitmasks: adjacency, enclosed groups and which of them are killed.

Sets of table positions are Python ints.  Each row takes 14 bits (13 columns and one
always-empty guard bit), so shifting by 1 moves left/right and by 14 moves up/down without
wrapping into the next row; masking with ``GRID`` drops anything that fell off the table.
Everything here is a pure function of masks, fast enough for the computer players' look-ahead.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from games.sevens.rules.cards import COLS, DECK_SIZE, ROWS, SEVENS

STRIDE = COLS + 1
_ROW_MASK = (1 << COLS) - 1
GRID = sum(_ROW_MASK << (r * STRIDE) for r in range(ROWS))

BIT: tuple[int, ...] = tuple(1 << ((c // COLS) * STRIDE + c % COLS) for c in range(DECK_SIZE))
_CARD_OF_INDEX = {((c // COLS) * STRIDE + c % COLS): c for c in range(DECK_SIZE)}
SEVENS_MASK = sum(BIT[c] for c in SEVENS)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def cards_of(mask: int) -> list[int]:
    """Cards in the mask, in ascending card order (suit order, then rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_CARD_OF_INDEX[low.bit_length() - 1])
        mask ^= low
    return out


def iter_bits(mask: int) -> Iterator[int]:
    """Single-bit masks of the mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def card_of_bit(b: int) -> int:
    return _CARD_OF_INDEX[b.bit_length() - 1]


def orthogonal(mask: int) -> int:
    """Positions orthogonally next to any position of mask (not including mask itself)."""
    return ((mask << 1) | (mask >> 1) | (mask << STRIDE) | (mask >> STRIDE)) & GRID & ~mask


def around(mask: int) -> int:
    """Positions next to mask orthogonally or diagonally (including mask itself)."""
    row = mask | (mask << 1) | (mask >> 1)
    return (row | (row << STRIDE) | (row >> STRIDE)) & GRID


ORTH: dict[int, int] = {b: orthogonal(b) for b in BIT}


def _rectangles() -> dict[int, int]:
    """Every rectangle of positions on the table -> number of its sides that are wall."""
    rects: dict[int, int] = {}
    for r0 in range(ROWS):
        for r1 in range(r0, ROWS):
            for c0 in range(COLS):
                for c1 in range(c0, COLS):
                    m = 0
                    for r in range(r0, r1 + 1):
                        for c in range(c0, c1 + 1):
                            m |= BIT[r * COLS + c]
                    walls = (r0 == 0) + (r1 == ROWS - 1) + (c0 == 0) + (c1 == COLS - 1)
                    rects[m] = walls
    return rects


RECTANGLE_WALLS: dict[int, int] = _rectangles()


def component(seed: int, free: int, limit: int) -> int:
    """The 4-connected group of free positions containing seed, or 0 if it has > limit cells."""
    comp = seed
    while True:
        grown = (comp | (comp << 1) | (comp >> 1) | (comp << STRIDE) | (comp >> STRIDE)) & free
        if grown == comp:
            return comp
        if grown.bit_count() > limit:
            return 0
        comp = grown


def group_is_killed(group: int, max_kill: int, three_walls: bool) -> bool:
    """Whether an enclosed group of unplayed positions is killed under the options.

    A single card is always killed.  Larger groups die only as a whole rectangle of at most
    max_kill cards; one walled on three sides only with the three-wall option (R-SEV-OPT).
    """
    size = group.bit_count()
    if size == 1:
        return True
    if size > max_kill:
        return False
    walls = RECTANGLE_WALLS.get(group)
    if walls is None:
        return False
    return walls < 3 or three_walls


def kills_after_play(placed: int, free: int, max_kill: int, three_walls: bool) -> list[int]:
    """Groups killed by playing the single position ``placed``.

    ``free`` is the set of unplayed, unkilled positions *after* the play.  Only groups next
    to the new card can have changed, so only those are examined.
    """
    groups: list[int] = []
    seen = 0
    for nb in iter_bits(ORTH[placed] & free):
        if nb & seen:
            continue
        group = component(nb, free, max_kill)
        if not group:
            continue
        seen |= group
        if group_is_killed(group, max_kill, three_walls):
            groups.append(group)
    return groups


def kill_mask_after_play(placed: int, free: int, max_kill: int, three_walls: bool) -> int:
    """Union of kills_after_play (the computer players want only the cells)."""
    killed = 0
    for group in kills_after_play(placed, free, max_kill, three_walls):
        killed |= group
    return killed


def playable_positions(played: int, sevens_free: bool) -> int:
    """Unplayed positions a card may be played to: next to a played card (8 directions),
    plus every 7 once the 7 of diamonds has opened play."""
    reach = around(played) & ~played
    if sevens_free:
        reach |= SEVENS_MASK & ~played
    return reach & GRID
