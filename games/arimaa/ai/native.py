"""The compiled accelerator of the Arimaa computer player (issue 36), phase 1: the board and
the leaf work in C, called through ctypes.

Why: a pure-Python Arimaa search cannot finish one whole own turn at levels 3-5 on the
`pi-zero-2w` profile (docs/performance.md); its time goes into step generation
(`steps.expand`), the evaluation and the static tactics. `native_steps.c` ports `expand`,
`frozen_mask`, `search.zobrist` and `goal.find_goal`; `native_eval.c` ports
`evaluate.evaluate`, `evaluate.tactics` (with `best_capture` and `piece_value`) and
`tactics.capture_threats` and `goal_steps`. Each returns exactly what the Python function
returns (tests/games/arimaa/test_native.py checks them against the Python modules, which
stay the reference and the fallback, on random positions). No search uses it yet: phase 2
ports `search.Searcher` on top of these (per-call ctypes costs more than some of these
functions save, so the gain comes when the whole search runs in C).

Built like Reversi's (firmware/native.py: `python3 run.py` with the system C compiler, the
image for arm64); `engine()` is None without the library, and everything stays pure Python.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path

from firmware.native import Library

from ..rules.steps import Boards, Child
from .search import (
    GOAL_STATES_PER_UNIT,
    WIN,
    Z_PULL,
    Z_PUSH,
    Z_SIDE,
    Z_STEPS,
    ZOBRIST,
    Limits,
    Searcher,
)

HERE = Path(__file__).parent
LIBRARY = Library(
    "arimaa_search",
    (HERE / "native_steps.c", HERE / "native_eval.c", HERE / "native_search.c"),
    "arimaa accelerator",
)
MAX_CHILDREN = 256  # native_steps.c's MAX_CHILDREN
MAX_THREATS = 128  # native_eval.c's MAX_THREATS
#: visited-state slots of the goal search (a power of two; beyond 3/4 of it Python answers)
GOAL_TABLE = 1 << 16
_U64S = ctypes.c_uint64 * 12
_ll = ctypes.c_longlong
PV_INTS = 32  # native_search.c: MAX_PV * 2 (from, to) of up to 16 steps
MAX_ITER = 32  # native_search.c's MAX_ITER
SEEN_BYTES = 120  # native_search.c's SEEN_BYTES: native_steps.c's sizeof(Seen)
Steps = list[tuple[int, int]]


class _Result(ctypes.Structure):
    """native_search.c's `Result`."""

    _fields_ = [
        ("status", ctypes.c_int32),
        ("score", ctypes.c_int32),
        ("depth_done", ctypes.c_int32),
        ("capped", ctypes.c_int32),
        ("best_len", ctypes.c_int32),
        ("iterations", ctypes.c_int32),
        ("nodes", ctypes.c_longlong),
        ("goal_work", ctypes.c_longlong),
        ("best", ctypes.c_int32 * PV_INTS),
        ("iter_depth", ctypes.c_int32 * MAX_ITER),
        ("iter_score", ctypes.c_int32 * MAX_ITER),
        ("iter_len", ctypes.c_int32 * MAX_ITER),
        ("iter_steps", (ctypes.c_int32 * PV_INTS) * MAX_ITER),
    ]


class _Child(ctypes.Structure):
    """native_steps.c's `Child` (steps.py's Child tuple)."""

    _fields_ = [
        ("boards", ctypes.c_uint64 * 12),
        ("frm", ctypes.c_int32),
        ("to", ctypes.c_int32),
        ("push_sq", ctypes.c_int32),
        ("push_kind", ctypes.c_int32),
        ("pull_sq", ctypes.c_int32),
        ("pull_kind", ctypes.c_int32),
        ("cap", ctypes.c_int32),
        ("index", ctypes.c_int32),
        ("cap_index", ctypes.c_int32),
        ("pad", ctypes.c_int32),
    ]


class _Threat(ctypes.Structure):
    """native_eval.c's `Threat` (tactics.Threat)."""

    _fields_ = [(name, ctypes.c_int32) for name in ("victim", "index", "trap", "steps")]


