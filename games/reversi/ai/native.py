"""The compiled accelerator of the Reversi search (issue 36): `native_search.c` via ctypes.

Why: a pure-Python node costs about 227k instructions; the same node in C a few thousand
(docs/performance.md), so a handheld searches far more nodes in the same wait. The C file is
a port of `search.Search.run` and of the learned evaluation: it returns the same move, score,
iterations and node counts (tests/games/reversi/test_native.py checks it against the Python
engine, which stays the reference and the fallback).

The library is optional. `python3 run.py` builds it with the system C compiler into the
virtual environment (firmware/native.py, the games' one build and load machinery), named by
the source's digest, so an edited source is never
run from a stale library; the Debian image cross-compiles it for arm64. Without a compiler
everything runs in pure Python, with the same moves: the accelerator changes only how long a
decision takes, never which move it is. `TWINFOLD_NATIVE=0` turns it off (benchmarks).
"""

from __future__ import annotations

import ctypes
import sys
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from firmware.native import Library, disabled, find_compiler
from games.reversi.ai.learned import Weights
from games.reversi.ai.patterns import PATTERN_TYPES, phase_of
from games.reversi.ai.search import SearchResult

SOURCE = Path(__file__).with_name("native_search.c")
LIBRARY = Library("reversi_search", (SOURCE,), "reversi accelerator")
MAX_SQUARES = 10  # squares of one pattern instance (native_search.c's MAX_SQUARES)
_INTS = ctypes.c_int * 64
#: `find_compiler` and `disabled` are the shared machinery's (tests and benches ask here)
__all__ = [
    "LIBRARY",
    "NativeEngine",
    "NativeThinker",
    "build",
    "disabled",
    "engine",
    "find_compiler",
]


