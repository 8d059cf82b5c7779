"""The compiled accelerator of the Arimaa player (issue 36, phase 1) computes exactly what the
pure-Python engine, the reference, computes: the same children of `steps.expand` in the same
order (pushes, pulls, captures on traps, frozen pieces, pending pushes and pulls), the same
frozen pieces, Zobrist hash, evaluation, static tactics (capture threats, goal steps) and
exact goal search (steps and states expanded, with and without a budget), on random legal
positions (random games and sparse boards, at every point of a turn) and on the fixed
positions of test_arimaa_tactics. The Python result is always the oracle. Built here with the
system C compiler; skipped, with the reason, where there is none."""

from __future__ import annotations

import ctypes
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_brute import boards_of
from test_arimaa_tactics import CAPTURES, GOALS, TWO_TURN_GOALS

from firmware import native as machinery
from games.arimaa.ai import evaluate as ev
from games.arimaa.ai import levels, native
from games.arimaa.ai.goal import find_goal
from games.arimaa.ai.levels import LEVELS
from games.arimaa.ai.native import NativeArimaa, NativeSearcher
from games.arimaa.ai.search import Limits, Searcher, zobrist
from games.arimaa.ai.tactics import capture_threats, goal_steps
from games.arimaa.match import (
    NATIVE_SEARCH_UNIT_COST,
    ArimaaComputer,
    ArimaaRules,
    work_cap,
)
from games.arimaa.rules.randomplay import random_game, random_walk, sparse_boards
from games.arimaa.rules.steps import Boards, expand, frozen_mask, turn_results
from tests.match_contract import split_decision

#: (boards, side, steps_left, push_sq, push_kind, pull_sq, pull_kind): a point inside a turn
State = tuple[Boards, int, int, int, int, int, int]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> NativeArimaa:
    if machinery.find_compiler() is None:
        pytest.skip("no C compiler (cc): the accelerator cannot be built on this machine")
    path, message = native.LIBRARY.build(tmp_path_factory.mktemp("native"))
    assert path is not None, message
    return NativeArimaa(ctypes.CDLL(str(path)))


def _start(seed: int, sparse: bool) -> tuple[Boards, int] | None:
    """A turn start: a random game's, or a sparse board's after a few random turns."""
    rng = random.Random(seed)
    if sparse:
        walked = list(random_walk(sparse_boards(rng, rng.randint(3, 14)), rng.randrange(2), rng, 2))
        return walked[-1] if walked else None
    game = random_game(seed, rng.randint(0, 30))
    if game.result is not None:
        return None
    return game.position.boards, game.position.side


def _states(seed: int, sparse: bool) -> list[State]:
    """Every point of one random turn from a random start (pending pushes and pulls too)."""
    start = _start(seed, sparse)
    if start is None:
        return []
    rng = random.Random(seed + 1)
    boards, side = start
    state: State = (boards, side, 4, -1, 0, -1, 0)
    out = [state]
    for _ in range(4):
        children = expand(state[0], side, *state[2:])
        if not children:
            break
        c = rng.choice(children)
        state = (c[2], side, state[2] - 1, *c[3:7])
        out.append(state)
    return out


positions = st.tuples(st.integers(0, 10**6), st.booleans())


@given(positions)
@settings(max_examples=150, deadline=None)
def test_steps_frozen_pieces_and_hash_equal_the_python_ones(
    engine: NativeArimaa, pos: tuple[int, bool]
) -> None:
    for boards, side, *rest in _states(*pos):
        assert engine.expand(boards, side, *rest) == expand(boards, side, *rest)
        assert engine.frozen_mask(boards) == frozen_mask(boards)
        assert engine.zobrist(boards) == zobrist(boards)
        # the side not to move too: its steps are what a search's next turn generates
        assert engine.expand(boards, 1 - side, 4) == expand(boards, 1 - side, 4)


