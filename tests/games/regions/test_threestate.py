"""The seed's three-state rule: the search against a plain forward search over the puzzle
itself, and every offered start cleared by following the hints (R-REG-VAR-1, R-REG-HELP)."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.regions.rules import threestate as ts
from games.regions.rules.catalogue import CATALOGUE
from games.regions.rules.play import Puzzle, Setup, phase_search, start_phases

SMALL = [e for e in CATALOGUE if e.shadow.crossings <= 5]


def forward_distance(puzzle: Puzzle) -> int | None:
    """Fewest selections to the goal by breadth-first search over `Puzzle.act` itself."""
    start = Puzzle(puzzle.setup)
    seen = {start.aux: 0}
    queue = deque([(start.aux, [])])
    while queue:
        _aux, path = queue.popleft()
        for p in start.selectable:
            nxt = Puzzle(puzzle.setup, [*path, p])
            if nxt.clear:
                return len(path) + 1
            if nxt.aux not in seen:
                seen[nxt.aux] = len(path) + 1
                queue.append((nxt.aux, [*path, p]))
    return None


def test_a_region_cycles_a_b_a_c_under_the_alternating_rule() -> None:
    entry = next(e for e in CATALOGUE if e.name == "3_1")
    puzzle = Puzzle(Setup(entry.shadow.link, "three", ts.A, None, 1, 0))
    region = 0
    point = next(p for p in puzzle.selectable if region in puzzle.surface.touches[p])
    seen = [puzzle.cells[region]]
    for _ in range(8):
        if puzzle.clear:
            break
        puzzle.act(point)
        seen.append(puzzle.cells[region])
    letters = "".join("ABC"[c] for c in seen)
    assert letters in ("BACABACAB"[: len(letters)], "ABACABACA"[: len(letters)])


@pytest.mark.parametrize("name", ["3_1", "4_1"])
@pytest.mark.parametrize("goal", [ts.A, ts.B, ts.C])
def test_search_distances_match_a_forward_search(name: str, goal: int) -> None:
    entry = next(e for e in CATALOGUE if e.name == name)
    n = entry.shadow.crossings
    probe = Puzzle(Setup(entry.shadow.link, "three", goal, None, 1, 0))
    search = phase_search(probe).finish()
    solvable = 0
    for pattern in range(1, 3**n):
        puzzle = Puzzle(Setup(entry.shadow.link, "three", goal, None, pattern, 0))
        expected = forward_distance(puzzle)
        assert search.distance(puzzle.aux) == expected
        solvable += expected is not None
    assert solvable > 0


@pytest.mark.parametrize("name", [e.name for e in SMALL])
@pytest.mark.parametrize("goal", [ts.A, ts.B, ts.C])
def test_every_offered_start_is_cleared_by_following_the_hints(name: str, goal: int) -> None:
    entry = next(e for e in CATALOGUE if e.name == name)
    n = entry.shadow.crossings
    first = Puzzle(Setup(entry.shadow.link, "three", goal, None, 1, 0))
    search = phase_search(first).finish()
    offered = 0
    for pattern in range(1, 3**n):
        setup = Setup(entry.shadow.link, "three", goal, None, pattern, 0)
        if search.distance(start_phases(setup, n)) is None:
            continue
        offered += 1
        puzzle = Puzzle(setup)
        expected = search.distance(puzzle.aux)
        assert expected is not None
        while not puzzle.clear:
            hint = puzzle.hint(search)
            assert hint is not None
            puzzle.act(hint)
        assert puzzle.selections == expected
        assert all(c == goal for c in puzzle.cells)
    assert offered > 0
    if goal == ts.A:  # all-A is the A / not-A game: every start can be cleared
        assert offered == 3**n - 1


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([e.name for e in SMALL]), st.integers(0, 10**6), st.data())
def test_the_random_rule_is_cleared_by_following_its_hints(name: str, seed: int, data) -> None:
    entry = next(e for e in CATALOGUE if e.name == name)
    n = entry.shadow.crossings
    pattern = data.draw(st.integers(1, 3**n - 1))
    puzzle = Puzzle(Setup(entry.shadow.link, "three-random", ts.A, None, pattern, seed))
    for _ in range(3 * n + 3):
        if puzzle.clear:
            break
        hint = puzzle.hint()
        assert hint is not None
        puzzle.act(hint)
    assert puzzle.clear
    # The same seed gives the same outcomes when replayed.
    again = Puzzle(puzzle.setup, list(puzzle.actions))
    assert again.cells == puzzle.cells and again.aux == puzzle.aux


def test_the_coin_depends_on_seed_region_and_departure() -> None:
    values = {ts.coin(s, r, k) for s in range(4) for r in range(4) for k in range(4)}
    assert values == {ts.B, ts.C}
    assert ts.coin(3, 1, 2) == ts.coin(3, 1, 2)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=8), st.integers(0, 255))
def test_advance_and_retreat_are_inverse_field_counters(phases: list[int], mask: int) -> None:
    n = len(phases)
    low = sum(1 << (2 * r) for r in range(n) if mask >> r & 1)
    code = ts.pack(phases)
    up = ts.unpack(ts.advance(code, low), n)
    assert up == tuple((ph + (mask >> r & 1)) % 4 for r, ph in enumerate(phases))
    assert ts.retreat(ts.advance(code, low), low) == code


def test_undo_restores_the_state_and_counts() -> None:
    entry = next(e for e in CATALOGUE if e.name == "4_1")
    puzzle = Puzzle(Setup(entry.shadow.link, "three-random", ts.A, None, 5, 9))
    before = (puzzle.cells, puzzle.aux)
    p = puzzle.selectable[0]
    puzzle.act(p)
    puzzle.act("undo")
    assert (puzzle.cells, puzzle.aux) == before and puzzle.selections == 2 and puzzle.moves == []


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([e.name for e in SMALL]),
    st.sampled_from(["classic", "three", "three-random", "cyclic3"]),
    st.integers(0, 10**6),
    st.lists(st.one_of(st.integers(0, 9), st.just("undo")), max_size=30),
)
def test_undo_leaves_exactly_the_state_of_the_selections_in_force(name, variant, seed, acts):
    entry = next(e for e in CATALOGUE if e.name == name)
    k = 2 if variant == "classic" else 3
    pattern = 1 + seed % (k**entry.shadow.crossings - 1)
    puzzle = Puzzle(Setup(entry.shadow.link, variant, 0, None, pattern, seed))
    taken = 0
    for a in acts:
        if puzzle.check(a) is None:
            puzzle.act(a)
            taken += 1
    again = Puzzle(puzzle.setup, list(puzzle.moves))  # only the selections in force
    assert (again.cells, again.aux) == (puzzle.cells, puzzle.aux)
    assert puzzle.selections == taken
    clone = Puzzle.from_json(puzzle.to_json())
    assert (clone.cells, clone.aux, clone.selections) == (puzzle.cells, puzzle.aux, taken)
