"""An Arimaa position (12 bitboards and the side to move) and setup validation (R-ARI-SETUP)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .board import (
    GOAL_RANK,
    GOLD,
    HOME_RANKS,
    KIND_LETTERS,
    NEIGHBOURS,
    RABBIT,
    SETUP_COUNTS,
    SIDE_NAMES,
    TRAP_SQUARES,
    piece_letter,
    square_name,
)
from .steps import Boards, occupancy

EMPTY_BOARDS: Boards = (0,) * 12


class SetupError(ValueError):
    """A setup that breaks R-ARI-SETUP; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Position:
    """The board (12 bitboards, index `side * 6 + kind`) and whose turn it is."""

    boards: Boards
    side: int = GOLD

    def piece_at(self, sq: int) -> tuple[int, int] | None:
        """(side, kind) of the piece on `sq`, or None."""
        bit = 1 << sq
        for index, board in enumerate(self.boards):
            if board & bit:
                return divmod(index, 6)
        return None

    def occupied(self) -> int:
        gold, silver = occupancy(self.boards)
        return gold | silver

    def side_occupancy(self, side: int) -> int:
        return occupancy(self.boards)[side]

    def rabbits(self, side: int) -> int:
        return self.boards[6 * side + RABBIT]

    def goal_rabbits(self, side: int) -> int:
        """Rabbits of `side` standing on that side's goal rank."""
        return self.rabbits(side) & GOAL_RANK[side]

    def with_side(self, side: int) -> Position:
        return Position(self.boards, side)

    def pieces(self) -> list[tuple[int, int, int]]:
        """(square, side, kind) of every piece, by square."""
        out = []
        for index, board in enumerate(self.boards):
            side, kind = divmod(index, 6)
            b = board
            while b:
                low = b & -b
                b ^= low
                out.append((low.bit_length() - 1, side, kind))
        return sorted(out)

    def to_json(self) -> dict[str, Any]:
        return {"boards": [f"{b:016x}" for b in self.boards], "side": self.side}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        boards = tuple(int(text, 16) for text in data["boards"])
        if len(boards) != 12 or data["side"] not in (0, 1):
            raise ValueError("a position needs 12 bitboards and side 0 or 1")
        check_boards(boards)
        return cls(boards, data["side"])


def check_boards(boards: Boards) -> None:
    """Reject overlapping bitboards and unprotected pieces on traps (ValueError)."""
    seen = 0
    for index, board in enumerate(boards):
        if not 0 <= board < 1 << 64:
            raise ValueError(f"bitboard {index} is out of range")
        if board & seen:
            raise ValueError("two pieces on one square")
        seen |= board
    for side, own in enumerate(occupancy(boards)):
        for trap_sq in TRAP_SQUARES:
            if own >> trap_sq & 1 and not NEIGHBOURS[trap_sq] & own:
                raise ValueError(
                    f"unprotected {SIDE_NAMES[side]} piece on trap {square_name(trap_sq)}"
                )


def validate_setup(side: int, placement: dict[int, int]) -> None:
    """`placement` maps square -> kind; raise SetupError unless it is a complete legal setup."""
    counts = [0] * 6
    for sq, kind in placement.items():
        if not 0 <= sq < 64 or not HOME_RANKS[side] >> sq & 1:
            raise SetupError(
                f"{SIDE_NAMES[side]} sets up on ranks {'1-2' if side == GOLD else '7-8'}, "
                f"not {square_name(sq) if 0 <= sq < 64 else sq}"
            )
        if not 0 <= kind < 6:
            raise SetupError(f"unknown piece kind {kind}")
        counts[kind] += 1
    for kind, wanted in enumerate(SETUP_COUNTS):
        if counts[kind] != wanted:
            letter = piece_letter(side, kind)
            raise SetupError(f"{SIDE_NAMES[side]} needs {wanted} {letter}, got {counts[kind]}")


def place(boards: Boards, side: int, placement: dict[int, int]) -> Boards:
    """Boards with `side`'s setup added."""
    new = list(boards)
    for sq, kind in placement.items():
        new[6 * side + kind] |= 1 << sq
    return tuple(new)


def _setup_from_rows(side: int, back: str, front: str) -> dict[int, int]:
    """Setup from two 8-letter rows written from file a to h (back = rank 1 or 8)."""
    back_rank, front_rank = (0, 1) if side == GOLD else (7, 6)
    out = {}
    for file in range(8):
        out[back_rank * 8 + file] = KIND_LETTERS.index(back[file].upper())
        out[front_rank * 8 + file] = KIND_LETTERS.index(front[file].upper())
    return out


#: Named setups offered by the handheld, as (back row, front row) from file a to h.
NAMED_SETUPS: dict[str, tuple[str, str]] = {
    "default": ("RRRRRRRR", "HDCEMCDH"),
    "classic": ("RRRRRRRR", "HDCMECDH"),
    "99of9": ("RRRRRRRR", "DHCEMCHD"),
    "wing rabbits": ("DHRRRRHD", "RRCEMCRR"),
    "fort": ("RRHCCHRR", "RDRMERDR"),
}


def named_setup(side: int, name: str) -> dict[int, int]:
    """One of NAMED_SETUPS for `side` (ValueError for an unknown name)."""
    if name not in NAMED_SETUPS:
        raise ValueError(f"unknown setup {name!r}; known: {', '.join(NAMED_SETUPS)}")
    back, front = NAMED_SETUPS[name]
    placement = _setup_from_rows(side, back, front)
    validate_setup(side, placement)
    return placement


def random_setup(side: int, rng: random.Random) -> dict[int, int]:
    """A uniformly shuffled legal setup; `rng` is a seeded random.Random."""
    kinds = [kind for kind, count in enumerate(SETUP_COUNTS) for _ in range(count)]
    rng.shuffle(kinds)
    squares = [sq for sq in range(64) if HOME_RANKS[side] >> sq & 1]
    return dict(zip(squares, kinds, strict=True))
