"""Computer players by level, and move ranking for hints, all deterministic for a seed.

Levels (1 weakest):
1 beginner      greedy: takes the move that flips most discs, and one move in three is any
                legal move at random; plausible-looking, weak (gives corners away).
2 novice        2-ply search on square weights, with noise; exact only for the last 6 empties.
3 intermediate  4-ply NegaScout on the learned pattern evaluation, with noise (it misjudges
                close moves); exact from 10 empties.
4 strong        iterative-deepening NegaScout with transposition table and ordering on the
                learned evaluation, as deep as its work budget allows; exact solve from up
                to 14 empties. Plays its best.

Work budgets follow the unit's speed (`units_per_second`, from the device profile): the
strongest level's midgame search gets `MID_SECONDS` of work and its exact solve
`EXACT_SECONDS`, and the solve starts at the most empties whose worst case fits that budget
(`solve_empties`), so the answer comes within about a second (median) and five seconds at
worst on every profile. Work is counted in units of about a microsecond of the development
machine (`MID_NODE_UNITS`, `END_NODE_UNITS` per node), never in wall time, so a level, a
profile, a seed and a position always give the same move.

A move is computed by `ComputerMove.think(node_budget)` in slices (None until done), so the
frame loop decides how much work each frame does. Randomness comes from a Random seeded with
the seed and the position.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, replace
from functools import cache, partial

from games.reversi.ai.evaluation import WIN, evaluate_simple
from games.reversi.ai.evaluation import evaluate as handwritten_evaluate
from games.reversi.ai.learned import WeightsError, make_evaluator, shipped_weights
from games.reversi.ai.native import NativeThinker
from games.reversi.ai.native import engine as native_engine
from games.reversi.ai.search import Evaluator, Search, SearchResult, Thinker
from games.reversi.rules import bitboard as bb
from games.reversi.rules.notation import square_name
from games.reversi.rules.position import Position

FRAME_NODE_BUDGET = 80  # nodes per 60 Hz frame that keep a slice well under 8 ms

# Work units (about 1 us of the development machine each): what one node of each kind costs
# there with its evaluation and move ordering (bench/reversi_levels.py --calibrate measures).
# Midgame: 27 until issue 36's cheaper nodes (one-pass mobility, the doubling fill) cut a
# node's instructions by a quarter (callgrind: 304.6k -> 227.5k; docs/performance.md), so 20.
MID_NODE_UNITS = 20
END_NODE_UNITS = 6
# The same nodes searched by the compiled accelerator (games/reversi/ai/native_search.c), in
# tenths of a unit: a midgame node 0.73-0.90 us of the development machine's CPU under load
# (0.30-0.44 units by its ratio to a pure-Python node timed beside it), a solver node 0.092 us;
# `bench/node_cost.py reversi --native [--solve 12]`, docs/performance.md. A profile with
# `native` counts these, so its levels search twenty times the midgame nodes (and solve
# larger endgames) in the same waits; rounded up, so a Raspberry Pi keeps up with its waits.
NATIVE_MID_NODE_TENTHS = 10
NATIVE_END_NODE_TENTHS = 1
# The work rate the levels' reference budgets are stated for: a spare core of the
# development machine (the `desktop-worker` profile: 12 000 units a tick, 60 ticks a second).
REFERENCE_UNITS_PER_SECOND = 720_000
MID_SECONDS = 1.5  # the strongest level's midgame work; iterative deepening uses 1/3 to all
EXACT_SECONDS = 3.4  # its exact solve's; a solve that does not fit falls back to the midgame
# Most solver nodes an exact solve may take at each number of empties: about twice the
# largest of 14 solves from novice/intermediate games at 8-13 empties (1 378, 4 593, 6 527,
# 13 298, 29 556, 195 730 nodes), and at 14 the previous strongest level's 400 000 (the
# largest of 14 there: 350 880). `bench/reversi_levels.py solves` measures.
WORST_SOLVE_NODES = {
    6: 300,
    7: 1_000,
    8: 3_000,
    9: 9_000,
    10: 15_000,
    11: 30_000,
    12: 65_000,
    13: 200_000,
    14: 400_000,
}


def solve_empties(exact_nodes: int, most: int) -> int:
    """The most empties (at most `most`) whose worst solve fits `exact_nodes`."""
    fitting = [e for e, n in WORST_SOLVE_NODES.items() if n <= exact_nodes and e <= most]
    return max(fitting, default=0)


@cache
def learned_evaluator() -> Evaluator:
    """The learned pattern evaluation; the hand-written one if the weights are unusable."""
    try:
        return make_evaluator(shipped_weights())
    except WeightsError as exc:
        print(f"reversi: {exc}; using the hand-written evaluation", file=sys.stderr)
        return handwritten_evaluate


EVALUATORS = ("learned", "handwritten", "simple")


def evaluator_named(name: str) -> Evaluator:
    if name == "learned":
        return learned_evaluator()
    if name == "handwritten":
        return handwritten_evaluate
    if name == "simple":
        return evaluate_simple
    raise ValueError(f"unknown evaluator {name!r} (one of {', '.join(EVALUATORS)})")


@dataclass(frozen=True)
class Level:
    """How one computer level plays (budgets at REFERENCE_UNITS_PER_SECOND)."""

    number: int
    name: str
    greedy: bool = False
    random_rate: float = 0.0  # chance of a random legal move (greedy level)
    depth: int = 1
    node_limit: int = 0
    exact_empties: int = 0
    exact_node_limit: int = 0
    evaluator: str = "learned"
    noise: int = 0  # centidiscs of random noise added to each root move's score
    best: bool = False  # the strongest: its budget is the whole time allowance

    def at_speed(self, units_per_second: float | None, native: bool = False) -> Level:
        """This level with the work budgets of a unit doing `units_per_second`, its nodes
        counted at the compiled engine's cost if `native`."""
        if self.greedy:
            return self
        ups = REFERENCE_UNITS_PER_SECOND if units_per_second is None else units_per_second
        if native:
            mid = max(50, int(MID_SECONDS * ups * 10 / NATIVE_MID_NODE_TENTHS))
            exact = max(50, int(EXACT_SECONDS * ups * 10 / NATIVE_END_NODE_TENTHS))
        else:
            mid = max(50, int(MID_SECONDS * ups / MID_NODE_UNITS))
            exact = max(50, int(EXACT_SECONDS * ups / END_NODE_UNITS))
        node_limit = mid if self.best else min(self.node_limit, mid)
        exact_node_limit = exact if self.best else min(self.exact_node_limit, exact)
        return replace(
            self,
            node_limit=node_limit,
            exact_node_limit=exact_node_limit,
            exact_empties=solve_empties(exact_node_limit, self.exact_empties),
        )


