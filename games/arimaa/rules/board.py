"""Bitboard geometry and piece encoding for Arimaa (R-ARI-BOARD).

Squares are numbered 0..63 with a1 = 0, h1 = 7, a8 = 56 (rank * 8 + file), the layout the
`aei` package's reference board also uses, so positions cross-check bit for bit. A position
is 12 bitboards indexed `side * 6 + kind`.
"""

from __future__ import annotations

from collections.abc import Iterator

GOLD = 0
SILVER = 1
SIDE_NAMES = ("gold", "silver")
SIDE_LETTERS = "gs"

RABBIT, CAT, DOG, HORSE, CAMEL, ELEPHANT = range(6)
KIND_LETTERS = "RCDHME"
KIND_NAMES = ("rabbit", "cat", "dog", "horse", "camel", "elephant")
#: Pieces of each kind a side sets up.
SETUP_COUNTS = (8, 2, 2, 2, 1, 1)

FULL = (1 << 64) - 1
FILES = "abcdefgh"
TRAP_SQUARES = (18, 21, 42, 45)  # c3 f3 c6 f6
TRAPS = sum(1 << sq for sq in TRAP_SQUARES)
RANK_1 = 0xFF
RANK_8 = 0xFF << 56
RANK_2 = 0xFF << 8
RANK_7 = 0xFF << 48
#: Goal rank of each side and the ranks each side sets up on.
GOAL_RANK = (RANK_8, RANK_1)
HOME_RANKS = (RANK_1 | RANK_2, RANK_7 | RANK_8)

NORTH, SOUTH, EAST, WEST = 8, -8, 1, -1
DIRECTION_LETTERS = {NORTH: "n", SOUTH: "s", EAST: "e", WEST: "w"}
LETTER_DIRECTIONS = {v: k for k, v in DIRECTION_LETTERS.items()}


def _neighbours(sq: int) -> int:
    rank, file = divmod(sq, 8)
    mask = 0
    if file > 0:
        mask |= 1 << (sq - 1)
    if file < 7:
        mask |= 1 << (sq + 1)
    if rank > 0:
        mask |= 1 << (sq - 8)
    if rank < 7:
        mask |= 1 << (sq + 8)
    return mask


#: NEIGHBOURS[sq]: bitboard of the orthogonal neighbours of a square.
NEIGHBOURS: tuple[int, ...] = tuple(_neighbours(sq) for sq in range(64))
#: RABBIT_NEIGHBOURS[side][sq]: neighbours a rabbit may step to by itself (never backwards).
RABBIT_NEIGHBOURS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(NEIGHBOURS[sq] & ~((1 << (sq - 8)) if sq >= 8 else 0) for sq in range(64)),
    tuple(NEIGHBOURS[sq] & ~((1 << (sq + 8)) if sq < 56 else 0) for sq in range(64)),
)
#: TRAP_NEAR[sq]: the trap square adjacent to (or equal to) sq, or -1.
TRAP_NEAR: tuple[int, ...] = tuple(
    next((t for t in TRAP_SQUARES if t == sq or NEIGHBOURS[sq] >> t & 1), -1) for sq in range(64)
)


def square_name(sq: int) -> str:
    """`0` -> `a1`."""
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_square(text: str) -> int:
    """`a1` -> 0; ValueError for anything that is not a square."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(f"{text!r} is not a square (a1..h8)")
    return FILES.index(text[0]) + 8 * (int(text[1]) - 1)


def bits(mask: int) -> Iterator[int]:
    """Yield the square numbers set in a bitboard, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def piece_letter(side: int, kind: int) -> str:
    """Gold upper case, silver lower case."""
    letter = KIND_LETTERS[kind]
    return letter if side == GOLD else letter.lower()


def parse_piece_letter(letter: str) -> tuple[int, int]:
    """`E` -> (GOLD, ELEPHANT), `r` -> (SILVER, RABBIT); ValueError otherwise."""
    if len(letter) != 1 or letter.upper() not in KIND_LETTERS:
        raise ValueError(f"{letter!r} is not a piece letter (one of RCDHME or rcdhme)")
    return (GOLD if letter.isupper() else SILVER), KIND_LETTERS.index(letter.upper())