@given(positions)
@settings(max_examples=150, deadline=None)
def test_the_evaluation_and_tactics_equal_the_python_ones(
    engine: NativeArimaa, pos: tuple[int, bool]
) -> None:
    for boards, side, left, *_ in _states(*pos):
        assert engine.evaluate(boards) == ev.evaluate(boards)
        for s in (side, 1 - side):
            for steps in range(5):
                assert engine.capture_threats(boards, s, steps) == capture_threats(boards, s, steps)
                assert engine.best_capture(boards, s, steps) == ev.best_capture(boards, s, steps)
            for limit in range(9):
                assert engine.goal_steps(boards, s, limit) == goal_steps(boards, s, limit)
            for floor in (0, 280):
                want = ev.tactics(boards, s, left, floor)
                assert engine.tactics(boards, s, left, floor) == want
        for index in range(12):
            assert engine.piece_value(boards, index) == ev.piece_value(boards, index)


@given(positions, st.sampled_from([0, 1, 5, 60, 400]))
@settings(max_examples=150, deadline=None)
def test_the_goal_search_equals_the_python_one(
    engine: NativeArimaa, pos: tuple[int, bool], budget: int
) -> None:
    for boards, side, *rest in _states(*pos):
        for s, state in ((side, rest), (1 - side, [4, -1, 0, -1, 0])):
            want_work, got_work = [0], [0]
            want = find_goal(boards, s, *state, budget=budget, work=want_work)
            got = engine.find_goal(boards, s, *state, budget=budget, work=got_work)
            assert (got, got_work) == (want, want_work)


def test_goal_races_near_the_goal_equal_the_python_ones(engine: NativeArimaa) -> None:
    """Positions with rabbits a few steps from goal (where the goal search does real work),
    exact and with the in-tree budget: the same steps and states expanded."""
    rng = random.Random(36)
    searched = 0
    for _ in range(200):
        boards = list(sparse_boards(rng, rng.randint(4, 12)))
        side = rng.randrange(2)
        row = rng.randint(3, 6) if side == 0 else rng.randint(1, 4)
        sq = 8 * row + rng.randrange(8)
        if any(b >> sq & 1 for b in boards):
            continue
        boards[6 * side] |= 1 << sq
        for budget in (0, 60):
            want_work, got_work = [0], [0]
            want = find_goal(tuple(boards), side, budget=budget, work=want_work)
            got = engine.find_goal(tuple(boards), side, budget=budget, work=got_work)
            assert (got, got_work) == (want, want_work)
            searched += want_work[0] > 1
    assert searched > 50  # the searches did look past the first state


@pytest.mark.parametrize(("gold", "silver", "side", "expected"), CAPTURES)
def test_the_fixed_capture_positions_equal_the_python_ones(
    engine: NativeArimaa, gold: str, silver: str, side: int, expected: dict[int, int]
) -> None:
    boards = boards_of(f"{gold} {silver}")
    assert engine.capture_threats(boards, side) == capture_threats(boards, side)
    assert engine.tactics(boards, side, 4) == ev.tactics(boards, side, 4)


@pytest.mark.parametrize(("gold", "silver", "side", "expected"), GOALS + TWO_TURN_GOALS)
def test_the_fixed_goal_positions_equal_the_python_ones(
    engine: NativeArimaa, gold: str, silver: str, side: int, expected: int | None
) -> None:
    boards = boards_of(f"{gold} {silver}")
    for steps in range(1, 5):
        want_work, got_work = [0], [0]
        want = find_goal(boards, side, steps_left=steps, work=want_work)
        assert engine.find_goal(boards, side, steps_left=steps, work=got_work) == want
        assert got_work == want_work
    assert engine.goal_steps(boards, side, 8) == goal_steps(boards, side, 8)


