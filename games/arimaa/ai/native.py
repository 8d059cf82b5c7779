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
from functools import cache
from pathlib import Path

from firmware.native import Library

from ..rules.steps import Boards, Child
from .search import ZOBRIST

HERE = Path(__file__).parent
LIBRARY = Library(
    "arimaa_search", (HERE / "native_steps.c", HERE / "native_eval.c"), "arimaa accelerator"
)
MAX_CHILDREN = 256  # native_steps.c's MAX_CHILDREN
MAX_THREATS = 128  # native_eval.c's MAX_THREATS
#: visited-state slots of the goal search (a power of two; beyond 3/4 of it Python answers)
GOAL_TABLE = 1 << 16
_U64S = ctypes.c_uint64 * 12
_ll = ctypes.c_longlong


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
    """The loaded library, with the buffers it works in (it allocates nothing)."""

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
        keys = (ctypes.c_uint64 * 768)(*(k for row in ZOBRIST for k in row))
        if lib.ari_init(keys) != ctypes.sizeof(_Child):
            raise OSError("the library's child layout differs from native.py's")
        if lib.ari_threat_size() != ctypes.sizeof(_Threat):
            raise OSError("the library's threat layout differs from native.py's")
        lib.ari_eval_init()
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
