"""Exact goal detection: can a side get a rabbit to its goal rank within this turn?

A depth-first search over the side's legal steps (pushes and pulls included), pruned by the
plain bound that a rabbit only advances by its own steps: when every rabbit is farther from
the goal than the steps left, no goal is possible. The turn may end as soon as a rabbit
stands on the goal (the end-of-turn check 1 then wins), so any reachable state with no push
pending and a rabbit on the goal rank is a goal.
"""

from __future__ import annotations

from collections.abc import Callable, Generator

from ..rules.board import GOAL_RANK, GOLD, NEIGHBOURS
from ..rules.steps import Boards, _apply, expand, occupancy


def rabbit_distance(boards: Boards, side: int) -> int:
    """Rank distance of `side`'s most advanced rabbit from its goal (99 without rabbits)."""
    rabbits = boards[6 * side]
    if not rabbits:
        return 99
    if side == GOLD:
        return 7 - (rabbits.bit_length() - 1) // 8
    return ((rabbits & -rabbits).bit_length() - 1) // 8


def find_goal(
    boards: Boards,
    side: int,
    steps_left: int = 4,
    push_sq: int = -1,
    push_kind: int = 0,
    pull_sq: int = -1,
    pull_kind: int = 0,
    budget: int = 0,
    work: list[int] | None = None,
) -> list[tuple[int, int]] | None:
    """Steps that end the turn with a rabbit of `side` on its goal rank, or None.

    With `budget` > 0 the search gives up (None) after visiting that many states; 0 = exact.
    `work`, when given, has the number of states expanded added to its first item (the
    searcher slices its time by it)."""
    if push_sq < 0 and boards[6 * side] & GOAL_RANK[side]:
        return []
    if steps_left <= 0 or rabbit_distance(boards, side) > steps_left:
        return None
    seen: _Seen = _Seen(budget)
    try:
        return _dfs(boards, side, steps_left, push_sq, push_kind, pull_sq, pull_kind, seen)
    except _OutOfBudget:
        return None
    finally:
        if work is not None:
            work[0] += seen.expanded


class _OutOfBudget(Exception):
    pass


class _Seen(set[tuple[Boards, int, int, int, int, int]]):
    """Visited states, counting expansions against a budget."""

    def __init__(self, budget: int) -> None:
        super().__init__()
        self.budget = budget
        self.expanded = 0

    def charge(self) -> None:
        self.expanded += 1
        if self.budget and self.expanded > self.budget:
            raise _OutOfBudget


def _rabbit_run(boards: Boards, side: int, steps_left: int) -> list[tuple[int, int]] | None:
    """Goal when every step left must move a rabbit straight forward (distance == steps)."""
    if steps_left == 0:
        return [] if boards[6 * side] & GOAL_RANK[side] else None
    gold, silver = occupancy(boards)
    mine, theirs = (gold, silver) if side == GOLD else (silver, gold)
    forward = 8 if side == GOLD else -8
    d = rabbit_distance(boards, side)
    rabbits = boards[6 * side]
    while rabbits:
        low = rabbits & -rabbits
        rabbits ^= low
        sq = low.bit_length() - 1
        row = sq // 8
        if (7 - row if side == GOLD else row) != d:
            continue
        to = sq + forward
        if (gold | silver) >> to & 1:
            continue
        n = NEIGHBOURS[sq]
        if not n & mine and n & theirs & ~boards[6 - 6 * side]:
            continue  # frozen (any enemy non-rabbit is stronger than a rabbit)
        new = _apply(boards, 6 * side, sq, to, mine)[0]
        if not new[6 * side] >> to & 1:
            continue  # captured on a trap
        rest = _rabbit_run(new, side, steps_left - 1)
        if rest is not None:
            return [(sq, to), *rest]
    return None


def _never() -> bool:
    return False


def _dfs(
    boards: Boards,
    side: int,
    steps_left: int,
    ps: int,
    pk: int,
    ls: int,
    lk: int,
    seen: _Seen,
) -> list[tuple[int, int]] | None:
    """The whole goal search at once: `_dfs_sliced` never asked to pause (one search, two
    ways to run it; the generator costs about 1% here)."""
    try:
        next(_dfs_sliced(boards, side, steps_left, ps, pk, ls, lk, seen, _never))
    except StopIteration as done:
        result: list[tuple[int, int]] | None = done.value
        return result
    raise AssertionError("a search that is never asked to pause does not pause")


class _Counted(_Seen):
    """Visited states, each expansion also counted into a shared work counter."""

    def __init__(self, work: list[int]) -> None:
        super().__init__(0)
        self.work = work

    def charge(self) -> None:
        self.expanded += 1
        self.work[0] += 1


def find_goal_sliced(
    boards: Boards, side: int, work: list[int], used_up: Callable[[], bool]
) -> Generator[None, None, list[tuple[int, int]] | None]:
    """`find_goal(boards, side)` (exact, whole turn) as a generator: every state expanded is
    added to `work[0]`, and it yields whenever `used_up()` says the caller's slice is spent,
    so a frame loop never stalls on a deep goal search. Same answer as `find_goal`."""
    if boards[6 * side] & GOAL_RANK[side]:
        return []
    if rabbit_distance(boards, side) > 4:
        return None
    seen = _Counted(work)
    return (yield from _dfs_sliced(boards, side, 4, -1, 0, -1, 0, seen, used_up))


def _dfs_sliced(
    boards: Boards,
    side: int,
    steps_left: int,
    ps: int,
    pk: int,
    ls: int,
    lk: int,
    seen: _Seen,
    used_up: Callable[[], bool],
) -> Generator[None, None, list[tuple[int, int]] | None]:
    """The goal search, depth first, with a pause point after each expansion whenever
    `used_up()` says the slice is spent."""
    goal = GOAL_RANK[side]
    seen.charge()
    if used_up():
        yield
    if ps < 0 and rabbit_distance(boards, side) == steps_left:
        return _rabbit_run(boards, side, steps_left)
    for child in expand(boards, side, steps_left, ps, pk, ls, lk):
        new = child[2]
        if child[3] < 0 and new[6 * side] & goal:
            return [(child[0], child[1])]
        left = steps_left - 1
        if left <= 0 or rabbit_distance(new, side) > left:
            continue
        key = (new, left, *child[3:7])
        if key in seen:
            continue
        seen.add(key)
        rest = yield from _dfs_sliced(new, side, left, *child[3:7], seen, used_up)
        if rest is not None:
            return [(child[0], child[1]), *rest]
    return None
