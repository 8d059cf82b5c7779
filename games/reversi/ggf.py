"""GGF (Generic Game Format) for Othello games: what NBoard's `set game` sends, and export.

A game is `(;GM[Othello]PC[..]DT[..]PB[black]PW[white]RE[result]TY[8]BO[8 <64 squares> <to
move>]B[f5]W[d6]...;)`. In BO, squares run a1..h1, a2..h8 as '-' empty, '*' black, 'O'
white, then '*' or 'O' for the side to move. A move is B[sq] / W[sq], optionally followed by
"/eval/time"; a pass is "PA". Values escape ']' and '\\' with a backslash.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from games.reversi.rules import (
    BLACK,
    PASS,
    WHITE,
    Game,
    IllegalMoveError,
    NotationError,
    Position,
    parse_square,
    square_name,
)


class GgfError(ValueError):
    """Text that is not a readable GGF Othello game."""


@dataclass
class GgfGame:
    """A GGF game: the rules-level game plus the players and other tags."""

    game: Game
    black: str = ""
    white: str = ""
    result: str = "?"
    tags: dict[str, str] = field(default_factory=dict)  # every other tag, e.g. PC, DT, TI


_TAG = re.compile(r"([A-Z]{1,4})\[((?:\\.|[^\]\\])*)\]", re.DOTALL)
_BOARD_CHARS = {"-": None, "*": BLACK, "O": WHITE, "o": WHITE, "x": BLACK, "X": BLACK}


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value, flags=re.DOTALL)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def parse_board(value: str) -> Position:
    """A BO value ("8 <64 squares> <side to move>") as a Position."""
    parts = value.split()
    if len(parts) < 3 or parts[0] != "8":
        raise GgfError(f"BO must be '8 <64 squares> <side to move>', got {value!r}")
    squares = "".join(parts[1:-1])
    to_move = parts[-1]
    if len(squares) != 64 or any(c not in _BOARD_CHARS for c in squares):
        raise GgfError("BO needs 64 squares written as '-', '*' or 'O'")
    if to_move not in ("*", "O"):
        raise GgfError(f"BO side to move must be '*' or 'O', got {to_move!r}")
    black = white = 0
    for i, c in enumerate(squares):
        if _BOARD_CHARS[c] == BLACK:
            black |= 1 << i
        elif _BOARD_CHARS[c] == WHITE:
            white |= 1 << i
    return Position(black, white, BLACK if to_move == "*" else WHITE)


def format_board(position: Position) -> str:
    """Inverse of parse_board."""
    cells = []
    for i in range(64):
        bit = 1 << i
        cells.append("*" if position.black & bit else "O" if position.white & bit else "-")
    return f"8 {''.join(cells)} {'*' if position.turn == BLACK else 'O'}"


def parse_ggf(text: str) -> GgfGame:
    """Read one GGF Othello game; anything malformed or illegal raises GgfError."""
    s = text.strip()
    if not (s.startswith("(;") and s.endswith(";)")):
        raise GgfError("a GGF game starts with '(;' and ends with ';)'")
    body = s[2:-2]
    pos = 0
    tags: dict[str, str] = {}
    plies: list[tuple[str, str]] = []
    for m in _TAG.finditer(body):
        gap = body[pos : m.start()]
        if gap.strip():
            raise GgfError(f"unexpected text in GGF: {gap.strip()[:20]!r}")
        pos = m.end()
        name, value = m.group(1), _unescape(m.group(2))
        if name in ("B", "W"):
            plies.append((BLACK if name == "B" else WHITE, value))
        else:
            tags[name] = value
    if body[pos:].strip():
        raise GgfError(f"unexpected text in GGF: {body[pos:].strip()[:20]!r}")
    if tags.get("GM", "Othello").lower() != "othello":
        raise GgfError(f"not an Othello game: GM[{tags['GM']}]")
    board_type = tags.get("TY", "8").strip()
    if board_type != "8":
        raise GgfError(f"only 8x8 standard games are supported, not TY[{board_type}]")
    start = parse_board(tags["BO"]) if "BO" in tags else Position.start()
    position = start
    moves: list[str] = []
    for color, value in plies:
        move = value.split("/")[0].strip()
        if position.is_over():
            raise GgfError("moves after the end of the game")
        if move.upper() in ("PA", "PASS"):
            if color != position.turn or position.has_move():
                raise GgfError(f"{color} may not pass here")
            position = position.pass_turn()
            continue
        if color != position.turn:
            if not position.has_move():  # a pass that the file left implicit
                position = position.pass_turn()
            else:
                raise GgfError(f"{color} moved out of turn ({move})")
        try:
            position = position.play(move)
            moves.append(square_name(parse_square(move)))
        except (IllegalMoveError, NotationError) as exc:
            raise GgfError(str(exc)) from None
    game = Game(start, moves)
    players = {k: tags.pop(k) for k in ("PB", "PW") if k in tags}
    result = tags.pop("RE", "?")
    for k in ("GM", "TY", "BO"):
        tags.pop(k, None)
    return GgfGame(game, players.get("PB", ""), players.get("PW", ""), result, tags)


def format_ggf(ggf: GgfGame) -> str:
    """The game as one GGF line (passes written as PA)."""
    out = ["(;GM[Othello]"]
    for k, v in ggf.tags.items():
        out.append(f"{k}[{_escape(v)}]")
    out.append(f"PB[{_escape(ggf.black)}]PW[{_escape(ggf.white)}]RE[{_escape(ggf.result)}]")
    out.append(f"TY[8]BO[{format_board(ggf.game.start)}]")
    position = ggf.game.start
    for ply in ggf.game.plies:
        tag = "B" if position.turn == BLACK else "W"
        if ply == PASS:
            out.append(f"{tag}[PA]")
            position = position.pass_turn()
        else:
            out.append(f"{tag}[{ply.upper()}]")
            position = position.play(ply)
    out.append(";)")
    return "".join(out)


def result_text(game: Game) -> str:
    """GGF result: black's disc margin, e.g. "+12.000" or "-4.000"; "?" while unfinished."""
    if not game.over:
        return "?"
    s = game.score()
    return f"{s[BLACK] - s[WHITE]:+.3f}"