class NativeArimaa:
    """The loaded library, with the buffers it works in (it allocates nothing). One call at a
    time: the buffers and the C search's state are shared (a worker process makes one
    decision at a time)."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        p, i, u64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64
        lib.ari_init.restype = i
        lib.ari_init.argtypes = [p]
        lib.ari_eval_init.restype = i
        lib.ari_zobrist.restype = u64
        lib.ari_zobrist.argtypes = [p]
        lib.ari_frozen_mask.restype = u64
        lib.ari_frozen_mask.argtypes = [p]
        lib.ari_expand.restype = i
        lib.ari_expand.argtypes = [p, i, i, i, i, i, i, p]
        lib.ari_evaluate.restype = i
        lib.ari_evaluate.argtypes = [p]
        lib.ari_goal_steps.restype = i
        lib.ari_goal_steps.argtypes = [p, i, i]
        lib.ari_capture_threats.restype = i
        lib.ari_capture_threats.argtypes = [p, i, i, p]
        lib.ari_piece_value.restype = i
        lib.ari_piece_value.argtypes = [p, i]
        lib.ari_best_capture.restype = i
        lib.ari_best_capture.argtypes = [p, i, i]
        lib.ari_tactics.restype = i
        lib.ari_tactics.argtypes = [p, i, i, i]
        lib.ari_find_goal.restype = i
        lib.ari_find_goal.argtypes = [p, i, i, i, i, i, i, _ll, p, _ll, p, p, p]
        lib.ari_seen_size.restype = i
        lib.ari_threat_size.restype = i
        lib.ari_search_init.argtypes = [p, p, p, p, p]
        lib.ari_workspace_size.restype = _ll
        lib.ari_result_size.restype = i
        lib.ari_search.restype = i
        lib.ari_search.argtypes = [p, p, i, i, _ll, i, p, i, i, i, _ll, _ll, p]
        keys_z = (ctypes.c_uint64 * 768)(*(k for row in ZOBRIST for k in row))
        if lib.ari_init(keys_z) != ctypes.sizeof(_Child):
            raise OSError("the library's child layout differs from native.py's")
        if lib.ari_threat_size() != ctypes.sizeof(_Threat):
            raise OSError("the library's threat layout differs from native.py's")
        lib.ari_eval_init()
        if lib.ari_result_size() != ctypes.sizeof(_Result) or lib.ari_seen_size() != SEEN_BYTES:
            raise OSError("the library's search layout differs from native.py's")

        def keys(values: tuple[int, ...]) -> ctypes.Array[ctypes.c_uint64]:
            return (ctypes.c_uint64 * len(values))(*values)

        lib.ari_search_init(keys(Z_SIDE), keys(Z_STEPS), keys(Z_PUSH), keys(Z_PULL), keys_z)
        self._workspace: ctypes.Array[ctypes.c_char] | None = None  # made at the first search
        self._children = (_Child * MAX_CHILDREN)()
        self._threats = (_Threat * MAX_THREATS)()
        self._seen = ctypes.create_string_buffer(lib.ari_seen_size() * GOAL_TABLE)
        self._gen = ctypes.c_uint32(0)
        self._path = (ctypes.c_int * 16)()
        self._expanded = ctypes.c_longlong(0)

    def __deepcopy__(self, memo: dict[int, object]) -> NativeArimaa:
        return self  # the one loaded library

    def zobrist(self, boards: Boards) -> int:
        return int(self.lib.ari_zobrist(_U64S(*boards)))

    def frozen_mask(self, boards: Boards) -> int:
        return int(self.lib.ari_frozen_mask(_U64S(*boards)))

    def expand(
        self,
        boards: Boards,
        side: int,
        steps_left: int,
        push_sq: int = -1,
        push_kind: int = 0,
        pull_sq: int = -1,
        pull_kind: int = 0,
    ) -> list[Child]:
        """`steps.expand`: the same children, as the same tuples, in the same order."""
        out = self._children
        n = self.lib.ari_expand(
            _U64S(*boards), side, steps_left, push_sq, push_kind, pull_sq, pull_kind, out
        )
        return [
            (
                c.frm,
                c.to,
                tuple(c.boards),
                c.push_sq,
                c.push_kind,
                c.pull_sq,
                c.pull_kind,
                c.cap,
                c.index,
                c.cap_index,
            )
            for c in out[:n]
        ]

    def evaluate(self, boards: Boards) -> int:
        return int(self.lib.ari_evaluate(_U64S(*boards)))

    def goal_steps(self, boards: Boards, side: int, limit: int = 8) -> int:
        return int(self.lib.ari_goal_steps(_U64S(*boards), side, limit))

    def capture_threats(
        self, boards: Boards, side: int, steps: int = 4
    ) -> list[tuple[int, int, int, int]]:
        out = self._threats
        n = self.lib.ari_capture_threats(_U64S(*boards), side, steps, out)
        return [(t.victim, t.index, t.trap, t.steps) for t in out[:n]]

    def piece_value(self, boards: Boards, index: int) -> int:
        return int(self.lib.ari_piece_value(_U64S(*boards), index))

    def best_capture(self, boards: Boards, side: int, steps_left: int) -> int:
        return int(self.lib.ari_best_capture(_U64S(*boards), side, steps_left))

    def tactics(self, boards: Boards, side: int, steps_left: int, capture_floor: int = 0) -> int:
        return int(self.lib.ari_tactics(_U64S(*boards), side, steps_left, capture_floor))

    def find_goal(
        self,
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
        """`goal.find_goal`, the same steps and the same `work`. A search too big for the
        visited-state table (GOAL_TABLE) is asked of the Python one."""
        n = self.lib.ari_find_goal(
            _U64S(*boards),
            side,
            steps_left,
            push_sq,
            push_kind,
            pull_sq,
            pull_kind,
            budget,
            self._seen,
            GOAL_TABLE,
            ctypes.byref(self._gen),
            self._path,
            ctypes.byref(self._expanded),
        )
        if n == -2:
            from .goal import find_goal

            return find_goal(
                boards, side, steps_left, push_sq, push_kind, pull_sq, pull_kind, budget, work
            )
        if work is not None:
            work[0] += self._expanded.value
        if n < 0:
            return None
        p = self._path
        return [(p[2 * i], p[2 * i + 1]) for i in range(n)]


    def searcher(
        self,
        boards: Boards,
        side: int,
        limits: Limits,
        forbidden: frozenset[Boards] | set[Boards] = frozenset(),
        part: tuple[int, int] = (0, 1),
        work_cap: int = 0,
    ) -> NativeSearcher:
        """`search`, made at the searcher's first `think` (a `Searcher`'s stand-in)."""
        run = partial(self.search, boards, side, limits, forbidden, part, work_cap)
        return NativeSearcher(boards, side, limits, part, run)

    def search(
        self,
        boards: Boards,
        side: int,
        limits: Limits,
        forbidden: frozenset[Boards] | set[Boards] = frozenset(),
        part: tuple[int, int] = (0, 1),
        work_cap: int = 0,
    ) -> NativeSearcher:
        """`Searcher(boards, side, limits, forbidden, part=part, work_cap=work_cap).run()`,
        in one call: the same iterations, steps, score, nodes and work (a search too big for
        the C tables is made by the Python searcher instead)."""
        if limits.depth >= MAX_ITER:  # more iterations than the C result holds
            return NativeSearcher.of(
                Searcher(boards, side, limits, forbidden, part=part, work_cap=work_cap)
            )
        found = NativeSearcher(boards, side, limits, part)
        goal_work = [0]
        goal = self.find_goal(boards, side, work=goal_work)
        if goal:
            found.best_steps, found.score, found.depth_done = goal, WIN, 4
            found.iterations.append((4, WIN, goal))
            found.goal_work = goal_work[0]
            return found
        if self._workspace is None:
            self._workspace = ctypes.create_string_buffer(self.lib.ari_workspace_size())
        held = sorted(forbidden)
        flat = (ctypes.c_uint64 * max(1, 12 * len(held)))(*(b for bs in held for b in bs))
        r = _Result()
        status = self.lib.ari_search(
            self._workspace,
            _U64S(*boards),
            side,
            limits.depth,
            limits.nodes,
            int(limits.full_turn),
            flat,
            len(held),
            part[0],
            part[1],
            work_cap,
            goal_work[0],
            ctypes.byref(r),
        )
        if status != 0:
            return NativeSearcher.of(
                Searcher(boards, side, limits, forbidden, part=part, work_cap=work_cap)
            )
        for k in range(r.iterations):
            n = r.iter_len[k]
            row = r.iter_steps[k]
            steps = None if n < 0 else [(row[2 * j], row[2 * j + 1]) for j in range(n // 2)]
            found.iterations.append((r.iter_depth[k], r.iter_score[k], steps))
        found.nodes, found.goal_work, found.capped = r.nodes, r.goal_work, bool(r.capped)
        found.score, found.depth_done = r.score, r.depth_done
        if r.best_len >= 0:
            found.best_steps = [(r.best[2 * j], r.best[2 * j + 1]) for j in range(r.best_len // 2)]
        else:  # Searcher._any_turn: stopped before any turn was scored
            quick = self.search(boards, side, Limits(depth=2, nodes=2_000), forbidden)
            found.best_steps = quick.best_steps or []
        return found


class NativeSearcher:
    """What a caller reads of a `search.Searcher` (`think`, `run`, `work`, `iterations`,
    `best_steps`...), for a decision the C search makes whole in one call: at once
    (`NativeArimaa.search`) or at the first `think` (`NativeArimaa.searcher`: in a worker
    process, where no frame waits on it)."""

    def __init__(
        self,
        boards: Boards,
        side: int,
        limits: Limits,
        part: tuple[int, int],
        pending: Callable[[], NativeSearcher] | None = None,
    ) -> None:
        self.boards, self.side, self.limits = boards, side, limits
        self.part, self.parts = part
        self.iterations: list[tuple[int, int, Steps | None]] = []
        self.nodes = 0
        self.goal_work = 0
        self.score = 0
        self.depth_done = 0
        self.best_steps: Steps | None = None
        self.capped = False
        self._pending = pending
        self.done = pending is None

    def think(self, budget_nodes: int = 2_000) -> bool:
        """The whole decision, whatever the budget (True: finished)."""
        if self._pending is not None:
            found = self._pending()
            self._pending = None
            self.iterations, self.nodes, self.goal_work = (
                found.iterations,
                found.nodes,
                found.goal_work,
            )
            self.score, self.depth_done = found.score, found.depth_done
            self.best_steps, self.capped = found.best_steps, found.capped
            self.done = True
        return True

    def run(self, slice_nodes: int = 5_000) -> Steps:
        self.think()
        assert self.best_steps is not None
        return self.best_steps

    @classmethod
    def of(cls, searcher: Searcher) -> NativeSearcher:
        """A Python searcher's decision in this shape (the fallback)."""
        searcher.run()
        part = (searcher.part, searcher.parts)
        found = cls(searcher.boards, searcher.side, searcher.limits, part)
        found.iterations = searcher.iterations
        found.nodes, found.goal_work = searcher.nodes, searcher._goal_work[0]
        found.score, found.depth_done = searcher.score, searcher.depth_done
        found.best_steps, found.capped = searcher.best_steps, searcher.capped
        return found

    @property
    def work(self) -> int:
        """`Searcher.work`: nodes plus goal-check states."""
        return self.nodes + self.goal_work // GOAL_STATES_PER_UNIT


@cache
def engine() -> NativeArimaa | None:
    """The accelerator if its library is built for these sources (None: pure Python)."""
    lib = LIBRARY.load()
    if lib is None:
        return None
    try:
        return NativeArimaa(lib)
    except (OSError, AttributeError) as exc:
        path = LIBRARY.path()
        print(f"arimaa: accelerator {path} unusable ({exc}); pure Python", file=sys.stderr)
        return None
