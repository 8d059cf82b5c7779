"""Solver and puzzles: every pattern solvable and replayed, shortest is shortest, Z/k variant."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.regions.rules.catalogue import CATALOGUE
from games.regions.rules.generate import random_shadow
from games.regions.rules.puzzle import Board, Game, PuzzleError, Rules
from games.regions.rules.solver import Unsolvable
from games.regions.rules.surface import Surface

SMALL = [e for e in CATALOGUE if e.shadow.crossings <= 10]


def _replay(board: Board, cells: tuple[int, ...], moves: list[int]) -> tuple[int, ...]:
    touches = board.surface.touches
    k = board.rules.states
    out = list(cells)
    for p in moves:
        assert p in board.selectable
        for r in touches[p]:
            out[r] = (out[r] + 1) % k
    return tuple(out)


@pytest.mark.parametrize("name", [e.name for e in SMALL])
def test_every_pattern_is_solved_even_with_one_point_unselectable(name):
    surface = Surface(next(e for e in SMALL if e.name == name).shadow)
    n = surface.region_count
    blocks = [None, *range(surface.point_count)]
    for blocked in blocks:
        board = Board(surface, Rules(blocked=blocked))
        assert board.pattern_count == 2**n - 1
        for number in range(1, 2**n):
            cells = board.pattern(number)
            assert any(cells)  # at least one white region
            moves = board.shortest_solution(cells)
            assert blocked not in moves
            assert _replay(board, cells, moves) == (0,) * n


@pytest.mark.parametrize("name", [e.name for e in SMALL if e.shadow.crossings <= 8])
def test_shortest_solutions_are_shortest_by_brute_force(name):
    surface = Surface(next(e for e in SMALL if e.name == name).shadow)
    board = Board(surface)
    pts = board.selectable
    best: dict[int, int] = {}
    for size in range(len(pts) + 1):
        for subset in combinations(pts, size):
            mask = 0
            for p in subset:
                for r in surface.touches[p]:
                    mask ^= 1 << r
            best.setdefault(mask, size)
    n = surface.region_count
    assert len(best) == 2**n  # every pattern reachable
    for number in range(1, 2**n):
        cells = board.pattern(number)
        assert len(board.shortest_solution(cells)) == best[number]


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 15), st.integers(0, 2**32 - 1), st.data())
def test_random_surfaces_solve_random_patterns(n, seed, data):
    surface = Surface(random_shadow(n, random.Random(seed)))
    board = Board(surface)
    number = data.draw(st.integers(1, board.pattern_count))
    cells = board.pattern(number)
    moves = board.shortest_solution(cells)
    assert _replay(board, cells, moves) == (0,) * n
    game = Game(board, number)
    while not game.clear:
        hint = game.hint()
        assert hint is not None
        game.select(hint)
    assert len(game.moves) == len(moves)


@pytest.mark.parametrize("states", [3, 4, 5])
@pytest.mark.parametrize("name", ["3_1", "5_2", "3_1_curl", "8_19"])
def test_multi_state_variant_solves_to_the_chosen_goal(name, states):
    surface = Surface(next(e for e in CATALOGUE if e.name == name).shadow)
    rng = random.Random(states)
    for goal in range(states):
        board = Board(surface, Rules(states=states, goal=goal))
        assert board.pattern_count == states**surface.region_count - 1
        for _ in range(25):
            number = rng.randrange(1, board.pattern_count + 1)
            cells = board.pattern(number)
            assert cells != (goal,) * surface.region_count
            moves = board.shortest_solution(cells)
            assert _replay(board, cells, moves) == (goal,) * surface.region_count


def test_multi_state_shortest_is_shortest_on_the_trefoil():
    surface = Surface(next(e for e in CATALOGUE if e.name == "3_1").shadow)
    board = Board(surface, Rules(states=3))
    from itertools import product

    best: dict[tuple[int, ...], int] = {}
    for taps in product(range(3), repeat=surface.point_count):
        cells = [0, 0, 0]
        for p, t in enumerate(taps):
            for r in surface.touches[p]:
                cells[r] = (cells[r] + t) % 3
        key = tuple((-c) % 3 for c in cells)  # start cells that these taps clear
        best[key] = min(best.get(key, 99), sum(taps))
    for number in range(1, board.pattern_count + 1):
        cells = board.pattern(number)
        assert len(board.shortest_solution(cells)) == best[cells]


def test_game_rules_and_serialisation():
    surface = Surface(next(e for e in CATALOGUE if e.name == "4_1").shadow)
    board = Board(surface, Rules(blocked=2))
    game = Game(board, 5)
    with pytest.raises(PuzzleError):
        game.select(2)  # the unselectable point
    with pytest.raises(PuzzleError):
        board.pattern(0)
    with pytest.raises(PuzzleError):
        board.pattern(2**4)
    game.select(0)
    saved = game.to_json()
    again = Game.from_json(saved)
    assert again.cells == game.cells and again.moves == game.moves
    for bad in (None, {}, {**saved, "moves": ["x"]}, {**saved, "pattern": 0}):
        with pytest.raises(ValueError):
            Game.from_json(bad)
    with pytest.raises(PuzzleError):
        Rules(states=9).check(surface)


def test_clear_needs_a_selection_and_stops_play():
    surface = Surface(next(e for e in CATALOGUE if e.name == "3_1").shadow)
    board = Board(surface)
    number = 1
    game = Game(board, number)
    for p in board.shortest_solution(game.cells):
        game.select(p)
    assert game.clear and game.hint() is None
    with pytest.raises(PuzzleError):
        game.select(0)


def test_unsolvable_boards_are_refused():
    surface = Surface(next(e for e in CATALOGUE if e.name == "3_1").shadow)
    # with every point but one blocked the puzzle cannot be solvable: simulate by a board
    # whose curl points are hidden on a surface where that leaves too few points
    board = Board(surface)
    assert board.solves_everything
    with pytest.raises(Unsolvable):
        board.gf2.shortest(1 << 5)  # a region that does not exist


@pytest.mark.parametrize("name", ["3_1_curl", "4_1_curl", "6_1_curl"])
def test_hidden_curl_points_are_not_selectable_and_every_pattern_still_clears(name):
    surface = Surface(next(e for e in CATALOGUE if e.name == name).shadow)
    board = Board(surface, Rules(hide_curls=True))
    assert surface.hidden_points and not set(board.selectable) & surface.hidden_points
    for number in range(1, board.pattern_count + 1):
        cells = board.pattern(number)
        assert _replay(board, cells, board.shortest_solution(cells)) == (0,) * len(cells)
