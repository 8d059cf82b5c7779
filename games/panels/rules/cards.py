"""Cards ("panels"): a number 1-5, up to four connectors and an owner (R-PAN-CARD).

Connectors are 4 bits, one per side: UP=1, RIGHT=2, DOWN=4, LEFT=8 (1 = the connector is
drawn). Written as text they read in the order up, right, down, left, so "1001" is up+left.
Rotating 90 degrees clockwise moves up->right->down->left->up (seed FIG. 15); the number
stays upright, only the connectors turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

UP = 1
RIGHT = 2
DOWN = 4
LEFT = 8
DIRECTIONS: tuple[int, ...] = (UP, RIGHT, DOWN, LEFT)  # the seed's evaluation order (S52)
DIRECTION_NAMES = {UP: "up", RIGHT: "right", DOWN: "down", LEFT: "left"}
OPPOSITE = {UP: DOWN, RIGHT: LEFT, DOWN: UP, LEFT: RIGHT}
DELTA = {UP: (-1, 0), RIGHT: (0, 1), DOWN: (1, 0), LEFT: (0, -1)}

RAINBOW = -1  # owner value of the rainbow card, which belongs to nobody
MIN_NUMBER = 1
MAX_NUMBER = 5


def rotate_bits(connectors: int, turns: int = 1) -> int:
    """Connector bits after `turns` clockwise quarter turns."""
    bits = connectors & 0xF
    for _ in range(turns % 4):
        bits = ((bits << 1) | (bits >> 3)) & 0xF
    return bits


def connectors_to_text(connectors: int) -> str:
    """The bits as "URDL" text, e.g. 0b1001 (up+left) -> "1001"."""
    return "".join("1" if connectors & d else "0" for d in DIRECTIONS)


def connectors_from_text(text: str) -> int:
    """Inverse of `connectors_to_text`; raises ValueError on anything but 4 of '0'/'1'."""
    if len(text) != 4 or any(ch not in "01" for ch in text):
        raise ValueError(f"connectors must be 4 characters of 0/1 (up,right,down,left): {text!r}")
    return sum(d for d, ch in zip(DIRECTIONS, text, strict=True) if ch == "1")


@dataclass(frozen=True, slots=True)
class Card:
    """One card. `owner` is a player index (0 = blue, 1 = red, ...) or RAINBOW."""

    number: int
    connectors: int
    owner: int

    def __post_init__(self) -> None:
        if not MIN_NUMBER <= self.number <= MAX_NUMBER:
            raise ValueError(f"card number must be {MIN_NUMBER}-{MAX_NUMBER}: {self.number}")
        if not 1 <= self.connectors <= 0xF:
            raise ValueError(f"a card needs 1 to 4 connectors: {self.connectors}")
        if self.owner < RAINBOW:
            raise ValueError(f"bad owner: {self.owner}")

    @property
    def rainbow(self) -> bool:
        return self.owner == RAINBOW

    def has(self, direction: int) -> bool:
        return bool(self.connectors & direction)

    def rotated(self, turns: int = 1) -> Card:
        """The same card turned clockwise `turns` quarter turns (number stays upright)."""
        return replace(self, connectors=rotate_bits(self.connectors, turns))

    def with_number(self, number: int) -> Card:
        return replace(self, number=number)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "connectors": connectors_to_text(self.connectors),
            "owner": "rainbow" if self.rainbow else self.owner,
        }

    @classmethod
    def from_json(cls, data: Any) -> Card:
        if not isinstance(data, dict):
            raise ValueError("a card must be an object with number, connectors, owner")
        number, conn, owner = data.get("number"), data.get("connectors"), data.get("owner")
        if not isinstance(number, int) or isinstance(number, bool):
            raise ValueError(f"card number must be an integer: {number!r}")
        if not isinstance(conn, str):
            raise ValueError(f"card connectors must be text like '1010': {conn!r}")
        if owner == "rainbow":
            owner_value = RAINBOW
        elif isinstance(owner, int) and not isinstance(owner, bool) and owner >= 0:
            owner_value = owner
        else:
            raise ValueError(f"card owner must be a player index or 'rainbow': {owner!r}")
        return cls(number, connectors_from_text(conn), owner_value)


def distinct_rotations(connectors: int) -> list[int]:
    """Rotation counts (0-3) giving distinct connector sets, e.g. a cross has only [0]."""
    seen: set[int] = set()
    out: list[int] = []
    for turns in range(4):
        bits = rotate_bits(connectors, turns)
        if bits not in seen:
            seen.add(bits)
            out.append(turns)
    return out
