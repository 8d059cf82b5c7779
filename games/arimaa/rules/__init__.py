"""Arimaa rules: pure Python, no I/O (R-ARI-BOARD/SETUP/TURN/END/NOTE/TIME/SCORE)."""

from .board import GOLD, SILVER
from .clock import Clock, TimeControl, TimeControlError
from .game import Action, Game, IllegalStep, Result, Step
from .notation import NotationError
from .position import Position, SetupError
from .score import score
from .steps import expand, turn_results

__all__ = [
    "GOLD",
    "SILVER",
    "Action",
    "Clock",
    "Game",
    "IllegalStep",
    "NotationError",
    "Position",
    "Result",
    "SetupError",
    "Step",
    "TimeControl",
    "TimeControlError",
    "expand",
    "score",
    "turn_results",
]
