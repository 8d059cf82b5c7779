"""The compiled accelerator (issue 36, item 2) decides exactly what the pure-Python engine,
the reference, decides: the same evaluation on any boards, the same move, score, iterations,
per-move scores and node counts (so the same work units, hence the same landing tick) for
whole searches on random positions at random budgets; a computer player on a `native`
profile plays the same move with the library as without it. Built here with the system C
compiler; skipped, with the reason, where there is none."""

from __future__ import annotations

import ctypes
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.reversi.ai import native, players
from games.reversi.ai.learned import make_evaluator, shipped_weights
from games.reversi.ai.native import NativeEngine, NativeThinker
from games.reversi.ai.players import ComputerMove
from games.reversi.ai.search import Search, Thinker
from games.reversi.match import ReversiComputer, ReversiRules
from games.reversi.rules import Game
from games.reversi.rules.bitboard import legal_moves
from tests.match_contract import split_decision

boards = st.integers(min_value=0, max_value=(1 << 64) - 1)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> NativeEngine:
    if native.find_compiler() is None:
        pytest.skip("no C compiler (cc): the accelerator cannot be built on this machine")
    path, message = native.build(tmp_path_factory.mktemp("native"))
    assert path is not None, message
    return NativeEngine(ctypes.CDLL(str(path)))


def _position(seed: int, plies: int) -> tuple[int, int] | None:
    rng = random.Random(seed)
    g = Game()
    for _ in range(plies):
        if g.over:
            return None
        g.play(rng.choice(sorted(g.legal())))
    if g.over:
        return None
    return g.position.player, g.position.opponent


@given(boards, boards, boards)
@settings(max_examples=300, deadline=None)
def test_the_evaluation_equals_the_python_one_on_any_boards(
    engine: NativeEngine, a: int, b: int, keep: int
) -> None:
    p, o = a & keep, b & ~(a & keep)
    weights = shipped_weights()
    assert engine.evaluate(weights, p, o) == make_evaluator(weights)(p, o)


@given(st.integers(0, 10**6), st.integers(0, 59))
@settings(max_examples=300, deadline=None)
def test_the_evaluation_equals_the_python_one_in_played_positions(
    engine: NativeEngine, seed: int, plies: int
) -> None:
    pos = _position(seed, plies)
    if pos is None:
        return
    weights = shipped_weights()
    for p, o in (pos, pos[::-1]):
        assert engine.evaluate(weights, p, o) == make_evaluator(weights)(p, o)


@given(
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 58),
    depth=st.integers(1, 9),
    node_limit=st.integers(1, 4_000),
    exact_empties=st.sampled_from([0, 6, 8, 10, 12]),
    exact_node_limit=st.sampled_from([0, 30, 400, 5_000]),
    all_moves=st.booleans(),
    root_pick=st.integers(0, (1 << 64) - 1),
)
@settings(max_examples=60, deadline=None)
def test_a_whole_search_equals_the_python_one(
    engine: NativeEngine,
    seed: int,
    plies: int,
    depth: int,
    node_limit: int,
    exact_empties: int,
    exact_node_limit: int,
    all_moves: bool,
    root_pick: int,
) -> None:
    pos = _position(seed, plies)
    if pos is None:
        return
    p, o = pos
    root_moves = legal_moves(p, o) & root_pick or -1  # a part of a split search, or all
    weights = shipped_weights()
    search = Search(
        p,
        o,
        max_depth=depth,
        node_limit=node_limit,
        exact_empties=exact_empties,
        exact_node_limit=exact_node_limit,
        evaluator=make_evaluator(weights),
        all_moves=all_moves,
        root_moves=root_moves,
    )
    want = Thinker(search).finish()
    got = engine.search(
        weights,
        p,
        o,
        max_depth=depth,
        node_limit=node_limit,
        exact_empties=exact_empties,
        exact_node_limit=exact_node_limit,
        all_moves=all_moves,
        root_moves=root_moves,
    )
    assert (got.move, got.score, got.depth, got.exact) == (
        want.move,
        want.score,
        want.depth,
        want.exact,
    )
    assert got.scores == want.scores and list(got.scores) == list(want.scores)
    assert got.iterations == search.iterations
    assert (got.nodes, got.exact_nodes) == (want.nodes, search.exact_nodes)


def _units_and_move(job: ComputerMove) -> tuple[str, int, list[tuple[int, int, int]]]:
    return job.finish(), job.units, job.iterations


@pytest.mark.parametrize("plies", [6, 20, 34, 46])
def test_a_native_profile_plays_the_same_move_and_units_with_and_without_the_library(
    engine: NativeEngine, monkeypatch: pytest.MonkeyPatch, plies: int
) -> None:
    g = Game()
    rng = random.Random(plies)
    for _ in range(plies):
        g.play(rng.choice(sorted(g.legal())))
    ups = 57_600  # pi-zero-2w
    monkeypatch.setattr(players, "native_engine", lambda: engine)
    fast = ComputerMove(g.position, 4, 1, ups, native=True)
    assert isinstance(fast._thinker, NativeThinker) or fast.move is not None
    monkeypatch.setattr(players, "native_engine", lambda: None)
    slow = ComputerMove(g.position, 4, 1, ups, native=True)
    assert _units_and_move(fast) == _units_and_move(slow)
    # the compiled nodes are cheaper: more of them in the same work than the pure budget
    pure = ComputerMove(g.position, 4, 1, ups).level
    cheaper = players.MID_NODE_UNITS * 10 // players.NATIVE_MID_NODE_TENTHS
    assert fast.level.node_limit == cheaper * pure.node_limit


def test_a_split_decision_is_the_same_with_and_without_the_library(
    engine: NativeEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = Game()
    rng = random.Random(5)
    for _ in range(24):
        g.play(rng.choice(sorted(g.legal())))
    rules = ReversiRules(g)
    seat = 0 if g.turn == "black" else 1
    computer = ReversiComputer(4, 3, tick_budget=960, native=True)
    outcome = []
    for eng in (engine, None):
        monkeypatch.setattr(players, "native_engine", lambda eng=eng: eng)
        outcome.append(split_decision(computer, rules, seat))
    assert outcome[0] == outcome[1]


def test_build_reuses_a_built_library_and_says_why_without_a_compiler(
    tmp_path: Path, engine: NativeEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, message = native.build(tmp_path)
    assert path is not None and path.exists() and "built" in message
    again, message = native.build(tmp_path)
    assert again == path and "up to date" in message
    monkeypatch.setenv("CC", "no-such-compiler-here")
    missing, message = native.build(tmp_path / "other")
    assert missing is None and "no C compiler" in message
    assert not (tmp_path / "other").exists() or not list((tmp_path / "other").iterdir())


def test_without_the_library_the_engine_is_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TWINFOLD_NATIVE_DIR", "/nonexistent/twinfold-native")
    native.engine.cache_clear()
    try:
        assert native.engine() is None
        job = ComputerMove(Game().position, 4, 1, 57_600, native=True)
        assert isinstance(job._thinker, Thinker)
    finally:
        native.engine.cache_clear()