def test_a_goal_search_too_big_for_the_table_is_answered_by_python(
    engine: NativeArimaa, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The C goal search keeps its visited states in a fixed table; when it fills up, the
    wrapper asks the Python search, so the answer is still the reference's."""
    monkeypatch.setattr(native, "GOAL_TABLE", 4)  # 3 states fit
    boards = boards_of("Rc7 Db7 Eb8 cc8 rd7 rh1")  # the elephant pulls the cat off c8
    want_work, got_work = [0], [0]
    want = find_goal(boards, 0, work=want_work)
    assert want is not None and want_work[0] > 3
    assert engine.find_goal(boards, 0, work=got_work) == want and got_work == want_work


def test_build_reuses_a_built_library_and_says_why_without_a_compiler(
    tmp_path: Path, engine: NativeArimaa, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, message = native.LIBRARY.build(tmp_path)
    assert path is not None and path.exists() and "built" in message
    assert path.name == f"arimaa_search-{native.LIBRARY.digest()}.so"
    again, message = native.LIBRARY.build(tmp_path)
    assert again == path and "up to date" in message
    monkeypatch.setenv("CC", "no-such-compiler-here")
    missing, message = native.LIBRARY.build(tmp_path / "other")
    assert missing is None and "no C compiler" in message


def test_without_the_library_there_is_no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TWINFOLD_NATIVE_DIR", "/nonexistent/twinfold-native")
    native.engine.cache_clear()
    try:
        assert native.engine() is None
    finally:
        native.engine.cache_clear()


def _searches_equal(engine: NativeArimaa, boards: Boards, side: int, **kw: object) -> Searcher:
    """Run both searches; assert every result a caller reads is the same."""
    want = Searcher(boards, side, **kw)  # type: ignore[arg-type]
    want.run()
    got = engine.search(boards, side, **kw)  # type: ignore[arg-type]
    assert got.iterations == want.iterations
    assert (got.best_steps, got.score, got.depth_done) == (
        want.best_steps,
        want.score,
        want.depth_done,
    )
    assert (got.nodes, got.work, got.capped) == (want.nodes, want.work, want.capped)
    return want


@given(
    positions,
    st.integers(1, 5),
    st.integers(0, 3_000),
    st.sampled_from([(0, 1), (0, 3), (1, 3), (2, 3)]),
    st.sampled_from([0, 0, 50, 400]),
)
@settings(max_examples=60, deadline=None)
def test_a_whole_search_equals_the_python_one(
    engine: NativeArimaa,
    pos: tuple[int, bool],
    depth: int,
    nodes: int,
    part: tuple[int, int],
    work_cap: int,
) -> None:
    start = _start(*pos)
    if start is None:
        return
    boards, side = start
    limits = Limits(depth=depth, nodes=nodes)
    _searches_equal(engine, boards, side, limits=limits, part=part, work_cap=work_cap)


@given(st.integers(0, 10**6), st.sampled_from([5, 6]), st.sampled_from([0, 300, 2_000]))
@settings(max_examples=12, deadline=None)
def test_a_whole_turn_search_equals_the_python_one(
    engine: NativeArimaa, seed: int, depth: int, nodes: int
) -> None:
    """`full_turn` (levels 3-5) on sparse positions (a whole own turn in Python stays
    short there), with the repetition rule's forbidden results."""
    start = _start(seed, True)
    if start is None:
        return
    boards, side = start
    results = sorted(turn_results(boards, side))
    forbidden = frozenset(random.Random(seed).sample(results, min(3, len(results))))
    limits = Limits(depth=depth, nodes=nodes, full_turn=True)
    _searches_equal(engine, boards, side, limits=limits, forbidden=forbidden)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_levels_decide_the_same_on_game_positions(engine: NativeArimaa, level: int) -> None:
    for seed in range(2):
        start = _start(seed * 7 + level, False)
        if start is None:
            continue
        _searches_equal(engine, *start, limits=LEVELS[level])


def test_a_search_too_big_for_the_tables_is_made_by_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The root turn's visited sets have fixed slots in C; a search that fills them stops
    with an error and the Python searcher makes the decision: the same answer. (Built with
    64 slots here, the rest of the library as shipped.)"""
    cc = machinery.find_compiler()
    if cc is None:
        pytest.skip("no C compiler (cc): the accelerator cannot be built on this machine")
    small = tmp_path / "small.so"
    sources = [str(s) for s in native.LIBRARY.sources]
    build = [cc, *machinery.CFLAGS, "-DROOT_SLOTS=64", *sources, "-o", str(small)]
    subprocess.run(build, check=True)
    engine = NativeArimaa(ctypes.CDLL(str(small)))
    asked: list[Searcher] = []
    real_of = NativeSearcher.of.__func__  # type: ignore[attr-defined]

    def of(cls: type[NativeSearcher], searcher: Searcher) -> NativeSearcher:
        asked.append(searcher)
        return real_of(cls, searcher)  # type: ignore[no-any-return]

    monkeypatch.setattr(NativeSearcher, "of", classmethod(of))
    start = _start(1, False)
    assert start is not None
    _searches_equal(engine, *start, limits=Limits(depth=4, nodes=2_000))
    assert len(asked) == 1


def _game_rules(seed: int) -> ArimaaRules:
    rules = ArimaaRules.new(None)
    rules.game = random_game(seed, 8)
    assert rules.game.result is None
    return rules


def _turn(thinker: Any) -> tuple[object, int]:
    action = None
    while action is None:
        action = thinker.think(960)
    return action, thinker.units


@pytest.mark.parametrize(("level", "seed"), [(2, 3), (3, 5), (5, 8)])
def test_a_native_profile_plays_the_same_turn_and_units_with_and_without_the_library(
    engine: NativeArimaa, monkeypatch: pytest.MonkeyPatch, level: int, seed: int
) -> None:
    """On a `native` profile (pi-zero-2w's core: 960 units a tick) the work is counted at
    the compiled cost whether or not the library runs it: the same turn and units (so the
    same landing tick), and a larger work cap than the pure-Python profile's."""
    rules = _game_rules(seed)
    seat = rules.to_move()
    outcome = []
    for eng in (engine, None):
        monkeypatch.setattr(levels, "native_engine", lambda eng=eng: eng)
        thinker = ArimaaComputer(level, 1, core_budget=960, native=True).start(rules, seat)
        kind = NativeSearcher if eng is not None else Searcher
        assert isinstance(thinker.searcher, kind)  # type: ignore[union-attr]
        outcome.append(_turn(thinker))
    assert outcome[0] == outcome[1]
    assert rules.check(seat, outcome[0][0]) is None  # type: ignore[arg-type]
    native_cap = ArimaaComputer(level, 1, core_budget=960, native=True).work_cap
    assert native_cap == work_cap(level, 960, NATIVE_SEARCH_UNIT_COST)
    assert native_cap > ArimaaComputer(level, 1, core_budget=960).work_cap


def test_a_split_native_decision_is_the_same_with_and_without_the_library(
    engine: NativeArimaa, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = _game_rules(13)
    seat = rules.to_move()
    computer = ArimaaComputer(3, 1, core_budget=960, native=True)
    outcome = []
    for eng in (engine, None):
        monkeypatch.setattr(levels, "native_engine", lambda eng=eng: eng)
        outcome.append(split_decision(computer, rules, seat))
    assert outcome[0] == outcome[1]


def test_a_profile_that_is_not_native_never_uses_the_library(
    engine: NativeArimaa, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Desktop profiles stay pure Python (their movies' digests stay as recorded)."""
    monkeypatch.setattr(levels, "native_engine", lambda: engine)
    rules = _game_rules(3)
    thinker = ArimaaComputer(3, 1, core_budget=12_000).start(rules, rules.to_move())
    assert isinstance(thinker.searcher, Searcher)  # type: ignore[union-attr]


def test_the_search_constants_of_the_c_file_are_the_python_ones() -> None:
    """Constants whose difference the random searches would rarely show (the tables are
    cleared only past TT_LIMIT entries) are read from native_search.c's defines."""
    import re

    from games.arimaa.ai import search

    text = (Path(native.__file__).parent / "native_search.c").read_text()
    found = re.finditer(r"^#define (\w+) ([^/\n]+)", text, re.MULTILINE)
    defines = {m[1]: m[2].strip() for m in found}
    assert int(defines["TT_LIMIT"]) == search.TT_LIMIT
    assert int(defines["GOAL_BUDGET"]) == search.GOAL_BUDGET
    assert int(defines["GOAL_STATES_PER_UNIT"]) == search.GOAL_STATES_PER_UNIT
    assert int(defines["WIN"]) == search.WIN
    assert defines["INF"] == "(10 * WIN)" and search.INF == 10 * search.WIN
    assert int(defines["GOAL_THREATENED"]) == ev.GOAL_THREATENED
