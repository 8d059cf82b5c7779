"""Iterative-deepening NegaScout and an exact endgame solver, run in bounded slices.

Every search is a generator: nodes high in the tree are generator frames that `yield` to the
caller whenever the node counter passes `yield_at`, so a 60 Hz frame loop can advance the
search a few hundred nodes per frame (`Thinker.think(budget)`) and never stall. Nodes near the
leaves (midgame depth <= 1, endgame empties <= PLAIN_EMPTIES) are ordinary recursive calls:
their subtrees are small and bounded, which keeps generator overhead off the hot path.

Everything is limited by node counts and depth, never by the clock, so a search is a pure
function of its inputs (determinism for replays and linked play).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from games.reversi.ai.evaluation import WIN, evaluate
from games.reversi.rules.bitboard import CORNERS, FULL, flips, legal_moves

INF = 1 << 30
EXACT, LOWER, UPPER = 0, 1, 2
PLAIN_EMPTIES = 5  # endgame nodes with this many empties or fewer are plain recursive calls
TT_MAX = 1 << 15  # entries; a full table takes no new positions (existing ones still update):
# bounded memory, no clear() or large resize stalling a slice, and deterministic

Evaluator = Callable[[int, int], int]
SearchGen = Generator[None, None, "SearchResult"]


class SearchAborted(Exception):
    """The node limit ran out inside an iteration."""


@dataclass
class SearchResult:
    """The outcome of a search, from the point of view of the side to move."""

    move: int | None  # square index, None when the side to move must pass
    score: int  # centidiscs (midgame, terminal +-WIN) or exact disc difference x 100
    depth: int  # deepest completed iteration (for exact results: the number of empties)
    exact: bool  # True when `score` is the exact final disc difference with perfect play
    nodes: int
    scores: dict[int, int] = field(default_factory=dict)  # per root move (all-moves mode)

    @property
    def discs(self) -> float:
        """The score in discs (what NBoard shows); wins lose their WIN offset."""
        s = self.score
        if s >= WIN:
            s -= WIN
        elif s <= -WIN:
            s += WIN
        return s / 100


def final_discs(p: int, o: int) -> int:
    """Exact result of a finished game for p: the disc difference (R-REV-RULE-6)."""
    return p.bit_count() - o.bit_count()


class Search:
    """One search from one position: midgame NegaScout or exact solve, sliced by nodes.

    all_moves=True scores every root move with a full window (slower; used for hints and for
    the lower levels' noisy choice) instead of proving only the best one.
    """

    def __init__(
        self,
        player: int,
        opponent: int,
        *,
        max_depth: int,
        node_limit: int,
        exact_empties: int = 0,
        exact_node_limit: int = 0,
        evaluator: Evaluator = evaluate,
        all_moves: bool = False,
        root_moves: int = -1,
    ) -> None:
        """`root_moves`: a mask of the root moves to search (a part of a split search for a
        pool of processes, issue 36; -1: all of them)."""
        self.p = player
        self.root_moves = root_moves
        #: (depth, score, move) of every finished midgame iteration
        self.iterations: list[tuple[int, int, int]] = []
        self.o = opponent
        self.max_depth = max(1, max_depth)
        self.node_limit = node_limit
        self.exact_empties = exact_empties
        self.exact_node_limit = exact_node_limit
        self.evaluate = evaluator
        self.all_moves = all_moves
        self.nodes = 0
        self.solving = False  # in the exact-solve phase (its nodes cost less work)
        self.exact_nodes = 0  # nodes the exact phase took (all of them while it runs)
        self.yield_at = INF  # set by the slice driver
        self.hard_limit = INF
        self.tt: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self.solve_tt: dict[tuple[int, int], tuple[int, int, int]] = {}

    @property
    def midgame_nodes(self) -> int:
        return self.nodes if self.solving else self.nodes - self.exact_nodes

    # ------------------------------------------------------------------------------------
    def run(self) -> SearchGen:
        """Generator: yields between slices, returns the SearchResult."""
        p, o = self.p, self.o
        moves = legal_moves(p, o)
        if not moves:
            return SearchResult(None, -self.evaluate(o, p), 0, False, 0)
        moves &= self.root_moves
        empties = 64 - (p | o).bit_count()
        if empties <= self.exact_empties:
            self.hard_limit = self.exact_node_limit or INF
            self.solving = True
            try:
                return (yield from self._solve_root(p, o, moves, empties))
            except SearchAborted:
                pass  # too big for the budget: fall back to the midgame search below
            finally:
                self.solving = False
                self.exact_nodes = self.nodes
        self.hard_limit = self.nodes + self.node_limit
        self.tt.clear()
        order = self.order_root(p, o, moves)
        best: SearchResult | None = None
        for depth in range(1, min(self.max_depth, empties) + 1):
            try:
                score, move, scores = yield from self._root(p, o, depth, order)
            except SearchAborted:
                break
            best = SearchResult(move, score, depth, False, self.nodes, scores)
            self.iterations.append((depth, score, move))
            order.remove(move)
            order.insert(0, move)
            if abs(score) >= WIN and not self.all_moves:
                break  # a proven win or loss: deeper search cannot change the choice
            # Another iteration costs several times this one: don't start what can't finish.
            if self.nodes - (self.hard_limit - self.node_limit) > self.node_limit // 3:
                break
        if best is None:  # not even depth 1 finished: take the ordering's favourite
            best = SearchResult(order[0], 0, 0, False, self.nodes)
        best.nodes = self.nodes
        return best

    # --- midgame ------------------------------------------------------------------------
    def order_root(self, p: int, o: int, moves: int) -> list[int]:
        """The root moves, most promising first (by the evaluator after each)."""
        keyed = []
        while moves:
            low = moves & -moves
            moves ^= low
            sq = low.bit_length() - 1
            f = flips(p, o, sq)
            keyed.append((self.evaluate(o ^ f, p | f | low), sq))
        keyed.sort()
        return [sq for _, sq in keyed]

    def _root(
        self, p: int, o: int, depth: int, order: list[int]
    ) -> Generator[None, None, tuple[int, int, dict[int, int]]]:
        alpha, beta = -INF, INF
        best, best_sq = -INF, order[0]
        scores: dict[int, int] = {}
        for i, sq in enumerate(order):
            f = flips(p, o, sq)
            cp, co = o ^ f, p | f | (1 << sq)
            if self.all_moves or i == 0:
                v = -(yield from self._child(cp, co, depth - 1, -INF, INF))
            else:
                v = -(yield from self._child(cp, co, depth - 1, -alpha - 1, -alpha))
                if v > alpha:
                    v = -(yield from self._child(cp, co, depth - 1, -beta, -v))
            scores[sq] = v
            if v > best:
                best, best_sq = v, sq
                alpha = max(alpha, v)
        return best, best_sq, scores

    def _child(
        self, p: int, o: int, depth: int, alpha: int, beta: int
    ) -> Generator[None, None, int]:
        if depth >= 2:
            return (yield from self._pvs(p, o, depth, alpha, beta))
        return self._plain(p, o, depth, beta)

    def _plain(self, p: int, o: int, depth: int, beta: int = INF) -> int:
        """Depth 0 or 1, without generator frames. At depth 1 the leaves are scored one by
        one and the node stops at the first that reaches `beta` (fail-soft: the value
        returned is then a lower bound, all a null-window parent needs); with beta = INF
        it is the exact maximum."""
        ev = self.evaluate
        if depth <= 0:
            self.nodes += 1
            return ev(p, o)
        moves = legal_moves(p, o)
        if not moves:
            if not legal_moves(o, p):
                self.nodes += 1
                return ev(p, o)  # finished game: the evaluator scores it exactly
            return -self._plain(o, p, depth)
        best = -INF
        self.nodes += 1
        while moves:
            low = moves & -moves
            moves ^= low
            f = flips(p, o, low.bit_length() - 1)
            self.nodes += 1
            v = -ev(o ^ f, p | f | low)
            if v > best:
                best = v
                if v >= beta:
                    break
        return best

    def _pvs(self, p: int, o: int, depth: int, alpha: int, beta: int) -> Generator[None, None, int]:
        self.nodes += 1
        if self.nodes >= self.yield_at:
            yield
        if self.nodes > self.hard_limit:
            raise SearchAborted
        moves = legal_moves(p, o)
        if not moves:
            if not legal_moves(o, p):
                return self.evaluate(p, o)
            return -(yield from self._pvs(o, p, depth, -beta, -alpha))
        key = (p, o)
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_flag, e_val, tt_move = entry
            if e_depth >= depth and (
                e_flag == EXACT
                or (e_flag == LOWER and e_val >= beta)
                or (e_flag == UPPER and e_val <= alpha)
            ):
                return e_val
        # Move ordering: hash move first, then by a static look at each child.
        ev = self.evaluate
        children = []
        while moves:
            low = moves & -moves
            moves ^= low
            sq = low.bit_length() - 1
            f = flips(p, o, sq)
            cp, co = o ^ f, p | f | low
            children.append((-INF if sq == tt_move else ev(cp, co), sq, cp, co))
        children.sort()
        alpha0 = alpha
        best, best_sq = -INF, -1
        deep = depth - 1 >= 2
        first = True
        for _, sq, cp, co in children:
            if first:
                first = False
                if deep:
                    v = -(yield from self._pvs(cp, co, depth - 1, -beta, -alpha))
                else:
                    v = -self._plain(cp, co, depth - 1, -alpha)
            elif deep:
                v = -(yield from self._pvs(cp, co, depth - 1, -alpha - 1, -alpha))
                if alpha < v < beta:
                    v = -(yield from self._pvs(cp, co, depth - 1, -beta, -v))
            else:
                # Exact whenever it beats alpha: the child stops early only at or below it.
                v = -self._plain(cp, co, depth - 1, -alpha)
            if self.nodes >= self.yield_at:
                yield
            if v > best:
                best, best_sq = v, sq
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = LOWER if best >= beta else EXACT if best > alpha0 else UPPER
        if len(self.tt) < TT_MAX or key in self.tt:
            self.tt[key] = (depth, flag, best, best_sq)
        return best

    # --- exact endgame ------------------------------------------------------------------
    def _solve_root(self, p: int, o: int, moves: int, empties: int) -> SearchGen:
        children = self._fastest_first(p, o, moves, -1)
        alpha, beta = -65, 65
        best, best_sq = -INF, children[0][1]
        scores: dict[int, int] = {}
        for i, (_, sq, cp, co) in enumerate(children):
            if self.all_moves or i == 0:
                v = -(yield from self._solve_child(cp, co, -65, 65, empties - 1))
            else:
                v = -(yield from self._solve_child(cp, co, -alpha - 1, -alpha, empties - 1))
                if v > alpha:
                    v = -(yield from self._solve_child(cp, co, -beta, -v, empties - 1))
            scores[sq] = v * 100
            if v > best:
                best, best_sq = v, sq
                alpha = max(alpha, v)
        return SearchResult(best_sq, best * 100, empties, True, self.nodes, scores)

    def _fastest_first(
        self, p: int, o: int, moves: int, tt_move: int
    ) -> list[tuple[int, int, int, int]]:
        """Children ordered by the opponent's mobility after the move (fewest first)."""
        children = []
        while moves:
            low = moves & -moves
            moves ^= low
            sq = low.bit_length() - 1
            f = flips(p, o, sq)
            cp, co = o ^ f, p | f | low
            if sq == tt_move:
                key = -100
            else:
                key = legal_moves(cp, co).bit_count() * 4 - (4 if low & CORNERS else 0)
            children.append((key, sq, cp, co))
        children.sort()
        return children

    def _solve_child(
        self, p: int, o: int, alpha: int, beta: int, empties: int
    ) -> Generator[None, None, int]:
        if empties > PLAIN_EMPTIES:
            return (yield from self._solve(p, o, alpha, beta, empties))
        return self._solve_plain(p, o, alpha, beta)

    def _solve(
        self, p: int, o: int, alpha: int, beta: int, empties: int
    ) -> Generator[None, None, int]:
        self.nodes += 1
        if self.nodes >= self.yield_at:
            yield
        if self.nodes > self.hard_limit:
            raise SearchAborted
        moves = legal_moves(p, o)
        if not moves:
            if not legal_moves(o, p):
                return final_discs(p, o)
            return -(yield from self._solve(o, p, -beta, -alpha, empties))
        key = (p, o)
        entry = self.solve_tt.get(key)
        tt_move = -1
        lower, upper = -64, 64
        if entry is not None:
            lower, upper, tt_move = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
            if alpha >= beta:
                return alpha
        alpha0, beta0 = alpha, beta
        best, best_sq = -INF, -1
        first = True
        deep = empties - 1 > PLAIN_EMPTIES
        for _, sq, cp, co in self._fastest_first(p, o, moves, tt_move):
            if first:
                first = False
                if deep:
                    v = -(yield from self._solve(cp, co, -beta, -alpha, empties - 1))
                else:
                    v = -self._solve_plain(cp, co, -beta, -alpha)
            elif deep:
                v = -(yield from self._solve(cp, co, -alpha - 1, -alpha, empties - 1))
                if alpha < v < beta:
                    v = -(yield from self._solve(cp, co, -beta, -v, empties - 1))
            else:
                v = -self._solve_plain(cp, co, -alpha - 1, -alpha)
                if alpha < v < beta:
                    v = -self._solve_plain(cp, co, -beta, -v)
            if self.nodes >= self.yield_at:
                yield
            if v > best:
                best, best_sq = v, sq
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= alpha0:
            upper = min(upper, best)
        elif best >= beta0:
            lower = max(lower, best)
        else:
            lower = upper = best
        if len(self.solve_tt) < TT_MAX or key in self.solve_tt:
            self.solve_tt[key] = (lower, upper, best_sq)
        return best

    def _solve_plain(self, p: int, o: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta for the last few empties.

        Moves in regions (quadrants) with an odd number of empties go first (parity), corners
        before other squares; the very last empty square is settled without move generation.
        """
        self.nodes += 1
        empty = ~(p | o) & FULL
        if empty & (empty - 1) == 0:
            return _last_empty(p, o, empty)
        moves = legal_moves(p, o)
        if not moves:
            if not legal_moves(o, p):
                return p.bit_count() - o.bit_count()
            return -self._solve_plain(o, p, -beta, -alpha)
        odd = 0
        for quadrant in QUADRANTS:
            if (empty & quadrant).bit_count() & 1:
                odd |= quadrant
        best = -INF
        for group in (moves & odd & CORNERS, moves & odd & ~CORNERS, moves & ~odd):
            while group:
                low = group & -group
                group ^= low
                f = flips(p, o, low.bit_length() - 1)
                v = -self._solve_plain(o ^ f, p | f | low, -beta, -alpha)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            return best
        return best


QUADRANTS = (0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32)


def _last_empty(p: int, o: int, empty: int) -> int:
    """Exact result when exactly one square is empty: p moves there, else o, else nobody."""
    sq = empty.bit_length() - 1
    f = flips(p, o, sq)
    if f:
        n = f.bit_count()
        return p.bit_count() - o.bit_count() + 2 * n + 1
    f = flips(o, p, sq)
    if f:
        n = f.bit_count()
        return p.bit_count() - o.bit_count() - 2 * n - 1
    return p.bit_count() - o.bit_count()


class Thinker:
    """Drives a Search in slices: call `think(budget)` once per frame until it returns."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self._gen = search.run()
        self.result: SearchResult | None = None

    def think(self, node_budget: int) -> SearchResult | None:
        """Advance by about `node_budget` nodes; the result once the search is done."""
        if self.result is not None:
            return self.result
        self.search.yield_at = self.search.nodes + max(1, node_budget)
        try:
            next(self._gen)
        except StopIteration as stop:
            self.result = stop.value
        return self.result

    def finish(self) -> SearchResult:
        """Run to the end in one go (tools and tests, never inside the frame loop)."""
        while True:
            result = self.think(1 << 40)
            if result is not None:
                return result
