"""Computer players by level, and move ranking for hints, all deterministic for a seed.

Levels (1 weakest):
1 beginner      greedy: takes the move that flips most discs, and one move in three is any
                legal move at random; plausible-looking, weak (gives corners away).
2 novice        2-ply search on square weights, with noise; exact only for the last 6 empties.
3 intermediate  4-ply NegaScout on the full evaluation, slight noise; exact from 10 empties.
4 strong        iterative-deepening NegaScout with transposition table and ordering, full
                evaluation, 32 000-node budget per move; exact solve from 14 empties.

A move is computed by `ComputerMove.think(node_budget)` in slices (None until done), so the
frame loop decides how much work each frame does. Randomness comes from a Random seeded with
the seed and the position, so a level, seed and position always give the same move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.reversi.ai.evaluation import evaluate, evaluate_simple
from games.reversi.ai.search import Search, SearchResult, Thinker
from games.reversi.rules import bitboard as bb
from games.reversi.rules.notation import square_name
from games.reversi.rules.position import Position

FRAME_NODE_BUDGET = 80  # nodes per 60 Hz frame that keep a slice well under 8 ms


@dataclass(frozen=True)
class Level:
    """How one computer level plays."""

    number: int
    name: str
    greedy: bool = False
    random_rate: float = 0.0  # chance of a random legal move (greedy level)
    depth: int = 1
    node_limit: int = 0
    exact_empties: int = 0
    exact_node_limit: int = 0
    simple_eval: bool = False
    noise: int = 0  # centidiscs of random noise added to each root move's score


LEVELS: dict[int, Level] = {
    1: Level(1, "beginner", greedy=True, random_rate=1 / 3),
    2: Level(
        2,
        "novice",
        depth=2,
        node_limit=5_000,
        exact_empties=6,
        exact_node_limit=20_000,
        simple_eval=True,
        noise=150,
    ),
    3: Level(
        3,
        "intermediate",
        depth=4,
        node_limit=12_000,
        exact_empties=10,
        exact_node_limit=60_000,
        noise=40,
    ),
    4: Level(4, "strong", depth=30, node_limit=32_000, exact_empties=14, exact_node_limit=400_000),
}
STRONGEST = max(LEVELS)


def position_rng(seed: int, position: Position) -> random.Random:
    """The random source for one decision: a function of the seed and the position."""
    return random.Random(f"{seed}:{position.black:x}:{position.white:x}:{position.turn}")


class ComputerMove:
    """One decision of a computer player, computed in slices.

    `think(node_budget)` returns None while thinking and then the chosen square ("f5"), or
    "pass" when the side to move has no legal move. `result` holds the search details.
    """

    def __init__(self, position: Position, level: int, seed: int = 0) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level} (1..{STRONGEST})")
        self.level = LEVELS[level]
        self.position = position
        self.rng = position_rng(seed, position)
        self.move: str | None = None
        self.result: SearchResult | None = None
        self._thinker: Thinker | None = None
        p, o = position.player, position.opponent
        moves = bb.legal_moves(p, o)
        if not moves:
            self.move = "pass"
        elif moves & (moves - 1) == 0:
            self.move = square_name(moves.bit_length() - 1)  # forced: nothing to think about
        elif self.level.greedy:
            self.move = self._greedy(p, o, moves)
        else:
            lv = self.level
            self._thinker = Thinker(
                Search(
                    p,
                    o,
                    max_depth=lv.depth,
                    node_limit=lv.node_limit,
                    exact_empties=lv.exact_empties,
                    exact_node_limit=lv.exact_node_limit,
                    evaluator=evaluate_simple if lv.simple_eval else evaluate,
                    all_moves=lv.noise > 0,
                )
            )

    def _greedy(self, p: int, o: int, moves: int) -> str:
        squares = bb.squares(moves)
        if self.rng.random() < self.level.random_rate:
            return square_name(self.rng.choice(squares))
        most = max(bb.flips(p, o, sq).bit_count() for sq in squares)
        best = [sq for sq in squares if bb.flips(p, o, sq).bit_count() == most]
        return square_name(self.rng.choice(best))

    def think(self, node_budget: int = FRAME_NODE_BUDGET) -> str | None:
        """Advance the search by about `node_budget` nodes; the move once decided."""
        if self.move is not None:
            return self.move
        assert self._thinker is not None
        result = self._thinker.think(node_budget)
        if result is None:
            return None
        self.result = result
        chosen = result.move
        if self.level.noise and result.scores:
            noisy = {
                sq: v + self.rng.randint(-self.level.noise, self.level.noise)
                for sq, v in sorted(result.scores.items())
            }
            chosen = max(noisy, key=lambda sq: (noisy[sq], -sq))
        assert chosen is not None
        self.move = square_name(chosen)
        return self.move

    def finish(self) -> str:
        """Think to the end in one call (tools, tests; not for the frame loop)."""
        while True:
            move = self.think(1 << 40)
            if move is not None:
                return move

    @property
    def nodes(self) -> int:
        """Nodes searched so far."""
        return self._thinker.search.nodes if self._thinker else 0


def choose_move(position: Position, level: int = STRONGEST, seed: int = 0) -> str:
    """The level's move in one call ("pass" without a legal move)."""
    return ComputerMove(position, level, seed).finish()


@dataclass(frozen=True)
class RankedMove:
    """One candidate move with its value for the side to move, in discs."""

    square: str
    discs: float
    exact: bool


def rank_moves(
    position: Position, depth: int, node_limit: int = 400_000, exact_empties: int = 14
) -> list[RankedMove]:
    """Every legal move scored by a full-window search, best first (for hints/analysis)."""
    p, o = position.player, position.opponent
    if not bb.legal_moves(p, o):
        return []
    search = Search(
        p,
        o,
        max_depth=depth,
        node_limit=node_limit,
        exact_empties=exact_empties,
        exact_node_limit=node_limit * 4,
        all_moves=True,
    )
    result = Thinker(search).finish()
    scores = result.scores or {result.move: result.score}
    out = [
        RankedMove(square_name(sq), SearchResult(sq, v, 0, False, 0).discs, result.exact)
        for sq, v in scores.items()
    ]
    out.sort(key=lambda m: (-m.discs, m.square))
    return out
