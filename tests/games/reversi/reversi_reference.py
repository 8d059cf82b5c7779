"""An independent, deliberately simple array-based Reversi used as the tests' oracle.

Kept free of any import from games.reversi so that it cannot share a bug with the engine.
"""

from __future__ import annotations

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start_board() -> list[list[str]]:
    b = [["." for _ in range(8)] for _ in range(8)]
    b[3][3], b[3][4], b[4][3], b[4][4] = "W", "B", "B", "W"
    return b


def name(r: int, c: int) -> str:
    return "abcdefgh"[c] + str(r + 1)


def flips(board: list[list[str]], me: str, r: int, c: int) -> set[str]:
    if board[r][c] != ".":
        return set()
    them = "W" if me == "B" else "B"
    out: set[str] = set()
    for dr, dc in DIRS:
        run = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == them:
            run.append(name(rr, cc))
            rr, cc = rr + dr, cc + dc
        if run and 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == me:
            out.update(run)
    return out


def legal(board: list[list[str]], me: str) -> dict[str, set[str]]:
    out = {}
    for r in range(8):
        for c in range(8):
            f = flips(board, me, r, c)
            if f:
                out[name(r, c)] = f
    return out


def play(board: list[list[str]], me: str, square: str) -> list[list[str]]:
    c, r = "abcdefgh".index(square[0]), int(square[1]) - 1
    f = flips(board, me, r, c)
    assert f, "reference: illegal move"
    new = [row[:] for row in board]
    new[r][c] = me
    for s in f:
        new[int(s[1]) - 1]["abcdefgh".index(s[0])] = me
    return new


def rows(board: list[list[str]]) -> list[str]:
    return ["".join(row) for row in board]


def count(board: list[list[str]], who: str) -> int:
    return sum(row.count(who) for row in board)
