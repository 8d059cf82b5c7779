"""Reversi computer players: evaluation, sliced NegaScout search, exact endgame solver."""

from games.reversi.ai.players import (
    FRAME_NODE_BUDGET,
    LEVELS,
    STRONGEST,
    ComputerMove,
    Level,
    RankedMove,
    choose_move,
    rank_moves,
)
from games.reversi.ai.search import Search, SearchResult, Thinker

__all__ = [
    "FRAME_NODE_BUDGET",
    "LEVELS",
    "STRONGEST",
    "ComputerMove",
    "Level",
    "RankedMove",
    "Search",
    "SearchResult",
    "Thinker",
    "choose_move",
    "rank_moves",
]
