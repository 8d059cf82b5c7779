"""Standard Othello notation: columns a-h, rows 1-8 (a1 top left), e.g. "f5 d6 c3"."""

from __future__ import annotations

import re

COLUMNS = "abcdefgh"


class NotationError(ValueError):
    """Text that is not a square or move list in standard notation."""


def square_name(sq: int) -> str:
    """ "a1" .. "h8" for square index 0 .. 63."""
    if not 0 <= sq < 64:
        raise NotationError(f"square index out of range: {sq}")
    row, col = divmod(sq, 8)
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(text: str) -> int:
    """Square index of "a1" .. "h8" (either case, surrounding blanks allowed)."""
    s = text.strip().lower()
    if len(s) != 2 or s[0] not in COLUMNS or s[1] not in "12345678":
        raise NotationError(f"not a square (a1..h8): {text!r}")
    return (int(s[1]) - 1) * 8 + COLUMNS.index(s[0])


_MOVE_RE = re.compile(r"[a-h][1-8]", re.IGNORECASE)


def parse_move_list(text: str) -> list[str]:
    """Squares of a move list written "f5 d6 c3", "f5d6c3" or "F5-D6-C3", in order."""
    compact = re.sub(r"[\s,\-]+", "", text)
    if len(compact) % 2:
        raise NotationError(f"not a move list: {text!r}")
    out = []
    for i in range(0, len(compact), 2):
        pair = compact[i : i + 2]
        if not _MOVE_RE.fullmatch(pair):
            raise NotationError(f"not a square (a1..h8): {pair!r} in move list")
        out.append(pair.lower())
    return out
