"""Reversi rules: pure, no I/O. Bitboards underneath, names and a game object on top."""

from games.reversi.rules.game import PASS, Game, GameDataError, MoveOutcome
from games.reversi.rules.notation import (
    NotationError,
    parse_move_list,
    parse_square,
    square_name,
)
from games.reversi.rules.position import (
    BLACK,
    COLORS,
    WHITE,
    IllegalMoveError,
    Position,
    other,
)

__all__ = [
    "BLACK",
    "COLORS",
    "PASS",
    "WHITE",
    "Game",
    "GameDataError",
    "IllegalMoveError",
    "MoveOutcome",
    "NotationError",
    "Position",
    "other",
    "parse_move_list",
    "parse_square",
    "square_name",
]
