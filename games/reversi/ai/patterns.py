"""Pattern geometry of the learned evaluation: which squares each weight table looks at.

A *pattern type* is an ordered tuple of squares (the base instance, e.g. the a1 edge with its
two X squares). Its *instances* are the base's images under the eight board symmetries, one
per distinct square set, each keeping the image's square order; every instance of a type
reads the same weight table. A configuration's index is the base-3 number of its squares
(digit 0 empty, 1 the side to move's disc, 2 the other side's; square k of the order has
weight 3**k). Images of the base that cover the same squares in another order (the edge read
backwards) are the type's *self-symmetries*: training ties those indexes to one weight, so the
evaluation is exactly the same on all eight symmetric boards.

This module is pure geometry (no weights, no speed tricks): the straightforward index
computation here is what training uses and what the fast evaluator is tested against.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

Square = int
Symmetry = Callable[[int, int], tuple[int, int]]

SYMMETRIES: tuple[Symmetry, ...] = (
    lambda r, c: (r, c),
    lambda r, c: (r, 7 - c),
    lambda r, c: (7 - r, c),
    lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, r),
    lambda r, c: (7 - c, 7 - r),
    lambda r, c: (c, 7 - r),
    lambda r, c: (7 - c, r),
)


def _sq(name: str) -> Square:
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def _squares(names: str) -> tuple[Square, ...]:
    return tuple(_sq(n) for n in names.split())


# Name and base instance of each pattern type (square order = digit order).
PATTERN_BASES: tuple[tuple[str, tuple[Square, ...]], ...] = (
    ("edge_x", _squares("a1 b1 c1 d1 e1 f1 g1 h1 b2 g2")),
    ("corner_3x3", _squares("a1 b1 c1 a2 b2 c2 a3 b3 c3")),
    ("corner_2x5", _squares("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2")),
    ("line_2", _squares("a2 b2 c2 d2 e2 f2 g2 h2")),
    ("line_3", _squares("a3 b3 c3 d3 e3 f3 g3 h3")),
    ("line_4", _squares("a4 b4 c4 d4 e4 f4 g4 h4")),
    ("diag_8", _squares("a1 b2 c3 d4 e5 f6 g7 h8")),
    ("diag_7", _squares("a2 b3 c4 d5 e6 f7 g8")),
    ("diag_6", _squares("a3 b4 c5 d6 e7 f8")),
    ("diag_5", _squares("a4 b5 c6 d7 e8")),
    ("diag_4", _squares("a5 b6 c7 d8")),
)


def transform(sq: Square, symmetry: int) -> Square:
    r, c = SYMMETRIES[symmetry](sq >> 3, sq & 7)
    return r * 8 + c


def transform_board(board: int, symmetry: int) -> int:
    """The bitboard mapped square by square through one of the eight symmetries."""
    out = 0
    while board:
        low = board & -board
        board ^= low
        out |= 1 << transform(low.bit_length() - 1, symmetry)
    return out


@dataclass(frozen=True)
class PatternType:
    """One weight table's geometry: its instances and the index permutations that tie it."""

    name: str
    size: int  # number of squares
    instances: tuple[tuple[Square, ...], ...]
    self_maps: tuple[tuple[int, ...], ...]  # position permutations of the base onto itself

    @property
    def cells(self) -> int:
        return int(3**self.size)


def _pattern_type(name: str, base: tuple[Square, ...]) -> PatternType:
    instances: list[tuple[Square, ...]] = []
    seen: set[frozenset[Square]] = set()
    self_maps: list[tuple[int, ...]] = []
    for s in range(8):
        image = tuple(transform(sq, s) for sq in base)
        key = frozenset(image)
        if key == frozenset(base):
            perm = tuple(base.index(sq) for sq in image)
            if perm not in self_maps:
                self_maps.append(perm)
        if key not in seen:
            seen.add(key)
            instances.append(image)
    return PatternType(name, len(base), tuple(instances), tuple(self_maps))


PATTERN_TYPES: tuple[PatternType, ...] = tuple(_pattern_type(n, b) for n, b in PATTERN_BASES)


def instance_indices(p: int, o: int) -> list[list[int]]:
    """Per pattern type, the index of every instance for the side to move (discs p)."""
    out: list[list[int]] = []
    for pt in PATTERN_TYPES:
        row: list[int] = []
        for inst in pt.instances:
            idx = 0
            for k, sq in enumerate(inst):
                if (p >> sq) & 1:
                    idx += 3**k
                elif (o >> sq) & 1:
                    idx += 2 * 3**k
            row.append(idx)
        out.append(row)
    return out


def permute_index(idx: int, perm: tuple[int, ...]) -> int:
    """The index of the same configuration read in the order `perm` (position k <- perm[k])."""
    digits = [(idx // 3**k) % 3 for k in range(len(perm))]
    return sum(digits[perm[k]] * 3**k for k in range(len(perm)))


@cache
def canonical_map(type_number: int) -> tuple[int, ...]:
    """For every index of a type, the smallest index equal to it under its self-symmetries
    (training fits one weight per class; the shipped table repeats it for each member)."""
    pt = PATTERN_TYPES[type_number]
    return tuple(min(permute_index(idx, perm) for perm in pt.self_maps) for idx in range(pt.cells))


# Game phases: the evaluation has one set of weights per band of empty squares.
PHASES = 6
PHASE_WIDTH = 10


def phase_of(empties: int) -> int:
    """Phase 0 for the opening (51-60 empties) ... PHASES-1 for the last 10 empties."""
    return min(PHASES - 1, max(0, (60 - empties) // PHASE_WIDTH))