LEVELS: dict[int, Level] = {
    1: Level(1, "beginner", greedy=True, random_rate=1 / 3),
    2: Level(
        2,
        "novice",
        depth=2,
        node_limit=5_000,
        exact_empties=6,
        exact_node_limit=20_000,
        evaluator="simple",
        noise=150,
    ),
    3: Level(
        3,
        "intermediate",
        depth=4,
        node_limit=12_000,
        exact_empties=10,
        exact_node_limit=60_000,
        noise=60,
    ),
    4: Level(4, "strong", depth=60, exact_empties=14, best=True),
}
STRONGEST = max(LEVELS)
LEVEL_NAMES = {lv.name: n for n, lv in LEVELS.items()}


def position_rng(seed: int, position: Position) -> random.Random:
    """The random source for one decision: a function of the seed and the position."""
    return random.Random(f"{seed}:{position.black:x}:{position.white:x}:{position.turn}")


class ComputerMove:
    """One decision of a computer player, computed in slices.

    `think(node_budget)` returns None while thinking and then the chosen square ("f5"), or
    "pass" when the side to move has no legal move. `result` holds the search details.
    """

    def __init__(
        self,
        position: Position,
        level: int | Level,
        seed: int = 0,
        units_per_second: float | None = None,
        root_moves: int = -1,
        native: bool = False,
    ) -> None:
        """`root_moves`: search only these root moves (a part of a split search, see
        `split_root`; -1: all). `native`: the budgets count compiled nodes (the device
        profile's `native`), and the compiled engine searches when its library is built (the
        whole decision in the first `think`: for worker processes, not the frame loop); the
        move is the same with or without the library."""
        if isinstance(level, int):
            if level not in LEVELS:
                raise ValueError(f"unknown level {level} (1..{STRONGEST})")
            level = LEVELS[level]
        self.native = native
        self.level = level.at_speed(units_per_second, native)
        self.position = position
        self.rng = position_rng(seed, position)
        self.move: str | None = None
        self.result: SearchResult | None = None
        self._thinker: Thinker | NativeThinker | None = None
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
            engine = native_engine() if native and lv.evaluator == "learned" else None
            if engine is not None and learned_evaluator() is not handwritten_evaluate:
                self._thinker = NativeThinker(
                    partial(
                        engine.search,
                        shipped_weights(),
                        p,
                        o,
                        max_depth=lv.depth,
                        node_limit=lv.node_limit,
                        exact_empties=lv.exact_empties,
                        exact_node_limit=lv.exact_node_limit,
                        all_moves=lv.noise > 0,
                        root_moves=root_moves,
                    )
                )
                return
            self._thinker = Thinker(
                Search(
                    p,
                    o,
                    max_depth=lv.depth,
                    node_limit=lv.node_limit,
                    exact_empties=lv.exact_empties,
                    exact_node_limit=lv.exact_node_limit,
                    evaluator=evaluator_named(lv.evaluator),
                    all_moves=lv.noise > 0,
                    root_moves=root_moves,
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
    def iterations(self) -> list[tuple[int, int, int]]:
        """(depth, score, move) of the search's finished midgame iterations."""
        return list(self._thinker.search.iterations) if self._thinker else []

    @property
    def nodes(self) -> int:
        """Nodes searched so far."""
        return self._thinker.search.nodes if self._thinker else 0

    @property
    def units(self) -> int:
        """Work done so far in units (exact-solve nodes are cheaper than midgame ones)."""
        if self._thinker is None:
            return 0
        search = self._thinker.search
        mid = search.midgame_nodes
        if self.native:
            tenths = mid * NATIVE_MID_NODE_TENTHS + (search.nodes - mid) * NATIVE_END_NODE_TENTHS
            return -(-tenths // 10)
        return mid * MID_NODE_UNITS + (search.nodes - mid) * END_NODE_UNITS

    def think_units(self, budget: int) -> str | None:
        """`think` with the budget in work units instead of nodes."""
        solving = self._thinker is not None and self._thinker.search.solving
        if self.native:
            tenths = NATIVE_END_NODE_TENTHS if solving else NATIVE_MID_NODE_TENTHS
            return self.think(max(1, -(-budget * 10 // tenths)))
        per_node = END_NODE_UNITS if solving else MID_NODE_UNITS
        return self.think(max(1, -(-budget // per_node)))


def split_root(
    position: Position,
    level: int,
    parts: int,
    units_per_second: float | None = None,
    native: bool = False,
) -> list[int] | None:
    """The root moves of `level`'s midgame search dealt to `parts` searches (issue 36):
    round the search's own root order, so each part gets good and poor moves alike. None
    where splitting has nothing to gain or would change the choice's rules: fewer moves than
    parts, a greedy or noisy level, an exact endgame solve."""
    lv = LEVELS[level].at_speed(units_per_second, native)
    p, o = position.player, position.opponent
    moves = bb.legal_moves(p, o)
    empties = 64 - (p | o).bit_count()
    if moves.bit_count() < parts or lv.greedy or lv.noise or empties <= lv.exact_empties:
        return None
    search = Search(p, o, max_depth=1, node_limit=1, evaluator=evaluator_named(lv.evaluator))
    order = search.order_root(p, o, moves)
    masks = [0] * parts
    for i, sq in enumerate(order):
        masks[i % parts] |= 1 << sq
    return masks


def join_parts(results: list[tuple[list[tuple[int, int, int]], int]]) -> int:
    """The move of a split search from each part's (iterations, final depth): the best score
    at the deepest iteration every part finished, ties to the earlier part. A part that
    proved a win decides; one that proved every move of it lost is left out (it stopped
    early, and its moves cannot be best unless all are)."""
    for iterations, _ in results:
        if iterations and iterations[-1][1] >= WIN:
            return iterations[-1][2]
    alive = [it for it, _ in results if it and it[-1][1] > -WIN] or [
        it for it, _ in results if it
    ]
    common = min(it[-1][0] for it in alive)
    best: tuple[int, int] | None = None
    for it in alive:
        for depth, score, move in it:
            if depth == common and (best is None or score > best[0]):
                best = (score, move)
    assert best is not None
    return best[1]


def choose_move(
    position: Position,
    level: int | Level = STRONGEST,
    seed: int = 0,
    units_per_second: float | None = None,
) -> str:
    """The level's move in one call ("pass" without a legal move)."""
    return ComputerMove(position, level, seed, units_per_second).finish()


@dataclass(frozen=True)
class RankedMove:
    """One candidate move with its value for the side to move, in discs."""

    square: str
    discs: float
    exact: bool


def ranking_search(
    position: Position,
    depth: int,
    node_limit: int = 400_000,
    exact_empties: int = 14,
    evaluator: Evaluator | None = None,
) -> Search:
    """A search that scores every legal move with a full window (hints, analysis)."""
    return Search(
        position.player,
        position.opponent,
        max_depth=depth,
        node_limit=node_limit,
        exact_empties=exact_empties,
        exact_node_limit=node_limit * 4,
        evaluator=evaluator or learned_evaluator(),
        all_moves=True,
    )


def ranked_moves(result: SearchResult) -> list[RankedMove]:
    """A ranking search's result as moves, best first."""
    if result.move is None:
        return []
    scores = result.scores or {result.move: result.score}
    out = [
        RankedMove(square_name(sq), SearchResult(sq, v, 0, False, 0).discs, result.exact)
        for sq, v in scores.items()
    ]
    out.sort(key=lambda m: (-m.discs, m.square))
    return out


def rank_moves(
    position: Position,
    depth: int,
    node_limit: int = 400_000,
    exact_empties: int = 14,
    evaluator: Evaluator | None = None,
) -> list[RankedMove]:
    """Every legal move scored by a full-window search, best first (for hints/analysis)."""
    if not bb.legal_moves(position.player, position.opponent):
        return []
    search = ranking_search(position, depth, node_limit, exact_empties, evaluator)
    return ranked_moves(Thinker(search).finish())
