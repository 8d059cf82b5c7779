"""Step-based alpha-beta search with iterative deepening, a Zobrist transposition table and
move ordering, runnable in slices so a frame loop never stalls.

Depth is counted in steps; ending a turn early costs the steps left, so depth 4 is one whole
turn. Iterations deeper than 4 see the opponent's first steps; shallower ones end the root
turn where the depth runs out (finishing a pending push first), so every iteration yields a
complete legal turn and orders the next one. The
root side's own turn is searched without transposition cut-offs (a visited set drops repeated
in-turn states instead) so the principal variation is always a whole turn. At every later
turn start the side to move is first checked for a goal in that turn (exact search); at
every leaf the side to move is credited with the captures and goal threats the static
tactics see (issue 36). `Limits.full_turn` makes the whole own turn a floor no node limit
cuts, and `part` lets several processes share one turn (ai/split.py).

Usage::

    s = Searcher(boards, side, limits=Limits(depth=8, nodes=50_000))
    while not s.done:
        s.think(2_000)        # one frame's worth; returns early once finished
    s.best_steps              # [(from, to), ...]

Node and depth limits make a search replay identically; `should_stop` (checked between
slices) gives the time-limited mode and AEI `stop`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from dataclasses import dataclass

from ..rules.board import GOAL_RANK
from ..rules.steps import Boards, Child, expand
from .evaluate import GOAL_THREATENED, WIN, best_capture, evaluate, tactics
from .goal import find_goal, find_goal_sliced
from .tactics import NONE, WITHIN, capture_threats, goal_steps

_rng = random.Random(20070128)
ZOBRIST = tuple(tuple(_rng.getrandbits(64) for _ in range(64)) for _ in range(12))
Z_SIDE = (0, _rng.getrandbits(64))
Z_STEPS = tuple(_rng.getrandbits(64) for _ in range(5))
Z_PUSH = tuple(_rng.getrandbits(64) for _ in range(65))
Z_PULL = tuple(_rng.getrandbits(64) for _ in range(65 * 6))
INF = 10 * WIN
EXACT, LOWER, UPPER = 0, 1, 2
TT_LIMIT = 300_000
#: States one goal check inside the tree may visit (the root check is exact and unbounded).
GOAL_BUDGET = 60
#: Goal-check states that cost about as much as one search node (slicing only).
GOAL_STATES_PER_UNIT = 4


def zobrist(boards: Boards) -> int:
    """Hash of the pieces alone."""
    h = 0
    for index, board in enumerate(boards):
        keys = ZOBRIST[index]
        while board:
            low = board & -board
            board ^= low
            h ^= keys[low.bit_length() - 1]
    return h


def _result(boards: Boards, side: int, steps: list[tuple[int, int]]) -> Boards:
    """The boards after `side` plays these steps (a legal turn, pushes completed)."""
    state: tuple[Boards, int, int, int, int, int] = (boards, 4, -1, 0, -1, 0)
    for frm, to in steps:
        for child in expand(state[0], side, *state[1:]):
            if child[0] == frm and child[1] == to:
                state = (child[2], state[1] - 1, *child[3:7])
                break
    return state[0]


@dataclass(frozen=True)
class Limits:
    """`depth` in steps (>= 4), `nodes` 0 for no limit. With `full_turn` the search always
    finishes its own whole turn (depth 4) and `nodes` counts only the nodes searched after
    it: every legal turn is weighed against the opponent's captures and goals before the
    node limit can cut anything."""

    depth: int = 8
    nodes: int = 0
    full_turn: bool = False


class _Abort(Exception):
    pass


class Searcher:
    """One search from one position; resumable with `think(budget_nodes)`."""

    def __init__(
        self,
        boards: Boards,
        side: int,
        limits: Limits = Limits(),
        forbidden: frozenset[Boards] | set[Boards] = frozenset(),
        should_stop: Callable[[], bool] | None = None,
        on_iteration: Callable[[Searcher], None] | None = None,
        part: tuple[int, int] = (0, 1),
        work_cap: int = 0,
    ) -> None:
        """`part` = (i, n): score only the root turn's results whose Zobrist hash is i
        modulo n (a share of the turn for one of n processes; `split.py` joins them).
        `work_cap` (0: none): the most `work` this search may do, the whole own turn
        included: a slow unit's bound on the answer's time (issue 36, levels by device
        profile). Stopped by it inside the whole-turn iteration, the search keeps the best
        turn that iteration found so far (its first turns follow the shallower iteration's
        best, so it is at least as well founded)."""
        self.boards = boards
        self.part, self.parts = part
        #: (depth, score, steps) of every finished iteration (steps None: no result here)
        self.iterations: list[tuple[int, int, list[tuple[int, int]] | None]] = []
        self.side = side
        self.limits = limits
        self.forbidden = forbidden
        self.should_stop = should_stop
        self.on_iteration = on_iteration
        self.nodes = 0
        self.depth_done = 0
        self.score = 0
        self.best_steps: list[tuple[int, int]] | None = None
        self.done = False
        self._tt: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        self._history: dict[tuple[int, int], int] = {}
        self._pv: dict[int, list[tuple[int, int]]] = {}
        self._root_seen: set[tuple[Boards, int, int, int, int, int]] = set()
        # root turn results already scored in this iteration (another order of the same
        # steps, or ending early, reaches them again: never better, so skipped)
        self._root_done: set[Boards] = set()
        self._iter_best: list[tuple[int, int]] | None = None
        self._goal_cache: dict[tuple[Boards, int], bool] = {}
        self._start_captures: dict[tuple[Boards, int], int] = {}
        self._pause_at = 0
        # the node count that ends the search (0: none yet; see Limits.full_turn)
        self._node_cap = 0 if limits.full_turn else limits.nodes // part[1]
        self._goal_work = [0]  # states expanded by goal checks, for slicing only
        self._work_cap = work_cap
        self._iter_score = 0
        self.capped = False  # the work cap stopped the search
        self._gen = self._run()

    # ---- driving --------------------------------------------------------------------------
    @property
    def work(self) -> int:
        """Nodes plus goal-check states: what `think`'s budget counts, so a slice stays short
        even where goal checks dominate. The node limit alone decides the result."""
        return self.nodes + self._goal_work[0] // GOAL_STATES_PER_UNIT

    def think(self, budget_nodes: int = 2_000) -> bool:
        """Search about `budget_nodes` more work units (`work`); True once finished."""
        if self.done:
            return True
        self._pause_at = self.work + max(1, budget_nodes)
        try:
            next(self._gen)
        except StopIteration:
            self.done = True
        if not self.done and self.should_stop is not None and self.should_stop():
            self.stop()
        return self.done

    def run(self, slice_nodes: int = 5_000) -> list[tuple[int, int]]:
        """Search to the end (or until `should_stop`), returning the best turn."""
        while not self.think(slice_nodes):
            pass
        assert self.best_steps is not None
        return self.best_steps

    def stop(self) -> None:
        """Finish now with the best turn found so far."""
        if not self.done:
            self._gen.close()
            self._adopt_partial()
            self.done = True

    def _adopt_partial(self) -> None:
        if self._iter_best is not None and self.best_steps is None:
            self.best_steps = self._iter_best
        if self.best_steps is None:
            self.best_steps = self._any_turn()

    def _any_turn(self) -> list[tuple[int, int]]:
        """Stopped before any turn was scored: a small bounded search instead."""
        quick = Searcher(self.boards, self.side, Limits(depth=2, nodes=2_000), self.forbidden)
        while not quick.think(2_000):
            pass
        return quick.best_steps or []

    # ---- the search -----------------------------------------------------------------------
    def _run(self) -> Generator[None, None, None]:
        goal = yield from find_goal_sliced(
            self.boards, self.side, self._goal_work, lambda: self.work >= self._pause_at
        )
        if goal:
            self.best_steps, self.score, self.depth_done = goal, WIN, 4
            self.iterations.append((4, WIN, goal))
            return
        h0 = zobrist(self.boards)
        try:
            for depth in range(1, max(1, self.limits.depth) + 1):
                if depth == 3 and self.limits.full_turn and self.limits.depth >= 4:
                    continue  # a fifth of the whole turn's cost; depth 2 orders it as well
                self._root_seen = set()
                self._root_done = set()
                self._pv = {}
                self._iter_best = None
                score = yield from self._node(
                    self.boards,
                    self.side,
                    4,
                    -1,
                    0,
                    -1,
                    0,
                    h0,
                    depth,
                    -INF,
                    INF,
                    0,
                    True,
                    self.boards,
                )
                if self._pv.get(0) is None:
                    # no legal turn at all (or none in this part, at any depth)
                    self.iterations.extend(
                        (d, -INF, None) for d in range(depth, self.limits.depth + 1)
                    )
                    break
                steps = list(self._pv[0])
                self.iterations.append((depth, score, steps))
                if self._keeps_safe_turn(depth, steps, score):
                    continue  # a deeper look that would hang a piece: keep the safe turn
                self.best_steps, self.score, self.depth_done = steps, score, depth
                if self.on_iteration is not None:
                    self.on_iteration(self)
                if score >= WIN - 100 or (self.parts == 1 and score <= -(WIN - 100)):
                    break  # (a part's lost turns may not be the whole turn's)
                if depth >= 4 and not self._node_cap and self.limits.nodes:
                    self._node_cap = self.nodes + self.limits.nodes // self.parts
        except _Abort:
            if self.capped and depth == 4 and self._iter_best is not None:
                steps = list(self._iter_best)
                self.iterations.append((4, self._iter_score, steps))
                self.best_steps, self.score, self.depth_done = steps, self._iter_score, 4
        self._adopt_partial()

    def _keeps_safe_turn(self, depth: int, steps: list[tuple[int, int]], score: int) -> bool:
        """With `full_turn`, a deeper iteration's turn does not replace the whole-turn
        search's when it leaves a piece the static check sees capturable next turn and the
        current one leaves none (unless it wins): deeper iterations stop inside the
        opponent's turn, where the static check's view of its whole turn is cut short."""
        if not self.limits.full_turn or depth <= 4 or self.best_steps is None:
            return False
        if score >= WIN - 100:
            return False
        opp = 1 - self.side
        if not capture_threats(_result(self.boards, self.side, steps), opp):
            return False
        return not capture_threats(_result(self.boards, self.side, self.best_steps), opp)

    def _goal_threat(self, boards: Boards, side: int) -> bool:
        """Can `side` (to move, 4 steps) goal this turn? Cached per position."""
        key = (boards, side)
        hit = self._goal_cache.get(key)
        if hit is None:
            hit = find_goal(boards, side, budget=GOAL_BUDGET, work=self._goal_work) is not None
            if len(self._goal_cache) > TT_LIMIT:
                self._goal_cache.clear()
            self._goal_cache[key] = hit
        return hit

    def _leaf(
        self, boards: Boards, side: int, steps_left: int, ply: int, beta: int, start: Boards
    ) -> int:
        """The position's value for `side`, to move with `steps_left` steps of the turn that
        began at `start`: a goal it can make this turn wins; else the evaluation plus its
        captures and goal threats. Inside a turn, the captures it could make from the
        turn's start still count (a search stopped after one step of the opponent's turn
        must not forget what its other steps could take). Those terms can only lower the
        value by GOAL_THREATENED, so a position already at or above `beta` without them is
        cut there (the parent will not choose it)."""
        v = evaluate(boards)
        v = v if side == 0 else -v
        if v - GOAL_THREATENED >= beta:
            return v - GOAL_THREATENED
        if steps_left == 4 and self._goal_threat(boards, side):
            return WIN - ply - 1
        floor = 0
        if steps_left < 4:
            key = (start, side)
            floor_hit = self._start_captures.get(key)
            if floor_hit is None:
                floor_hit = best_capture(start, side, 4)
                if len(self._start_captures) > TT_LIMIT:
                    self._start_captures.clear()
                self._start_captures[key] = floor_hit
            floor = floor_hit
        return v + tactics(boards, side, steps_left, floor)

    def _hot_squares(self, boards: Boards, side: int, steps_left: int) -> tuple[int, int]:
        """Move ordering's tactics: the squares around the captures `side` can make with its
        steps left and, at a turn start, around the opponent's next-turn captures (where
        defending moves are); and `side`'s rabbit bitboard index when a rabbit of it can walk
        to goal with those steps (-1 otherwise)."""
        hot = 0
        for victim, _, trap, _ in capture_threats(boards, side, steps_left):
            hot |= WITHIN[1][victim] | (1 << trap)
        if steps_left == 4:
            for victim, _, trap, _ in capture_threats(boards, 1 - side, 4):
                hot |= WITHIN[1][victim] | WITHIN[1][trap]
        runner = 6 * side if goal_steps(boards, side, steps_left) != NONE else -1
        return hot, runner

    def _node(
        self,
        boards: Boards,
        side: int,
        steps_left: int,
        ps: int,
        pk: int,
        ls: int,
        lk: int,
        h: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        root_turn: bool,
        turn_start: Boards,
    ) -> Generator[None, None, int]:
        self.nodes += 1
        if self.work >= self._pause_at:
            yield
        if self._node_cap and self.nodes > self._node_cap:
            raise _Abort
        if self._work_cap and self.work > self._work_cap:
            self.capped = True
            raise _Abort
        if depth <= 0:
            if not root_turn:
                return self._leaf(boards, side, steps_left, ply, beta, turn_start)
            if ps < 0 and boards != self.boards and boards not in self.forbidden:
                self._pv[ply] = []  # a shallow iteration ends the root turn here
                return -self._leaf(boards, 1 - side, 4, ply + 1, -alpha, boards)
            depth = 1  # a push to finish or nothing changed yet: look one step further
        if steps_left == 4 and ply > 0 and self._goal_threat(boards, side):
            return WIN - ply - 1
        key = h ^ Z_SIDE[side] ^ Z_STEPS[steps_left] ^ Z_PUSH[ps + 1] ^ Z_PULL[(ls + 1) * 6 + lk]
        entry = self._tt.get(key)
        tt_move = None
        if entry is not None:
            tt_move = entry[3]
            if not root_turn and entry[0] >= depth:
                flag, value = entry[1], entry[2]
                if flag == EXACT:
                    return value
                if flag == LOWER and value >= beta:
                    return value
                if flag == UPPER and value <= alpha:
                    return value
        if root_turn:
            self._pv[ply] = []
        alpha0 = alpha
        best = -INF
        best_move: tuple[int, int] | None = None
        children = expand(boards, side, steps_left, ps, pk, ls, lk)
        history = self._history
        enemy_base = 6 - 6 * side
        hot, runner = self._hot_squares(boards, side, steps_left) if depth >= 2 else (0, -1)

        def order(child: Child) -> int:
            move = (child[0], child[1])
            if move == tt_move:
                return -10_000_000
            s = -history.get(move, 0)
            if child[7] >= 0:
                s += -500_000 if child[9] >= enemy_base and child[9] < enemy_base + 6 else 500_000
            if child[8] == runner:
                s -= 300_000  # a rabbit on its way to goal
            if child[8] >= enemy_base and child[8] < enemy_base + 6:
                s -= 100_000
            if hot >> child[0] & 1 or hot >> child[1] & 1:
                s -= 50_000  # around a capture either side can make
            return s

        if not (root_turn and depth <= 1):  # the root turn's last step: no cut to gain
            children.sort(key=order)
        opp = 1 - side
        # passing (ending the turn early) comes first when it is the TT move, else last
        can_pass = steps_left < 4 and ps < 0 and boards != turn_start
        moves: list[Child | None] = list(children)
        if can_pass:
            if tt_move == (-1, -1):
                moves.insert(0, None)
            else:
                moves.append(None)
        for child in moves:
            if child is None:
                move = (-1, -1)
                new, nh, ends, cost = boards, h, True, steps_left
                nps = npk = 0
                nls = nlk = 0
            else:
                move = (child[0], child[1])
                new = child[2]
                idx = child[8]
                nh = h ^ ZOBRIST[idx][child[0]] ^ ZOBRIST[idx][child[1]]
                if child[7] >= 0:
                    nh ^= ZOBRIST[child[9]][child[7]]
                ends = steps_left == 1
                cost = 1
                nps, npk, nls, nlk = child[3], child[4], child[5], child[6]
            if ends:
                if root_turn:
                    if new == self.boards or new in self.forbidden or new in self._root_done:
                        continue
                    if self.parts > 1 and nh % self.parts != self.part:
                        continue
                    self._root_done.add(new)
                if new[6 * side] & GOAL_RANK[side]:
                    value = WIN - ply
                elif new[6 * opp] & GOAL_RANK[opp]:
                    value = -(WIN - ply)
                elif not new[6 * opp]:
                    value = WIN - ply
                elif not new[6 * side]:
                    value = -(WIN - ply)
                else:
                    value = -(
                        yield from self._node(
                            new,
                            opp,
                            4,
                            -1,
                            0,
                            -1,
                            0,
                            nh,
                            depth - cost,
                            -beta,
                            -alpha,
                            ply + 1,
                            False,
                            new,
                        )
                    )
            else:
                if root_turn:
                    seen_key = (new, steps_left - 1, nps, npk, nls, nlk)
                    if seen_key in self._root_seen:
                        continue
                    self._root_seen.add(seen_key)
                value = yield from self._node(
                    new,
                    side,
                    steps_left - 1,
                    nps,
                    npk,
                    nls,
                    nlk,
                    nh,
                    depth - 1,
                    alpha,
                    beta,
                    ply + 1,
                    root_turn,
                    turn_start,
                )
            if value > best:
                best = value
                best_move = move
                if root_turn:
                    if child is None:
                        self._pv[ply] = []
                    elif ends:
                        self._pv[ply] = [move]
                    else:
                        self._pv[ply] = [move, *self._pv.get(ply + 1, [])]
                    if ply == 0:
                        self._iter_best = list(self._pv[0])
                        self._iter_score = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if child is not None:
                            history[move] = history.get(move, 0) + depth * depth
                        break
        if best == -INF:
            # no legal continuation (only possible in the root turn via repetition rules)
            if root_turn and ply > 0:
                self._pv.pop(ply, None)
            return -INF + 1 if ply == 0 else -WIN
        if root_turn and ply == 0 and best <= -INF + 1:
            self._pv.pop(0, None)
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        if len(self._tt) > TT_LIMIT:
            self._tt.clear()
        self._tt[key] = (depth, flag, best, best_move)
        return best
