"""Reversi computer players: learned pattern evaluation, sliced NegaScout search, exact
endgame solver, levels with work budgets that follow the unit's speed."""

from games.reversi.ai.players import (
    FRAME_NODE_BUDGET,
    LEVEL_NAMES,
    LEVELS,
    STRONGEST,
    ComputerMove,
    Level,
    RankedMove,
    choose_move,
    learned_evaluator,
    rank_moves,
)
from games.reversi.ai.search import Search, SearchResult, Thinker

__all__ = [
    "FRAME_NODE_BUDGET",
    "LEVELS",
    "LEVEL_NAMES",
    "STRONGEST",
    "ComputerMove",
    "Level",
    "RankedMove",
    "Search",
    "SearchResult",
    "Thinker",
    "choose_move",
    "learned_evaluator",
    "rank_moves",
]