class _Result(ctypes.Structure):
    """native_search.c's `Result`."""

    _fields_ = [
        ("move", ctypes.c_int),
        ("score", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("exact", ctypes.c_int),
        ("nodes", ctypes.c_longlong),
        ("exact_nodes", ctypes.c_longlong),
        ("iterations", ctypes.c_int),
        ("iter_depth", _INTS),
        ("iter_score", _INTS),
        ("iter_move", _INTS),
        ("scored", ctypes.c_int),
        ("score_square", _INTS),
        ("score_value", _INTS),
    ]


@dataclass(frozen=True)
class NativeResult:
    """One decision of the C search: what `Search.run` returns and leaves behind."""

    move: int | None
    score: int
    depth: int
    exact: bool
    nodes: int
    exact_nodes: int  # nodes of the exact phase (tried or finished); the rest are midgame
    iterations: list[tuple[int, int, int]]
    scores: dict[int, int]


def build(directory: Path | None = None, compiler: str | None = None) -> tuple[Path | None, str]:
    """Compile the library unless it is there already (firmware.native.Library.build)."""
    return LIBRARY.build(directory, compiler)


class NativeEngine:
    """The loaded library: the learned evaluation and the whole search of one decision."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        u64, ll = ctypes.c_uint64, ctypes.c_longlong
        lib.tf_weights_size.restype = ctypes.c_int
        lib.tf_search_size.restype = ctypes.c_int
        lib.tf_weights_init.restype = ctypes.c_int
        lib.tf_weights_init.argtypes = [
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_int16),
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_int),
        ]
        lib.tf_evaluate.restype = ctypes.c_int
        lib.tf_evaluate.argtypes = [ctypes.c_void_p, u64, u64]
        lib.tf_search.restype = ctypes.c_int
        lib.tf_search.argtypes = [
            ctypes.c_void_p,
            ctypes.c_void_p,
            u64,
            u64,
            ctypes.c_int,
            ll,
            ctypes.c_int,
            ll,
            ctypes.c_int,
            u64,
            ctypes.POINTER(_Result),
        ]
        lib.tf_result_size.restype = ctypes.c_int
        if lib.tf_result_size() != ctypes.sizeof(_Result):
            raise OSError("the library's result layout differs from native.py's")
        # The library allocates nothing: a set of weights and the search's two tables (a
        # few MB, reused by every decision of this process) live in these buffers.
        self._weights: dict[int, tuple[Weights, ctypes.Array[ctypes.c_char], object]] = {}
        self._search = ctypes.create_string_buffer(lib.tf_search_size())

    def __deepcopy__(self, memo: dict[int, object]) -> NativeEngine:
        return self  # the one loaded library (a machine checkpoint copies its thinkers)

    def weights(self, weights: Weights) -> ctypes.Array[ctypes.c_char]:
        """The library's view of a set of weights (made once per set)."""
        held = self._weights.get(id(weights))
        if held is not None and held[0] is weights:
            return held[1]
        per_phase = sum(pt.cells for pt in PATTERN_TYPES) + 2
        values = weights.packed  # read in place; built from the lists for other weights
        if values is None or len(values) != per_phase * len(weights.phases):
            values = array("h")
            for tables, mobility, bias in weights.phases:
                for table in tables:
                    values.extend(table)
                values.extend((mobility, bias))
        offsets, lengths, squares = [], [], []
        start = 0
        for pt in PATTERN_TYPES:
            for inst in pt.instances:
                offsets.append(start)
                lengths.append(len(inst))
                squares.extend([*inst, *[0] * (MAX_SQUARES - len(inst))])
            start += pt.cells
        phases = [phase_of(e) for e in range(65)]
        packed = (ctypes.c_int16 * len(values)).from_buffer(values)
        handle = ctypes.create_string_buffer(self.lib.tf_weights_size())
        rc = self.lib.tf_weights_init(
            handle,
            len(weights.phases),
            per_phase,
            packed,
            len(offsets),
            (ctypes.c_int * len(offsets))(*offsets),
            (ctypes.c_int * len(lengths))(*lengths),
            (ctypes.c_int * len(squares))(*squares),
            (ctypes.c_int * 65)(*phases),
        )
        if rc != 0:
            raise ValueError("the reversi accelerator cannot take these weights")
        self._weights[id(weights)] = (weights, handle, (values, packed))
        return handle

    def evaluate(self, weights: Weights, p: int, o: int) -> int:
        return int(self.lib.tf_evaluate(self.weights(weights), p, o))

    def search(
        self,
        weights: Weights,
        p: int,
        o: int,
        *,
        max_depth: int,
        node_limit: int,
        exact_empties: int = 0,
        exact_node_limit: int = 0,
        all_moves: bool = False,
        root_moves: int = -1,
    ) -> NativeResult:
        """`Search(...).run()` with the learned evaluation of `weights`, in one call."""
        out = _Result()
        rc = self.lib.tf_search(
            self._search,
            self.weights(weights),
            p,
            o,
            max_depth,
            node_limit,
            exact_empties,
            exact_node_limit,
            int(all_moves),
            root_moves & 0xFFFFFFFFFFFFFFFF,
            ctypes.byref(out),
        )
        if rc != 0:
            raise ValueError("no root move to search")
        n = out.iterations
        return NativeResult(
            move=None if out.move < 0 else out.move,
            score=out.score,
            depth=out.depth,
            exact=bool(out.exact),
            nodes=out.nodes,
            exact_nodes=out.exact_nodes,
            iterations=list(
                zip(out.iter_depth[:n], out.iter_score[:n], out.iter_move[:n], strict=True)
            ),
            scores=dict(
                zip(out.score_square[: out.scored], out.score_value[: out.scored], strict=True)
            ),
        )


class NativeSearch:
    """What a caller reads of a `Search` after it ran (`ComputerMove.units`, `iterations`),
    filled from the C engine's result."""

    solving = False

    def __init__(self) -> None:
        self.nodes = 0
        self.exact_nodes = 0
        self.iterations: list[tuple[int, int, int]] = []

    @property
    def midgame_nodes(self) -> int:
        return self.nodes - self.exact_nodes


class NativeThinker:
    """`search.Thinker` for the C engine: the whole decision runs in the first `think` (one
    call per decision; in a worker process, where no frame waits on it). `run` is
    `NativeEngine.search` bound to the position and the level's limits."""

    def __init__(self, run: Callable[[], NativeResult]) -> None:
        self.run = run  # `partial(engine.search, weights, p, o, ...)`: the decision, not yet run
        self.search = NativeSearch()
        self.result: SearchResult | None = None

    def think(self, node_budget: int) -> SearchResult:
        """The decision (searched whole at the first call, whatever the budget)."""
        if self.result is None:
            r = self.run()
            self.search.nodes, self.search.exact_nodes = r.nodes, r.exact_nodes
            self.search.iterations = r.iterations
            self.result = SearchResult(r.move, r.score, r.depth, r.exact, r.nodes, r.scores)
        return self.result

    def finish(self) -> SearchResult:
        return self.think(1)


@cache
def engine() -> NativeEngine | None:
    """The accelerator if its library is built for this source (None: pure Python)."""
    lib = LIBRARY.load()
    if lib is None:
        return None
    try:
        return NativeEngine(lib)
    except (OSError, AttributeError) as exc:
        path = LIBRARY.path()
        print(f"reversi: accelerator {path} unusable ({exc}); pure Python", file=sys.stderr)
        return None
