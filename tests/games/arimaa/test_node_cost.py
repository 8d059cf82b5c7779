"""Cheaper Arimaa nodes and levels bounded by the unit's speed (issue 36, items 2 and 4).

The unrolled evaluation equals the plain one on any position, so the searches are unchanged
(the fingerprint below was printed by the code before it); a work cap bounds a search's work
whole own turn included, and a capped search still plays a legal turn, the same every time.
"""

from __future__ import annotations

import hashlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.arimaa.ai.evaluate import evaluate, reference_evaluate
from games.arimaa.ai.levels import LEVELS, searcher_for
from games.arimaa.ai.search import _result
from games.arimaa.match import SEARCH_UNIT_COST, TURN_SECONDS, ArimaaComputer, work_cap
from games.arimaa.rules.randomplay import random_game, sparse_boards


@given(st.integers(0, 10**6), st.integers(0, 40))
@settings(max_examples=20, deadline=None)
def test_evaluation_equals_the_plain_version_in_random_games(seed: int, turns: int) -> None:
    boards = random_game(seed, turns).position.boards
    assert evaluate(boards) == reference_evaluate(boards)


@given(st.integers(0, 10**6), st.integers(4, 20))
@settings(max_examples=150, deadline=None)
def test_evaluation_equals_the_plain_version_on_sparse_boards(seed: int, pieces: int) -> None:
    boards = sparse_boards(random.Random(seed), pieces)
    assert evaluate(boards) == reference_evaluate(boards)


def test_searches_are_unchanged_by_the_cheaper_nodes() -> None:
    """Level 2 on three random-game positions: the same turns, scores, nodes and work as
    the code before issue 36's node work (main at 71783a6 printed this fingerprint)."""
    digest = hashlib.sha256()
    for seed in (3, 8, 21):
        s = searcher_for(random_game(seed, 10), 2)
        steps = s.run()
        digest.update(f"{steps}:{s.score}:{s.nodes}:{s.work};".encode())
    assert digest.hexdigest()[:16] == "ae8dc81c18acc11a"


def test_the_work_cap_follows_the_cores_speed_and_is_absent_without_one() -> None:
    assert ArimaaComputer(5, 0).work_cap == 0
    pi = ArimaaComputer(5, 0, core_budget=960)  # pi-zero-2w: 12 000 x 0.08 units a tick
    assert pi.work_cap == int(TURN_SECONDS[5] * 960 * 60 / SEARCH_UNIT_COST)
    assert work_cap(3, 12_000) > work_cap(3, 960) > 0


def test_a_capped_search_stops_at_its_cap_with_a_legal_turn_every_time() -> None:
    game = random_game(5, 12)
    cap = 1_500
    runs = []
    for _ in range(2):
        s = searcher_for(game, 5, work_cap=cap)
        steps = s.run(slice_nodes=700)
        assert s.capped and s.work <= cap + 200  # a leaf's goal check may overrun a little
        runs.append((steps, s.score, s.nodes, s.iterations))
    assert runs[0] == runs[1]
    pos = game.position
    assert _result(pos.boards, pos.side, runs[0][0]) in game.legal_turns()
    uncapped = searcher_for(game, 5)
    assert LEVELS[5].full_turn and not uncapped.capped
