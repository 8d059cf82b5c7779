"""The square field and its pattern of usable squares (R-PAN-FIELD 1).

The field is 8x8 squares: at 22 pixels a square it takes 176x176 of the 256x192 lower
screen and leaves an 80-pixel column on the right for the determine/back buttons, the stock
and the item field (R-PAN-VIEW). The usable-square pattern is one of `SHAPES`, chosen from
the game seed so both linked units build the same field. Squares are addressed (row, col)
from the top left; internally by index row*cols+col.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from games.panels.rules.cards import DELTA, DIRECTIONS, Card

ROWS = 8
COLS = 8


def _full(r: int, c: int) -> bool:
    return True


def _octagon(r: int, c: int) -> bool:
    # corners cut diagonally: 3 squares missing at each corner
    rr, cc = min(r, ROWS - 1 - r), min(c, COLS - 1 - c)
    return rr + cc >= 2


def _pillars(r: int, c: int) -> bool:
    return (r, c) not in {(2, 2), (2, 5), (5, 2), (5, 5)}


def _lake(r: int, c: int) -> bool:
    return not (3 <= r <= 4 and 3 <= c <= 4)


def _cross(r: int, c: int) -> bool:
    # 2x2 blocks missing in each corner
    return not ((r < 2 or r >= ROWS - 2) and (c < 2 or c >= COLS - 2))


SHAPES: dict[str, Callable[[int, int], bool]] = {
    "square": _full,
    "octagon": _octagon,
    "pillars": _pillars,
    "lake": _lake,
    "cross": _cross,
}
SHAPE_NAMES: tuple[str, ...] = tuple(SHAPES)


def shape_mask(shape: str, rows: int = ROWS, cols: int = COLS) -> tuple[bool, ...]:
    if shape not in SHAPES:
        raise ValueError(f"unknown field shape {shape!r} (known: {', '.join(SHAPE_NAMES)})")
    test = SHAPES[shape]
    return tuple(test(r, c) for r in range(rows) for c in range(cols))


@dataclass
class Field:
    """Squares with their usable flag and the card (or None) on each."""

    rows: int
    cols: int
    usable: tuple[bool, ...]
    cells: list[Card | None] = field(default_factory=list)
    neighbours: tuple[tuple[tuple[int, int], ...], ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        size = self.rows * self.cols
        if len(self.usable) != size:
            raise ValueError("usable mask does not match the field size")
        if not self.cells:
            self.cells = [None] * size
        if len(self.cells) != size:
            raise ValueError("cells do not match the field size")
        # neighbours[i] = ((direction, j), ...) for usable in-field squares j
        self.neighbours = tuple(
            tuple(
                (d, (r + DELTA[d][0]) * self.cols + c + DELTA[d][1])
                for d in DIRECTIONS
                if 0 <= r + DELTA[d][0] < self.rows
                and 0 <= c + DELTA[d][1] < self.cols
                and self.usable[(r + DELTA[d][0]) * self.cols + c + DELTA[d][1]]
            )
            for r in range(self.rows)
            for c in range(self.cols)
        )

    @classmethod
    def with_shape(cls, shape: str, rows: int = ROWS, cols: int = COLS) -> Field:
        return cls(rows, cols, shape_mask(shape, rows, cols))

    @classmethod
    def from_rows(cls, pattern: list[str]) -> Field:
        """A field from text rows: '.' usable, '#' unusable (used by tests and fixtures)."""
        rows, cols = len(pattern), len(pattern[0]) if pattern else 0
        if rows == 0 or any(len(p) != cols for p in pattern):
            raise ValueError("field rows must be non-empty and equally long")
        return cls(rows, cols, tuple(ch != "#" for p in pattern for ch in p))

    def index(self, square: tuple[int, int]) -> int:
        r, c = square
        return r * self.cols + c

    def square(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def contains(self, square: tuple[int, int]) -> bool:
        r, c = square
        return 0 <= r < self.rows and 0 <= c < self.cols

    def is_usable(self, square: tuple[int, int]) -> bool:
        return self.contains(square) and self.usable[self.index(square)]

    def get(self, square: tuple[int, int]) -> Card | None:
        return self.cells[self.index(square)]

    def put(self, square: tuple[int, int], card: Card | None) -> None:
        if not self.is_usable(square):
            raise ValueError(f"square {square} is not a usable square of the field")
        self.cells[self.index(square)] = card

    def empty_indices(self) -> Iterator[int]:
        for i, card in enumerate(self.cells):
            if card is None and self.usable[i]:
                yield i

    def is_full(self) -> bool:
        return next(self.empty_indices(), None) is None

    def copy(self) -> Field:
        clone = Field.__new__(Field)
        clone.rows, clone.cols, clone.usable = self.rows, self.cols, self.usable
        clone.cells = list(self.cells)
        clone.neighbours = self.neighbours
        return clone

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "usable": [
                "".join("." if self.usable[r * self.cols + c] else "#" for c in range(self.cols))
                for r in range(self.rows)
            ],
            "cards": [
                {"square": list(self.square(i)), **card.to_json()}
                for i, card in enumerate(self.cells)
                if card is not None
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> Field:
        if not isinstance(data, dict) or not isinstance(data.get("usable"), list):
            raise ValueError("field must be an object with usable rows and cards")
        if not all(isinstance(p, str) for p in data["usable"]):
            raise ValueError("field usable rows must be text")
        fld = cls.from_rows(data["usable"])
        cards = data.get("cards", [])
        if not isinstance(cards, list):
            raise ValueError("field cards must be a list")
        for entry in cards:
            if not isinstance(entry, dict):
                raise ValueError("each field card must be an object")
            square = _square_from_json(entry.get("square"))
            if not fld.is_usable(square):
                raise ValueError(f"card on square {square} which is not usable")
            if fld.get(square) is not None:
                raise ValueError(f"two cards on square {square}")
            fld.put(square, Card.from_json(entry))
        return fld


def _square_from_json(value: Any) -> tuple[int, int]:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise ValueError(f"a square must be [row, col]: {value!r}")


square_from_json = _square_from_json
